"""The placement page's Sharpness and Exposure rows when no marker is found: the figures measured on the whole
picture (its sharpest edges' width, its brightest parts), said to be so and against the whole picture's limits,
instead of "not measured"; marked "to change" when that is what is wrong."""

import cv2
import numpy as np
import pytest

from tests.test_crash import request, start_with_camera
from tests.test_placement_page import SETUP
from tests.test_vision_unlocated_picture import exposed
from vision.focus import WHOLE_MAX_EDGE_PX, WHOLE_MIN_BRIGHT
from vision.photo import make_table, render_scene
from vision.placement import assess_placement


@pytest.fixture(scope="module")
def scene():
    table = make_table(211, "2018")
    picture, _ = render_scene(table, {1: ["red", "blue"], 3: ["yellow"], 14: ["green"], 16: ["white"]}, 1, "light")
    return table, picture


def open_placement(browser, port, game, lang, viewport):
    from tests.browser_kit import new_page

    errors: list[str] = []
    page = new_page(browser, errors, f"placement-{lang}", lang, viewport=viewport)
    page.goto(f"http://127.0.0.1:{port}/camera/placement?game={game['game_id']}&token={game['host_token']}")
    return page, errors


def rows(page):
    return {name: page.locator("#placement-numbers tbody tr").filter(has_text=name)
            for name in ("Sharpness", "Exposure", "Netteté", "Exposition")}


@pytest.mark.parametrize("harm", ["blurred", "dark"])
def test_without_markers_the_rows_show_the_whole_picture_s_figures(tmp_path, scene, browser, harm):
    from playwright.sync_api import expect

    from tests.browser_kit import PHONE, SHOTS

    table, picture = scene
    frame = cv2.GaussianBlur(picture, (0, 0), 8) if harm == "blurred" else exposed(picture, 0.003)
    whole = assess_placement(table.template, frame).as_json()["whole_picture"]
    assert whole is not None and whole["blurred" if harm == "blurred" else "too_dark"], whole
    port, server = start_with_camera(tmp_path, frame)
    try:
        _, game = request(port, "POST", "/api/games", {"edition": "2018", "players": ["Ann", "Bob"],
                                                       "dice": "manual", "setup": SETUP})
        page, errors = open_placement(browser, port, game, "en", {"width": 1920, "height": 1080})
        found = rows(page)
        sharp, bright = found["Sharpness"].locator("td"), found["Exposure"].locator("td")
        expect(sharp.first).to_contain_text(f"{whole['edge_px']:.1f}\u00a0px (whole picture)",
                                            timeout=20000)
        expect(sharp.last).to_have_text(f"at most {WHOLE_MAX_EDGE_PX:.1f}\u00a0px")
        expect(bright.first).to_contain_text(f"brightest parts {whole['bright']} of 255, "
                                             f"{round(100 * whole['clipped'])}% white (whole picture)")
        expect(bright.last).to_have_text(f"at least {WHOLE_MIN_BRIGHT:.0f}, at most 40% white")
        # The row of what is wrong says "to change"; the other one does not.
        bad, fine = found["Sharpness"], found["Exposure"]
        if harm == "dark":
            bad, fine = fine, bad
        expect(bad).to_have_class("bad")
        expect(bad.locator("td").first).to_contain_text("to change")
        expect(fine).not_to_have_class("bad")
        for cells in (sharp, bright):
            expect(cells.first).not_to_contain_text("not measured")
        page.screenshot(path=str(SHOTS / f"placement-whole-{harm}-en.png"), full_page=True)
        french, more_errors = open_placement(browser, port, game, "fr", PHONE["viewport"])
        edge = f"{whole['edge_px']:.1f}".replace(".", ",")  # written as French writes it
        expect(rows(french)["Netteté"].locator("td").first).to_contain_text(
            f"{edge}\u00a0px (image entière)", timeout=20000)
        expect(rows(french)["Netteté"].locator("td").last).to_have_text("au plus 8,0\u00a0px")
        if harm == "blurred":
            expect(french.locator("#placement-advice li").first).to_contain_text(f"font {edge} px de large")
        expect(rows(french)["Exposition"].locator("td").first).to_contain_text(
            f"parties claires à {whole['bright']} sur 255")
        french.locator("#placement-numbers").scroll_into_view_if_needed()
        french.screenshot(path=str(SHOTS / f"placement-whole-{harm}-fr-phone.png"))
        assert errors == [] and more_errors == []
    finally:
        server.terminate()
        server.wait()


def test_a_picture_without_any_edge_shows_no_figure_for_sharpness_but_says_why(tmp_path, scene, browser):
    from playwright.sync_api import expect

    blank = np.full_like(scene[1], (70, 110, 150))  # the camera facing a blank table top: no edge to measure
    port, server = start_with_camera(tmp_path, blank)
    try:
        _, game = request(port, "POST", "/api/games", {"edition": "2018", "players": ["Ann", "Bob"],
                                                       "dice": "manual", "setup": SETUP})
        page, errors = open_placement(browser, port, game, "en", {"width": 1920, "height": 1080})
        sharpness = rows(page)["Sharpness"]
        expect(sharpness.locator("td").first).to_contain_text("no sharp edge at all (whole picture)", timeout=20000)
        expect(sharpness).to_have_class("bad")
        expect(page.locator("#placement-advice li").first).to_have_text(
            "the picture shows nothing sharp at all (a lens cap, or the camera facing something blank): take the cap "
            "off, point the camera at the board and focus it")
        assert errors == []
    finally:
        server.terminate()
        server.wait()
