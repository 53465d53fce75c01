"""Reading the board: the camera's pose, then whole synthetic scenes with the cases that used to go wrong."""

import random

import cv2
import numpy as np
import pytest

from vision.bench import run_bench
from vision.board import load_template
from vision.locate import LocateConfig, locate_board
from vision.read import BOARD_BGR, ReadConfig, board_rims, camera_pose, hue_apart, observe, rim_colours
from vision.reader import not_shown, read_board
from vision.synth import SceneVariation, camel_profiles, random_track, render_scene


@pytest.mark.parametrize("azimuth", [0.0, 12.0])
def test_the_focal_length_holds_when_the_camera_faces_the_board_square_on(azimuth):
    # Square on, one of the two constraints on the focal length says nothing; it must not spoil the other.
    template = load_template("2018")
    variation = SceneVariation(azimuth_deg=(azimuth, azimuth), hand_chance=0.0)
    for seed in range(3):
        image, truth = render_scene(template, random_track("2018", random.Random(seed)), seed, variation)
        pose = camera_pose(locate_board(LocateConfig(), template, image), (1280, 720))
        assert pose.matrix[0, 0] == pytest.approx(truth["camera"]["focal_px"], rel=0.02)


def read(template, track, seed, variation=None):
    image, truth = render_scene(template, track, seed, variation)
    reading = read_board(ReadConfig(), template, camel_profiles(template.edition), image)
    return {str(space): stack for space, stack in reading.track.items()}, truth["track"]


def test_camels_on_the_far_row_are_read_when_their_lines_leave_the_picture():
    # Framed tight, a line up from the far row runs off the top of the picture: it is read up to the edge.
    template = load_template("2014")
    track = {1: ["green"], 2: ["yellow"], 3: ["blue", "white"], 4: ["orange"]}
    for seed in range(4):
        got, truth = read(template, track, seed)
        assert got == truth, f"seed {seed}"


def test_a_tall_stack_neither_lends_its_top_camel_to_the_space_behind_nor_takes_one_from_it():
    template = load_template("2018")
    straight_on = SceneVariation(azimuth_deg=(-5.0, 5.0), elevation_deg=(38.0, 45.0))
    front_and_behind = [
        # The stack on 15 hides the foot of space 16 behind it.
        {15: ["green", "red", "black"], 16: ["purple"], 9: ["white"], 12: ["yellow"], 13: ["blue"]},
        {15: ["black", "blue", "red"], 16: ["purple"], 5: ["green"], 6: ["white"], 8: ["yellow"]},
        {6: ["red", "yellow"], 5: ["green"], 8: ["black", "purple"], 1: ["blue"], 13: ["white"]},
    ]
    for seed, track in enumerate(front_and_behind):
        got, truth = read(template, track, seed, straight_on)
        tall = max(truth, key=lambda space: len(truth[space]))
        assert got[tall] == truth[tall], f"track {seed}"
        # The camel behind may be left unseen (it is mostly hidden), but never put on the tall stack.
        assert all(camel in truth[space] for space, stack in got.items() for camel in stack), f"track {seed}"


def test_a_white_camel_on_the_start_space_printed_lighter_is_not_taken_for_the_board():
    template = load_template("2018")
    track = {1: ["white"], 4: ["green"], 6: ["yellow"], 9: ["red", "blue"], 12: ["purple"], 14: ["black"]}
    for seed in range(4):
        got, truth = read(template, track, seed, SceneVariation(light=(0.7, 1.0)))
        assert got.get("1") == ["white"], f"seed {seed}"
        # What is not clear enough is left unseen, never put on another space.
        assert all(camel in truth[space] for space, stack in got.items() for camel in stack), f"seed {seed}"


def test_a_hand_over_part_of_a_stack_does_not_hide_it():
    template = load_template("2014")
    with_a_hand = SceneVariation(hand_chance=1.0)
    right = 0
    for seed in range(10):
        got, truth = read(template, random_track("2014", random.Random(seed)), seed, with_a_hand)
        right += got == truth
    assert right >= 9


