"""A black picture (a lens cap, a hand over the lens, the room's light off) is said as what it is, "the picture is
black: is the lens cap on or the camera covered?", not "more light" (vision.focus's black check): in `vision read`'s
error, doctor's words, the host's camera box and the placement page, in English and French. A very dim room that
still shows the table stays "too dark" (more light, a longer exposure). The limits: benchmarks/picture_black.py."""

from __future__ import annotations

import json
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from benchmarks.picture_black import developed, to_linear
from companion.cli import main
from companion.table.camera_report import camera_report
from companion.table.placement_view import changes, placement_words
from tests import test_vision_unlocated_picture as unlocated
from tests.test_camera_box_picture import watched
from vision import focus
from vision.placement import assess_placement

table = unlocated.table  # the same board and picture as vision's whole-picture tests (module fixtures)
image = unlocated.image

BLACK = "the picture is black: is the lens cap on or the camera covered?"
NOIR = "l'image est noire : le cache est-il sur l'objectif, ou la caméra couverte ?"


def dark_frame(read: float, quality: int | None, pedestal: int = 0, seed: int = 0) -> np.ndarray:
    """A camera's picture with no light at all: its noise at high gain, its pedestal, JPEG."""
    return developed(np.zeros((720, 1280, 3), np.float32), np.random.default_rng(seed), read, quality, pedestal)


def dim_room(picture: np.ndarray, gain: float, read: float, quality: int | None) -> np.ndarray:
    """The same table in a room ``gain`` times as bright (linear light), with the camera's noise and JPEG."""
    return developed(to_linear(picture) * gain, np.random.default_rng(1), read, quality)


@pytest.mark.parametrize("read, quality, pedestal", [
    (0.0, None, 0),  # a camera that denoises its dark frame to pure black
    (0.002, 60, 0), (0.008, 90, 0), (0.015, 60, 16),  # high-gain noise, JPEG; a camera that keeps its black at 16
    (0.03, None, 0),  # grey snow: its noise alone is brighter than the "too dark" limit
])
def test_a_picture_without_light_is_black_whatever_the_camera_s_noise(read, quality, pedestal):
    frame = dark_frame(read, quality, pedestal)
    whole = focus.measure_whole(frame)
    # The noisiest of them is brighter than the "too dark" limit pixel by pixel: only its light says black.
    assert whole.black and whole.too_dark, whole.as_json()
    assert whole.problems() == [focus.BLACK_WORDS] and whole.problems()[0].startswith(BLACK)
    assert not whole.blurred  # not "nothing sharp at all" either: that is for a blank surface in light
    assert json.loads(json.dumps(whole.as_json(), allow_nan=False))["black"] is True


@pytest.mark.parametrize("gain, read, quality", [
    (0.005, 0.0, 90),  # 7.6 stops under: the darkest in which the board is still found at times
    (0.005, 0.001, 60),
    (0.003, 0.0, None),  # 8.4 stops under, as the camera box's dark test
    (0.01, 0.003, 60),  # a noisy camera in a dim room
])
def test_a_very_dim_room_is_too_dark_not_black(image, gain, read, quality):
    whole = focus.measure_whole(dim_room(image, gain, read, quality))
    assert whole.too_dark and not whole.black, whole.as_json()
    assert whole.problems()[0].startswith("the picture is too dark (its brightest parts are at ")
    assert "more light on the table" in whole.problems()[0]


def test_row_banding_in_the_dark_is_still_black():
    frame = developed(np.zeros((720, 1280, 3), np.float32), np.random.default_rng(2), 0.004, 75, banding=0.0005)
    assert focus.measure_whole(frame).black


@pytest.mark.parametrize("gain", [0.005, 0.003])
def test_a_dim_room_seen_by_a_noisy_camera_is_not_black(image, gain):
    # The noisiest camera measured (read noise 0.3% of full scale): the table still shows through its noise.
    whole = focus.measure_whole(dim_room(image, gain, 0.003, 70))
    assert not whole.black and whole.structure > focus.WHOLE_MIN_STRUCTURE, whole.as_json()
    assert not any(problem.startswith("the picture is black") for problem in whole.problems())


def test_a_dim_room_s_noise_does_not_pass_for_light(table, image):
    # A noisy camera 6 stops under: its specks reach past the "too dark" limit, its averaged light does not.
    from vision.locate import BoardNotFound, LocateConfig, locate_board

    frame = dim_room(image, 0.015, 0.004, 70)
    with pytest.raises(BoardNotFound):
        locate_board(LocateConfig(), table.template, frame)
    whole = focus.measure_whole(frame)
    assert whole.bright >= focus.WHOLE_MIN_BRIGHT > whole.brightest, whole.as_json()
    assert whole.too_dark and not whole.black
    assert whole.problems()[0].startswith(f"the picture is too dark (its brightest parts are at {whole.brightest:.0f}")


def test_a_blank_wall_in_light_is_not_black():
    wall = np.full((720, 1280, 3), (70, 110, 150), np.uint8)  # facing a blank table top: light, nothing sharp
    whole = focus.measure_whole(wall)
    assert not whole.black and whole.blurred and whole.featureless
    assert whole.problems()[0].startswith("the picture shows nothing sharp at all")


def test_vision_read_and_doctor_say_the_picture_is_black(table, tmp_path, capsys):
    path = tmp_path / "capped.jpg"
    cv2.imwrite(str(path), dark_frame(0.008, None, seed=3), [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert main(["vision", "read", str(path)]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error.startswith(f"board not found: {BLACK}") and error.endswith("not seen"), error
    assert "more light" not in error
    settings = SimpleNamespace(camera="files", camera_source=str(path), camera_board="2018", camera_calibration=None)
    ok, words = placement_words(settings)
    assert not ok and words.startswith(BLACK), words


def test_the_placement_page_and_the_camera_box_say_it_in_french(table):
    frame = dark_frame(0.004, 75, seed=4)
    said = changes(assess_placement(table.template, frame).as_json(), "fr")
    assert said["change_keys"][0] == "placement.whole_black" and said["changes"][0].startswith(NOIR), said
    status = watched(table, frame)
    assert status.state == "board not found" and status.whole["black"], status
    assert status.message.startswith(f"board not found: {BLACK}")
    assert camera_report(status, {}, "fr")["picture_problem"].startswith(NOIR)
    assert camera_report(status, {}, "en")["picture_problem"] == focus.BLACK_WORDS  # the catalog says vision's words
