"""A real browser, as the builder of issue 11's placement assistant does it on the evening of the first game: a
throwaway game made to place the camera, its placement page, then the real game made on another phone, told the
camera checks another game and how it is freed. The builder taps "Done with the camera" and the real game's page
gets the camera's verdict; its host can let it go from the host page too (asked first) and ask for it back."""

import pytest

from tests.browser_kit import PHONE, SHOTS, new_page
from tests.test_crash import request, start_with_camera
from vision.board import load_template
from vision.synth import SceneVariation, render_scene

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

CLEAN = SceneVariation(
    light=(1.0, 1.0), cast=(1.0, 1.0), noise_sigma=(0.0, 0.0), blur=(0,), jpeg_quality=(95, 95), hand_chance=0.0
)
START = {"1": ["green", "red"], "3": ["yellow"], "4": ["blue", "purple"], "14": ["black"], "16": ["white"]}


def _game(port: int, players: list[str]) -> dict:
    _, game = request(port, "POST", "/api/games", {"edition": "2018", "players": players, "dice": "manual",
                                                  "setup": {"track": START}})
    return game


def test_the_builder_lets_the_camera_go_and_the_real_game_s_page_takes_it(tmp_path, browser):
    track = {int(space): stack for space, stack in START.items()}
    port, server = start_with_camera(tmp_path, render_scene(load_template("2018"), track, 3, CLEAN)[0])
    errors: list[str] = []
    base = f"http://127.0.0.1:{port}"
    try:
        throwaway = _game(port, ["Test", "Me"])
        builder = new_page(browser, errors, "builder", **PHONE)
        builder.goto(f"{base}/host/{throwaway['game_id']}#{throwaway['host_token']}")
        builder.locator("#placement-link").click()  # opening the placement assistant takes the camera
        expect(builder.locator("#placement-view")).to_be_visible(timeout=15000)  # the room, live

        real = _game(port, ["Ann", "Bob"])
        host = new_page(browser, errors, "host", **PHONE)
        host.goto(f"{base}/host/{real['game_id']}#{real['host_token']}")
        camera = host.locator("#camera")
        expect(camera).to_contain_text("The camera checks another game at this table: its host can release it")
        assert host.locator("#placement-link").count() == 0

        builder.locator("#placement-release-button").click()
        expect(builder.locator("#placement-released")).to_be_visible()
        assert builder.locator("#placement-view").is_hidden()
        builder.screenshot(path=str(SHOTS / "placement-released-phone.png"))
        # The real game's page takes the camera at its next look (every two seconds) and gets the verdict.
        expect(camera).to_contain_text("The camera agrees with the board", timeout=10000)
        expect(host.locator("#placement-link")).to_be_visible()
        host.screenshot(path=str(SHOTS / "host-camera-taken-after-release-phone.png"))

        # The real game's host lets it go from the Camera box (asked first), then asks for it back.
        host.once("dialog", lambda dialog: dialog.accept())
        host.locator("#camera-release").click()
        expect(camera).to_contain_text("You let another game use the camera")
        host.locator("#camera-take").click()
        expect(camera).to_contain_text("The camera agrees with the board", timeout=10000)
        assert errors == []
    finally:
        server.terminate()
        server.wait()