def test_seeded_scenes_across_the_variations_are_read_right():
    # A small bench: the full one (`camelup vision bench --scenes 500`) is in the README and the issue.
    result = run_bench(40, seed=7)
    # Camels whose place is not clear are reported unseen rather than guessed: few are wrong.
    assert result["scene_accuracy"] >= 0.75 and result["camel_error"] <= 0.01, result
    assert result["camels_unseen"] <= 0.06, result


@pytest.mark.parametrize("k1", [-0.3, -0.15, 0.05])
def test_a_lens_bends_the_board_and_the_pose_bends_with_it(k1):
    # Markers seen through a lens with radial distortion (a wide Camera Module 3 about -0.3, a webcam -0.15),
    # projected by OpenCV's own arithmetic: a straight projection from them puts the track, and the air above
    # it where stacks stand, pixels off; the pose fitted with the lens's first radial term puts them right.
    import cv2
    import numpy as np

    from vision.locate import _agree, fit_location
    from vision.read import _homography_pose

    template = load_template("2014")
    matrix = np.array([[520.0, 0, 640], [0, 520.0, 360], [0, 0, 1]])  # a 102° wide lens
    distortion = np.array([k1, 0, 0, 0, 0])
    rvec, tvec = np.array([2.3, 0.1, -0.1]), np.array([-330.0, 50.0, 600.0])

    def seen(points):
        pixels, _ = cv2.projectPoints(np.asarray(points, float), rvec, tvec, matrix, distortion)
        return pixels.reshape(-1, 2)

    corners = {m: seen([(x, y, 0.0) for x, y in template.marker_corners(m)]) for m in template.markers}
    assert all(((quad >= 0) & (quad < (1280, 720))).all() for quad in corners.values())
    location = fit_location(template, corners)
    points = np.array([(*template.space_centre(space), -z) for space in template.spaces for z in (0.0, 20.0, 60.0)])
    truth = seen(points)
    bent = np.linalg.norm(camera_pose(location, (1280, 720), template).project(points) - truth, axis=1)
    straight = np.linalg.norm(_homography_pose(location, (1280, 720)).project(points) - truth, axis=1)
    assert bent.max() < 0.5, bent.max()
    if abs(k1) >= 0.15:
        assert straight.max() > 5, straight.max()
    # Three markers (one covered) agree on the board seen through the lens, whatever one homography says.
    three = fit_location(template, {m: quad for m, quad in corners.items() if m != 3})
    assert _agree(LocateConfig(), template, three, (1280, 720))
    if k1 <= -0.3:
        assert three.reprojection_px > LocateConfig().max_reprojection_px


def test_the_poses_lens_term_is_opencvs():
    import cv2
    import numpy as np

    from vision.read import Pose

    rotation, _ = cv2.Rodrigues(np.array([0.9, -0.1, 0.05]))
    pose = Pose(np.array([[900.0, 0, 640], [0, 900.0, 360], [0, 0, 1]]), rotation, np.array([-300.0, -200, 800]),
                -0.2)
    points = np.random.default_rng(1).uniform([0, 0, -80], [600, 600, 0], (50, 3))
    expected, _ = cv2.projectPoints(points, cv2.Rodrigues(rotation)[0], pose.translation, pose.matrix,
                                    np.array([-0.2, 0, 0, 0, 0]))
    assert pose.project(points) == pytest.approx(expected.reshape(-1, 2), abs=1e-6)


def _rim_points(template, space):
    """Where rim_colours samples a space's rim (its corners, 0.8 of the way out from the middle)."""
    centre = np.array(template.space_centre(space))
    return [(*(centre + 0.8 * (np.array(corner) - centre)), 0.0) for corner in template.spaces[space]]


