"""While calibrating, a camel's colour is not known yet: whatever is unlike the board may be it. Beyond the track,
though, the table or the board's printed border is what is there: a camel on a far space fitted onto the red border
behind it was learnt in the border's colour (fresh POV-Ray seed 702, table 0: its yellow camel as dark red)."""

from __future__ import annotations

import numpy as np

from vision.silhouette import FitConfig
from vision.silhouette_evidence import camel_evidence

SAND = np.array([150, 200, 230], np.float32)
RED_BORDER = np.array([40, 40, 130], np.float32)
OLIVE_CAMEL = np.array([40, 120, 150], np.float32)
BLUE = np.array([90, 50, 20], np.float32)


def test_the_border_beyond_the_track_is_no_camel_while_its_colour_is_unknown() -> None:
    pixels = np.array([RED_BORDER, RED_BORDER, OLIVE_CAMEL, SAND], np.float32)
    beyond = np.array([True, False, False, False])
    evidence, *_ = camel_evidence(FitConfig(), pixels, SAND, [None, BLUE], table=(RED_BORDER, beyond))
    unknown = evidence[0]
    assert unknown[0] < 0, "the border beyond the track counted for the camel being calibrated"
    assert unknown[1] > 0  # the same colour on the track is unlike the board: it may be the camel
    assert unknown[2] > 0
    assert unknown[3] < 0  # the board itself


def test_without_a_table_in_view_anything_unlike_the_board_may_be_the_camel() -> None:
    pixels = np.array([RED_BORDER, OLIVE_CAMEL, SAND], np.float32)
    evidence, *_ = camel_evidence(FitConfig(), pixels, SAND, [None, BLUE])
    assert evidence[0, 0] > 0 and evidence[0, 1] > 0 and evidence[0, 2] < 0


GREY_TABLE = np.array([120, 122, 125], np.float32)


def test_the_border_beside_a_grey_table_is_no_camel_either_while_its_colour_is_unknown() -> None:
    # A far space's window beyond the track shows more of the grey table than of the red border: the table's colour
    # (their median) alone leaves the border to count for the camel being calibrated (dev seed 97, table 0: its
    # yellow camel learnt as the border's dark red). With the border's own colour too, neither counts.
    pixels = np.array([RED_BORDER, GREY_TABLE, OLIVE_CAMEL, SAND], np.float32)
    beyond = np.array([True, True, False, False])
    alone, *_ = camel_evidence(FitConfig(), pixels, SAND, [None, BLUE], table=(GREY_TABLE, beyond))
    assert alone[0, 0] > 0, "the border was no camel even with the table's colour alone: nothing to show"
    evidence, *_ = camel_evidence(FitConfig(), pixels, SAND, [None, BLUE],
                                  table=(np.array([GREY_TABLE, RED_BORDER]), beyond))
    unknown = evidence[0]
    assert unknown[0] < 0 and unknown[1] < 0, "the border or the table beyond the track counted for the camel"
    assert unknown[2] > 0  # the camel on the track
    # A known camel's evidence beyond the track weighs the nearest of the two as its rival.
    assert evidence[1, 0] <= alone[1, 0]
