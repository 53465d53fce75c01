"""Verifying the game's board against a picture: hypotheses from the game, scored by the picture; the
`vision read` contract (track, unseen, expected, matches, differences; errors and exit statuses)."""

import json
import random

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.gamelog import loads
from companion.table.board_hypotheses import board_hypotheses, hand_slips
from vision.board import load_template
from vision.read import ReadConfig, observe
from vision.reader import read_board
from vision.silhouette import SilhouetteScorer
from vision.synth import SceneVariation, camel_profiles, random_track, render_scene
from vision.verify import refine

LOG = {
    "format": "camelup-game-log/1",
    "edition": "2018",
    "players": ["Ann", "Bob"],
    "setup": {"track": {"1": ["green", "red"], "3": ["yellow", "blue", "purple"], "14": ["black"], "16": ["white"]}},
    "actions": [
        {"player": "Ann", "type": "pyramid", "die": "red", "value": 2},
        {"player": "Bob", "type": "pyramid", "die": "blue", "value": 1},
    ],
}
CALM = SceneVariation(hand_chance=0.0)


def board_of(log):
    return {space: list(stack) for space, stack in loads(json.dumps(log)).replay().track.as_dict().items()}


def scorer_for(track, seed, variation=CALM, cover=None):
    """The scorer of a rendered picture of ``track``; ``cover``: a space hidden behind a grey prop."""
    template = load_template("2018")
    image, truth = render_scene(template, track, seed, variation)
    if cover is not None:
        x, y = template.space_centre(cover)
        centre = np.array(truth["board_to_image"]) @ [x, y, 1.0]
        cv2.circle(image, (int(centre[0] / centre[2]), int(centre[1] / centre[2]) - 20), 70, (128, 128, 128), -1)
    config = ReadConfig()
    return SilhouetteScorer(observe(config, template, image), camel_profiles("2018"), template)


def test_hypotheses_start_with_the_expected_board_and_hold_each_slip_once():
    log = loads(json.dumps(LOG))
    hypotheses = board_hypotheses(log.start(), list(log.actions))
    assert hypotheses[0].track == board_of(LOG) and hypotheses[0].why == "the game's board"
    keys = [tuple(sorted((s, tuple(v)) for s, v in h.track.items())) for h in hypotheses]
    assert len(keys) == len(set(keys))
    why = [h.why for h in hypotheses]
    assert "Bob's pyramid ticket: blue 1 → blue 3" in why
    assert "red set down alone on 5, not on 4" in why and "blue and red swapped on 4" in why
    # Every hypothesis keeps every camel exactly once.
    for hypothesis in hypotheses:
        assert sorted(c for stack in hypothesis.track.values() for c in stack) == sorted(
            c for stack in hypotheses[0].track.values() for c in stack
        )


def test_hand_slips_move_a_camel_one_space_and_swap_within_a_stack():
    slips = {tuple(sorted((s, tuple(v)) for s, v in h.track.items())): h.why for h in hand_slips({5: ["a", "b"]})}
    assert slips[((4, ("a", "b")),)] == "a set down on 4 under b, not on 5"
    assert ((5, ("a",)), (6, ("b",))) in slips
    assert ((5, ("b", "a")),) in slips
    assert all(1 <= s <= 16 for key in slips for s, _ in key)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_true_board_scores_best_and_most_slips_worse_by_the_margin(seed):
    truth = random_track("2018", random.Random(seed))
    scorer = scorer_for(truth, seed)
    cost = scorer.track_cost(truth)
    slips = hand_slips(truth)
    margins = [scorer.track_cost(slip.track) - cost for slip in slips]
    assert min(margins) > 0, slips[margins.index(min(margins))].why
    assert sum(margin > scorer.verify.decisive_margin for margin in margins) >= 0.9 * len(slips)


def test_refine_places_camels_the_blind_reading_missed_and_moves_misplaced_ones_back():
    truth = {2: ["green"], 5: ["red", "yellow"], 9: ["blue"], 12: ["purple", "black"], 15: ["white"]}
    scorer = scorer_for(truth, 5)
    wrong = {2: ["green"], 5: ["yellow", "red"], 10: ["blue"], 12: ["purple"]}  # black and white missing
    track, unseen = refine(scorer, wrong, list(camel_profiles("2018")))
    assert track == truth and unseen == ()


