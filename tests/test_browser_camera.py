"""A real browser: what the camera box says on the host page, the table screen and a phone.

With a real server and a camera (image files standing in for it), the host sees the camera's verdict, takes
its word for the draw, and the lobby reads a setup from the camera. With the camera's report stubbed (each
kind of verdict, as the server sends it), every page says what the verdict says, not the blind reading's
differences, and the host's button to correct the draw shows only with a correction."""

import json
import re
import time

import pytest

from tests.browser_kit import PHONE, SHOTS, new_page, said
from tests.test_camera_watch import one_space_too_far
from tests.test_crash import request, start_with_camera
from vision.board import load_template
from vision.synth import SceneVariation, render_scene

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

CLEAN = SceneVariation(
    light=(1.0, 1.0), cast=(1.0, 1.0), noise_sigma=(0.0, 0.0), blur=(0,), jpeg_quality=(95, 95), hand_chance=0.0
)
SETUP = {"1": ["green", "red"], "3": ["yellow"], "4": ["blue", "purple"], "14": ["black"], "16": ["white"]}
# What the board looks like after yellow 1 and blue 3; the host enters blue 2 by mistake.
SEEN = {1: ["green", "red"], 7: ["blue", "purple", "yellow"], 14: ["black"], 16: ["white"]}
TV = {"viewport": {"width": 1920, "height": 1080}}
HOST = {"viewport": {"width": 420, "height": 900}}


def test_the_host_takes_the_camera_s_word_and_the_lobby_reads_the_setup(tmp_path, browser):
    image, _ = render_scene(load_template("2018"), SEEN, 3, CLEAN)
    port, server = start_with_camera(tmp_path, image)
    errors: list[str] = []
    try:
        _, game = request(port, "POST", "/api/games",
                          {"edition": "2018", "players": ["Ann", "Bob"], "dice": "manual", "setup": {"track": SETUP}})
        token, game_id = game["host_token"], game["game_id"]
        for player, die, value in (("Ann", "yellow", 1), ("Bob", "blue", 2)):
            request(port, "POST", f"/api/games/{game_id}/actions",
                    {"player": player, "type": "pyramid", "die": die, "value": value}, token)
        host = new_page(browser, errors, "host", **HOST)
        host.goto(f"http://127.0.0.1:{port}/host/{game_id}#{token}")
        camera = host.locator("#camera")
        expect(camera).to_contain_text("The board differs from the game", timeout=15000)
        expect(camera).to_contain_text("purple should be on 6 on top of blue; the camera sees it on 7 on top of blue")
        expect(camera).to_contain_text(said("Most likely: Bob's draw was entered as blue 2; the board shows blue 3"))
        expect(camera.locator(".camera-hint")).to_have_count(0)  # the host has the button instead
        # The table screen's move line still says "blue 2": beside it, the players learn what they can do.
        table = new_page(browser, errors, "table", **TV)
        table.goto(f"http://127.0.0.1:{port}/table/{game_id}#{game['table_token']}")
        expect(table.locator("#camera .camera-hint")).to_have_text(
            said("The host can correct the entry from their phone; otherwise, put the camels where the game says."),
            timeout=15000)
        table.context.close()
        steady(port, game_id, token)  # the camera's steady reading, whichever board the server corrects from
        # Asked first, as undo is.
        asked: list[str] = []
        host.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
        camera.locator("#camera-correct").click()
        expect(host.locator(".toast").last).to_have_text(
            said("Corrected: Bob's draw is now blue 3; it was entered as blue 2"))
        assert asked == [said("Correct Bob's draw from blue 2 to blue 3, as the camera sees it? "
                              "Everyone will be told.")]
        # Judged again on a still picture taken after the correction (three frames a second apart, then a poll).
        expect(camera).to_contain_text("The camera agrees with the board", timeout=15000)
        expect(camera.locator("#camera-correct")).to_have_count(0)
        expect(host.locator("#instruction")).to_contain_text("blue 3")

        lobby = new_page(browser, errors, "lobby")
        lobby.goto(f"http://127.0.0.1:{port}/")
        lobby.click("#read-camera")
        expect(lobby.locator("input[name=setup]")).to_have_value(
            "1: green red; 7: blue purple yellow; 14: black; 16: white"
        )
        assert errors == []
        for page in (host, lobby):
            page.context.close()
    finally:
        server.terminate()
        server.wait()


def steady(port: int, game_id: str, token: str) -> None:
    deadline = time.monotonic() + 15
    while request(port, "GET", f"/api/games/{game_id}/camera", None, token)[1]["state"] != "reading":
        assert time.monotonic() < deadline, "the camera never settled on the picture"
        time.sleep(0.2)


