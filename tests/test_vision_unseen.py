"""Camels in plain view are placed, not left unseen: the light on each space does not depend on the tone its
space is printed in, and the verifier keeps a camel the blind reading put in the same place."""

import numpy as np

from vision.board import load_template
from vision.calibrate import calibrate
from vision.photo import make_table, render_calibration, render_scene
from vision.read import ReadConfig, light_at
from vision.reader import read_board
from vision.synth import EDITION_CAMELS


def test_the_light_is_the_same_on_spaces_printed_in_either_of_two_alternating_tones():
    template = load_template("2014")
    tones = {0: np.array([150.0, 205.0, 235.0]), 1: np.array([130.0, 190.0, 240.0])}
    lamp = np.array([0.9, 1.0, 1.1])
    rims = {space: tones[space % 2] * lamp for space in template.spaces}
    odd, even = light_at(template, rims, 5), light_at(template, rims, 6)
    np.testing.assert_allclose(odd, even, rtol=1e-6)
    # The board looks like the mix of both tones under the lamp.
    np.testing.assert_allclose(odd, np.sqrt(tones[0] * tones[1]) * lamp, rtol=1e-6)


def test_lone_camels_fully_in_view_on_a_photo_like_table_are_all_placed():
    # Table 701 (the photo renderer's): the reader used to report only two of five lone camels.
    table = make_table(701, "2014")
    camels = list(EDITION_CAMELS["2014"])
    config = ReadConfig()
    photo, _ = render_calibration(table, 0, "clean")
    calibration = calibrate(config, table.template, camels, photo)
    track = {2 + 2 * index: [camel] for index, camel in enumerate(camels)}
    image, truth = render_scene(table, track, 5, "clean")
    assert all(facts["visible"] > 0.9 for facts in truth["camels"].values())
    reading = read_board(config, table.template, calibration.profiles, image, calibration.board_bgr)
    assert reading.track == track and reading.unseen == ()