def test_a_judge_answers_matches_differs_and_cannot_tell_for_hidden_spaces():
    expected = board_of(LOG)
    other = board_of({**LOG, "actions": [LOG["actions"][0], {**LOG["actions"][1], "value": 3}]})
    scorer = scorer_for(expected, 8)
    assert scorer.judge([expected, other]).answer == "matches"
    assert scorer_for(other, 9).judge([expected, other]).answer == "differs"
    # Two boards that differ only on a space the picture does not show cannot be told apart.
    swapped = {**expected, 4: ["purple", "blue", "red"]}
    verdict = scorer_for(expected, 8, cover=4).judge([expected, swapped])
    assert verdict.answer == "cannot tell" and verdict.undecided == (4,)


@pytest.fixture()
def files(tmp_path):
    log = tmp_path / "game.json"
    log.write_text(json.dumps(LOG))
    template = load_template("2018")
    paths = {}
    for name, track, seed in [
        ("same", board_of(LOG), 21),
        ("slip", board_of({**LOG, "actions": [LOG["actions"][0], {**LOG["actions"][1], "value": 3}]}), 22),
    ]:
        image, _ = render_scene(template, track, seed, CALM)
        paths[name] = tmp_path / f"{name}.png"
        cv2.imwrite(str(paths[name]), image)
    return log, paths


def run(capsys, *argv):
    status = main(["vision", "read", *map(str, argv)])
    captured = capsys.readouterr()
    return status, json.loads(captured.out), captured.err


def test_read_expect_says_matches_with_the_expected_track(files, capsys):
    log, paths = files
    status, out, _ = run(capsys, paths["same"], "--expect", log)
    assert status == 0
    assert out["matches"] is True and out["differences"] == [] and out["unseen"] == []
    assert out["expected"] == {str(s): v for s, v in sorted(board_of(LOG).items())} == out["track"]


def test_read_expect_names_the_mis_entered_die(files, capsys):
    log, paths = files
    status, out, _ = run(capsys, paths["slip"], "--expect", log)
    assert status == 0 and out["matches"] is False
    assert out["most_likely"] == "Bob's pyramid ticket: blue 1 → blue 3"
    assert out["track"]["6"] == ["blue", "purple", "red"]
    assert "blue should be on 4 under purple; the camera sees it on 6 under purple" in out["differences"]


def test_read_without_a_log_gives_track_and_unseen(files, capsys):
    _, paths = files
    status, out, _ = run(capsys, paths["same"])
    assert status == 0 and out["unseen"] == [] and "expected" not in out
    assert out["track"] == {str(s): v for s, v in sorted(board_of(LOG).items())}


def test_read_refuses_bad_input_by_name_with_status_2_and_a_lost_board_with_1(files, tmp_path, capsys):
    log, paths = files
    status, out, err = run(capsys, tmp_path / "none.png")
    assert status == 2 and "none.png: no such image file" in out["error"] and "none.png" in err
    status, out, _ = run(capsys, log)
    assert status == 2 and "not an image" in out["error"]
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    status, out, _ = run(capsys, paths["same"], "--expect", bad)
    assert status == 2 and "bad.json: the game log is not JSON" in out["error"]
    bad.write_text(json.dumps({**LOG, "actions": [{**LOG["actions"][0], "player": "Bob"}]}))
    status, out, _ = run(capsys, paths["same"], "--expect", bad)
    assert status == 2 and "action 1" in out["error"]
    status, out, _ = run(capsys, paths["same"], "--expect", log, "--board", "2014")
    assert status == 2 and "2018 game" in out["error"]
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), cv2.imread(str(paths["same"])) * 0 + 200)
    status, out, _ = run(capsys, blank)
    assert status == 1 and out["error"].startswith("board not found: ")


def test_a_full_resolution_still_is_read_in_the_board_s_region():
    # A Camera Module 3 still (4608×2592): located on a smaller copy, read in the board's region only.
    template = load_template("2018")
    track = {2: ["green"], 5: ["red", "yellow"], 9: ["blue"], 12: ["purple", "black"], 15: ["white"]}
    image, _ = render_scene(template, track, 5, CALM)
    still = cv2.resize(image, (4608, 2592), interpolation=cv2.INTER_CUBIC)
    config = ReadConfig()
    observation = observe(config, template, still)
    assert observation.image.shape[1] <= config.read_width < still.shape[1]
    reading = read_board(config, template, camel_profiles("2018"), still, observation=observation)
    assert reading.track == track and reading.unseen == ()