def test_a_right_board_under_a_hand_is_no_alarm_on_any_page(tmp_path, browser):
    """A photo-like table (not the renderer the reader was tuned on), the starting board set up right, an arm
    over it and no calibration: whatever the camera makes of it, no page claims a difference."""
    from vision.photo import make_table
    from vision.photo import render_scene as photograph

    start = {"1": ["green", "red"], "2": ["yellow"], "3": ["blue", "purple"], "14": ["black"], "16": ["white"]}
    frame, _ = photograph(make_table(501, "2018"), {int(space): stack for space, stack in start.items()}, 501,
                          "props", hand=True)
    port, server = start_with_camera(tmp_path, frame)
    errors: list[str] = []
    try:
        _, game = request(port, "POST", "/api/games", {"edition": "2018", "players": ["Ann", "Bob"],
                                                       "dice": "manual", "setup": {"track": start}})
        game_id = game["game_id"]
        deadline = time.monotonic() + 20
        while True:  # the camera's word on this frame: a verdict, or a state it stays in
            report = request(port, "GET", f"/api/games/{game_id}/camera", None, game["host_token"])[1]
            if "verdict" in report or report["state"] in ("reading", "board not found") or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        kind = report.get("verdict", {}).get("answer", "").split(" ")[0]
        assert kind != "differs", report["verdict"]
        seats = {seat["player"]: seat["token"] for seat in game["seats"]}
        pages = {"host": (f"http://127.0.0.1:{port}/host/{game_id}#{game['host_token']}", HOST),
                 "table": (f"http://127.0.0.1:{port}/table/{game_id}#{game['table_token']}", TV),
                 "phone": (f"http://127.0.0.1:{port}/join/{seats['Bob']}", PHONE)}
        for name, (url, options) in pages.items():
            page = new_page(browser, errors, name, **options)
            page.goto(url)
            box = page.locator("#camera")
            expect(box).to_contain_text(re.compile(r"camera (agrees|cannot tell)|Waiting|Board not found"),
                                        timeout=10000)
            expect(box).not_to_contain_text("should be")
            expect(box).not_to_contain_text("differs")
            expect(box.locator("#camera-correct")).to_have_count(0)
            page.screenshot(path=SHOTS / f"camera-hand-{name}.png")
            page.context.close()
        assert errors == []
    finally:
        server.terminate()
        server.wait()


# ---------------------------------------------------------------------------------------------------------
# The camera's report stubbed in the browser: each verdict as the server words it (the blind reading's
# differences beside it, as on a correct board the camera reads wrongly).
BLIND = {"state": "reading", "message": "the board differs from the game",
         "differences": ["yellow should be alone on 2; the camera sees it alone on 15"]}
FR_BLIND = {"state": "reading", "message": "le plateau diffère de la partie",
            "differences": ["jaune devrait être seul sur la case 2 ; la caméra le voit seul sur la case 15"]}
MATCHES = {**BLIND, "verdict": {"answer": "matches", "matches": True, "unseen": [], "differences": [], "margin": 3.1},
           "learnt": "calibrated from the board the game confirmed"}
CANNOT_TELL = {**BLIND, "verdict": {
    "answer": "cannot tell (spaces 5, 6 not clear enough)", "unclear": [5, 6], "matches": None,
    "unseen": ["blue", "purple"],
    "differences": ["blue should be on 5 under purple; the camera does not see it"], "margin": 0.2}}
CANNOT_TELL_ONE = {**BLIND, "verdict": {**CANNOT_TELL["verdict"], "answer": "cannot tell (space 10 not clear enough)",
                                         "unclear": [10]}}
ENTRY = {"index": 1, "was": {"player": "Bob", "type": "pyramid", "die": "blue", "value": 2},
         "becomes": {"player": "Bob", "type": "pyramid", "die": "blue", "value": 3}}
DIFFERS = {**BLIND, "verdict": {
    "answer": "differs: most likely Bob's pyramid ticket: blue 2 → blue 3", "matches": False, "unseen": [],
    "differences": ["blue should be on 6 under purple; the camera sees it on 7 under purple"],
    "most_likely": "Bob's pyramid ticket: blue 2 → blue 3", "correction": ENTRY, "margin": 2.4}}
FR_DIFFERS = {**FR_BLIND, "verdict": {
    **DIFFERS["verdict"],
    "differences": ["bleu devrait être sur la case 6, sous violet ; la caméra le voit sur la case 7, sous violet"]}}
SLIP = {**BLIND, "verdict": {
    "answer": "differs: most likely yellow set down on 3 on top of red, not on 2", "matches": False, "unseen": [],
    "differences": ["yellow should be alone on 2; the camera sees it on 3 on top of red"],
    "most_likely": "yellow set down on 3 on top of red, not on 2", "margin": 1.6}}
