"""A real phone (390 px wide, in French): the lobby's "Read with the camera" on a 2014 board where the camera
does not see white fills in what it saw, names white for the host to add (the field marked incomplete), and
shows the read start in full under the field, a space a line (the field alone runs off the screen)."""

import contextlib
import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import cv2
import pytest

from tests.browser_kit import PHONE, new_page
from tests.test_crash import start_with_camera
from vision.board import load_template
from vision.synth import SceneVariation, render_scene

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

CLEAN = SceneVariation(
    light=(1.0, 1.0), cast=(1.0, 1.0), noise_sigma=(0.0, 0.0), blur=(0,), jpeg_quality=(95, 95), hand_chance=0.0
)
WITHOUT_WHITE = {1: ["blue", "green"], 2: ["orange"], 3: ["yellow"]}


@contextlib.contextmanager
def pages_on(server: subprocess.Popen, browser: Any) -> Iterator[Callable[..., Any]]:
    """For the block: opens pages (``browser_kit.new_page``'s name, language and context) on ``server``, a process of
    its own. None of them may have a script error; after the block their contexts are closed and the server is
    stopped, however the block ends."""
    errors: list[str] = []
    with contextlib.ExitStack() as after:  # undone last first, each even if one before it fails: pages, then server
        after.callback(server.wait)
        after.callback(server.terminate)

        def open_page(name: str, lang: str = "en", **context: Any) -> Any:
            page = new_page(browser, errors, name, lang, **context)
            after.callback(page.context.close)  # nothing when the test closed it already
            return page

        yield open_page
        assert errors == []


def test_a_partial_read_fills_what_it_saw_and_names_the_missing_camel_in_french(tmp_path, browser):
    frame = render_scene(load_template("2014"), WITHOUT_WHITE, 3, CLEAN)[0]
    port, server = start_with_camera(tmp_path, frame, board="2014")
    with pages_on(server, browser) as open_page:
        lobby = open_page("lobby", "fr", **PHONE)
        lobby.goto(f"http://127.0.0.1:{port}/")
        lobby.select_option("select[name=edition]", "2014")
        lobby.click("#read-camera")
        field = lobby.locator("input[name=setup]")
        expect(field).to_have_value("1: bleu vert; 2: orange; 3: jaune", timeout=20000)
        expect(field).to_have_attribute("aria-invalid", "true")  # not complete: it does not look so
        unseen = lobby.locator("#setup-unseen")
        expect(unseen).to_be_visible()
        expect(unseen).to_contain_text("La caméra n'a pas vu blanc")
        assert lobby.locator(".toast.show").count() == 0  # no "Action refusée" for a read it could mostly do
        parts = lobby.locator("#setup-parts li")
        expect(parts).to_have_count(3)
        for index in range(3):  # each part in full on the screen
            box = parts.nth(index).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        unseen.scroll_into_view_if_needed()
        lobby.screenshot(path=str(tmp_path / "lobby-partial-read-390.png"))
        # The host adds white: the field is no longer marked incomplete.
        field.fill("1: bleu vert; 2: orange; 3: jaune blanc")
        expect(unseen).to_be_hidden()
        expect(field).not_to_have_attribute("aria-invalid", "true")


def test_a_lobby_read_of_a_2018_start_leaves_the_2014_game_in_play_checked(tmp_path, browser):
    """The lobby's read is a GET (a web page's picture can send it): it never takes the camera from a game in play
    (README, "Who uses the camera"). Said as the lobby read of another edition, once the game is left:
    tests/test_camera_setting_problems.py."""
    import urllib.error

    from tests.test_crash import request

    frame = render_scene(load_template("2014"), {1: ["blue", "green"], 2: ["orange"], 3: ["yellow", "white"]}, 3,
                         CLEAN)[0]
    port, server = start_with_camera(tmp_path, frame, board="2014")
    with pages_on(server, browser) as open_page:
        setup = {"track": {"1": ["blue", "green"], "2": ["orange"], "3": ["yellow", "white"]}}
        _, game = request(port, "POST", "/api/games", {"edition": "2014", "players": ["Ann", "Bob"],
                                                      "dice": "manual", "setup": setup})
        host = open_page("host", **PHONE)
        host.goto(f"http://127.0.0.1:{port}/host/{game['game_id']}#{game['host_token']}")
        camera = host.locator("#camera")
        expect(camera).to_contain_text("The camera agrees with the board", timeout=20000)
        with pytest.raises(urllib.error.HTTPError) as refused:
            request(port, "GET", "/api/camera/setup?edition=2018")
        assert refused.value.code == 409
        host.wait_for_timeout(3000)  # a poll or two: the camera still reads the 2014 board for this game
        text = camera.inner_text()
        assert "The camera agrees with the board" in text and "2018" not in text, text
        host.screenshot(path=str(tmp_path / "host14-after-lobby18.png"))


def test_the_host_and_the_table_screen_say_why_a_2014_game_is_not_checked(tmp_path, browser):
    from tests.test_crash import free_port, request, start_server

    frame = render_scene(load_template("2018"), {1: ["green"], 2: ["yellow", "red"], 3: ["blue", "purple"],
                                                 14: ["black"], 16: ["white"]}, 3, CLEAN)[0]
    cv2.imwrite(str(tmp_path / "board.png"), frame)
    missing = tmp_path / "missing14.json"
    config = tmp_path / "companion.toml"
    config.write_text(f'[camera]\nmode = "files"\nsource = "{tmp_path / "board.png"}"\nboard = "2018"\n'
                      f'calibration_2014 = "{missing}"\n')
    port = free_port()
    server = start_server(port, tmp_path / "data", extra=["--config", str(config)])
    with pages_on(server, browser) as open_page:
        setup = {"track": {"1": ["blue", "green"], "2": ["orange"], "3": ["yellow", "white"]}}
        _, game = request(port, "POST", "/api/games", {"edition": "2014", "players": ["Ann", "Bob"],
                                                      "dice": "manual", "setup": setup})
        for lang in ("en", "fr"):
            host = open_page("host", lang, **PHONE)
            host.goto(f"http://127.0.0.1:{port}/host/{game['game_id']}#{game['host_token']}")
            camera = host.locator("#camera")
            expect(camera).to_contain_text(f'calibration_2014 = "{missing}"', timeout=15000)
            expect(camera).to_contain_text(f"fix or empty calibration_2014 in {config}")
            host.screenshot(path=str(tmp_path / f"host14-setting-{lang}.png"))
            host.context.close()  # one host page at a time
        table = open_page("table")
        table.goto(f"http://127.0.0.1:{port}/table/{game['game_id']}#{game['table_token']}")
        expect(table.locator("#camera")).to_contain_text("The camera does not check this game's board",
                                                          timeout=15000)