def test_calibrate_from_a_photo_of_any_known_board(files, tmp_path, capsys):
    log, paths = files
    saved = tmp_path / "table.json"
    assert main(["vision", "calibrate", str(paths["same"]), "--expect", str(log), "--out", str(saved)]) == 0
    capsys.readouterr()
    status, out, _ = run(capsys, paths["slip"], "--calibration", saved, "--expect", log)
    assert status == 0 and out["matches"] is False and out["most_likely"] == "Bob's pyramid ticket: blue 1 → blue 3"
    # The photo of another board is refused by name, not learnt from.
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({**LOG, "actions": []}))
    assert main(["vision", "calibrate", str(paths["same"]), "--expect", str(wrong), "--out", str(tmp_path / "x")]) == 1
    assert "camelup vision calibrate:" in capsys.readouterr().err


def test_a_board_nobody_foresaw_is_still_answered_differs(tmp_path, capsys):
    log = tmp_path / "game.json"
    log.write_text(json.dumps(LOG))
    board = board_of(LOG)
    board[10] = board.pop(16)  # white carried five spaces off: no die entry and no slip of a hand gives that
    image, _ = render_scene(load_template("2018"), board, 23, CALM)
    photo = tmp_path / "moved.png"
    cv2.imwrite(str(photo), image)
    status, out, _ = run(capsys, photo, "--expect", log)
    assert status == 0 and out["matches"] is False, out
    assert out["most_likely"] == "the camera's own reading of the board"
    assert "white should be alone on 16; the camera sees it alone on 10" in out["differences"]


def test_no_hand_slip_puts_a_camel_on_a_spectator_tile():
    slips = hand_slips({5: ["a"], 9: ["b"]}, tiles={6})
    assert all(6 not in slip.track for slip in slips)
    assert any(4 in slip.track for slip in slips)


def test_the_next_frame_finds_the_markers_where_they_were():
    from vision.locate import LocateConfig, locate_board

    template = load_template("2018")
    image, _ = render_scene(template, board_of(LOG), 31, CALM)
    first = locate_board(LocateConfig(), template, image)
    again = locate_board(LocateConfig(), template, image, near=first)
    for marker, quad in first.markers.items():
        assert np.abs(again.markers[marker] - quad).max() < 1.0
    # A picture where the board is not where it was: the markers are looked for everywhere again.
    moved = np.roll(image, (40, 60), axis=(0, 1))
    shifted = locate_board(LocateConfig(), template, moved, near=first)
    assert np.abs(shifted.markers[0] - (first.markers[0] + [60, 40])).max() < 1.5


def test_all_four_markers_where_they_were_keep_the_board_where_it_was():
    from vision.locate import LocateConfig, fit_location, locate_board

    template = load_template("2018")
    image, _ = render_scene(template, board_of(LOG), 31, CALM)
    first = locate_board(LocateConfig(), template, image, frames=True)
    # Noise and a pixel's shake move the corners found, not the camera: the next frame of the live view keeps the
    # place (and with it every shape the reader drew for it).
    rng = np.random.default_rng(5)
    noisy = np.clip(np.roll(image, (1, 1), axis=(0, 1)) + rng.normal(0, 6, image.shape), 0, 255).astype(np.uint8)
    kept = locate_board(LocateConfig(), template, noisy, near=first, frames=True)
    assert kept.homography is first.homography and kept.markers is first.markers
    # The picture itself is measured where its own markers are.
    for marker, quad in kept.seen_now.items():
        assert 0.3 < np.abs(quad - first.markers[marker]).max() < 2.0
    # A photo read against a place kept for reference is placed by its own markers.
    assert locate_board(LocateConfig(), template, noisy, near=first).homography is not first.homography
    # A camera bumped by a few pixels is placed afresh, where its markers are now.
    bumped = np.roll(image, (0, 5), axis=(0, 1))
    moved = locate_board(LocateConfig(), template, bumped, near=first, frames=True)
    assert moved is not first
    for marker, quad in first.markers.items():
        assert np.abs(moved.markers[marker] - (quad + np.array([5.0, 0.0]))).max() < 1.0
    # A calibration photo's place is not kept: it was taken in other light, perhaps long before.
    photo = fit_location(template, first.markers)
    assert locate_board(LocateConfig(), template, noisy, near=photo, frames=True).homography is not photo.homography