UNSETTLED = {"state": "unsettled", "message": "waiting for the board to stay still"}
NOT_FOUND = {"state": "board not found", "message": "board not found: 2 of 4 markers seen"}
REFUSED = {"error": "the camera no longer sees a board one die entry explains: nothing corrected",
           "code": "CameraNothingToCorrect"}


class StubbedCamera:
    """Answers a page's camera requests: the report in :attr:`report`; a correction refused with 409, or
    answered with :attr:`answer` when there is one."""

    def __init__(self, report: dict) -> None:
        self.report = report
        self.answer: dict | None = None
        self.posts: list[str | None] = []

    def attach(self, page) -> None:
        page.route(re.compile(r"/api/games/\w+/camera(\?.*)?$"), self._report)
        page.route(re.compile(r"/api/games/\w+/camera/correct$"), self._correct)

    def _report(self, route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(self.report))

    def _correct(self, route) -> None:
        self.posts.append(route.request.post_data)
        status, body = (409, REFUSED) if self.answer is None else (200, self.answer)
        route.fulfill(status=status, content_type="application/json", body=json.dumps(body))


def open_pages(browser, server, camera: StubbedCamera, errors: list[str], lang: str = "en"):
    game = server.create(["Ann", "Bob"], {"track": SETUP})
    pages = {}
    for name, url, options in (("host", server.host_url(game), HOST), ("table", server.table_url(game), TV)):
        page = new_page(browser, errors, name, lang, **options)
        camera.attach(page)
        page.goto(url)
        pages[name] = page
    bob = new_page(browser, errors, "Bob", lang, **PHONE)
    camera.attach(bob)
    bob.goto(server.join_url(game, "Bob"))
    bob.wait_for_url(f"**/play/{game['game_id']}")
    pages["phone"] = bob
    camera.game = game
    return pages


def shoot_and_check(pages, kind: str, lang: str = "en") -> None:
    """Screenshots of each page and its camera box (build/screenshots), then what a user of assistive
    technology or of the page's language would hit: axe-core's serious findings, English words in French."""
    from tests.test_browser_i18n_a11y import english_words, serious_violations

    findings = []
    for name, page in pages.items():
        page.locator("#camera").screenshot(path=SHOTS / f"camera-{kind}-{name}-box.png")
        page.screenshot(path=SHOTS / f"camera-{kind}-{name}.png")
        findings += [(name, violation) for violation in serious_violations(page)]
        if lang != "en":
            findings += [(name, word) for word in english_words(page)]
    assert findings == []


