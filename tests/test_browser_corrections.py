"""Real browser: corrections that are safe (undo asks first, then every page says what to put back; a player
takes back their own tap), a double tap sends one action, a seat given a new link says so, the table's QR
code joins a seat, partnerships ask first and show on both phones and the table, a bad game id gives a page."""

import pytest

from tests.browser_kit import new_page, phone, said
from tests.test_crash import request

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

SETUP = {"track": {"1": ["green", "red"], "3": ["yellow", "blue", "purple"], "14": ["black"], "16": ["white"]}}



def is_action_post(response) -> bool:
    return response.request.method == "POST" and response.url.endswith("/actions")


def actions_posted(page) -> list[dict]:
    """Every action the page sends from now on (a double tap must send one, not one and a refused one)."""
    posts: list[dict] = []
    page.on("request", lambda request: posts.append(request.post_data_json)
            if request.method == "POST" and request.url.endswith("/actions") else None)
    return posts


def draw_again_from_the_server(page) -> None:
    """The page reads the game again and draws it (as on waking up, or a live update that comes late): the same
    state it shows. Returns once its controls are drawn anew."""
    page.evaluate("() => document.querySelectorAll('#actions > *').forEach((node) => { node.dataset.old = 'yes'; })")
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    expect(page.locator("#actions [data-old]")).to_have_count(0)


def test_undo_asks_first_then_every_page_says_what_to_put_back(server, browser):
    game = server.create(["Ann", "Bob", "Cy"], SETUP)
    errors = []
    server.act(game, "Ann", type="pyramid", die="green", value=2)  # green and red: 1 → 3, on top of purple
    host = new_page(browser, errors, "host", viewport={"width": 420, "height": 900})
    host.goto(server.host_url(game))
    bob = phone(browser, server, game, "Bob", errors)
    table = new_page(browser, errors, "table", viewport={"width": 1280, "height": 800})
    table.goto(server.table_url(game))
    expect(bob.locator("#instruction")).to_contain_text("Move green 2 (carrying red) → space 3, on top of purple")
    expect(bob.locator('#board rect[data-marked="move"]')).to_have_attribute("data-space", "3")
    # Declining the question changes nothing.
    asked = []
    host.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    host.click("#undo")
    expect(bob.locator("#instruction")).to_have_class("instruction move")
    assert asked == [said("Undo “Ann drew green 2”? Everyone will be told what to put back.")]
    host.once("dialog", lambda dialog: dialog.accept())
    host.click("#undo")
    told = ("Undone by the host: move green back from space 3 to space 1 (carrying red); "
            "put the green die back in the pyramid")
    expect(bob.locator("#instruction")).to_have_text(told)
    expect(table.locator("#instruction")).to_have_text(told)
    expect(table.locator("#board rect[data-marked]")).to_have_attribute("data-space", "1")  # where they go back
    expect(host.locator("#instruction")).to_have_text(told)
    expect(bob.locator("#turn")).to_contain_text(said("Ann's turn"))
    assert errors == []
    for page in (host, bob, table):
        page.context.close()


def test_a_player_takes_back_their_own_tap_and_a_double_tap_sends_one_action(server, browser):
    game = server.create(["Ann", "Bob", "Cy"], SETUP)
    errors = []
    ann = phone(browser, server, game, "Ann", errors)
    bob = phone(browser, server, game, "Bob", errors)
    ann.click("button.bet[data-camel=red]")
    expect(bob.locator("#turn")).to_have_class("turn mine")
    ann.click("#take-back-button")
    taken_back = said("Ann took it back: Ann puts the red 5 ticket back on its stack")
    expect(bob.locator("#instruction")).to_contain_text(taken_back)
    expect(ann.locator("#turn")).to_have_class("turn mine")
    # Two quick taps on the draw: one draw, no refusal.
    ann.select_option("#die", "blue")
    posts = actions_posted(ann)
    with ann.expect_response(is_action_post):
        ann.locator("#record-roll").dblclick()
    expect(bob.locator("#turn")).to_have_class("turn mine")
    # The die picked is the die sent (the take-back's live update, late on a busy machine, once drew the controls
    # again over the choice, and "green 1" went), and the second tap sent nothing (the button waits for the answer).
    assert posts == [{"type": "pyramid", "die": "blue", "value": 1}]
    expect(ann.locator("#toast")).to_have_count(0)
    expect(bob.locator("#instruction")).to_contain_text("Move blue 1 (carrying purple) → space 4")
    # A draw cannot be taken back (no second try at a better die), and Bob cannot take back Ann's action.
    expect(ann.locator("#take-back-button")).to_have_count(0)
    expect(bob.locator("#take-back-button")).to_have_count(0)
    assert errors == []
    for page in (ann, bob):
        page.context.close()