def test_a_still_camera_is_placed_by_the_mean_of_its_frames_and_follows_a_nudge():
    from vision.locate import LocateConfig, locate_board

    config = LocateConfig()
    template = load_template("2018")
    image, _ = render_scene(template, board_of(LOG), 31, CALM)
    place = first = locate_board(config, template, image, frames=True)
    shifted = np.roll(image, (0, 2), axis=(0, 1))  # the corners found 2 px to the right, frame after frame
    for _ in range(2):
        place = locate_board(config, template, shifted, near=place, frames=True)
    # The mean of the three frames' corners is 4/3 px to the right, past settle_px: the place has followed it.
    for marker, quad in first.markers.items():
        assert np.abs(place.markers[marker] - (quad + np.array([4 / 3, 0.0]))).max() <= config.settle_px
        assert np.abs(place.markers[marker] - quad)[:, 0].min() > 0.9
    # A fourth frame moves the mean by 1/6 px: the place is kept as it is.
    kept = locate_board(config, template, shifted, near=place, frames=True)
    assert kept.homography is place.homography and kept.steady_run[1] == 4
    # However long the camera stood still, a nudge of 2 px is followed: the older frames fade.
    place = first
    for _ in range(40):
        place = locate_board(config, template, image, near=place, frames=True)
    assert place.steady_run[1] == config.run_frames
    for _ in range(20):
        place = locate_board(config, template, shifted, near=place, frames=True)
    for marker, quad in first.markers.items():
        assert np.abs(place.markers[marker] - (quad + np.array([2.0, 0.0]))).max() <= config.settle_px


def test_a_marker_covered_since_the_last_frame_leaves_three_and_no_search_of_the_whole_picture(monkeypatch):
    import vision.locate as locate

    template = load_template("2018")
    image, _ = render_scene(template, board_of(LOG), 31, CALM)
    first = locate.locate_board(locate.LocateConfig(), template, image)
    covered = image.copy()
    quad = first.markers[1].astype(np.int32)
    cv2.fillConvexPoly(covered, cv2.convexHull(quad), (40, 60, 90))  # a hand over marker 1
    looked_at = []
    detect = locate._detect
    monkeypatch.setattr(locate, "_detect", lambda finder, gray, scale=1.0: looked_at.append(gray.shape) or detect(
        finder, gray, scale))
    again = locate.locate_board(locate.LocateConfig(), template, covered, near=first)
    assert all(shape[0] * shape[1] < covered.shape[0] * covered.shape[1] / 4 for shape in looked_at)
    # The three left are where they were: the board stays where all four placed it.
    assert again is first
    moved = np.roll(covered, (6, 0), axis=(0, 1))
    shifted = locate.locate_board(locate.LocateConfig(), template, moved, near=first)
    assert sorted(shifted.markers) == [0, 2, 3]  # moved: placed afresh by the three, which agree
    for marker in (0, 2, 3):
        assert np.abs(shifted.markers[marker] - (first.markers[marker] + [0, 6])).max() < 1.0


def test_camels_placed_differently_are_counted_by_space_and_level():
    from companion.table.board_hypotheses import moved_camels

    board = {3: ["a", "b"], 5: ["c"]}
    assert moved_camels(board, board) == set()
    assert moved_camels({3: ["b", "a"], 5: ["c"]}, board) == {"a", "b"}  # swapped: both stand at another level
    assert moved_camels({3: ["a"], 6: ["b"], 5: ["c"]}, board) == {"b"}
    assert moved_camels({3: ["a", "b"]}, board) == set()  # a camel not seen is not counted as moved