def test_every_page_says_the_verdict_not_the_blind_reading(server, browser):
    camera = StubbedCamera(MATCHES)
    errors: list[str] = []
    pages = open_pages(browser, server, camera, errors)
    for name, page in pages.items():
        box = page.locator("#camera")
        expect(box).to_have_attribute("data-verdict", "matches", timeout=8000)
        expect(box).to_contain_text("The camera agrees with the board")
        expect(box).not_to_contain_text("differs")
        expect(box).not_to_contain_text("yellow should be")
        expect(box.locator("#camera-correct")).to_have_count(0)
        # Whether the camera calibrated itself: the host's concern, not the players'.
        expect(box.locator(".camera-learnt")).to_have_count(1 if name == "host" else 0)
    expect(pages["host"].locator(".camera-learnt")).to_have_text(
        "Calibration: calibrated from the board the game confirmed")
    shoot_and_check(pages, "matches")

    # A correct board the camera cannot make out (a hand over two spaces): a neutral note, no difference claimed.
    camera.report = CANNOT_TELL
    for page in pages.values():
        box = page.locator("#camera")
        expect(box).to_have_attribute("data-verdict", "cannot-tell", timeout=8000)
        expect(box).to_have_text(re.compile(r"The camera cannot tell: spaces 5, 6 are not clear enough"))
        expect(box).not_to_contain_text("should be")
        expect(box).not_to_contain_text("differs")
        expect(box.locator(".instruction")).to_have_count(0)
        expect(box.locator("#camera-correct")).to_have_count(0)
    shoot_and_check(pages, "cannot-tell")
    camera.report = CANNOT_TELL_ONE
    expect(pages["phone"].locator("#camera")).to_contain_text("The camera cannot tell: space 10 is not clear enough",
                                                              timeout=8000)
    unclear = "cannot tell (the board is not clear enough)"
    camera.report = {**BLIND, "verdict": {**{k: v for k, v in CANNOT_TELL["verdict"].items() if k != "unclear"},
                                          "answer": unclear}}
    expect(pages["phone"].locator("#camera .camera-verdict")).to_have_text(
        "The camera cannot tell: the board is not clear enough (a hand or a piece in the way?)", timeout=8000)

    # A die entered wrongly: the differences, the entry in words, and the host alone may correct it.
    camera.report = DIFFERS
    for name, page in pages.items():
        box = page.locator("#camera")
        expect(box).to_have_attribute("data-verdict", "differs", timeout=8000)
        expect(box.locator(".camera-verdict")).to_have_text("The board differs from the game")
        expect(box.locator(".camera-differences li")).to_have_text(
            ["blue should be on 6 under purple; the camera sees it on 7 under purple"])
        expect(box).not_to_contain_text("yellow should be")
        expect(box.locator(".camera-why")).to_have_text(
            said("Most likely: Bob's draw was entered as blue 2; the board shows blue 3"))
        expect(box.locator("#camera-correct")).to_have_count(1 if name == "host" else 0)
        # Said to screen readers once, when the difference appears.
        expect(page.locator("#announce")).to_have_text(said(
            "The board differs from the game. Most likely: Bob's draw was entered as blue 2; the board shows blue 3"))
    shoot_and_check(pages, "differs")
    # The next frames say the same (only the margin moves): the host's button is not redrawn under their finger.
    pages["host"].locator("#camera-correct").focus()
    camera.report = {**DIFFERS, "verdict": {**DIFFERS["verdict"], "margin": 2.9}}
    pages["host"].wait_for_timeout(2500)  # one poll of the camera
    expect(pages["host"].locator("#camera-correct")).to_be_focused()
    # Asked first, as undo is: declined, nothing is sent.
    asked: list[str] = []
    pages["host"].once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    pages["host"].locator("#camera-correct").click()
    pages["host"].wait_for_timeout(300)
    assert asked == [said("Correct Bob's draw from blue 2 to blue 3, as the camera sees it? Everyone will be told.")]
    assert camera.posts == []
    # The server refuses (the board changed since): its words, and nothing else happens.
    pages["host"].once("dialog", lambda dialog: dialog.accept())
    pages["host"].locator("#camera-correct").click()
    expect(pages["host"].locator(".toast")).to_have_text(REFUSED["error"])
    assert camera.posts == [None]  # no body, as the server expects

    # A hand's slip: no die entry explains it, so no button; the slip in words.
    camera.report = SLIP
    box = pages["host"].locator("#camera")
    expect(box.locator(".camera-why")).to_have_text("Most likely: yellow was set down on 3 on top of red, not on 2",
                                                    timeout=8000)
    expect(box.locator("#camera-correct")).to_have_count(0)
    expect(pages["table"].locator("#camera .camera-why")).to_contain_text("yellow was set down on 3 on top of red")
    # A grey die entered with the wrong colour: the crazy camel it moved, in words.
    grey = {"index": 2, "was": {"player": "Ann", "type": "pyramid", "die": "grey", "value": 2, "crazy": "white"},
            "becomes": {"player": "Ann", "type": "pyramid", "die": "grey", "value": 2, "crazy": "black"}}
    camera.report = {**DIFFERS, "verdict": {**DIFFERS["verdict"], "correction": grey,
                                            "most_likely": "Ann's pyramid ticket: grey 2 (white number) → grey 2"}}
    expect(box.locator(".camera-why")).to_have_text(
        said("Most likely: Ann's draw was entered as grey 2 (white number); the board shows grey 2 (black number)"),
        timeout=8000)
    expect(box.locator("#camera-correct")).to_have_count(1)

    # No verdict (no steady frame yet): the camera's state, as before.
    camera.report = UNSETTLED
    for page in pages.values():
        expect(page.locator("#camera")).to_contain_text("Waiting for a still board", timeout=8000)
        expect(page.locator("#camera")).to_have_attribute("data-verdict", "")
        expect(page.locator("#camera-correct")).to_have_count(0)
    camera.report = NOT_FOUND
    expect(pages["host"].locator("#camera")).to_contain_text("Board not found", timeout=8000)
    expect(pages["host"].locator("#placement-link")).to_have_class(re.compile(r"\bprimary\b"))
    assert errors == []
    for page in pages.values():
        page.context.close()


