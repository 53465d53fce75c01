"""A camel measured as the board in its own shadow while calibrating (a lamp behind it) is measured again."""

import pytest

from vision.calibrate_colours import board_in_shadow

BOARD = (109.0, 168.0, 237.0)  # POV-Ray dev table 3's sand, as its calibration photo shows it


@pytest.mark.parametrize("share", [0.42, 0.45, 0.48])
def test_the_board_in_a_shadow_darker_than_the_reader_allows_is_told(share):
    # The white camel's cast shadow there, a little bluer than the lit board (the ambient light): its body box was
    # fitted onto it and white was learnt as (49, 71, 127).
    shadow = (BOARD[0] * share * 1.05, BOARD[1] * share, BOARD[2] * share * 0.97)
    assert board_in_shadow(shadow, BOARD)
    assert board_in_shadow((48.8, 70.5, 126.7), BOARD)


@pytest.mark.parametrize(
    "camel",
    [(200, 205, 215), (117, 132, 158), (27, 33, 40), (32, 55, 143), (26, 85, 151), (86, 48, 86), (44, 100, 64)],
    ids=["white", "white in shade", "black", "orange", "yellow", "purple", "green"],
)
def test_a_camel_of_any_colour_is_no_shadow(camel):
    assert not board_in_shadow(camel, BOARD)


def test_the_board_itself_is_no_shadow_but_the_board():
    # (The board in the reader's own range of shading is told apart earlier: a camel as pale as its space.)
    assert not board_in_shadow(BOARD, BOARD)
    assert not board_in_shadow(tuple(channel * 0.7 for channel in BOARD), BOARD)
