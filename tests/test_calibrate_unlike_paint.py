"""A calibration photo whose camel looks far from the colour its paint usually has (the independent renderer's
table 8 of seed 90, clean light: a blue camel (164, 77, 50) in the photo, cloth table): that camel is the one to
learn from, not something over the board. The reader forgets what is unlike the board and every camel's colour
(an arm's sleeve, a phone: ``FitConfig.occluder_distance``); while calibrating, the colours are not known yet, so
nothing may be forgotten so: with it, the blue camel was learnt from the board beside it, (74, 131, 219)."""

from __future__ import annotations

import numpy as np

from benchmarks.camera_independent import calibration_board
from benchmarks.independent.scene import render
from benchmarks.independent.table import make_table
from vision.board import load_template
from vision.calibrate import calibrate
from vision.calibrate_colours import board_like
from vision.image_file import load_photo
from vision.read import ReadConfig
from vision.synth import EDITION_CAMELS


def test_a_camel_far_from_its_paints_usual_colour_is_learnt_from_its_own_pixels(tmp_path):
    board = calibration_board("2018")
    table = make_table(90 * 1000 + 8, "2018", [stack[0] for stack in board.values()])
    path = tmp_path / "calibration.png"
    render(table, "clean", board, 0, str(path), calibration=True)
    found = calibrate(ReadConfig(), load_template("2018"), list(EDITION_CAMELS["2018"]), load_photo(str(path)))
    blue = np.array(found.profiles["blue"])
    assert blue[0] > 1.5 * blue[2], found.profiles  # blue, not the sand: more blue than red in it
    assert not board_like(found.profiles["blue"], found.board_bgr)
