"""A real browser and a real server with a camera (image files standing in for it): the host sees how the
board differs from the game, takes the camera's word for it, and the lobby reads a setup from the camera."""

import shutil

import pytest

from tests.test_crash import request, start_with_camera
from vision.board import load_template
from vision.synth import SceneVariation, render_scene

playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (make test installs it)")

CLEAN = SceneVariation(
    light=(1.0, 1.0), cast=(1.0, 1.0), noise_sigma=(0.0, 0.0), blur=(0,), jpeg_quality=(95, 95), hand_chance=0.0
)
SETUP = {"1": ["green", "red"], "3": ["yellow"], "4": ["blue", "purple"], "14": ["black"], "16": ["white"]}
# What the board looks like after yellow 1 and blue 3; the host enters blue 2 by mistake.
SEEN = {1: ["green", "red"], 7: ["blue", "purple", "yellow"], 14: ["black"], 16: ["white"]}


def test_the_host_takes_the_camera_s_word_and_the_lobby_reads_the_setup(tmp_path):
    image, _ = render_scene(load_template("2018"), SEEN, 3, CLEAN)
    port, server = start_with_camera(tmp_path, image)
    try:
        _, game = request(port, "POST", "/api/games",
                          {"edition": "2018", "players": ["Ann", "Bob"], "dice": "manual", "setup": {"track": SETUP}})
        token, game_id = game["host_token"], game["game_id"]
        for player, die, value in (("Ann", "yellow", 1), ("Bob", "blue", 2)):
            request(port, "POST", f"/api/games/{game_id}/actions",
                    {"player": player, "type": "pyramid", "die": die, "value": value}, token)
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            expect = playwright_api.expect
            host = browser.new_page(viewport={"width": 420, "height": 900})
            host.goto(f"http://127.0.0.1:{port}/host/{game_id}#{token}")
            camera = host.locator("#camera")
            expect(camera).to_contain_text("the board differs from the game", timeout=15000)
            expect(camera).to_contain_text("purple should be on 6 on top of blue; the camera sees it on 7")
            camera.locator("button").click()
            expect(host.locator(".toast").last).to_contain_text("Bob's pyramid ticket: blue 2 → blue 3")
            expect(camera).to_contain_text("the board matches the game", timeout=5000)
            expect(host.locator("#instruction")).to_contain_text("blue 3")

            lobby = browser.new_page()
            lobby.goto(f"http://127.0.0.1:{port}/")
            lobby.click("#read-camera")
            expect(lobby.locator("input[name=setup]")).to_have_value(
                "1: green red; 7: blue purple yellow; 14: black; 16: white"
            )
            browser.close()
    finally:
        server.terminate()
        server.wait()
