"""A picture so blurred, so dark or so bright that no marker is found says so first (vision.focus's whole-picture
check), on the placement page (in the host's language), in doctor's words and in `vision read`'s error, instead of
only "point the camera at the board"; a sharp picture without the board does not."""

from __future__ import annotations

import json
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.table.placement_view import changes, placement_words
from vision import focus
from vision.photo import make_table, render_scene
from vision.placement import assess_placement


@pytest.fixture(scope="module")
def table():
    return make_table(211, "2018")


@pytest.fixture(scope="module")
def image(table):
    picture, _ = render_scene(table, {1: ["red", "blue"], 3: ["yellow"], 14: ["green"], 16: ["white"]}, 1, "light")
    return picture


def exposed(image: np.ndarray, gain: float) -> np.ndarray:
    """The exposure scaled in linear light, as benchmarks/picture_blur_dark.py does."""
    linear = (image.astype(np.float32) / 255.0) ** 2.2 * gain
    return (np.clip(linear, 0, 1) ** (1 / 2.2) * 255 + 0.5).astype(np.uint8)


@pytest.mark.parametrize("sigma", [3.0, 6.0, 10.0])
def test_the_steepest_edges_width_is_what_opencv_s_blur_makes_of_a_step(sigma):
    step = np.full((720, 1280), 40, np.uint8)
    step[:, 640:] = 220
    for y in range(0, 720, 90):  # a few steps the other way too, as a picture has
        step[y : y + 45, 100:300] = 220
    blurred = cv2.GaussianBlur(step, (0, 0), sigma)
    # A Gaussian step of σ is its contrast over its steepest slope wide: σ·√(2π), after the check's own smoothing.
    expected = np.sqrt(sigma**2 + focus.WHOLE_SMOOTH_SIGMA**2) * np.sqrt(2 * np.pi)
    assert focus.measure_whole(blurred).edge_px == pytest.approx(expected, rel=0.1)


def test_a_very_blurred_picture_says_so_before_pointing_the_camera(table, image):
    sharp = assess_placement(table.template, image)
    assert sharp.pose is not None and sharp.whole is None  # the board located: judged on its markers
    report = assess_placement(table.template, cv2.GaussianBlur(image, (0, 0), 8))
    assert report.pose is None and report.whole is not None and report.whole.blurred
    assert report.advice[0].startswith(f"the picture is blurred (its sharpest edges are {report.whole.edge_px:.1f} px")
    assert "focus the camera" in report.advice[0]
    assert report.advice[-1].startswith("only ") and "point the camera at the board" in report.advice[-1]
    said = changes(report.as_json(), "fr")
    assert said["change_keys"] == ["placement.whole_blurred", "placement.too_few_markers"]
    assert said["changes"][0].startswith("l'image est floue") and said["changes_language"] == "fr"


@pytest.mark.parametrize("gain", [0.004, 0.0025])
def test_a_very_dark_picture_says_so_first(table, image, gain):
    report = assess_placement(table.template, exposed(image, gain))
    assert report.pose is None and report.whole.too_dark, report.as_json()["whole_picture"]
    assert report.advice[0].startswith("the picture is too dark (its brightest parts are at ")
    assert not report.whole.blurred  # a dark picture's shallow slopes are not called blur
    assert changes(report.as_json(), "fr")["changes"][0].startswith("l'image est trop sombre")


def test_an_overexposed_picture_without_markers_says_so_first():
    # A washed-out picture (a lamp straight into the lens): mostly pure white, the markers lost in it.
    picture = np.full((720, 1280, 3), 255, np.uint8)
    picture[500:, :] = 200
    whole = focus.measure_whole(picture)
    assert whole.overexposed and not whole.blurred
    assert whole.problems()[0].startswith(f"the picture is overexposed ({100 * whole.clipped:.0f}% of it")


def test_a_sharp_picture_without_the_board_is_only_told_to_point_the_camera(table, image):
    sharp = assess_placement(table.template, image)
    covered = image.copy()
    for facts in sharp.markers.values():  # the markers covered with white card: the board is not in view
        quad = np.array(facts["corners"])
        (x0, y0), (x1, y1) = quad.min(axis=0).astype(int) - 10, quad.max(axis=0).astype(int) + 10
        covered[max(y0, 0):y1, max(x0, 0):x1] = 235
    report = assess_placement(table.template, covered)
    assert report.pose is None and report.whole is not None and not report.whole.problems()
    assert len(report.advice) == 1 and report.advice[0].startswith("only 0 marker(s) found")
    assert focus.not_found_words(covered, "board not found: markers 0 (top left) not seen") == \
        "board not found: markers 0 (top left) not seen"


def test_vision_read_and_doctor_say_the_blur_first(table, image, tmp_path, capsys):
    path = tmp_path / "blurred.png"
    cv2.imwrite(str(path), cv2.GaussianBlur(image, (0, 0), 8))
    assert main(["vision", "read", str(path)]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error.startswith("board not found: the picture is blurred (its sharpest edges are ")
    assert "focus the camera" in error and error.endswith("not seen")
    settings = SimpleNamespace(camera="files", camera_source=str(path), camera_board="2018", camera_calibration=None)
    ok, words = placement_words(settings)
    assert not ok and words.startswith("the picture is blurred (its sharpest edges are ")
