"""A real browser: when the host takes the camera's word for a draw, everyone at the table is told — the table
screen's notice and ticker and every phone say which draw changed, from what to what, and what it changed
(money, a leg scored again), instead of the ticker silently rewriting "Bob drew red 1" as "Bob drew red 3"."""


import pytest

from companion.table.web import create_app
from tests.browser_kit import PHONE, SHOTS, new_page, phone, said, served
from tests.layout_kit import CameraStub
from tests.test_correction import SETUP, StillCamera, board_after, draws
from tests.test_crash import request

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

# Ann bets on blue; the leg ends with Bob's draw, entered as red 1 though red showed 3 (the camera's board):
# red, not blue, comes second, and Ann's ticket loses.
ENTERED = [{**obj, "player": "Ann" if obj["player"] == "Bob" else "Bob"}  # Bob draws first, after Ann's bet
           for obj in draws(("yellow", 1), ("green", 1), ("purple", 1), ("blue", 1), ("red", 1))]
SEEN = board_after(draws(("yellow", 1), ("green", 1), ("purple", 1), ("blue", 1), ("red", 3)))


@pytest.fixture()
def camera_server(tmp_path):
    """The companion in this process (its camera a still picture of ``SEEN``), served over HTTP."""
    app = create_app(tmp_path / "data", None, "http://t", testing=True, camera=StillCamera(SEEN))
    with served(app) as port:
        yield port


def test_a_correction_is_announced_on_the_table_and_every_phone(camera_server, browser):
    port = camera_server
    setup = {"track": {str(space): list(stack) for space, stack in SETUP.items()}}
    _, game = request(port, "POST", "/api/games", {"edition": "2018", "players": ["Ann", "Bob"], "dice": "manual",
                                                   "setup": setup})
    game_id, token = game["game_id"], game["host_token"]
    seats = {seat["player"]: seat["token"] for seat in game["seats"]}
    request(port, "POST", f"/api/games/{game_id}/actions", {"player": "Ann", "type": "leg_bet", "camel": "blue"}, token)
    for obj in ENTERED:
        request(port, "POST", f"/api/games/{game_id}/actions", obj, token)
    errors: list[str] = []
    table = new_page(browser, errors, "table", viewport={"width": 1280, "height": 720})
    table.goto(f"http://127.0.0.1:{port}/table/{game_id}#{game['table_token']}")
    ann = new_page(browser, errors, "Ann", **PHONE)
    ann.goto(f"http://127.0.0.1:{port}/join/{seats['Ann']}")
    bob = new_page(browser, errors, "Bob", "fr", **PHONE)
    bob.goto(f"http://127.0.0.1:{port}/join/{seats['Bob']}")
    expect(table.locator("#ticker li").first).to_have_text(said("Bob drew red 1"))
    expect(table.locator("#correction-notice")).to_be_hidden()
    expect(ann.locator("#correction-notice")).to_be_hidden()
    status, _ = request(port, "POST", f"/api/games/{game_id}/camera/correct", None, token)
    assert status == 200
    told = said("Bob's draw corrected: red 1 → red 3 · Ann 10 EP → 6 EP · leg 1 scored again")
    expect(table.locator("#correction-notice")).to_have_text(told)
    expect(ann.locator("#correction-notice")).to_have_text(told)
    expect(bob.locator("#correction-notice")).to_have_text(
        said("Tirage de Bob corrigé : rouge 1 → rouge 3 · Ann 10 £ → 6 £ · manche 1 recomptée"))
    expect(table.locator("#ticker li").first).to_have_text(said("Bob drew red 3 · corrected from red 1"))
    SHOTS.mkdir(parents=True, exist_ok=True)
    table.screenshot(path=str(SHOTS / "notice-correction-table.png"))
    ann.screenshot(path=str(SHOTS / "notice-correction-phone.png"))
    # The next action ends the notice; the ticker still says the draw was corrected.
    _, now = request(port, "GET", f"/api/games/{game_id}/state", None, token)
    request(port, "POST", f"/api/games/{game_id}/actions", {"type": "leg_bet", "camel": "red"},
            seats[now["next_player"]])
    expect(table.locator("#correction-notice")).to_be_hidden()
    expect(ann.locator("#correction-notice")).to_be_hidden()
    expect(table.locator("#ticker li").nth(1)).to_have_text(said("Bob drew red 3 · corrected from red 1"))
    assert errors == []
    for page in (table, ann, bob):
        page.context.close()


