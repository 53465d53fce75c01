"""A real browser and a real server with a camera (an image file standing in for it): the host opens the
placement assistant from the host's page; it shows the annotated view and says what hides a marker and what to
do."""

import dataclasses
import shutil

import cv2
import numpy as np
import pytest

from tests.test_crash import free_port, request, start_server
from tests.test_placement_page import SETUP
from vision.photo import make_table, render_scene

playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (make test installs it)")


def test_the_placement_page_shows_the_view_and_the_advice(tmp_path):
    table = make_table(203, "2018")
    marker = np.array([*np.array(table.template.marker_corners(1)).mean(axis=0), 0.0])
    camera_at = table.camera.position
    crown = camera_at + (-200 - camera_at[2]) / (marker[2] - camera_at[2]) * (marker - camera_at)
    hidden = dataclasses.replace(table, palm=(float(crown[0]), float(crown[1])), pyramid=None)
    frame, _ = render_scene(hidden, {1: ["red"], 3: ["blue"]}, 2, "props", hand=False)
    cv2.imwrite(str(tmp_path / "board.png"), frame)
    config = tmp_path / "companion.toml"
    config.write_text(f'[camera]\nmode = "files"\nsource = "{tmp_path / "board.png"}"\nboard = "2018"\n')
    port = free_port()
    server = start_server(port, tmp_path / "data", extra=["--config", str(config)])
    try:
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 900, "height": 900})
            _, game = request(port, "POST", "/api/games", {"edition": "2018", "players": ["Ann", "Bob"],
                                                           "dice": "manual", "setup": SETUP})
            page.goto(f"http://127.0.0.1:{port}/host/{game['game_id']}#{game['host_token']}")
            expect = playwright_api.expect
            page.locator("#placement-link").click(timeout=15000)
            expect(page.locator("#placement-advice")).to_contain_text("marker 1 (top right) is hidden", timeout=15000)
            expect(page.locator("#placement-advice")).to_contain_text("raise the camera")
            expect(page.locator("#placement-numbers")).to_contain_text("65–90 cm")
            expect(page.locator("#placement-back")).to_have_attribute("href", f"/host/{game['game_id']}")
            # A property check, not wait_for_function: the page's CSP forbids the eval a string predicate needs.
            expect(page.locator("#placement-view")).to_have_js_property("naturalWidth", 1280, timeout=10000)
            browser.close()
    finally:
        server.terminate()