def test_the_same_game_drawn_again_keeps_the_choices_made_and_an_action_on_its_way_stays_one(server, browser):
    game = server.create(["Ann", "Bob"], SETUP)
    errors = []
    ann = phone(browser, server, game, "Ann", errors)
    expect(ann.locator("#turn")).to_have_class("turn mine")
    ann.select_option("#die", "grey")
    ann.select_option("#value", "3")
    ann.select_option("#crazy", "white")
    ann.select_option("#tile-space", "9")
    ann.select_option("#tile-side", "boo")
    draw_again_from_the_server(ann)
    expect(ann.locator("#die")).to_have_value("grey")
    expect(ann.locator("#value")).to_have_value("3")
    expect(ann.locator("#crazy")).to_be_visible()  # the grey die's colour list shows with it
    expect(ann.locator("#crazy")).to_have_value("white")
    expect(ann.locator("#tile-space")).to_have_value("9")
    expect(ann.locator("#tile-side")).to_have_value("boo")
    # The game read again while her draw is on its way: the controls stay disabled, so a second tap sends nothing.
    held = []
    ann.route("**/actions", lambda route: held.append(route))
    posts = actions_posted(ann)
    ann.click("#record-roll")
    draw_again_from_the_server(ann)
    expect(ann.locator("#record-roll")).to_be_disabled()
    expect(ann.locator("#die")).to_have_value("grey")
    assert posts == [{"type": "pyramid", "die": "grey", "value": 3, "crazy": "white"}]
    held[0].continue_()
    expect(ann.locator("#turn")).to_contain_text(said("Bob's turn"))
    expect(ann.locator("#instruction")).to_contain_text("Move white 3")
    # Another entry since: the lists start from their first choice again (not the value of the draw before), and
    # the controls are alive once the answer came.
    server.act(game, "Bob", type="leg_bet", camel="red")
    expect(ann.locator("#turn")).to_have_class("turn mine")
    expect(ann.locator("#value")).to_have_value("1")
    expect(ann.locator("#record-roll")).to_be_enabled()
    assert len(posts) == 1 and errors == []
    ann.context.close()


def test_a_refused_tap_reads_the_game_again_and_a_replaced_seat_says_so(server, browser):
    game = server.create(["Ann", "Bob", "Cy"], SETUP)
    errors = []
    ann = phone(browser, server, game, "Ann", errors)
    expect(ann.locator("#turn")).to_have_class("turn mine")
    # The host enters Ann's action while her tap is on its way: her tap is refused, and the phone then shows
    # the game as it is now, not "Your turn".
    def host_first(route):
        request(server.port, "POST", f"/api/games/{game['game_id']}/actions",
                {"player": "Ann", "type": "leg_bet", "camel": "green"}, game["host_token"])
        route.continue_()

    ann.route("**/actions", host_first)
    ann.click("button.bet[data-camel=red]")
    expect(ann.locator("#toast")).to_contain_text("Not allowed")
    expect(ann.locator("#turn")).to_contain_text(said("Bob's turn"))
    expect(ann.locator("#actions")).to_contain_text(said("Waiting for Bob"))
    # The host gives Ann's seat a new link: the old phone says so instead of reconnecting for ever.
    request(server.port, "POST", f"/api/games/{game['game_id']}/seats/Ann/reissue", None, game["host_token"])
    ann.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    expect(ann.locator("main")).to_contain_text("This seat was given a new link", timeout=8000)
    assert errors == []
    ann.context.close()


