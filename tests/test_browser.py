"""A real browser (Playwright driving Debian's Chromium): a table screen and four phones play a whole leg
and the end of a race by tapping the pages, with manual dice. The table screen must hold everything on one
screen at 1280×800 and 1920×1080 with no text under 24 px at 1080p; the move banner is current only until
the next action; the reveal names the winner only after the last card. Screenshots go to build/screenshots/."""

import json

import pytest

from companion.gamelog import parse_log, summary
from tests.browser_kit import SHOTS, new_page, phone, said
from tests.test_crash import request

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

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

# In the page: every visible piece of text and the size it is drawn at on screen (SVG text scaled by the
# board's transform), and whether the page scrolls.
MEASURE = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const parent = node.parentElement;
    if (!node.textContent.trim() || !parent || parent.closest('[hidden], .sr-only, title, script')) continue;
    const box = parent.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    let size = parseFloat(getComputedStyle(parent).fontSize);
    if (parent instanceof SVGElement) size *= parent.getScreenCTM().a;
    out.push({ text: node.textContent.trim().slice(0, 40), size: Math.round(size * 10) / 10,
               bottom: box.bottom, right: box.right });
  }
  return { texts: out, scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
           view: [innerWidth, innerHeight] };
}"""


# Resolves when every animation on the page has ended (or was cancelled); fails after 10 s. (evaluate, not
# wait_for_function: the page's Content-Security-Policy forbids the eval that polling would need.)
ANIMATIONS_DONE = """() => Promise.race([
  Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null))),
  new Promise((_, fail) => setTimeout(() => fail(new Error("animations still running after 10 s")), 10000)),
])"""


def tap(page, kind, args):
    """Do one action the way a player would on the phone page."""
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


def check_fits(page, min_text_px=None):
    """Everything on one screen: no scrolling, nothing drawn past the window; text no smaller than asked."""
    seen = page.evaluate(MEASURE)
    width, height = seen["view"]
    assert seen["scroll"] == [width, height], f"the table screen scrolls: {seen['scroll']} in {seen['view']}"
    outside = [t for t in seen["texts"] if t["bottom"] > height + 1 or t["right"] > width + 1]
    assert not outside, f"text past the edge of the screen: {outside[:5]}"
    if min_text_px:
        small = [t for t in seen["texts"] if t["size"] < min_text_px - 0.05]
        assert not small, f"text under {min_text_px} px: {small[:8]}"
    return seen


def test_four_phones_and_a_table_play_a_leg_and_the_end_of_a_race(server, browser):
    game = server.create(PLAYERS, SETUP)
    errors = []
    table = new_page(browser, errors, "table", viewport={"width": 1280, "height": 800})
    # What the reveal shows, in the order it shows it: a card turned, or the winners named.
    table.add_init_script("""window.reveal = []; new MutationObserver((changes) => changes.forEach((change) =>
      change.addedNodes.forEach((node) => {
        if (node.matches && node.matches('.card-turned')) window.reveal.push('card');
        if (node.matches && (node.matches('#winners') || node.querySelector('#winners'))) window.reveal.push('winners');
      }))).observe(document, { childList: true, subtree: true });""")
    table.goto(server.table_url(game))
    big = new_page(browser, errors, "tv", viewport={"width": 1920, "height": 1080})
    calm = new_page(browser, errors, "calm", viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    for page in (big, calm):  # count the animations the page starts
        page.add_init_script("""window.animations = 0; const animate = Element.prototype.animate;
          Element.prototype.animate = function (...args) {
            window.animations += 1; return animate.apply(this, args); };""")
        page.goto(server.table_url(game))
    phones = {player: phone(browser, server, game, player, errors) for player in PLAYERS}
    expect(phones["Ann"].locator("#turn")).to_have_class("turn mine")
    expect(table.locator("#turn")).to_contain_text("Ann")
    # Before the first action every page says how to set up the camels, in words and as a picture.
    expect(table.locator("#banner")).to_contain_text("space 12: red, then purple on top")
    expect(phones["Bob"].locator("#instruction")).to_contain_text("Set up the camels")
    expect(big.locator("#board g.camel")).to_have_count(7)
    check_fits(big, min_text_px=24)
    big.screenshot(path=str(SHOTS / "table-1920x1080-setup.png"))
    # The odds switch (off by default): each colour's chance to lead the leg under its ticket stack.
    expect(table.locator(".stack-box .odds")).to_have_count(0)
    table.check("#odds-toggle")
    expect(table.locator(".stack-box .odds")).to_have_count(5)
    expect(table.locator(".stack-box").first).to_contain_text("% first")
    table.uncheck("#odds-toggle")

    for index, (player, kind, args) in enumerate(SCRIPT, start=1):
        tap(phones[player], kind, args)
        if index < len(SCRIPT):
            nxt = SCRIPT[index][0]
            expect(phones[nxt].locator("#turn")).to_have_class("turn mine", timeout=5000)
            expect(table.locator("#turn")).to_contain_text(nxt, timeout=5000)
        if index == 4:
            # The move: one big banner on the table, in sight at 1280×800, and an order on the phones.
            banner = table.locator("#instruction")
            expect(banner).to_have_text("Move red 2 (carrying purple) → space 14, on top of black")
            box = banner.bounding_box()
            assert box["y"] + box["height"] <= 800
            expect(phones["Ann"].locator("#instruction")).to_have_class("instruction move")
            expect(big.locator("#instruction")).to_have_text("Move red 2 (carrying purple) → space 14, on top of black")
            check_fits(table)
            check_fits(big, min_text_px=24)
            # The draw moves the camels along the track, except for a reader who asked for less motion.
            expect(calm.locator("#instruction")).to_contain_text("Move red 2")
            assert big.evaluate("window.animations") == 2 and calm.evaluate("window.animations") == 0
            for page in (table, big):  # the pictures show where the camels end, not a frame of the slide
                page.evaluate(ANIMATIONS_DONE)
            table.screenshot(path=str(SHOTS / "table-1280x800.png"))
            big.screenshot(path=str(SHOTS / "table-1920x1080.png"))
            phones["Ann"].screenshot(path=str(SHOTS / "phone-390x844.png"))
        if index == 5:
            # The next action replaces it; the old move is no longer an order anywhere.
            expect(phones["Bob"].locator("#instruction")).to_contain_text("Move purple 1")
            tap_banner = phones["Dee"].locator("#instruction")
            expect(tap_banner).to_contain_text("Move purple 1")
            expect(tap_banner).not_to_contain_text("red 2")
        if index == 9:
            # A leg bet after a draw: the draw is now the "last move", muted, on the phones; no banner order.
            expect(phones["Cy"].locator("#instruction")).to_have_class("instruction past")
            expect(phones["Cy"].locator("#instruction")).to_contain_text("Last move: Move green 3")
            expect(table.locator("#banner")).to_be_hidden()
            expect(table.locator("#ticker li").first).to_have_text(said("Ann took purple 5"))
        if index == 8:  # the leg is over: the ranking on the banner, each player's gain beside their money
            expect(table.locator("#banner")).to_contain_text("Leg 1 is over")
            expect(table.locator('#players li[data-player="Ann"] .leg-delta')).to_be_visible()
            expect(phones["Ann"].locator("#scoring")).to_contain_text("Leg 1 scoring")
            check_fits(table)
            table.screenshot(path=str(SHOTS / "table-leg-1-scored.png"))
            phones["Ann"].screenshot(path=str(SHOTS / "phone-ann-leg-2.png"), full_page=True)

    # The reveal: cards turn one by one with the money running; the winner only at the end.
    expect(table.locator("#reveal")).to_be_visible(timeout=5000)
    expect(table.locator("#reveal-cards li").first).to_be_visible(timeout=5000)
    table.screenshot(path=str(SHOTS / "table-reveal.png"))
    expect(table.locator("#winners")).to_be_visible(timeout=10000)
    assert table.evaluate("window.reveal") == ["card", "card", "winners"]  # the winner named after the last card
    expect(table.locator(".podium .step")).to_have_count(3)
    check_fits(table)
    table.screenshot(path=str(SHOTS / "table-race-over.png"))
    expect(big.locator("#winners")).to_be_visible(timeout=10000)
    check_fits(big, min_text_px=24)
    big.screenshot(path=str(SHOTS / "table-1920x1080-race-over.png"))

    # What the pages show is what the rules give.
    log = {"format": "camelup-game-log/1", "edition": "2018", "players": PLAYERS, "setup": SETUP,
           "actions": [{"player": p, "type": k, **a} for p, k, a in SCRIPT]}
    expected = summary(parse_log(log).replay())
    assert expected["winners"] == ["Cy"]
    expect(table.locator("#winners")).to_contain_text(said("Cy wins!"))
    standings = table.locator("#finale .standings li")
    expect(standings.first).to_contain_text(f"Cy{expected['money']['Cy']} EP")
    expect(standings.first).to_contain_text("start 3, legs")
    # Every phone shows its own cards' results; Cy's purple card was right.
    expect(phones["Cy"].locator("#money")).to_have_text(f"{expected['money']['Cy']} EP")
    expect(phones["Cy"].locator("#result .my-cards")).to_contain_text("purple right +8")
    expect(phones["Bob"].locator("#result .my-cards")).to_contain_text("yellow right +8")
    phones["Cy"].screenshot(path=str(SHOTS / "phone-cy-race-over.png"), full_page=True)
    # The host page shows the result too, with a rematch.
    host = new_page(browser, errors, "host", viewport={"width": 420, "height": 900})
    host.goto(server.host_url(game))
    expect(host.locator("#winners")).to_contain_text(said("Cy wins!"))
    expect(host.locator("#rematch")).to_be_visible()
    assert errors == []
    _, exported = request(server.port, "GET", f"/api/games/{game['game_id']}/log", token=game["host_token"])
    assert json.dumps(exported["actions"]) == json.dumps(log["actions"])
    # Rematch: one tap, same players, a new race.
    host.click("#rematch")
    host.wait_for_url("**/host/*")
    expect(host.locator("#turn")).to_contain_text(said("Entering for Ann"))
    assert game["game_id"] not in host.url
    new_id = host.url.split("/host/")[1].split("#")[0]
    # The finished game's phones and table screen follow to their places in the new race.
    phones["Cy"].wait_for_url(f"**/play/{new_id}")
    expect(phones["Cy"].locator("#turn")).to_contain_text(said("Ann's turn"))
    expect(phones["Cy"].locator("#instruction")).to_contain_text("Set up the camels")
    table.wait_for_url(f"**/table/{new_id}")
    expect(table.locator("#banner")).to_contain_text("Set up the camels")
    # Past games are links: to the host page on the device that hosts it, else to the result once it is over.
    host.goto(f"{server.base}/")
    expect(host.locator(f'#games a[href="/host/{new_id}"]')).to_be_visible()
    expect(host.locator(f'#games a[href="/host/{game["game_id"]}"]')).to_be_visible()
    guest = new_page(browser, errors, "guest", viewport={"width": 390, "height": 844})
    guest.goto(f"{server.base}/")
    guest.locator(f'#games a[href="/results/{game["game_id"]}"]').click()
    expect(guest.locator("#result .standings li").first).to_contain_text(f"Cy{expected['money']['Cy']} EP")
    for page in (table, big, calm, host, guest, *phones.values()):
        page.context.close()