def test_an_undo_that_takes_back_a_leg_s_end_says_so_on_the_table_and_phones(server, browser):
    setup = {"track": {str(space): list(stack) for space, stack in SETUP.items()}}
    game = server.create(["Ann", "Bob"], setup)
    server.act(game, "Ann", type="leg_bet", camel="blue")
    for obj in ENTERED:
        server.act(game, obj["player"], **{key: value for key, value in obj.items() if key != "player"})
    errors: list[str] = []
    table = new_page(browser, errors, "table", viewport={"width": 1280, "height": 720})
    table.goto(server.table_url(game))
    ann = phone(browser, server, game, "Ann", errors)
    expect(table.locator("#ticker li").first).to_have_text(said("Bob drew red 1"))
    status, _ = request(server.port, "POST", f"/api/games/{game['game_id']}/undo", None, game["host_token"])
    assert status == 200
    told = said("The undo changed: Ann 10 EP → 3 EP · Bob 6 EP → 3 EP · leg 1 is not over after all")
    expect(table.locator("#correction-notice")).to_have_text(told)
    expect(ann.locator("#correction-notice")).to_have_text(told)
    expect(ann.locator("#instruction")).to_contain_text("Undone by the host: move red back")
    table.screenshot(path=str(SHOTS / "notice-undo-table.png"))
    assert errors == []
    for page in (table, ann):
        page.context.close()


NOT_FOUND = {"state": "board not found",
             "message": "board not found: markers 3, 7 not seen; has the camera moved?"}


@pytest.mark.parametrize("report, short, for_players", [
    # The players cannot fix the camera: they learn that the board is not checked and that the host knows.
    (NOT_FOUND, "Board not found", "Not checking the board for now: the host has been told"),
    ({"state": "unsettled", "message": "waiting for the board to stay still"}, "Waiting for a still board",
     "Waiting for a still board"),
])
def test_the_camera_s_state_is_one_plain_sentence_for_the_players_the_detail_for_the_host(server, browser, report,
                                                                                          short, for_players):
    game = server.create(["Ann", "Bob"], {"track": {str(space): list(stack) for space, stack in SETUP.items()}})
    stub = CameraStub(report)
    errors: list[str] = []
    table = new_page(browser, errors, "table", viewport={"width": 1280, "height": 720})
    host_page = new_page(browser, errors, "host", viewport={"width": 420, "height": 900})
    ann = new_page(browser, errors, "Ann", **PHONE)
    for page in (table, host_page, ann):
        stub.attach(page)
    table.goto(server.table_url(game))
    host_page.goto(server.host_url(game))
    ann.goto(server.join_url(game, "Ann"))
    for page in (table, ann):
        expect(page.locator("#camera > p")).to_have_text([for_players])  # one sentence, no bracketed repeat
    # The host's detail under "Board not found" does not say it again.
    detail = report["message"].removeprefix("board not found: ")
    said_to_host = [short, detail] if report["state"] == "board not found" else [short]
    expect(host_page.locator("#camera > p")).to_have_text(said_to_host)
    if report["state"] == "board not found":
        table.screenshot(path=str(SHOTS / "notice-camera-not-found-table.png"))
        host_page.screenshot(path=str(SHOTS / "notice-camera-not-found-host.png"))
    assert errors == []
    for page in (table, host_page, ann):
        page.context.close()


