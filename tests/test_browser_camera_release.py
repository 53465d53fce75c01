"""A real browser, as the builder of issue 11's placement assistant does it on the evening of the first game: a
throwaway game made to place the camera, its placement page, then the real game made on another phone, told the
camera checks another game and how it is freed. The builder taps "Done with the camera" and the real game's page
gets the camera's verdict. When the builder asks for it back, the real game's host page says a game waits for it and
offers the button (asked first); let go, the builder's placement page shows the view again."""

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

        assert host.locator("#camera-release").count() == 0  # nobody waits for it: the box stays short

        # The builder wants it back: refused while the real game holds it (the page says how it is freed), and the
        # real game's host is told a game waits; it lets the camera go from its Camera box (asked first).
        builder.locator("#placement-take").click()
        expect(builder.locator("#toast")).to_contain_text("its host can release it")
        expect(host.locator("#camera")).to_contain_text("Another game at this table is asking for the camera")
        host.once("dialog", lambda dialog: dialog.accept())
        host.locator("#camera-release").click()
        expect(camera).to_contain_text("You let another game use the camera")
        builder.locator("#placement-take").click()
        expect(builder.locator("#placement-view")).to_be_visible(timeout=10000)
        expect(camera).to_contain_text("The camera checks another game at this table")
        assert errors == []
    finally:
        server.terminate()
        server.wait()