def test_the_table_qr_code_opens_the_seat_picker_and_a_bad_game_id_gives_a_page(server, browser):
    game = server.create(["Ann", "Bob"], SETUP)
    errors = []
    table = new_page(browser, errors, "table", viewport={"width": 1280, "height": 800})
    table.goto(server.table_url(game))
    expect(table.locator("#join")).to_be_visible()
    picker_url = table.locator("#join-qr").get_attribute("data-url")
    assert f"/pick/{game['game_id']}#" in picker_url
    newcomer = new_page(browser, errors, "newcomer", viewport={"width": 390, "height": 844})
    newcomer.goto(server.base + picker_url[picker_url.index("/pick/"):])
    newcomer.get_by_role("button", name="Bob").click()
    newcomer.wait_for_url(f"**/play/{game['game_id']}")
    expect(newcomer.locator("#who")).to_contain_text("Bob")
    # A made-up key picks nothing.
    stranger = new_page(browser, errors, "stranger")
    stranger.goto(f"{server.base}/pick/{game['game_id']}#not-the-key")
    expect(stranger.locator("#seat-list")).to_contain_text("This code no longer works")
    # A game that does not exist: a page that says so, not JSON.
    response = stranger.goto(f"{server.base}/table/no-such-game")
    assert response.status == 404 and "text/html" in response.headers["content-type"]
    expect(stranger.locator("h2")).to_have_text("No such game")
    assert errors == []
    for page in (table, newcomer, stranger):
        page.context.close()


def test_a_partnership_asks_first_and_shows_on_both_phones_and_the_table(server, browser):
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    game = server.create(players, SETUP)
    errors = []
    ann = phone(browser, server, game, "Ann", errors)
    cy = phone(browser, server, game, "Cy", errors)
    table = new_page(browser, errors, "table", viewport={"width": 1280, "height": 800})
    table.goto(server.table_url(game))
    asked = []
    ann.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    ann.click("button.partner-button[data-partner=Cy]")
    assert asked == [said("Enter a partnership with Cy for this leg?")]
    expect(ann.locator("#partner")).to_have_text(said("🤝 Partner this leg: Cy"))
    expect(cy.locator("#partner")).to_have_text(said("🤝 Partner this leg: Ann"))
    expect(table.locator('#players li[data-player="Ann"] .partner')).to_have_text("🤝 Cy")
    expect(table.locator('#players li[data-player="Cy"] .partner')).to_have_text("🤝 Ann")
    host = new_page(browser, errors, "host", viewport={"width": 420, "height": 900})
    host.goto(server.host_url(game))
    expect(host.locator('#players li[data-player="Ann"] .partner-line')).to_have_text(said("🤝 Partner this leg: Cy"))
    assert errors == []
    for page in (ann, cy, table, host):
        page.context.close()


def test_the_phone_buzzes_when_the_turn_comes_and_stays_awake_while_the_race_runs(server, browser):
    game = server.create(["Ann", "Bob"], SETUP)
    errors = []
    bob = new_page(browser, errors, "Bob", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    bob.add_init_script("""window.calls = [];
      navigator.vibrate = (pattern) => { window.calls.push('vibrate'); return true; };
      Object.defineProperty(navigator, 'wakeLock', { value: { request: async (kind) => {
        window.calls.push(`wake ${kind}`); return { addEventListener() {} }; } } });""")
    bob.goto(server.join_url(game, "Bob"))
    bob.wait_for_url(f"**/play/{game['game_id']}")
    expect(bob.locator("#turn")).to_contain_text(said("Ann's turn"))
    assert bob.evaluate("window.calls") == ["wake screen"]
    server.act(game, "Ann", type="leg_bet", camel="red")
    expect(bob.locator("#turn")).to_have_class("turn mine")
    expect(bob.locator("#announce")).to_contain_text("Your turn")  # and screen readers hear it
    assert bob.evaluate("window.calls") == ["wake screen", "vibrate"]
    assert errors == []
    bob.context.close()


def test_a_double_tap_on_the_pyramid_s_draw_draws_once(server, browser):
    game = server.create(["Ann", "Bob"], SETUP, dice="pyramid")
    errors = []
    ann = phone(browser, server, game, "Ann", errors)
    posts = actions_posted(ann)
    with ann.expect_response(is_action_post):
        ann.locator("#draw").dblclick()
    expect(ann.locator("#turn")).to_contain_text(said("Bob's turn"))
    assert len(posts) == 1, "the second tap sent nothing (the button waits for the first answer)"
    expect(ann.locator("#toast")).to_have_count(0)
    expect(ann.locator("#instruction")).to_have_class("instruction move")
    _, state = request(server.port, "GET", f"/api/games/{game['game_id']}/state", token=game["table_token"])
    assert state["actions_taken"] == 1 and len(state["dice_out"]) == 1
    assert errors == []
    ann.context.close()
