"""A real browser: the lobby's "Read from the camera" right after the board changed waits for a steady reading
(showing that it reads) instead of failing on the first click, and says plainly to try again when there is none."""

import os
import time

import cv2
import numpy as np
import pytest

from tests.browser_kit import new_page
from tests.test_crash import request, start_with_camera
from vision.board import load_template
from vision.synth import SceneVariation, render_scene

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

CLEAN = SceneVariation(
    light=(1.0, 1.0), cast=(1.0, 1.0), noise_sigma=(0.0, 0.0), blur=(0,), jpeg_quality=(95, 95), hand_chance=0.0
)
FIRST = {1: ["green", "red"], 3: ["yellow"], 4: ["blue", "purple"], 14: ["black"], 16: ["white"]}
THEN = {2: ["green"], 3: ["red", "yellow"], 5: ["blue"], 12: ["purple"], 14: ["black", "white"]}


def show(folder, image) -> None:
    """The camera's picture changes at once (as a frame would), never half written."""
    cv2.imwrite(str(folder / "next.png"), image)
    os.replace(folder / "next.png", folder / "board.png")


def wait_state(port: int, settled: bool) -> None:
    deadline = time.monotonic() + 20
    while (request(port, "GET", "/api/camera")[1]["state"] == "reading") != settled:
        assert time.monotonic() < deadline, "the camera's state did not change"
        time.sleep(0.05)


def test_read_from_the_camera_waits_for_a_steady_board_then_says_try_again(tmp_path, browser):
    template = load_template("2018")
    port, server = start_with_camera(tmp_path, render_scene(template, FIRST, 3, CLEAN)[0])
    errors: list[str] = []
    try:
        lobby = new_page(browser, errors, "lobby")
        lobby.goto(f"http://127.0.0.1:{port}/")
        button = lobby.locator("#read-camera")
        expect(button).to_be_visible()
        wait_state(port, settled=True)
        # The board set up anew a moment ago: no steady reading yet, the first click waits for one.
        show(tmp_path, render_scene(template, THEN, 4, CLEAN)[0])
        wait_state(port, settled=False)
        button.click()
        expect(button).to_have_text("Reading the board…")
        expect(button).to_be_disabled()
        expect(lobby.locator("input[name=setup]")).to_have_value(
            "2: green; 3: red yellow; 5: blue; 12: purple; 14: black white", timeout=15000)
        expect(button).to_have_text("Read from the camera")
        expect(button).to_be_enabled()
        assert lobby.locator(".toast.show").count() == 0
        # No board at all: after a while it gives up, saying why and to try again.
        show(tmp_path, np.full((720, 1280, 3), 120, np.uint8))
        wait_state(port, settled=False)
        button.click()
        expect(button).to_have_text("Reading the board…")
        toast = lobby.locator(".toast.show")
        expect(toast).to_contain_text("the camera has no steady reading of the board", timeout=20000)
        expect(toast).to_contain_text("try again")
        expect(button).to_be_enabled()
        assert errors == []
        lobby.context.close()
    finally:
        server.terminate()
        server.wait()
