"""A table beside the board of a camel's colour: it tells nothing for or against that camel, but a camel standing
against it, unlike the table itself, is still seen (a white camel on top of a far stack against a grey table)."""

import dataclasses

import cv2
import numpy as np

from vision.photo import render_scene
from vision.read import ReadConfig, observe
from vision.reader import read_with_scorer
from vision.silhouette import FitConfig, SilhouetteScorer
from vision.synth import EDITION_CAMELS

CONFIG = ReadConfig()
CAMELS = list(EDITION_CAMELS["2014"])


def grey_table_picture(table, colours):
    """White on top of a stack on the far row, and the table beyond the track painted grey: the white camel's
    colour in a deep shadow (the track, the camels and the markers' white rims left as they are)."""
    image, _ = render_scene(table, {3: ["green"]}, seed=12, tier="clean")
    scorer = SilhouetteScorer(observe(CONFIG, table.template, image), colours.profiles, table.template,
                              board_bgr=colours.board_bgr)
    far = max(scorer.spaces, key=lambda space: scorer._windows[space].distance)
    track = {far: ["blue", "green", "white"], 9: ["orange"], 13: ["yellow"]}
    image, _ = render_scene(table, track, seed=12, tier="clean")
    corners = np.array([corner for outline in table.template.spaces.values() for corner in outline], np.float32)
    hull = cv2.convexHull(corners).reshape(-1, 2)
    outline = scorer.pose.project(np.column_stack([hull, np.zeros(len(hull))]))
    cloth = np.full(image.shape[:2], 255, np.uint8)
    cv2.fillPoly(cloth, [np.round(outline).astype(np.int32)], 0)
    for marker in table.template.markers:
        square = np.array(table.template.marker_corners(marker), float)
        quiet = square.mean(axis=0) + (square - square.mean(axis=0)) * 1.6
        cv2.fillPoly(cloth, [np.round(scorer.pose.project(np.column_stack([quiet, np.zeros(4)]))).astype(np.int32)], 0)
    plain, _ = render_scene(table, {}, seed=12, tier="clean")
    cloth[np.abs(image.astype(int) - plain.astype(int)).max(axis=2) > 30] = 0  # the camels stand in front of it
    painted = image.copy()
    white = np.array(colours.profiles["white"], float)
    painted[cloth > 0] = np.round(white * 0.5).astype(np.uint8)
    return painted, track, far


def test_a_white_camel_on_top_of_a_far_stack_against_a_grey_table_is_read(table, colours):
    painted, track, far = grey_table_picture(table, colours)
    reading, scorer = read_with_scorer(CONFIG, table.template, colours.profiles, painted, colours.board_bgr)
    assert reading.track.get(far) == track[far], reading
    assert scorer.camel_score(track, "white") > 0.2


def test_with_the_whole_grey_table_forgotten_the_white_camel_on_top_scores_nothing(table, colours):
    """What the test above guards against: every white pixel beyond the track forgotten, the camel's own too (it
    is then placed only as the camel left over, or left unseen)."""
    painted, track, _ = grey_table_picture(table, colours)
    forget_all = dataclasses.replace(FitConfig(), table_distance=float("inf"))
    _, scorer = read_with_scorer(CONFIG, table.template, colours.profiles, painted, colours.board_bgr, fit=forget_all)
    assert scorer.camel_score(track, "white") < 0.1
