"""What is neither board nor camel (an arm's sleeve, a phone, a toy over the board): its pixels tell nothing for or
against any camel, so a camel half behind it is not charged for the occluder's colour, and a space behind it is no
camel's. Photo-like scenes of the project's renderer (vision/photo.py), an occluder painted over them."""

import cv2
import numpy as np

from vision.photo import render_scene
from vision.read import ReadConfig
from vision.reader import read_with_scorer
from vision.silhouette_evidence import ray_distances
from vision.synth import EDITION_CAMELS

CONFIG = ReadConfig()
TRACK = {2: ["green"], 5: ["blue", "white"], 9: ["orange"], 13: ["yellow"]}
SLEEVE = (150, 40, 170)
"""A purple sleeve (BGR): far from the 2014 board's colour and from every 2014 camel's."""


def sleeve_over(table, image: np.ndarray, outline_mm: np.ndarray, pose) -> np.ndarray:
    """``image`` with the sleeve's colour painted over the board's region ``outline_mm`` (on the board) and the
    air above it up to a tall camel's height (an arm resting across it)."""
    painted = image.copy()
    ground = np.column_stack([outline_mm, np.zeros(len(outline_mm))])
    raised = np.column_stack([outline_mm, np.full(len(outline_mm), -25.0)])
    pixels = pose.project(np.concatenate([ground, raised]))
    hull = cv2.convexHull(np.round(pixels).astype(np.int32))
    cv2.fillConvexPoly(painted, hull, SLEEVE)
    return painted


def half_of_space(table, space: int, side: int) -> np.ndarray:
    """The half of ``space`` (mm on the board) on one side (-1 or 1) of its middle, across the track."""
    corners = np.array(table.template.spaces[space], float)
    middle = corners.mean(axis=0)
    spaces = sorted(table.template.spaces)
    ahead = np.array(table.template.spaces[spaces[(spaces.index(space) + 1) % len(spaces)]], float).mean(axis=0)
    heading = (ahead - middle) / np.linalg.norm(ahead - middle)
    across = np.array([-heading[1], heading[0]])
    extent = np.abs((corners - middle) @ across).max()
    along = np.abs((corners - middle) @ heading).max()
    return np.array([middle + side * across * a + heading * b for a, b in ((0, -along), (extent, -along),
                                                                             (extent, along), (0, along))])


def test_the_sleeve_is_unlike_the_board_and_every_camel(table, colours):
    profiles = np.array([colours.profiles[name] for name in EDITION_CAMELS["2014"]], np.float32)
    sleeve = np.array([SLEEVE], np.float32)
    assert ray_distances(sleeve, profiles, (0.4, 1.6)).min() > 0.2
    assert ray_distances(sleeve, np.array([colours.board_bgr], np.float32), (0.55, 1.15)).min() > 0.2


def test_a_sleeve_over_half_a_camel_tells_nothing_against_it(table, colours):
    """Half of the orange camel's space (and the air above it) under the sleeve: what it hides counts neither for
    nor against any camel, as what a stack in front hides. Without that, each of its pixels counted for or against
    every camel by which of them, or the board, happened to be nearest, though none is near."""
    image, _ = render_scene(table, TRACK, seed=5, tier="clean")
    _, plain = read_with_scorer(CONFIG, table.template, colours.profiles, image, colours.board_bgr)
    painted = sleeve_over(table, image, half_of_space(table, 9, 1), plain.pose)
    reading, scorer = read_with_scorer(CONFIG, table.template, colours.profiles, painted, colours.board_bgr)
    window = scorer._windows[9]
    x0, y0 = window.origin
    height, width = window.boardlike.shape
    sleeve = np.all(painted[y0 : y0 + height, x0 : x0 + width] == SLEEVE, axis=2)
    assert np.count_nonzero(sleeve) > 100
    assert not np.any(window.evidence[sleeve])  # no camel's evidence, for or against
    # What it reads, it reads right: the orange camel where it stands, or unseen; no camel elsewhere.
    for space, stack in reading.track.items():
        assert [camel for camel in TRACK.get(space, []) if camel in stack] == stack, reading


def test_an_empty_space_half_under_the_sleeve_is_no_camels(table, colours):
    """Space 10 (empty) half under the sleeve, the orange camel off the board: no camel is read on space 10. With
    the sleeve's pixels telling nothing, the orange camel fitted there better than anywhere (nothing disproved it);
    a camel hidden behind an occluder is not seen there, as on a covered space."""
    without_orange = {space: stack for space, stack in TRACK.items() if space != 9}
    image, _ = render_scene(table, without_orange, seed=5, tier="clean")
    _, plain = read_with_scorer(CONFIG, table.template, colours.profiles, image, colours.board_bgr)
    painted = sleeve_over(table, image, half_of_space(table, 10, 1), plain.pose)
    reading, scorer = read_with_scorer(CONFIG, table.template, colours.profiles, painted, colours.board_bgr)
    assert 10 not in reading.track and "orange" in reading.unseen, reading
    behind = {**without_orange, 10: ["orange"]}
    assert scorer.covered(behind, 10)  # hidden there: not seen, as on a covered space
    assert scorer.stack_cost(10, ["orange"], behind) == scorer.fit.covered_cost
    for space, stack in reading.track.items():  # the rest is read right, or unseen: nothing guessed
        assert [camel for camel in without_orange.get(space, []) if camel in stack] == stack, reading
