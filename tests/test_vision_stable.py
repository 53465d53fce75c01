"""Readings count only when several frames agree."""

import pytest

from vision.read import Reading
from vision.stable import StableReadings

BOARD = {3: ["green", "red"], 7: ["blue"]}


def reading(track, unseen=()):
    return Reading(track, 0.9, [f"the {camel} camel is not seen" for camel in unseen], tuple(unseen))


def test_three_agreeing_frames_make_a_stable_reading():
    stable = StableReadings(agree=3)
    assert stable.feed(reading(BOARD)) is None
    assert stable.feed(reading(BOARD)) is None
    assert stable.feed(reading(BOARD)) == BOARD
    assert stable.feed(reading(BOARD)) == BOARD


def test_a_change_or_an_untrusted_frame_starts_again():
    stable = StableReadings(agree=2)
    stable.feed(reading(BOARD))
    assert stable.feed(reading({3: ["red", "green"], 7: ["blue"]})) is None  # a hand reordering the stack
    assert stable.feed(None) is None  # board not found
    assert stable.feed(reading(BOARD)) is None
    assert stable.feed(reading(BOARD, ["blue"])) is None
    assert stable.feed(reading(BOARD)) is None
    assert stable.feed(reading(BOARD)) == BOARD
    with pytest.raises(ValueError):
        StableReadings(agree=0)


def test_a_camel_hidden_in_every_frame_does_not_keep_a_still_board_from_counting():
    # The pyramid hides blue in every frame: the board is still, and counts; a hand moving over the board
    # hides one camel, then another: that is no still board.
    hidden = {3: ["green", "red"]}
    stable = StableReadings(agree=3)
    assert stable.feed(reading(hidden, ["blue"])) is None
    assert stable.feed(reading(hidden, ["blue"])) is None
    assert stable.feed(reading(hidden, ["blue"])) == hidden and stable.unseen == ("blue",)
    assert stable.feed(reading({3: ["green"], 7: ["blue"]}, ["red"])) is None  # the hand over red now
    assert stable.feed(reading({3: ["green", "red"]}, ["blue"])) is None
    assert stable.feed(reading({3: ["green", "red"]}, ["blue"])) is None
    assert stable.feed(reading({3: ["green", "red"]}, ["blue"])) == hidden
    # The same track with other camels unseen is another board as far as the camera knows.
    assert stable.feed(reading(hidden, ["blue", "white"])) is None and stable.frames == 1
    assert stable.feed(None) is None and stable.frames == 0 and stable.unseen == ()
