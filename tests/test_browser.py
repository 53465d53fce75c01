"""A real browser (Playwright driving Debian's Chromium): a table screen and four phones play a whole leg
and the end of a race by tapping the pages, with manual dice. Screenshots go to build/screenshots/."""

import json
import shutil
from pathlib import Path

import pytest

from companion.gamelog import parse_log, summary
from tests.test_crash import free_port, request, start_server

playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (make test installs it)")

SHOTS = Path(__file__).resolve().parents[1] / "build" / "screenshots"
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
SETUP = {"track": {"1": ["blue"], "2": ["green"], "3": ["yellow"], "12": ["red", "purple"],
                   "14": ["black"], "16": ["white"]}}
# Leg 1: a bet, a tile, a finish card, five dice. Leg 2: a bet, a finish card, and purple crosses the line.
SCRIPT = [
    ("Ann", "leg_bet", {"camel": "red"}),
    ("Bob", "spectator", {"space": 9, "side": "cheer"}),
    ("Cy", "finish_bet", {"pile": "winner", "camel": "purple"}),
    ("Dee", "pyramid", {"die": "red", "value": 2}),
    ("Ann", "pyramid", {"die": "purple", "value": 1}),
    ("Bob", "pyramid", {"die": "grey", "value": 1, "crazy": "black"}),
    ("Cy", "pyramid", {"die": "blue", "value": 3}),
    ("Dee", "pyramid", {"die": "green", "value": 3}),
    ("Ann", "leg_bet", {"camel": "purple"}),
    ("Bob", "finish_bet", {"pile": "loser", "camel": "yellow"}),
    ("Cy", "pyramid", {"die": "purple", "value": 2}),
]


def tap(page, kind, args):
    """Do one action the way a player would on the phone page."""
    expect = playwright_api.expect
    expect(page.locator("#turn")).to_have_class("turn mine", timeout=5000)
    if kind == "leg_bet":
        page.click(f"button.bet[data-camel={args['camel']}]")
    elif kind == "spectator":
        page.select_option("#tile-space", str(args["space"]))
        page.select_option("#tile-side", args["side"])
        page.click("#place-tile")
    elif kind == "finish_bet":
        page.select_option("#card-camel", args["camel"])
        page.once("dialog", lambda dialog: dialog.accept())
        page.click(f"#card-{args['pile']}")
    elif kind == "pyramid":
        page.select_option("#die", args["die"])
        page.select_option("#value", str(args["value"]))
        if "crazy" in args:
            page.select_option("#crazy", args["crazy"])
        page.click("#record-roll")


def test_four_phones_and_a_table_play_a_leg_and_the_end_of_a_race(tmp_path):
    SHOTS.mkdir(parents=True, exist_ok=True)
    port = free_port()
    server = start_server(port, tmp_path)
    try:
        _, game = request(port, "POST", "/api/games",
                          {"edition": "2018", "players": PLAYERS, "dice": "manual", "setup": SETUP})
        base = f"http://127.0.0.1:{port}"
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=[
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync"])
            errors = []
            table = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
            table.on("pageerror", lambda error: errors.append(f"table: {error}"))
            table.goto(f"{base}/table/{game['game_id']}#{game['table_token']}")
            phones = {}
            for seat in game["seats"]:
                context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
                page = context.new_page()
                page.on("pageerror", lambda error, who=seat["player"]: errors.append(f"{who}: {error}"))
                page.goto(seat["join_url"].replace(seat["join_url"].split("/join/")[0], base))
                page.wait_for_url(f"**/play/{game['game_id']}")
                phones[seat["player"]] = page
            expect = playwright_api.expect
            expect(phones["Ann"].locator("#turn")).to_have_class("turn mine")
            expect(table.locator("#turn")).to_contain_text("Ann")

            for index, (player, kind, args) in enumerate(SCRIPT, start=1):
                tap(phones[player], kind, args)
                # Every page follows within a moment (live updates).
                if index < len(SCRIPT):
                    nxt = SCRIPT[index][0]
                    expect(phones[nxt].locator("#turn")).to_have_class("turn mine", timeout=5000)
                    expect(table.locator("#turn")).to_contain_text(nxt, timeout=5000)
                if index == 4:
                    expect(phones["Dee"].locator("#instruction")).to_contain_text("Move red 2")
                if index == 8:  # the leg is over: the breakdown is on the table screen
                    expect(table.locator("#scoring")).to_contain_text("Leg 1 scoring")
                    table.screenshot(path=str(SHOTS / "table-leg-1-scored.png"))
                    phones["Ann"].screenshot(path=str(SHOTS / "phone-ann-leg-2.png"), full_page=True)

            expect(table.locator("#winners")).to_be_visible(timeout=5000)
            table.wait_for_timeout(700 * 4)  # let the card-by-card reveal finish
            table.screenshot(path=str(SHOTS / "table-race-over.png"))
            phones["Cy"].screenshot(path=str(SHOTS / "phone-cy-race-over.png"), full_page=True)

            # What the pages show is what the rules give.
            log = {"format": "camelup-game-log/1", "edition": "2018", "players": PLAYERS, "setup": SETUP,
                   "actions": [{"player": p, "type": k, **a} for p, k, a in SCRIPT]}
            expected = summary(parse_log(log).replay())
            money = {row.get_attribute("data-player"): int(row.locator("td.num").inner_text())
                     for row in table.locator("#money tr").all()}
            assert money == expected["money"]
            assert expected["winners"] == ["Cy"]
            expect(table.locator("#winners")).to_contain_text("Cy")
            expect(phones["Cy"].locator("#money")).to_have_text(f"{expected['money']['Cy']} EP")
            browser.close()
        assert errors == []
        _, exported = request(port, "GET", f"/api/games/{game['game_id']}/log", token=game["host_token"])
        assert json.dumps(exported["actions"]) == json.dumps(log["actions"])
    finally:
        server.kill()
        server.wait()
