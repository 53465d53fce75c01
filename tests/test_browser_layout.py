"""A real browser on real screen sizes: the table screen shows the whole game at a glance on a 1920×1080 and a
1280×720 TV with up to eight players (both editions allow 2 to 8) and the camera box in each of its states; the
phone and host pages keep their essential controls in sight at phone size with the camera's news above them.

"At a glance" is measured, not assumed: every player row, every space of the track, the banner and the camera's
headline and cause lie inside the window and inside the box that clips them, nothing overlaps, nothing scrolls,
and no text is drawn under 24 px at 1080p (16 px at 720p). ``python -m tests.layout_shots`` takes the pictures
to look at."""

import pytest

from tests.browser_kit import PHONE, new_page
from tests.layout_kit import CAMERA, CameraStub, busy_game, finished_game, load, settled

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

TVS = [(1920, 1080, 24), (1280, 720, 16)]  # the smallest text each may show (1 rem: 24 px and 16 px)
PHONES = [(390, 844), (360, 640)]

# In the page: the boxes of what must be seen, each with the box of every ancestor that clips it.
BOXES = """(selectors) => {
  const view = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
  const seen = (node) => {
    let box = node.getBoundingClientRect();
    let shown = { left: box.left, top: box.top, right: box.right, bottom: box.bottom };
    for (let up = node.parentElement; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      const clip = up.getBoundingClientRect();
      shown = { left: Math.max(shown.left, clip.left), top: Math.max(shown.top, clip.top),
                right: Math.min(shown.right, clip.right), bottom: Math.min(shown.bottom, clip.bottom) };
    }
    return { whole: { left: box.left, top: box.top, right: box.right, bottom: box.bottom }, shown };
  };
  const out = {};
  for (const [name, selector] of Object.entries(selectors)) {
    out[name] = [...document.querySelectorAll(selector)]
      .filter((node) => node.getClientRects().length && !node.closest("[hidden]"))
      .map((node) => ({ text: (node.textContent || node.getAttribute("data-space") || "").trim().slice(0, 50),
                        ...seen(node) }));
  }
  out.view = view;
  out.scroll = [document.documentElement.scrollWidth, document.documentElement.scrollHeight];
  return out;
}"""

TABLE = {
    "players": "#players li",
    "spaces": "#board rect[data-space]",
    "banner": "#banner",
    "camera": "#camera",
    "headline": "#camera > p:first-of-type",
    "cause": "#camera .camera-why",
    "stacks": "#stacks .stack-box",
    "ticker": "#ticker li:first-child",
    "join": "#join .qr",
}
TABLE_PARTS = ("banner", "camera", "stacks", "players", "ticker", "join")  # side by side: none may overlap


def inside(box, outer, slack=1.0):
    return (box["left"] >= outer["left"] - slack and box["top"] >= outer["top"] - slack
            and box["right"] <= outer["right"] + slack and box["bottom"] <= outer["bottom"] + slack)


def overlap(a, b, slack=1.0):
    return (min(a["right"], b["right"]) - max(a["left"], b["left"]) > slack
            and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > slack)


def fully_seen(found, what):
    """Names of the boxes in ``found`` not wholly in sight: past the window or cut off by a box that clips them."""
    view = found["view"]
    return [f"{what}: {item['text']!r}" for item in found[what]
            if not inside(item["whole"], view) or not inside(item["whole"], item["shown"])]


def overlapping(found, parts):
    boxes = [(part, item) for part in parts for item in found[part]]
    return [f"{a}:{x['text']!r} and {b}:{y['text']!r}" for i, (a, x) in enumerate(boxes) for b, y in boxes[i + 1:]
            if overlap(x["shown"], y["shown"])]


def small_text(page, smallest: float) -> list[str]:
    """Visible text drawn under ``smallest`` px (SVG text at its size on screen)."""
    return page.evaluate("""(smallest) => {
      const out = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const parent = walker.currentNode.parentElement;
        if (!walker.currentNode.textContent.trim() || !parent) continue;
        if (parent.closest('[hidden], .sr-only, title, script, #reveal')) continue;
        if (!parent.getClientRects().length) continue;
        let size = parseFloat(getComputedStyle(parent).fontSize);
        if (parent instanceof SVGElement) size *= parent.getScreenCTM().a;
        const text = walker.currentNode.textContent.trim().slice(0, 30);
        if (size < smallest - 0.05) out.push(`${text} (${size.toFixed(1)} px)`);
      }
      return out;
    }""", smallest)


