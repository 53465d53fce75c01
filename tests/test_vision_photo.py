"""The photo-like renderer (vision.photo): seeded, its truth agrees with OpenCV's own detector and projection,
the camera stays within the README's guidance, and its random boards are boards a game can show."""

from __future__ import annotations

import json
import random

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.rules import EDITIONS, new_game
from vision.photo import GUIDANCE_MARGIN_PX, TIERS, calibration_track, make_table, render_calibration, render_scene
from vision.photo_bench import run_photo_bench
from vision.plausible import plausible_track, random_board
from vision.synth import EDITION_CAMELS


@pytest.fixture(scope="module")
def table_2018():
    return make_table(11, "2018")


def test_the_same_seeds_give_the_same_picture_and_another_seed_another(table_2018):
    track = {3: ["red", "blue"], 9: ["green"], 12: ["yellow", "purple", "black", "white"]}
    first, truth = render_scene(table_2018, track, 5, "light")
    again, _ = render_scene(table_2018, track, 5, "light")
    other, _ = render_scene(table_2018, track, 6, "light")
    assert first.shape == (720, 1280, 3) and first.dtype == np.uint8
    assert np.array_equal(first, again)
    assert np.abs(first.astype(int) - other).mean() > 1
    assert truth["track"] == {"3": ["red", "blue"], "9": ["green"], "12": ["yellow", "purple", "black", "white"]}


def test_opencv_finds_the_markers_where_the_truth_says(table_2018):
    image, truth = render_scene(table_2018, {5: ["green"]}, 1, "clean")
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = detector.detectMarkers(image)
    found = {int(i): quad.reshape(4, 2) for quad, i in zip(corners, ids.ravel(), strict=True)}
    assert sorted(found) == [0, 1, 2, 3]
    for marker, quad in found.items():
        expected = np.array(truth["markers"][str(marker)]["corners_px"])
        assert np.abs(quad - expected).max() < 2.0, marker


def test_the_camera_is_placed_within_the_readmes_guidance():
    for seed in range(6):
        table = make_table(seed, "2014" if seed % 2 else "2018")
        pose = table.pose
        assert 650 <= pose["distance_mm"] <= 900 and 35 <= pose["elevation_deg"] <= 60
        assert abs(pose["azimuth_deg"]) <= 25 and pose["margin_px"] >= GUIDANCE_MARGIN_PX
        # On the side of spaces 9 to 13 (the bottom row, large y), above the table (negative z).
        position = table.camera.position
        assert position[1] > 600 and position[2] < -300


def test_a_camel_alone_is_fully_in_view_and_a_hand_or_a_camel_on_top_hides_some(table_2018):
    _, truth = render_scene(table_2018, {10: ["red"], 4: ["blue", "green", "yellow"]}, 2, "clean")
    assert truth["camels"]["red"]["visible"] > 0.95
    assert truth["camels"]["blue"]["visible"] < truth["camels"]["yellow"]["visible"]
    assert truth["camels"]["red"]["height_px"] > 10
    track = {2: ["red"], 6: ["blue"], 10: ["green"], 14: ["yellow"], 16: ["black", "white"], 8: ["purple"]}
    _, without = render_scene(table_2018, track, 4, "light", hand=False)
    _, with_hand = render_scene(table_2018, track, 4, "light", hand=True)
    assert without["hand_over_space"] is None and with_hand["hand_over_space"] in range(1, 17)
    in_view = {camel: facts["visible"] for camel, facts in without["camels"].items()}
    covered = {camel: facts["visible"] for camel, facts in with_hand["camels"].items()}
    assert all(covered[camel] <= in_view[camel] + 1e-9 for camel in in_view)
    assert without["occluders_px"]["hand"] == 0 and with_hand["occluders_px"]["hand"] > 2000


def test_crazy_camels_face_backwards_and_camels_stand_near_the_middle_of_their_space(table_2018):
    _, truth = render_scene(table_2018, {10: ["green", "black"]}, 3, "light")
    green, black = truth["camels"]["green"], truth["camels"]["black"]
    assert abs((green["heading_deg"] - black["heading_deg"]) % 360 - 180) < 15
    centre = np.array(table_2018.template.space_centre(10))
    assert np.abs(np.array(green["at_mm"]) - centre).max() <= 9


def test_the_calibration_photo_has_one_camel_per_odd_space(table_2018):
    image, truth = render_calibration(table_2018, 0)
    assert truth["track"] == {str(s): stack for s, stack in calibration_track("2018").items()}
    assert [stack[0] for stack in calibration_track("2018").values()] == list(EDITION_CAMELS["2018"])
    assert image.shape == (720, 1280, 3)


@pytest.mark.parametrize("edition", ["2014", "2018"])
def test_random_boards_are_boards_the_rules_engine_accepts(edition):
    rng = random.Random(4)
    stacked = 0
    for _ in range(60):
        track = random_board(edition, rng)
        camels = [camel for stack in track.values() for camel in stack]
        assert sorted(camels) == sorted(EDITIONS[edition].camels)
        assert all(1 <= space <= 16 for space in track)
        new_game(EDITIONS[edition], ["Ann", "Bob"], {s: tuple(stack) for s, stack in track.items()})
        stacked += max(len(stack) for stack in track.values()) >= 2
    assert stacked >= 40
    start = plausible_track(edition, random.Random(1), draws=0)
    assert set(start) <= {1, 2, 3, 14, 15, 16}


def test_the_bench_reports_per_tier_and_per_level(capsys):
    result = run_photo_bench(1, seed=3, tiers=("clean",))
    tier = result["tiers"]["clean"]
    assert tier["scenes"] == 1 and set(tier["by_level"]) <= {"0", "1", "2", "3"}
    assert {"scene_accuracy", "camel_error", "unseen_occluded", "unseen_in_view", "board_not_found"} <= set(tier)
    assert main(["vision", "bench", "--scenes", "1", "--tier", "clean", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert printed["renderer"] == "photo" and list(printed["tiers"]) == ["clean"]
    assert set(TIERS) == {"clean", "light", "props"}


def test_the_render_command_writes_a_photo_scene_and_its_truth(tmp_path, capsys):
    out = tmp_path / "scene.png"
    assert main(["vision", "render", "--board", "2014", "--seed", "4", "--tier", "props", "--out", str(out)]) == 0
    truth = json.loads(out.with_suffix(".json").read_text())
    assert truth["renderer"] == "photo" and truth["tier"] == "props" and truth["edition"] == "2014"
    assert sorted(c for stack in truth["track"].values() for c in stack) == sorted(EDITION_CAMELS["2014"])
    assert cv2.imread(str(out)).shape == (720, 1280, 3)
    assert main(["vision", "render", "--seed", "4", "--calibration-layout", "--out", str(out)]) == 0
    assert json.loads(out.with_suffix(".json").read_text())["track"] == {
        str(s): stack for s, stack in calibration_track("2018").items()
    }
