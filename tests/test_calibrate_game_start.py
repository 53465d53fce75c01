"""The companion calibrating itself from a game's starting board, where the 2018 pyramid in the middle hides a
camel wholly (the independent renderer's props tier, as the race bench shows it: development seed 7001, table 0).

The hidden camel is measured as the pyramid's sandy face, as pale as the board: it is left out (keeping the colour
it had) and the rest learnt, rather than the whole board refused; a board told with that camel behind the pyramid
while it stands in plain view elsewhere is still refused."""

from __future__ import annotations

import random

import pytest

from benchmarks.camera_independent import calibration_board
from benchmarks.camera_independent_race import PLAYERS, on_track
from benchmarks.independent.scene import render
from benchmarks.independent.table import make_table
from companion.rules import EDITIONS, new_game
from vision.calibrate import CalibrationError, calibrate_from_board, reading_colours
from vision.image_file import load_photo
from vision.plausible import starting_track
from vision.read import ReadConfig

SEED, TABLE, EDITION = 7001, 0, "2018"


@pytest.fixture(scope="module")
def table():
    names = [stack[0] for stack in calibration_board(EDITION).values()]
    return make_table(SEED * 1000 + TABLE, EDITION, names)


@pytest.fixture(scope="module")
def start_track() -> dict[int, list[str]]:
    rng = random.Random(f"race/{SEED}/{TABLE}/props")  # the race bench's starting board for this table
    track = on_track(new_game(EDITIONS[EDITION], PLAYERS, starting_track(EDITION, rng)))
    assert track == {1: ["red"], 2: ["green", "purple", "yellow"], 3: ["blue"], 15: ["white"], 16: ["black"]}
    return track


def photo(table, track, tmp_path_factory, name):
    path = tmp_path_factory.mktemp("start") / f"{name}.jpg"
    truth = render(table, "props", track, 1, str(path), tiles={})
    return load_photo(str(path)), truth


def test_a_camel_wholly_behind_the_pyramid_at_the_start_is_left_out_and_the_rest_learnt(
        table, start_track, tmp_path_factory):
    picture, truth = photo(table, start_track, tmp_path_factory, "start")
    assert truth.visible["blue"] < 0.05  # the pyramid stands between the camera and space 3
    usual = reading_colours(EDITION, None)
    calibration = calibrate_from_board(ReadConfig(), usual.template, list(usual.profiles), picture, start_track,
                                       start=usual.profiles)
    assert calibration.left_out == ("blue",)
    assert calibration.profiles["blue"] == usual.profiles["blue"]  # kept, not learnt from the pyramid's face
    notes = " ".join(calibration.warnings)
    assert "the blue camel on space 3 is not seen, so it keeps its colour from before" in notes, notes
    unlearnt = [camel for camel in usual.profiles if camel != "blue"
                and calibration.profiles[camel] == usual.profiles[camel]]
    assert not unlearnt, unlearnt  # every camel in view measured in this light


def test_told_behind_the_pyramid_while_it_stands_in_view_elsewhere_is_refused(table, start_track, tmp_path_factory):
    shown = {**{space: stack for space, stack in start_track.items() if space != 3}, 10: ["blue"]}
    picture, truth = photo(table, shown, tmp_path_factory, "moved")
    assert truth.visible["blue"] > 0.8
    usual = reading_colours(EDITION, None)
    with pytest.raises(CalibrationError, match="no camel is seen on space 3, where the blue camel should stand"):
        calibrate_from_board(ReadConfig(), usual.template, list(usual.profiles), picture, start_track,
                             start=usual.profiles)


def test_a_hidden_stack_is_named_once_with_its_space(table, start_track, tmp_path_factory):
    from vision.hidden_camels import not_seen_message
    from vision.read import observe

    picture, _ = photo(table, start_track, tmp_path_factory, "start")
    template = reading_colours(EDITION, None).template
    observation = observe(ReadConfig(), template, picture)
    where = {"green": 2, "purple": 2, "yellow": 2, "blue": 3}
    message = not_seen_message(["green", "purple", "yellow", "blue"], where, {2, 3}, observation, template)
    assert message.startswith("no camel is seen on space 2, where the green, purple and yellow camels should stand, "
                              "nor on space 3, where the blue camel should stand: "), message
