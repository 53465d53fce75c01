"""A real phone (390 px wide, in French): the lobby's "Read with the camera" on a 2014 board where the camera
does not see white fills in what it saw, names white for the host to add (the field marked incomplete), and
shows the read start in full under the field, a space a line (the field alone runs off the screen)."""

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


def test_a_partial_read_fills_what_it_saw_and_names_the_missing_camel_in_french(tmp_path, browser):
    frame = render_scene(load_template("2014"), WITHOUT_WHITE, 3, CLEAN)[0]
    port, server = start_with_camera(tmp_path, frame, board="2014")
    errors: list[str] = []
    try:
        lobby = new_page(browser, errors, "lobby", "fr", **PHONE)
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
        assert errors == []
        lobby.context.close()
    finally:
        server.terminate()
        server.wait()
