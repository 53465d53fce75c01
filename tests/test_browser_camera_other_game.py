"""A real browser: a game the camera does not check (a second game made on the Wi-Fi while the real one is in
play) is told so on its host's page, in English and French, with which game holds it (its players and board, as
the lobby lists it), without the placement assistant's link (the room's view is for the host of the game the camera
checks; opened anyway, it names that game too), while the real game's host page keeps its verdict."""

import pytest

from tests.browser_kit import PHONE, new_page
from tests.test_crash import request, start_with_camera
from vision.board import load_template
from vision.synth import SceneVariation, render_scene

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

CLEAN = SceneVariation(
    light=(1.0, 1.0), cast=(1.0, 1.0), noise_sigma=(0.0, 0.0), blur=(0,), jpeg_quality=(95, 95), hand_chance=0.0
)
START = {"1": ["green", "red"], "3": ["yellow"], "4": ["blue", "purple"], "14": ["black"], "16": ["white"]}


@pytest.mark.parametrize(("lang", "words", "holder"), [
    ("en", "The camera checks another game at this table",
     "The game that has the camera: \u2068Ann and Bob\u2069 · 2018 board · started "),
    ("fr", "La caméra vérifie une autre partie à cette table",
     "La partie qui a la caméra : \u2068Ann et Bob\u2069 · plateau 2018 · début "),
])
def test_a_second_game_s_host_is_told_the_camera_checks_another_game(tmp_path, browser, lang, words, holder):
    track = {int(space): stack for space, stack in START.items()}
    port, server = start_with_camera(tmp_path, render_scene(load_template("2018"), track, 3, CLEAN)[0])
    errors: list[str] = []
    try:
        _, real = request(port, "POST", "/api/games", {"edition": "2018", "players": ["Ann", "Bob"],
                                                      "dice": "manual", "setup": {"track": START}})
        host = new_page(browser, errors, "host", **PHONE)
        host.goto(f"http://127.0.0.1:{port}/host/{real['game_id']}#{real['host_token']}")
        expect(host.locator("#camera")).to_contain_text("The camera agrees with the board", timeout=20000)
        _, other = request(port, "POST", "/api/games", {"edition": "2014", "players": ["X", "Y"], "dice": "manual"})
        stranger = new_page(browser, errors, "stranger", lang, **PHONE)
        stranger.goto(f"http://127.0.0.1:{port}/host/{other['game_id']}#{other['host_token']}")
        camera = stranger.locator("#camera")
        expect(camera).to_contain_text(words, timeout=15000)
        expect(camera.locator(".camera-holder")).to_contain_text(holder)
        assert stranger.locator("#placement-link").count() == 0
        stranger.screenshot(path=str(tmp_path / f"host-other-game-{lang}.png"))
        # The real game is still checked (the 2014 page did not switch the board).
        host.wait_for_timeout(2500)
        expect(host.locator("#camera")).to_contain_text("The camera agrees with the board")
        assert host.locator("#placement-link").count() == 1
        # The placement assistant opened from the other game (an old bookmark): refused, naming the game too.
        stranger.goto(f"http://127.0.0.1:{port}/camera/placement?game={other['game_id']}&token={other['host_token']}")
        expect(stranger.locator("#camera-holder")).to_contain_text(holder)
        assert errors == []
    finally:
        server.terminate()
        server.wait()