def check_table(page, where: str, players: int, camera: str, smallest: float) -> None:
    """The whole game in sight on the table screen: see the module's docstring."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    found = page.evaluate(BOXES, TABLE)
    assert found["scroll"] == [width, height], f"{where}: the table screen scrolls {found['scroll']}"
    assert len(found["players"]) == players, where
    assert len(found["spaces"]) == 16, where
    hidden = [problem for what in ("players", "spaces", "banner", "headline", "cause", "stacks", "ticker")
              for problem in fully_seen(found, what)]
    assert hidden == [], f"{where}: not in sight: {hidden}"
    assert found["banner"], f"{where}: the move to make is not shown"
    if camera == "off":
        assert found["camera"] == [], where
    else:
        assert found["headline"], f"{where}: the camera's word is not shown"
    if camera == "differs":
        assert found["cause"], f"{where}: the most likely cause is not shown"
    assert overlapping(found, TABLE_PARTS) == [], where
    board = page.locator("#board").bounding_box()
    for part in ("banner", "camera", "players"):  # the panel never slides over the track
        for item in found[part]:
            assert item["shown"]["left"] >= board["x"] + board["width"] - 1, f"{where}: {part} over the board"
    assert small_text(page, smallest) == [], where


@pytest.mark.parametrize(("edition", "players", "moment"), [
    ("2018", 6, "mid-leg"), ("2018", 8, "mid-leg"), ("2018", 8, "leg-over"), ("2014", 8, "undo"), ("2014", 2, "setup")])
def test_the_table_screen_shows_the_whole_game_at_a_glance(server, browser, edition, players, moment):
    game = busy_game(server, edition, players, moment)
    stub = CameraStub(CAMERA["off"])
    errors: list[str] = []
    for width, height, smallest in TVS:
        page = new_page(browser, errors, f"table {width}x{height}", viewport={"width": width, "height": height})
        stub.attach(page)
        for camera in CAMERA:
            stub.report = CAMERA[camera]
            load(page, server.table_url(game))
            settled(page, players, camera)
            where = f"{edition}, {players} players, {moment}, {width}x{height}, camera {camera}"
            check_table(page, where, players, camera, smallest)
            if camera == "differs":  # and with each colour's chance to lead the leg under its pile
                page.check("#odds-toggle")
                expect(page.locator(".stack-box .odds")).to_have_count(5)
                check_table(page, f"{where}, odds on", players, camera, smallest)
                page.uncheck("#odds-toggle")
        page.context.close()
    assert errors == []


def test_the_players_stay_in_sight_under_every_banner_at_once(server, browser):
    """The longest moment in French (the move onto a tile, the leg's ranking), the pyramid asking for a hand
    and the camera's difference, with eight players: the players move into two columns rather than out of sight."""
    game = busy_game(server, "2018", 8, "leg-over")
    errors: list[str] = []
    for width, height, smallest in TVS:
        page = new_page(browser, errors, "table", "fr", viewport={"width": width, "height": height})
        CameraStub(CAMERA["differs"]).attach(page)
        page.goto(server.table_url(game))
        settled(page, 8, "differs")
        expect(page.locator("#banner .banner-sub")).to_contain_text("Manche 1 finie")
        page.evaluate("""() => {  // the pyramid's notice, as the server sends it with a stuck die
          const notice = document.getElementById('pyramid-notice');
          notice.hidden = false;
          notice.textContent = 'The pyramid is stuck: a die did not drop. Lift the pyramid and shake it gently.';
          window.dispatchEvent(new Event('resize'));
        }""")
        check_table(page, f"every banner, {width}x{height}", 8, "differs", smallest)
        rows = [page.locator("#players li").nth(i).bounding_box() for i in range(8)]
        assert len({round(row["x"]) for row in rows}) == 2, "the players are not in two columns"
        page.context.close()
    assert errors == []


def test_the_finale_fits_with_eight_players_and_ties_share_their_step(server, browser):
    game = finished_game(server, 8)
    money = game["final_money"]
    podium = {player for player, amount in money.items() if sum(other > amount for other in money.values()) < 3}
    errors: list[str] = []
    for width, height, smallest in TVS:
        page = new_page(browser, errors, "table", viewport={"width": width, "height": height}, reduced_motion="reduce")
        page.goto(server.table_url(game))
        expect(page.locator("#running li")).to_have_count(8)
        names = page.evaluate("""() => [...document.querySelectorAll('#running li')].map((row) => {
          const who = row.querySelector('.who').getBoundingClientRect();
          const bar = row.querySelector('.bar').getBoundingClientRect();
          return [row.querySelector('.who').scrollWidth <= Math.ceil(who.width), who.right <= bar.left + 0.5];
        })""")
        assert names == [[True, True]] * 8, f"{width}x{height}: a name runs into its bar or is cut: {names}"
        expect(page.locator("#winners")).to_be_visible(timeout=30000)
        found = page.evaluate(BOXES, {"title": ".reveal-title", "winners": "#winners", "steps": ".podium .step",
                                      "standings": "#finale .standings li", "coach": "#finale a"})
        assert found["scroll"] == [width, height], f"{width}x{height}: the finale scrolls"
        assert len(found["standings"]) == 8
        unseen = [problem for what in ("title", "winners", "steps", "standings", "coach")
                  for problem in fully_seen(found, what)]
        assert unseen == [], f"{width}x{height}: not in sight: {unseen}"
        on_podium = set(page.locator(".podium .step .names bdi").all_inner_texts())
        assert on_podium == podium, "everyone placed first to third stands on the podium, ties too"
        assert small_text(page, smallest) == [], f"{width}x{height}"
        page.context.close()
    assert errors == []


# The phone of the player whose turn it is, and the host's page: the turn, the move to make, the camera's
# headline (and for the host its button) and the first controls, all in sight before any scrolling.
PHONE_PAGE = {"turn": "#turn", "instruction": "#instruction", "headline": "#camera > p:first-of-type",
              "cause": "#camera .camera-why", "controls": "#die, #value, #record-roll, #draw"}
HOST_PAGE = {**PHONE_PAGE, "correct": "#camera-correct", "placement": "#placement-link"}


@pytest.mark.parametrize("camera", ["differs", "cannot-tell", "matches", "waiting", "not-found"])
def test_phone_and_host_keep_their_controls_in_sight_at_phone_size(server, browser, camera):
    game = busy_game(server, "2018", 8)
    stub = CameraStub(CAMERA[camera])
    errors: list[str] = []
    for width, height in PHONES:
        options = {**PHONE, "viewport": {"width": width, "height": height}}
        for name, selectors in (("phone", PHONE_PAGE), ("host", HOST_PAGE)):
            page = new_page(browser, errors, name, **options)
            stub.attach(page)
            if name == "phone":
                page.goto(server.join_url(game, game["next_player"]))
                page.wait_for_url(f"**/play/{game['game_id']}")
            else:
                page.goto(server.host_url(game))
            settled(page, 8, camera)
            found = page.evaluate(BOXES, selectors)
            where = f"{name} {width}x{height}, camera {camera}"
            assert found["scroll"][0] == width, f"{where}: the page scrolls sideways {found['scroll']}"
            for what in ("turn", "instruction", "headline"):
                assert found[what], f"{where}: no {what}"
            assert len(found["controls"]) >= 3, f"{where}: {found['controls']}"  # the die, its value, the button
            # On the smallest phone the host, who has the camera's decision to make as well, may scroll a little
            # to the die: it starts on the first screen.
            scrolls_to = ("controls",) if (name, height) == ("host", 640) else ()
            in_sight = [problem for what in selectors if what not in scrolls_to for problem in fully_seen(found, what)]
            assert in_sight == [], f"{where}: below the fold or cut off: {in_sight}"
            for what in scrolls_to:
                first = min(item["whole"]["top"] for item in found[what])
                assert first < height, f"{where}: no {what} on the first screen"
            assert overlapping(found, selectors) == [], where
            if camera == "not-found":  # the host reads why; a player, that the camera is not checking and why not ask
                expect(page.locator("#camera > p").first).to_have_text(
                    "Board not found" if name == "host" else "Not checking the board for now: the host has been told")
                expect(page.locator("#camera .camera-detail")).to_have_count(1 if name == "host" else 0)
            if camera == "differs":
                assert found["cause"], where
                assert len(found.get("correct", [])) == (1 if name == "host" else 0), where
                # The differences are one tap away, not in the way.
                details = page.locator("#camera .camera-details")
                expect(details.locator("summary")).to_have_text("What differs (3)")
                details.locator("summary").click()
                expect(details.locator(".camera-differences li")).to_have_count(3)
            page.context.close()
    assert errors == []


def test_a_corrected_draw_in_the_ticker_is_read_whole_on_the_table_screen(server, browser):
    """The ticker's latest line says what a corrected draw was entered as ("Bob drew blue 3 · corrected from
    yellow 1"): the correction is read whole, not cut off by an ellipsis, and the screen still fits."""
    import json
    import re

    game = busy_game(server, "2018", 8, "mid-leg")
    was = {"die": "yellow", "value": 1, "crazy": None}

    def corrected(route) -> None:
        state = json.loads(route.fetch().text())
        line = next(entry for entry in reversed(state["ticker"]) if entry["type"] == "pyramid")
        line["corrected_from"] = was  # as the server sends an entry the host corrected
        route.fulfill(status=200, content_type="application/json", body=json.dumps(state))

    errors: list[str] = []
    for width, height, smallest in TVS:
        page = new_page(browser, errors, f"table {width}x{height}", viewport={"width": width, "height": height})
        CameraStub(CAMERA["waiting"]).attach(page)
        page.route(re.compile(r"/api/games/\w+/events"), lambda route: route.abort())  # the state comes from below
        page.route(re.compile(r"/api/games/\w+/state$"), corrected)
        load(page, server.table_url(game))
        settled(page, 8, "waiting")
        line = page.locator("#ticker li.corrected").first
        expect(line).to_contain_text("corrected from yellow 1", timeout=10000)
        cut = line.evaluate("(li) => [li, ...li.children].some((node) => node.scrollWidth > node.clientWidth + 1)")
        assert not cut, f"{width}x{height}: the correction is cut off: {line.inner_text()!r}"
        check_table(page, f"corrected ticker, {width}x{height}", 8, "waiting", smallest)
        page.context.close()
    assert errors == [], errors
