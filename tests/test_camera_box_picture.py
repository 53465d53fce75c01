"""The host's camera box says why the board is not found when the whole picture is to blame (too blurred, too dark
or overexposed for any marker), in the page's language, as `vision read` and the placement page do; a sharp
picture without the board is only "board not found"."""

import cv2
import numpy as np
import pytest

from companion.table.camera_report import camera_report
from companion.table.camera_watch import CameraWatch
from tests import test_vision_unlocated_picture as unlocated
from tests.test_camera_watch import Frames
from tests.test_crash import request, start_with_camera
from tests.test_placement_page import SETUP

exposed = unlocated.exposed
table = unlocated.table  # the same board and picture as vision's whole-picture tests (module fixtures)
image = unlocated.image


def watched(table, picture):
    watch = CameraWatch(lambda: None, table.template, {"red": (40, 40, 200)}, agree=1)
    return watch.step(Frames(picture))


def test_a_blurred_picture_s_camera_status_says_so_first_in_both_languages(table, image):
    status = watched(table, cv2.GaussianBlur(image, (0, 0), 8))
    assert status.state == "board not found" and status.whole is not None and status.whole["blurred"]
    assert status.message.startswith(f"board not found: the picture is blurred (its sharpest edges are "
                                     f"{status.whole['edge_px']:.1f} px wide")
    assert "not seen" in status.message  # the markers' words still follow
    english = camera_report(status, {}, "en")
    assert english["whole_picture"]["blurred"] and english["picture_problem"].startswith("the picture is blurred")
    french = camera_report(status, {}, "fr")["picture_problem"]
    edge = f"{status.whole['edge_px']:.1f}".replace(".", ",")  # written as French writes it
    assert french.startswith(f"l'image est floue (ses bords les plus nets font {edge} px de large ; au-delà de 8,0")
    assert "faites la mise au point" in french


def test_a_very_dark_picture_s_camera_status_says_it_is_too_dark(table, image):
    status = watched(table, exposed(image, 0.003))
    assert status.state == "board not found" and status.whole["too_dark"], status
    assert status.message.startswith("board not found: the picture is too dark")
    assert camera_report(status, {}, "fr")["picture_problem"].startswith("l'image est trop sombre")


def test_a_sharp_picture_without_the_board_names_no_picture_problem(table, image):
    # A part of the board blown up with sharp steps: no marker in view, but nothing wrong with the picture.
    sharp = cv2.resize(image[300:420, 500:700], (image.shape[1], image.shape[0]), interpolation=cv2.INTER_NEAREST)
    status = watched(table, sharp)
    assert status.state == "board not found" and status.whole is None
    assert not status.message.startswith("board not found: the picture")
    report = camera_report(status, {}, "fr")
    assert "picture_problem" not in report and "whole_picture" not in report


def test_the_host_page_says_the_picture_is_blurred_in_french_and_english(tmp_path, image, browser):
    from playwright.sync_api import expect

    from tests.browser_kit import PHONE, SHOTS, new_page

    port, server = start_with_camera(tmp_path, cv2.GaussianBlur(image, (0, 0), 8))
    try:
        _, game = request(port, "POST", "/api/games", {"edition": "2018", "players": ["Ann", "Bob"],
                                                       "dice": "manual", "setup": SETUP})
        errors: list[str] = []
        pages = {}
        for lang in ("fr", "en"):
            page = pages[lang] = new_page(browser, errors, f"host-{lang}", lang, **PHONE)
            page.goto(f"http://127.0.0.1:{port}/host/{game['game_id']}#{game['host_token']}")
        box = pages["fr"].locator("#camera")
        expect(box.locator("p").first).to_have_text("Plateau introuvable", timeout=20000)
        expect(box.locator(".camera-picture")).to_contain_text("l'image est floue (ses bords les plus nets font ")
        expect(box.locator(".camera-picture")).to_contain_text("faites la mise au point")
        english = pages["en"].locator("#camera")
        expect(english.locator(".camera-detail")).to_contain_text("the picture is blurred (its sharpest edges are",
                                                                   timeout=20000)
        expect(english.locator(".camera-picture")).to_have_count(0)  # the detail says it already: not twice
        box.scroll_into_view_if_needed()
        pages["fr"].screenshot(path=str(SHOTS / "camera-box-blurred-host-fr.png"))
        pages["en"].locator("#camera").scroll_into_view_if_needed()
        pages["en"].screenshot(path=str(SHOTS / "camera-box-blurred-host-en.png"))
        # The table screen, for everyone: that the board is not checked and the host knows, not why.
        tv = new_page(browser, errors, "table", "fr", viewport={"width": 1920, "height": 1080})
        tv.goto(f"http://127.0.0.1:{port}/table/{game['game_id']}#{game['table_token']}")
        expect(tv.locator("#camera > p")).to_have_text(
            ["Le plateau n'est pas vérifié pour l'instant : l'hôte est prévenu"], timeout=20000)
        tv.screenshot(path=str(SHOTS / "camera-box-blurred-table-fr.png"))
        assert errors == []
    finally:
        server.terminate()
        server.wait()


@pytest.mark.parametrize("colour, french", [
    ((0, 0, 0), "l'image est noire : le cache est-il sur l'objectif"),  # the lens cap left on
    ((70, 110, 150), "l'image ne montre rien de net (un cache sur l'objectif"),  # facing a blank table top
])
def test_a_picture_without_any_edge_gives_reports_a_page_can_parse(table, image, colour, french):
    import json

    from companion.table.placement_view import changes
    from vision.placement import assess_placement

    blank = np.full_like(image, colour)
    status = watched(table, blank)
    assert status.state == "board not found" and status.whole["edge_px"] is None  # infinitely wide: no figure
    # JSON has no Infinity: a browser's response.json() would fail and the box would vanish.
    report = json.loads(json.dumps(camera_report(status, {}, "fr"), allow_nan=False))
    assert report["picture_problem"].startswith(french)
    placement = assess_placement(table.template, blank).as_json()
    json.dumps(placement, allow_nan=False)
    assert changes(placement, "fr")["changes"][0].startswith(french)


def test_decimal_figures_in_the_words_are_written_as_the_language_writes_them():
    from companion.table.placement_advice import in_language

    params = {"edge": "12.3", "limit": "8.0", "found": 1, "share": "40", "marker": "0.5 cm away"}
    assert in_language(params, "fr") == {**params, "edge": "12,3", "limit": "8,0"}
    assert in_language(params, "en") == params