def test_the_verdict_in_french(server, browser):
    camera = StubbedCamera(FR_DIFFERS)
    errors: list[str] = []
    pages = open_pages(browser, server, camera, errors, lang="fr")
    for name, page in pages.items():
        box = page.locator("#camera")
        expect(box.locator(".camera-verdict")).to_have_text("Le plateau diffère de la partie", timeout=8000)
        expect(box.locator(".camera-why")).to_have_text(
            said("Le plus probable : le tirage de Bob a été saisi bleu 2 ; le plateau montre bleu 3"))
        expect(box.locator("#camera-correct")).to_have_count(1 if name == "host" else 0)
    expect(pages["host"].locator("#camera-correct")).to_have_text("La caméra a raison : corriger le tirage")
    shoot_and_check(pages, "differs-fr", "fr")
    # A refusal this language has no words for: the server's own words rather than a bare "refused". Asked
    # first, in French.
    asked: list[str] = []
    pages["host"].on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    pages["host"].locator("#camera-correct").click()
    expect(pages["host"].locator(".toast")).to_have_text(REFUSED["error"])
    expect(pages["host"].locator(".toast")).to_have_attribute("lang", "en")
    # Accepted: said in French, from the correction the button was shown for.
    game = camera.game
    _, state = request(server.port, "GET", f"/api/games/{game['game_id']}/state", None, game["host_token"])
    camera.answer = {"state": state, "correction": "Bob's pyramid ticket: blue 2 → blue 3"}
    pages["host"].locator("#camera-correct").click()
    expect(pages["host"].locator(".toast")).to_have_text(
        said("Corrigé : le tirage de Bob est maintenant bleu 3 ; il avait été saisi bleu 2"))
    expect(pages["host"].locator(".toast")).not_to_have_attribute("lang", "en")
    assert asked == 2 * [said("Corriger le tirage de Bob de bleu 2 en bleu 3, comme la caméra le voit ? "
                              "Chacun en sera informé.")]

    camera.report = {**CANNOT_TELL, **FR_BLIND}
    expect(pages["table"].locator("#camera")).to_contain_text(
        "La caméra ne peut pas trancher : les cases 5, 6 ne sont pas assez nettes", timeout=8000)
    camera.report = {**SLIP, **FR_BLIND}
    expect(pages["phone"].locator("#camera .camera-why")).to_have_text(
        "Le plus probable : jaune a été posé sur la case 3, sur rouge, pas sur la case 2", timeout=8000)
    # A cause the page has no words for: the server's, marked as English.
    camera.report = {**SLIP, **FR_BLIND, "verdict": {**SLIP["verdict"], "most_likely": "green and red moved as one"}}
    expect(pages["phone"].locator('#camera .camera-why span[lang="en"]')).to_have_text("green and red moved as one",
                                                                                       timeout=8000)
    camera.report = {**MATCHES, **FR_BLIND}
    expect(pages["phone"].locator("#camera")).to_contain_text("La caméra est d'accord avec le plateau", timeout=8000)
    # The server's words on calibration are English: said as English, after a French label.
    learnt = pages["host"].locator("#camera .camera-learnt")
    expect(learnt).to_have_text("Étalonnage : calibrated from the board the game confirmed")
    expect(learnt.locator('span[lang="en"]')).to_have_text(MATCHES["learnt"])
    # With its catalog words, the line is French and says which edition's colours the camera reads with.
    camera.report = {**MATCHES, **FR_BLIND, "learnt_words": {"key": "camera_learnt.line", "params": {
        "edition": "2014", "state": {"key": "camera_learnt.confirmed", "params": {}}}}}
    expect(learnt).to_have_text("Étalonnage : édition 2014 : étalonnée sur un plateau confirmé par la partie",
                                timeout=8000)
    expect(learnt.locator('span[lang="en"]')).to_have_count(0)
    shoot_and_check(pages, "matches-fr", "fr")
    assert errors == []
    for page in pages.values():
        page.context.close()


# ---------------------------------------------------------------------------------------------------------
# The real server with a camera in "files" mode, the picture replaced as the people at the table move camels.
APART = {2: ["green"], 5: ["yellow"], 7: ["red"], 10: ["blue"], 12: ["purple"], 14: ["black"], 16: ["white"]}


def show_board(path, track) -> None:
    """The camera's picture becomes ``track`` (written beside it, then moved over it: never half a file)."""
    import os

    import cv2

    image, _ = render_scene(load_template("2018"), track, 3, CLEAN)
    partial = path.with_name("next-board.png")
    cv2.imwrite(str(partial), image)
    os.replace(partial, path)


def record_verdicts(page) -> None:
    """Every kind of verdict the page's camera box shows from now on, in order (``window.verdicts``)."""
    page.evaluate("""() => {
      const box = document.querySelector('#camera');
      window.verdicts = [box.dataset.verdict || ''];
      new MutationObserver(() => {
        const kind = box.dataset.verdict || '';
        if (window.verdicts[window.verdicts.length - 1] !== kind) window.verdicts.push(kind);
      }).observe(box, { attributes: true, attributeFilter: ['data-verdict'] });
    }""")


def two_player_game(port, dice):
    """A 2018 game of Ann and Bob from the APART board, its dice entered by hand or drawn by the pyramid."""
    setup = {"track": {str(space): stack for space, stack in APART.items()}}
    _, game = request(port, "POST", "/api/games",
                      {"edition": "2018", "players": ["Ann", "Bob"], "dice": dice, "setup": setup})
    return game