def test_after_the_race_the_pages_wait_for_a_rematch_without_console_errors(server, browser):
    setup = {"track": {"16": ["yellow"], "1": ["green", "red", "blue", "purple"], "2": ["black"], "3": ["white"]}}
    game = server.create(["Ann", "Bob"], setup)
    server.act(game, "Ann", type="pyramid", die="yellow", value=1)  # over the finish line: the race is over
    errors: list[str] = []
    table = new_page(browser, errors, "table", viewport={"width": 1280, "height": 720})
    console: list[str] = []
    table.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
    looks: list[int] = []
    table.on("response", lambda response: looks.append(response.status) if response.url.endswith("/rematch") else None)
    table.goto(server.table_url(game))
    table.wait_for_function("() => document.querySelector('#reveal') !== null")
    table.wait_for_timeout(3500)  # the page looks again every 3 s
    assert len(looks) >= 2 and set(looks) == {204}, looks
    status, made = request(server.port, "POST", f"/api/games/{game['game_id']}/rematch", None, game["host_token"])
    assert status == 201
    table.wait_for_url(f"**/table/{made['game_id']}", timeout=8000)  # the waiting page follows the rematch
    assert console == [] and errors == []
    table.context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_phone_s_header_keeps_the_money_on_one_line_at_360_px(server, browser, lang):
    game = server.create(["Annabelle-Marguerite", "Bob"], {"track": {str(s): list(c) for s, c in SETUP.items()}},
                         characters={"Annabelle-Marguerite": "Pharaoh"})
    errors: list[str] = []
    page = new_page(browser, errors, "Ann", lang, viewport={"width": 360, "height": 640}, is_mobile=True,
                    has_touch=True)
    page.goto(server.join_url(game, "Annabelle-Marguerite"))
    expect(page.locator("#money")).to_have_text("3 EP" if lang == "en" else "3 £")
    expect(page.locator("#who")).to_contain_text("Pharaoh")
    lines = page.evaluate("""() => {
        const money = document.getElementById('money'), range = document.createRange();
        range.selectNodeContents(money);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        const width = document.documentElement.clientWidth;
        return { lines: tops.size, right: money.getBoundingClientRect().right, width };
    }""")
    assert lines["lines"] == 1 and lines["right"] <= lines["width"], lines
    page.screenshot(path=str(SHOTS / f"notice-header-360-{lang}.png"))
    assert errors == []
    page.context.close()


def test_the_correction_notice_leaves_eight_players_in_sight_on_a_small_tv(camera_server, browser):
    """The longest words (French), the leg's end, the pyramid's notice, the camera's difference and the
    correction's notice at once, with eight players: everything still at a glance (as the layout tests measure)."""
    from tests.layout_kit import CAMERA
    from tests.test_browser_layout import check_table

    port = camera_server
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    setup = {"track": {str(space): list(stack) for space, stack in SETUP.items()}}
    _, game = request(port, "POST", "/api/games", {"edition": "2018", "players": players, "dice": "manual",
                                                   "setup": setup})
    game_id, token = game["game_id"], game["host_token"]
    request(port, "POST", f"/api/games/{game_id}/actions", {"player": "Ann", "type": "leg_bet", "camel": "blue"}, token)
    for player, obj in zip(players[1:], ENTERED, strict=False):
        request(port, "POST", f"/api/games/{game_id}/actions", {**obj, "player": player}, token)
    assert request(port, "POST", f"/api/games/{game_id}/camera/correct", None, token)[0] == 200
    errors: list[str] = []
    for width, height, smallest in ((1920, 1080, 24), (1280, 720, 16)):
        page = new_page(browser, errors, "table", "fr", viewport={"width": width, "height": height})
        CameraStub(CAMERA["differs"]).attach(page)
        page.goto(f"http://127.0.0.1:{port}/table/{game_id}#{game['table_token']}")
        expect(page.locator("#correction-notice")).to_contain_text("Tirage de")
        page.wait_for_selector('#camera[data-verdict="differs"]')
        page.evaluate("""() => {  // the pyramid's notice too, as the server sends it with a stuck die
          const notice = document.getElementById('pyramid-notice');
          notice.hidden = false;
          notice.textContent = 'The pyramid is stuck: a die did not drop. Lift the pyramid and shake it gently.';
          window.dispatchEvent(new Event('resize'));
        }""")
        page.evaluate("document.fonts.ready.then(() => true)")
        check_table(page, f"correction notice, {width}x{height}", 8, "differs", smallest)
        notice = page.locator("#correction-notice").bounding_box()
        assert notice["y"] + notice["height"] <= height, "the correction notice is out of sight"
        page.screenshot(path=str(SHOTS / f"notice-correction-8-{width}x{height}.png"))
        page.context.close()
    assert errors == []
