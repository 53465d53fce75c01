"""A following frame seen from the very same pose takes over the shapes the last one drew (where a stack's camels
fall, what they leave of the ground): it reads as a scorer that drew them all again reads; a camera that moved
draws its own."""

import dataclasses

import numpy as np
import pytest

import vision.silhouette_geometry as geometry
from tests.photo_kit import calibrated
from vision.photo import make_table, render_scene
from vision.read import Pose, ReadConfig, observe
from vision.silhouette import SilhouetteScorer, first_track

CONFIG = ReadConfig()
TRACK = {2: ["green"], 5: ["blue", "white"], 9: ["orange"], 13: ["yellow"]}
BOARDS = [TRACK, {5: ["white", "blue", "green"], 9: ["orange"]}, {4: ["yellow", "orange"], 13: ["white"]}]


@pytest.fixture(scope="module")
def table_and_frames():
    table = make_table(424_242, "2014")
    colours = calibrated(table, "light")
    first, _ = render_scene(table, TRACK, seed=3, tier="light")
    second, _ = render_scene(table, BOARDS[1], seed=4, tier="light")
    return table, colours, observe(CONFIG, table.template, first), second


def _scorer(table, colours, observation) -> SilhouetteScorer:
    return SilhouetteScorer(observation, colours.profiles, table.template, board_bgr=colours.board_bgr)


def _moved(observation):
    """``observation`` with the camera 1.5 mm aside."""
    pose = observation.pose
    shifted = pose.translation + np.array([1.5, 0.0, 0.0])
    return dataclasses.replace(observation, pose=Pose(pose.matrix, pose.rotation, shifted, pose.radial))


def _reading(scorer: SilhouetteScorer) -> tuple:
    costs = [scorer.space_costs(board) for board in BOARDS]
    scores = [scorer.camel_score(board, camel) for board in BOARDS for stack in board.values() for camel in stack]
    return costs, scores, first_track(scorer), [scorer.lone(space).tolist() for space in scorer.spaces]


def test_a_frame_from_the_same_pose_takes_over_the_shapes_and_reads_as_if_it_drew_them(table_and_frames, monkeypatch):
    table, colours, observation, picture = table_and_frames
    # The next frame of a camera that has not moved: its markers where they were, so the same lens and pose.
    following = observe(CONFIG, table.template, picture, location=observation.location)
    assert np.array_equal(following.pose.translation, observation.pose.translation)
    monkeypatch.setattr(geometry, "_last_shapes", {})
    drawn_alone = _reading(_scorer(table, colours, following))
    monkeypatch.setattr(geometry, "_last_shapes", {})
    last = _scorer(table, colours, observation)
    _reading(last)  # (draws its shapes)
    _scorer(table, colours, _moved(observation))  # a picture from elsewhere between the two (a still, say)
    taken_over = _scorer(table, colours, following)
    space = next(space for space in taken_over.spaces if last._windows[space].layouts)
    assert taken_over._windows[space].layouts is last._windows[space].layouts
    assert taken_over._windows[space].reach is last._windows[space].reach
    # Where the ground around a stack's feet is counted (the rings and floor the bodies leave, as packed bits) too.
    assert last._windows[space].ground_parts
    assert taken_over._windows[space].ground_parts is last._windows[space].ground_parts
    # And where the lone scores and the colour around a camel are summed.
    for name in ("lone_cores", "stray_rects"):
        assert getattr(last._windows[space], name) is not None
        assert getattr(taken_over._windows[space], name) is getattr(last._windows[space], name)
    assert _reading(taken_over) == drawn_alone


def test_a_camera_that_moved_draws_its_own_shapes(table_and_frames, monkeypatch):
    table, colours, observation, _ = table_and_frames
    monkeypatch.setattr(geometry, "_last_shapes", {})
    last = _scorer(table, colours, observation)
    _reading(last)
    moved = _moved(observation)
    own = _scorer(table, colours, moved)
    assert all(own._windows[space].layouts is not last._windows[space].layouts for space in own.spaces)
    reading = _reading(own)
    monkeypatch.setattr(geometry, "_last_shapes", {})
    assert reading == _reading(_scorer(table, colours, moved))


def test_a_frame_from_the_same_pose_draws_no_shape_while_its_scorer_is_built(table_and_frames, monkeypatch):
    # Building the scorer asks for shapes too (a space's floor, a camel's body and reach, to judge glare and the
    # patches of a colour): a still camera's frame takes the last one's over before, instead of drawing them again.
    table, colours, observation, picture = table_and_frames
    following = observe(CONFIG, table.template, picture, location=observation.location)
    monkeypatch.setattr(geometry, "_last_shapes", {})
    last = _scorer(table, colours, observation)
    taken_over = _scorer(table, colours, following)
    assert taken_over.spaces == last.spaces
    for space in taken_over.spaces:
        assert taken_over._windows[space].corners is last._windows[space].corners
        assert taken_over._windows[space].floor_mask is last._windows[space].floor_mask