def test_a_roll_moved_before_it_is_typed_in_is_no_alarm_and_the_entry_is_judged_on_a_fresh_picture(tmp_path, browser):
    image, _ = render_scene(load_template("2018"), APART, 3, CLEAN)
    port, server = start_with_camera(tmp_path, image)
    picture = tmp_path / "board.png"
    errors: list[str] = []
    try:
        game = two_player_game(port, "manual")
        token, game_id = game["host_token"], game["game_id"]
        host = new_page(browser, errors, "host", **HOST)
        host.goto(f"http://127.0.0.1:{port}/host/{game_id}#{token}")
        table = new_page(browser, errors, "table", **TV)
        table.goto(f"http://127.0.0.1:{port}/table/{game_id}#{game['table_token']}")
        for page in (host, table):
            expect(page.locator("#camera")).to_contain_text("The camera agrees with the board", timeout=20000)
            record_verdicts(page)
        # Ann rolls red 2 and moves red from 7 to 9; she has not typed it in yet.
        moved = {**{space: stack for space, stack in APART.items() if space != 7}, 9: ["red"]}
        show_board(picture, moved)
        for page in (host, table):
            box = page.locator("#camera")
            expect(box).to_have_attribute("data-verdict", "pending", timeout=15000)
            expect(box.locator(".camera-verdict")).to_have_text("The board shows a draw not entered yet: red 2?")
            expect(box).not_to_contain_text("differs")
            expect(box.locator("#camera-correct")).to_have_count(0)
        host.screenshot(path=SHOTS / "camera-pending-host.png")
        table.screenshot(path=SHOTS / "camera-pending-table.png")
        # Typed in: judged again on pictures taken after the entry, which match.
        request(port, "POST", f"/api/games/{game_id}/actions",
                {"player": "Ann", "type": "pyramid", "die": "red", "value": 2}, token)
        for page in (host, table):
            expect(page.locator("#camera")).to_have_attribute("data-verdict", "matches", timeout=15000)
            assert "differs" not in page.evaluate("window.verdicts"), page.evaluate("window.verdicts")
        assert errors == []
        for page in (host, table):
            page.context.close()
    finally:
        server.terminate()
        server.wait()


def test_a_pyramid_draw_is_never_judged_on_the_picture_before_it_and_a_slip_is_put_back(tmp_path, browser):
    image, _ = render_scene(load_template("2018"), APART, 3, CLEAN)
    port, server = start_with_camera(tmp_path, image)
    picture = tmp_path / "board.png"
    errors: list[str] = []
    try:
        game = two_player_game(port, "pyramid")
        token, game_id = game["host_token"], game["game_id"]
        url = f"/api/games/{game_id}/camera"
        host = new_page(browser, errors, "host", **HOST)
        host.goto(f"http://127.0.0.1:{port}/host/{game_id}#{token}")
        box = host.locator("#camera")
        expect(box).to_contain_text("The camera agrees with the board", timeout=20000)
        # The pyramid releases a die; nobody has touched a camel: that picture is no verdict on the new game.
        _, drawn = request(port, "POST", f"/api/games/{game_id}/actions", {"player": "Ann", "type": "pyramid"}, token)
        stale = request(port, "GET", url, None, token)[1]
        assert "verdict" not in stale and stale["state"] == "unsettled", stale
        record_verdicts(host)
        # Pictures taken after the draw, the camel not moved yet: the camera waits for the move, calmly.
        last = drawn["state"]["last_action"]
        die = f"grey {last['value']} ({last['crazy']} number)" if last["crazy"] else f"{last['die']} {last['value']}"
        expect(box).to_have_attribute("data-verdict", "pending", timeout=15000)
        expect(box.locator(".camera-verdict")).to_have_text(f"The camera waits for {die} to be moved on the board")
        expect(box.locator("#camera-correct")).to_have_count(0)
        host.screenshot(path=SHOTS / "camera-pyramid-unmoved-host.png")
        assert "differs" not in host.evaluate("window.verdicts"), host.evaluate("window.verdicts")
        # A hand sets the drawn camel (and what it carries) down one space too far.
        camel, end, beyond, board = one_space_too_far(drawn["state"], APART)
        show_board(picture, board)
        expect(box).to_have_attribute("data-verdict", "differs", timeout=15000)
        expect(box.locator(".camera-why")).to_contain_text(f"To put it right: put {camel} back")
        expect(box.locator(".camera-why")).to_contain_text(f"on {end}")
        alone = "alone " if len(board[beyond]) == 1 else ""
        expect(box.locator(".camera-why")).to_contain_text(f"the camera sees it {alone}on {beyond}")
        expect(box.locator("#camera-correct")).to_have_count(0)  # the pyramid's draw is a fact
        host.screenshot(path=SHOTS / "camera-pyramid-put-back-host.png")
        box.screenshot(path=SHOTS / "camera-pyramid-put-back-host-box.png")
        refused = urllib_status(port, "POST", f"{url}/correct", token)
        assert refused[0] == 409 and refused[1]["code"] == "PyramidDraw", refused
        assert [entry["die"] for entry in drawn["state"]["ticker"]] == [
            entry["die"] for entry in request(port, "GET", f"/api/games/{game_id}/state", None, token)[1]["ticker"]]
        show_board(picture, {int(space): stack for space, stack in drawn["state"]["track"].items() if stack})
        expect(box).to_have_attribute("data-verdict", "matches", timeout=15000)
        assert errors == []
        host.context.close()
    finally:
        server.terminate()
        server.wait()


