"""A real browser and a real server with a camera (an image file standing in for it): the host opens the
placement assistant from the host's page; it shows the annotated view and says what hides a marker and what to
do."""

import re
import shutil

import pytest

from tests.test_crash import request, start_with_camera
from tests.test_placement_page import SETUP, _palm_hiding_marker_1
from vision.focus import MAX_EDGE_PX
from vision.photo import make_table, render_scene

playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (make test installs it)")


def test_the_placement_page_shows_the_view_and_the_advice(tmp_path):
    hidden = _palm_hiding_marker_1(make_table(203, "2018"))  # its crown on the sight line to marker 1
    frame, _ = render_scene(hidden, {1: ["red"], 3: ["blue"]}, 2, "props", hand=False)
    port, server = start_with_camera(tmp_path, frame)
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
            # The camel row names the smallest camel, to 0.1 px, and its space (not "the farthest space").
            camels = page.locator("#placement-numbers tbody tr").filter(has_text="Smallest camel")
            expect(camels.locator("th")).to_have_text("Smallest camel")
            expect(camels.locator("td").first).to_contain_text(re.compile(r"^\d+\.\d\u00a0px \(space \d+\)"))
            # The picture's own figures: its sharpness against the reader's limit.
            sharpness = page.locator("#placement-numbers tbody tr").filter(has_text="Sharpness")
            expect(sharpness.locator("td").last).to_contain_text(f"at most {MAX_EDGE_PX:.1f}")
            # The calibration photo: taken by the companion's camera, kept beside the games, the command shown.
            with page.expect_download() as download:
                page.locator("#placement-photo-take").click()
            assert download.value.suggested_filename.startswith("camelup-calibration-")
            expect(page.locator("#placement-photo-said")).to_contain_text("calibration-photo.jpg --board 2018")
            expect(page.locator("#placement-back")).to_have_attribute("href", f"/host/{game['game_id']}")
            # A property check, not wait_for_function: the page's CSP forbids the eval a string predicate needs.
            expect(page.locator("#placement-view")).to_have_js_property("naturalWidth", 1280, timeout=10000)
            browser.close()
    finally:
        server.terminate()
