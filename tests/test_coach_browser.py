"""In a real browser (Debian's Chromium), a phone at the end of a race links to the coach page, which
shows every player's cost and most expensive decisions. A screenshot goes to build/screenshots/."""

import shutil
from pathlib import Path

import pytest

from companion.sim.simulate import plan, play_planned
from tests.test_crash import free_port, request, start_server

playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (make test installs it)")
SHOTS = Path(__file__).resolve().parents[1] / "build" / "screenshots"


def test_a_phone_opens_the_coach_after_the_race(tmp_path):
    SHOTS.mkdir(parents=True, exist_ok=True)
    log = play_planned("2014", 4, plan(1, ["greedy", "random"], False)[0], keep_log=True).log
    port = free_port()
    server = start_server(port, tmp_path)
    try:
        _, game = request(port, "POST", "/api/import", log)
        base = f"http://127.0.0.1:{port}"
        seat = next(s for s in game["seats"] if s["player"] == "random")
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            errors = []
            page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(seat["join_url"].replace(seat["join_url"].split("/join/")[0], base))
            page.wait_for_url(f"**/play/{game['game_id']}")
            expect = playwright_api.expect
            link = page.locator(f"a[href='/coach/{game['game_id']}']")
            expect(link).to_be_visible(timeout=10000)
            link.click()
            expect(page.locator("#coach-players article")).to_have_count(2, timeout=30000)
            expect(page.locator("#coach-players")).to_contain_text("Total cost")
            expect(page.locator("#coach-status")).to_contain_text("race rollouts")
            page.screenshot(path=str(SHOTS / "phone-coach.png"), full_page=True)
            browser.close()
        assert errors == []
    finally:
        server.terminate()
        server.wait(timeout=10)