def urllib_status(port: int, method: str, path: str, token: str) -> tuple[int, dict]:
    """A request whose refusal is the answer looked for: its status and body."""
    import urllib.error

    try:
        return request(port, method, path, None, token)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


PENDING = {**BLIND, "verdict": {
    "answer": "pending: a draw not entered yet: grey 2 (black number)", "matches": None, "unseen": [],
    "differences": [], "most_likely": "a draw not entered yet: grey 2 (black number)", "margin": 2.2,
    "pending": {"player": "Ann", "die": "grey", "value": 2, "crazy": "black"}}}
PUT_BACK = {**BLIND, "verdict": {
    "answer": "differs: most likely put blue with purple on it back on 4: it stands on 5 on top of yellow",
    "matches": False, "unseen": [],
    "differences": ["blue should be on 4 under purple; the camera sees it on 5 on top of yellow"],
    "most_likely": "put blue with purple on it back on 4: it stands on 5 on top of yellow",
    "margin": 1.9}}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_draw_not_entered_yet_is_calm_and_a_slip_in_a_pyramid_game_says_what_to_put_back(server, browser, lang):
    words = {
        "en": ("The board shows a draw not entered yet: grey 2 (black number)?",
               "To put it right: put blue, with purple on it, back on 4: the camera sees it on 5 on top of yellow"),
        "fr": ("Le plateau montre un tirage pas encore saisi : gris 2 (chiffre noir) ?",
               "Pour rectifier : remettez bleu, avec violet dessus, sur la case 4 : la caméra le voit sur la case 5, "
               "sur jaune"),
    }[lang]
    camera = StubbedCamera(PENDING if lang == "en" else {**PENDING, **FR_BLIND})
    errors: list[str] = []
    pages = open_pages(browser, server, camera, errors, lang)
    for page in pages.values():
        box = page.locator("#camera")
        expect(box).to_have_attribute("data-verdict", "pending", timeout=8000)
        expect(box.locator(".camera-verdict")).to_have_text(words[0])
        expect(box.locator(".instruction")).to_have_count(0)  # no alarm
        expect(box.locator("#camera-correct")).to_have_count(0)
        expect(page.locator("#announce")).not_to_contain_text(words[0])
    shoot_and_check(pages, f"pending-{lang}", lang)
    french = ["bleu devrait être sur la case 4, sous violet ; la caméra le voit sur la case 5, sur jaune"]
    camera.report = PUT_BACK if lang == "en" else {
        **PUT_BACK, **FR_BLIND, "verdict": {**PUT_BACK["verdict"], "differences": french}}
    for page in pages.values():
        box = page.locator("#camera")
        expect(box).to_have_attribute("data-verdict", "differs", timeout=8000)
        expect(box.locator(".camera-why")).to_have_text(said(words[1]))
        expect(box.locator("#camera-correct")).to_have_count(0)
    shoot_and_check(pages, f"put-back-{lang}", lang)
    unmoved = {"player": "Ann", "die": "red", "value": 3}
    camera.report = {**camera.report, "verdict": {
        "answer": "pending: the latest draw not moved yet: red 3", "matches": None, "unseen": [], "differences": [],
        "most_likely": "the latest draw not moved yet: red 3", "unmoved": unmoved, "margin": 2.0}}
    waits = {"en": "The camera waits for red 3 to be moved on the board",
             "fr": "La caméra attend que rouge 3 soit joué sur le plateau"}[lang]
    for page in pages.values():
        expect(page.locator("#camera .camera-verdict.pending")).to_have_text(waits, timeout=8000)
        expect(page.locator("#camera-correct")).to_have_count(0)
    assert errors == []
    for page in pages.values():
        page.context.close()