def test_markers_covered_but_those_seen_unmoved_keep_the_board_where_it_was():
    from vision.locate import BoardNotFound, LocateConfig, locate_board

    template = load_template("2018")
    image, _ = render_scene(template, board_of(LOG), 31, CALM)
    first = locate_board(LocateConfig(), template, image)
    covered = image.copy()
    for marker in (1, 2):  # an arm across the board hides two markers
        cv2.fillConvexPoly(covered, cv2.convexHull(first.markers[marker].astype(np.int32)), (40, 60, 90))
    with pytest.raises(BoardNotFound, match=r"markers 1 .*2 .*not seen"):
        locate_board(LocateConfig(), template, covered)  # no previous frame: two markers cannot place the board
    assert locate_board(LocateConfig(), template, covered, near=first) is first
    # The same two hidden, and the camera bumped a few pixels: the markers seen are not where they were.
    bumped = np.roll(covered, (3, 4), axis=(0, 1))
    with pytest.raises(BoardNotFound, match=r"markers 0, 3 seen 5 px from where they were: has the camera moved"):
        locate_board(LocateConfig(), template, bumped, near=first)
    # One covered, and the three seen bent just past agreeing on a plane: unmoved, they keep the board too.
    one = image.copy()
    cv2.fillConvexPoly(one, cv2.convexHull(first.markers[1].astype(np.int32)), (40, 60, 90))
    strict = LocateConfig(max_reprojection_px=0.01)
    # Without a previous frame it is "board not found", saying why three seen were not enough.
    with pytest.raises(BoardNotFound, match=r"marker 1 .* not seen, and markers 0, 2, 3, seen, do not agree on where"):
        locate_board(strict, template, one)
    assert locate_board(strict, template, one, near=first) is first


def test_cannot_tell_names_only_spaces_the_players_can_look_at():
    # A rival that puts a camel past the finish line (space 17) or behind the start (0) makes those "spaces"
    # undecided too: the verdict names the track's spaces only.
    from types import SimpleNamespace

    from companion.table.board_hypotheses import Hypothesis
    from companion.table.camera_verdict import camera_verdict
    from vision.verify import Verdict, VerifyConfig

    expected = {12: ["red"], 17: ["blue"]}
    rival = {12: ["blue"], 0: ["red"]}
    template = load_template("2018")

    def judge(tracks, priors):
        return Verdict("cannot tell", 0, 0.1, (0, 12, 17), (1,), [0.0, 0.1])

    scorer = SimpleNamespace(verify=VerifyConfig(), judge=judge, track_cost=lambda track: 0.0, spaces=[12],
                             space_costs=lambda track: {12: 0.0}, covered=lambda track, space: False,
                             template=template)
    hypotheses = [Hypothesis(expected, "the game's board"), Hypothesis(rival, "a slip")]
    found = camera_verdict(scorer, hypotheses, {}, ("red", "blue"), ["red", "blue"])
    assert found.answer == "cannot tell (space 12 not clear enough)"
    # A rival that differs only off the track (blue past the finish line or behind the start).
    off = [Hypothesis(expected, "the game's board"), Hypothesis({12: ["red"], 0: ["blue"]}, "a slip")]
    only_off = SimpleNamespace(**{**vars(scorer), "judge": lambda tracks, priors: Verdict(
        "cannot tell", 0, 0.1, (0, 17), (1,), [0.0, 0.1])})
    assert camera_verdict(only_off, off, {}, ("red", "blue"), ["red", "blue"]).answer == (
        "cannot tell (the board is not clear enough)")


def test_a_marker_in_a_dark_noisy_soft_photo_is_found_smoothed_when_sharpening_fails():
    from vision.locate import LocateConfig, find_markers
    from vision.photo import make_table
    from vision.photo import render_scene as photo_scene
    from vision.plausible import random_board

    table = make_table(5, "2014")
    image, _ = photo_scene(table, random_board("2014", random.Random(1)), 1, "clean")
    # A dim table lamp: a fifth of the light, the sensor's gain noise, a little out of focus. (Without the
    # smoothed look each of these misses one or two markers; with it, all four are found.)
    for noise_seed, soft in ((1, 1.0), (8, 1.0), (4, 1.5), (6, 1.5)):
        dim = cv2.GaussianBlur(image.astype(np.float32) * 0.2, (0, 0), soft)
        dim += np.random.default_rng(noise_seed).normal(0, 12, image.shape)
        gray = cv2.cvtColor(np.clip(dim, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
        assert sorted(find_markers(LocateConfig(), table.template, gray)) == [0, 1, 2, 3], (noise_seed, soft)
