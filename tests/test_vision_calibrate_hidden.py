"""Calibrating from a board the game confirmed, with camels the pyramid or the palm tree hides (the photo-like
renderer's props tier): a hidden camel is "not seen", saying where and what may hide it, never "swapped" (a host
told so could swap two camels that were right) nor "cannot be told from the board"."""

from __future__ import annotations

import re

import pytest

from vision.calibrate import CalibrationError, calibrate_from_board
from vision.photo import make_table, render_scene
from vision.read import ReadConfig
from vision.synth import EDITION_CAMELS

CAMELS = list(EDITION_CAMELS["2018"])


@pytest.fixture(scope="module")
def table():
    # The pyramid and the palm tree stand between the camera and spaces 2 and 3 (the renderer's truth).
    return make_table(322, "2018")


def test_two_camels_hidden_by_the_pyramid_and_palm_tree_are_not_seen_not_swapped(table):
    track = {2: ["red"], 3: ["white"], 7: ["purple"], 8: ["yellow"], 9: ["blue"], 12: ["black"], 14: ["green"]}
    photo, truth = render_scene(table, track, 4, "props", hand=False)
    assert truth["camels"]["red"]["visible"] < 0.05 and truth["camels"]["white"]["visible"] < 0.05
    with pytest.raises(CalibrationError) as refused:
        calibrate_from_board(ReadConfig(), table.template, CAMELS, photo, track)
    message = str(refused.value)
    assert "swapped" not in message
    # The white camel behind the palm tree is named, where it should stand and what may hide it (the black one
    # too: it stands in the palm tree's deep shadow, which the reader takes for something over the space).
    assert message.startswith("no camel is seen on space")
    assert "on space 3, where the white camel should stand" in message
    assert re.search(r"(covers or shades|may hide) spaces? [0-9 and]*\b3\b", message), message
    assert "raise the camera" in message
    assert "white" in refused.value.camels


def test_a_clear_swap_of_two_camels_in_view_is_still_refused_as_a_swap(table):
    # The same table, the two camels on spaces in clear view, told the other way round.
    shown = {5: ["red"], 7: ["white"], 9: ["purple"], 11: ["yellow"], 12: ["blue"], 13: ["black"], 15: ["green"]}
    told = {**shown, 5: ["white"], 7: ["red"]}
    photo, truth = render_scene(table, shown, 5, "props", hand=False)
    assert min(truth["camels"][camel]["visible"] for camel in ("red", "white")) > 0.5
    swapped = r"white and red camels look swapped .*: white should stand on 5 and red on 7"
    with pytest.raises(CalibrationError, match=swapped):
        calibrate_from_board(ReadConfig(), table.template, CAMELS, photo, told)