def test_no_page_shows_a_verdict_on_the_game_before_its_latest_change(server, browser):
    # The camera box asks every 2 s; an entry, a correction or an undo can land in between. Each verdict says
    # which version of the game it was worked out for: a page that learns of a change asks the camera again at
    # once, and never shows a verdict on an earlier version of the game. The pages' clocks stand still (no
    # poll): what they show comes from the game's change alone.
    game = server.create(["Ann", "Bob"], {"track": SETUP})
    version = request(server.port, "GET", f"/api/games/{game['game_id']}/state", None, game["host_token"])[1]["version"]
    camera = StubbedCamera({**DIFFERS, "verdict": {**DIFFERS["verdict"], "version": version}})
    errors: list[str] = []
    pages = {}
    for name, url, options in (("host", server.host_url(game), HOST), ("table", server.table_url(game), TV),
                               ("phone", server.join_url(game, "Bob"), PHONE)):
        page = new_page(browser, errors, name, **options)
        page.clock.install()
        camera.attach(page)
        page.goto(url)
        pages[name] = page
    for page in pages.values():
        expect(page.locator("#camera")).to_have_attribute("data-verdict", "differs", timeout=8000)
        page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    # Ann's draw is entered; the camera's answer on the game after it agrees.
    camera.report = {**MATCHES, "verdict": {**MATCHES["verdict"], "version": version + 1}}
    server.act(game, "Ann", type="pyramid", die="red", value=1)
    for page in pages.values():
        box = page.locator("#camera")
        expect(box).to_have_attribute("data-verdict", "matches", timeout=5000)
        expect(box).to_contain_text("The camera agrees with the board")
    # Bob's draw is entered, and the camera still answers about the game before it (its still run after the
    # draw has not begun): no page shows that answer, whatever it says.
    server.act(game, "Bob", type="pyramid", die="blue", value=2)
    for name, page in pages.items():
        box = page.locator("#camera")
        expect(box).to_have_attribute("data-verdict", "", timeout=5000)
        expect(box).to_contain_text("Waiting for a still board")
        expect(box).not_to_contain_text("agrees")
        page.clock.run_for(4500)  # two polls: the same answer, still about the game before the draw
        expect(box).to_contain_text("Waiting for a still board")
        page.screenshot(path=SHOTS / f"camera-earlier-version-{name}.png")
    assert len(camera.posts) == 0 and errors == []
    for page in pages.values():
        page.context.close()


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_the_table_screen_does_not_jump_as_the_camera_s_word_changes(server, browser, size):
    # Where the panel has room to spare, the camera box's place keeps the height of a difference with its cause
    # and list: the piles and the players below it stay put as the camera agrees, waits, cannot tell, differs.
    camera = StubbedCamera(MATCHES)
    errors: list[str] = []
    game = server.create(["Ann", "Bob", "Cy"], {"track": SETUP})
    page = new_page(browser, errors, "table", viewport={"width": size[0], "height": size[1]})
    camera.attach(page)
    page.goto(server.table_url(game))
    long = {**DIFFERS, "verdict": {**DIFFERS["verdict"], "differences": DIFFERS["verdict"]["differences"] * 3}}
    tops = []
    for report, kind in ((MATCHES, "matches"), (UNSETTLED, ""), (CANNOT_TELL, "cannot-tell"), (long, "differs"),
                         (MATCHES, "matches")):
        camera.report = report
        expect(page.locator("#camera")).to_have_attribute("data-verdict", kind, timeout=8000)
        expect(page.locator("#camera > p").first).to_be_visible()
        page.wait_for_timeout(100)  # the panel fitted to it (on the box's change)
        tops.append((kind, *(page.locator(part).bounding_box()["y"] for part in (".stacks-box", "#players"))))
    assert len({(stacks, players) for _, stacks, players in tops}) == 1, tops
    # The room is spare room: every player is still on screen.
    last = page.locator("#players > li").last.bounding_box()
    assert last["y"] + last["height"] <= size[1]
    assert errors == []
    page.context.close()


def test_the_host_sees_what_is_wrong_with_the_picture_beside_the_verdict(server, browser):
    """A verdict on a frame too dark to trust: the host (who can fix the light) reads why beside it; the players'
    pages and the table screen keep to the verdict."""
    dark = "the picture is too dark (the markers' white paper is at 41 of 255, the reader needs 60): add light"
    camera = StubbedCamera({**MATCHES, "verdict": {**MATCHES["verdict"], "problems": [dark]}})
    errors: list[str] = []
    pages = open_pages(browser, server, camera, errors)
    for name, page in pages.items():
        box = page.locator("#camera")
        expect(box).to_have_attribute("data-verdict", "matches", timeout=8000)
        if name == "host":
            expect(box.locator(".camera-detail")).to_have_text(dark)
        else:
            expect(box).not_to_contain_text("too dark")
    assert errors == []
    for page in pages.values():
        page.context.close()