@pytest.mark.parametrize("paint", [(255, 255, 255), (20, 20, 25)])
def test_a_space_keeps_the_boards_colour_when_what_stands_on_it_covers_part_of_its_rim(paint):
    # A white camel near a corner is brighter than any board; a tall stack of dark camels or a shadow darker.
    # Either, taken for the board, would hide a camel of its colour there (the white camel most of all).
    template = load_template("2014")
    config = ReadConfig()
    image, _ = render_scene(template, {}, 3, SceneVariation(hand_chance=0.0))
    seen = observe(config, template, image)
    painted = image.copy()
    space = 9
    corners = seen.pose.project(np.array(_rim_points(template, space)))
    # Two of its four corners and the edge between them covered (what the rim's brightest corner used to be).
    start, end = corners[0], corners[1]
    for share in np.linspace(0, 1, 12):
        at = np.rint(start + share * (end - start)).astype(int)
        cv2.circle(painted, (int(at[0]), int(at[1])), 5, paint, -1)
    before = seen.rims[space]
    after = rim_colours(config, template, seen.pose, painted)[space]
    assert np.abs(after - before).max() < 20, (before, after)


def test_a_space_covered_by_a_tile_takes_its_tone_from_its_neighbours():
    # Camels never stay on a desert tile's space: with the tile taken for the board there, a camel of the tile's
    # colour (or of its printed disc) was fitted on it; with the board's tone, the tile is unlike the board.
    template, config, image, seen = _bare_board()
    space = 11
    outline = seen.pose.project(np.array([(*corner, 0.0) for corner in template.spaces[space]]))
    painted = image.copy()
    cv2.fillConvexPoly(painted, np.rint(outline).astype(np.int32), (150, 40, 120))
    after = rim_colours(config, template, seen.pose, painted)
    same_tone = np.median([seen.rims[other] for other in (9, 11, 13)], axis=0)
    assert np.abs(after[space] - same_tone).max() < 25, (after[space], same_tone)
    assert all(np.abs(after[other] - seen.rims[other]).max() < 20 for other in (10, 12))


def _bare_board():
    """A 2014 board with no camel on it, and what the reader observes of it."""
    template = load_template("2014")
    config = ReadConfig()
    image, _ = render_scene(template, {}, 5, SceneVariation(hand_chance=0.0))
    return template, config, image, observe(config, template, image)


def _paint_tile(image, seen, template, space, colour):
    outline = seen.pose.project(np.array([(*corner, 0.0) for corner in template.spaces[space]]))
    cv2.fillConvexPoly(image, np.rint(outline).astype(np.int32), colour)


def test_a_bare_space_between_two_tiles_keeps_its_own_colour():
    # Tiles of two colours on both spaces of its tone two away: the median of those three rims was a colour no
    # space had (each channel from another), the bare space between them was taken for covered, and a 4-high stack
    # on it was read nowhere (independent dev seed 600, light tier).
    template, config, image, seen = _bare_board()
    painted = image.copy()
    _paint_tile(painted, seen, template, 9, (150, 40, 120))
    _paint_tile(painted, seen, template, 13, (60, 120, 40))
    after = rim_colours(config, template, seen.pose, painted)
    assert np.abs(after[11] - seen.rims[11]).max() < 20, (after[11], seen.rims[11])


@pytest.mark.parametrize("seed", [6, 9])
def test_a_tall_stack_between_two_tiles_is_read(seed):
    # The white camel at its bottom, on the pale space taken for covered, was left unseen.
    template = load_template("2014")
    track = {11: ["white", "green", "blue", "orange"], 3: ["yellow"]}
    image, truth = render_scene(template, track, seed, SceneVariation(hand_chance=0.0))
    seen = observe(ReadConfig(), template, image)
    for space, colour in ((9, (150, 40, 120)), (13, (60, 120, 40))):
        _paint_tile(image, seen, template, space, colour)
    reading = read_board(ReadConfig(), template, camel_profiles(template.edition), image)
    assert {str(space): stack for space, stack in reading.track.items()} == truth["track"]


