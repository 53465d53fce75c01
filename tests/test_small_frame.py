"""A frame smaller than the guidance's 1280×720: said first (vision read's problems, the placement page, doctor),
and the placement advice it would make wrong ("move it closer": the camels are small because the frame is) held
back."""

from __future__ import annotations

import json
from types import SimpleNamespace

import cv2
import pytest

from companion.cli import main
from companion.table.placement_advice import advice_items, consistent
from companion.table.placement_view import changes, placement_words
from vision.photo import make_table, render_scene
from vision.placement import assess_placement

WORDS = "the frame is 640×360: set the camera to 1280×720 or more"


@pytest.fixture(scope="module")
def table():
    return make_table(1 * 10_007 + 4, "2018")


@pytest.fixture(scope="module")
def frame(table):
    image, _ = render_scene(table, {1: ["red", "blue"], 3: ["yellow"], 14: ["green"], 16: ["white"]}, 1, "light")
    return image


def _small(frame):
    return cv2.resize(frame, (640, 360), interpolation=cv2.INTER_AREA)


def test_vision_read_says_the_frame_is_too_small_first(frame, tmp_path, capsys):
    big, small = tmp_path / "big.png", tmp_path / "small.png"
    cv2.imwrite(str(big), frame)
    cv2.imwrite(str(small), _small(frame))
    assert main(["vision", "read", str(small)]) == 0
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert problems and problems[0].startswith(WORDS), problems
    assert main(["vision", "read", str(big)]) == 0
    assert not any("the frame is" in problem for problem in json.loads(capsys.readouterr().out)["problems"])


def test_the_placement_advice_says_the_frame_first_and_holds_back_the_rest(table, frame):
    assert assess_placement(table.template, frame).ok
    report = assess_placement(table.template, _small(frame))
    assert not report.ok and report.advice[0].startswith(WORDS), report.advice
    # Its camels are half as tall in pixels and its margins half as wide: "move it closer", "move it back" (or any
    # verdict on the pose) would blame the camera's place for the frame's size. The frame is all it says.
    assert len(report.advice) == 1, report.advice
    found = report.as_json()
    items = advice_items(found)
    assert items[0] == ("placement.too_small", {"width": 640, "height": 360, "least_width": 1280,
                                                "least_height": 720})
    assert len(items) == 1 and consistent(found, items)
    said = changes(found, "fr")
    assert said["change_keys"][0] == "placement.too_small"
    assert said["changes"][0].startswith("l'image fait 640×360 : réglez la caméra sur 1280×720"), said["changes"]


def test_doctor_says_the_frame_is_too_small(frame, tmp_path):
    path = tmp_path / "small.png"
    cv2.imwrite(str(path), cv2.resize(frame, (320, 180), interpolation=cv2.INTER_AREA))
    settings = SimpleNamespace(camera="files", camera_source=str(path), camera_board="2018", camera_calibration=None)
    ok, words = placement_words(settings)
    assert not ok and words.startswith("the frame is 320×180: set the camera to 1280×720 or more"), words