@pytest.mark.parametrize("radial", [0.0, -0.2, 0.1])
def test_a_pose_projects_points_exactly_as_the_plain_formula_does(radial):
    """Pose.project divides a column at a time (a speed-up): bit for bit the plain pinhole-and-k1 arithmetic."""
    from vision.read import Pose

    rng = np.random.default_rng(7)
    rotation, _ = cv2.Rodrigues(rng.normal(0, 0.4, 3))
    pose = Pose(np.array([[900.0, 0, 640], [0, 900.0, 360], [0, 0, 1]]), rotation,
                np.array([20.0, -35.0, 900.0]), radial)
    points = rng.uniform(-300, 300, (2000, 3))
    in_camera = points @ pose.rotation.T + pose.translation
    ideal = in_camera[:, :2] / in_camera[:, 2:3]
    if radial:
        ideal = ideal * (1 + radial * np.einsum("ij,ij->i", ideal, ideal))[:, None]
    expected = ideal @ pose.matrix[:2, :2].T + pose.matrix[:2, 2]
    assert np.array_equal(pose.project(points), expected)


SLEEVE = (170, 120, 60)
"""A blue sleeve (BGR): a hue no board is printed in."""


def test_a_sleeve_over_a_space_and_both_spaces_of_its_tone_beside_it_does_not_pass_for_their_tone():
    # An arm over spaces 9 to 13: the rims of 9, 11 and 13 agree with each other, so without the board's colour
    # the sleeve passed for their tone, and the light estimated from it turned the sand yellow (wrong camels).
    template, config, image, seen = _bare_board()
    painted = image.copy()
    for space in range(9, 14):
        _paint_tile(painted, seen, template, space, SLEEVE)
    covered = observe(config, template, painted)
    assert hue_apart(covered.rims[11], SLEEVE) < 0.05  # as it was: the sleeve taken for the board
    rims = board_rims(covered, template, BOARD_BGR)
    same_tone = np.median([seen.rims[other] for other in (7, 15)], axis=0)
    for space in (9, 11, 13):
        assert np.abs(rims[space] - same_tone).max() < 25, (space, rims[space], same_tone)
    # The spaces the sleeve leaves bare keep their colours, bit for bit.
    assert all(np.array_equal(rims[space], covered.rims[space]) for space in (1, 2, 3, 4, 5, 6, 15, 16))


def test_rims_all_of_the_boards_hue_are_judged_as_before():
    template = load_template("2014")
    image, _ = render_scene(template, {3: ["white"], 11: ["blue", "green"]}, 7, SceneVariation(hand_chance=0.0))
    seen = observe(ReadConfig(), template, image)
    assert board_rims(seen, template, BOARD_BGR) is seen.rims


@pytest.mark.parametrize("seed", [0, 4])
def test_camels_beside_a_sleeve_over_three_spaces_of_one_tone_are_read(seed):
    # The sleeve, taken for the tone of 9, 11 and 13, made the light at 10 and 12 bluer than it is, so the sand
    # looked yellow: the yellow camel on 10 was read as orange and the stack on 12 was lost.
    template = load_template("2014")
    track = {10: ["yellow"], 12: ["orange", "white"], 14: ["green"], 3: ["blue"]}
    image, truth = render_scene(template, track, seed, SceneVariation(hand_chance=0.0))
    seen = observe(ReadConfig(), template, image)
    for space in (9, 11, 13):
        _paint_tile(image, seen, template, space, SLEEVE)
    reading = read_board(ReadConfig(), template, camel_profiles(template.edition), image)
    assert {str(space): stack for space, stack in reading.track.items()} == truth["track"]


def test_a_camel_the_board_fits_worse_with_is_not_shown():
    # Each camel's worth to the board: green on 9 and the stack on 4 fit the picture; white's place (a sleeve's look-
    # alike) makes the board fit 0.5 worse, black's 0.1 worse (a dim camel, within the doubt: kept).
    worth = {"green": 0.7, "red": 0.6, "blue": 0.8, "white": -0.5, "black": -0.1}

    class Scorer:
        @staticmethod
        def track_cost(track):
            # A camel whose support is taken away falls a level: blue without red is worth less.
            cost = -sum(worth[camel] for stack in track.values() for camel in stack)
            return cost + (0.3 if track.get(4) == ["blue"] else 0.0)

    track = {4: ["red", "blue"], 9: ["green"], 11: ["white"], 13: ["black"]}
    assert not_shown(Scorer(), track) == ("white",)
    assert not_shown(Scorer(), {9: ["green"]}) == ()
