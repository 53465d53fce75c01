"""Photos from the independent renderer (benchmarks/independent, the camera bench's outsider) that the reader got
wrong, kept as they were made: the bench's development seeds 600 and 601 (tuned on; the figures it reports are on
other seeds), table and scene as `benchmarks/camera_independent.py --seed S` renders them, calibrated and read
through the command line as a builder does."""

from __future__ import annotations

import json

import pytest

from benchmarks.camera_independent import calibration_board
from benchmarks.independent.scene import render
from benchmarks.independent.table import make_table
from companion.cli import main

SEED = 600


def read_independent(
    tmp_path, capsys, table_index: int, tier: str, scene: int, track: dict[int, list[str]], seed: int = SEED,
    log: dict | None = None,
) -> dict:
    """The reading of scene ``scene`` of ``tier`` on table ``table_index`` of the bench's ``seed``, the table
    calibrated in the scene's light first (as the bench does); with a game ``log``, verified against it
    (``--expect``, a board the bench renders without tiles)."""
    edition = "2018" if table_index % 2 == 0 else "2014"
    board = calibration_board(edition)
    table = make_table(seed * 1000 + table_index, edition, [stack[0] for stack in board.values()])
    light = "clean" if tier == "clean" else "light"
    # Saved as the bench saves them: PNG in clean light, JPEG (the renderer's quality) otherwise.
    photo = tmp_path / f"calibration.{'png' if light == 'clean' else 'jpg'}"
    picture = tmp_path / f"scene.{'png' if tier == 'clean' else 'jpg'}"
    calibration = tmp_path / "cal.json"
    render(table, light, board, 0, str(photo), calibration=True)
    assert main(["vision", "calibrate", str(photo), "--board", edition, "--out", str(calibration)]) == 0
    render(table, tier, track, scene + 1, str(picture), tiles=log is None)
    expect = []
    if log is not None:
        (tmp_path / "game.json").write_text(json.dumps(log))
        expect = ["--expect", str(tmp_path / "game.json")]
    capsys.readouterr()
    assert main(["vision", "read", str(picture), "--calibration", str(calibration), *expect]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("table_index", "scene", "track", "under_fronds"),
    [
        # The palm tree's fronds over space 1 read as the green camel (which stands on 7).
        (8, 3, {12: ["blue", "red"], 10: ["yellow", "white"], 8: ["purple", "black"], 7: ["green"]}, 1),
    ],
)
def test_the_palm_tree_s_fronds_are_no_green_camel(tmp_path, capsys, table_index, scene, track, under_fronds):
    reading = read_independent(tmp_path, capsys, table_index, "props", scene, track)
    assert str(under_fronds) not in reading["track"], reading
    placed = {camel: int(space) for space, stack in reading["track"].items() for camel in stack}
    assert placed.get("green") in (None, 7), reading


def test_a_frond_s_tip_over_a_space_is_no_camel_of_its_colour(tmp_path, capsys):
    """Seed 97 (fresh in the sixth round, development since), props, table 2, the fourth --expect board: the palm
    tree's fronds hang over space 5 from beyond the far edge of the track, and the green camel stands hidden under
    them on 4. The fronds' tip on the track (3.7 body boxes) was read as green standing on 5: "differs", a false
    alarm on the board the log leads to."""
    log = {
        "format": "camelup-game-log/1", "edition": "2018", "players": ["Ann", "Bob"],
        "setup": {"track": {"4": ["green"], "5": ["black", "blue"], "6": ["red"], "7": ["purple"],
                            "9": ["yellow", "white"]}},
        "actions": [{"player": "Ann", "type": "pyramid", "die": "grey", "value": 3, "crazy": "white"}],
    }
    expected = {2: ["black", "blue"], 4: ["green"], 6: ["red"], 7: ["purple"], 9: ["yellow", "white"]}
    reading = read_independent(tmp_path, capsys, 2, "props", 102, expected, seed=97, log=log)
    assert reading["expected"] == {str(space): stack for space, stack in expected.items()}
    assert "5" not in reading["track"] and reading["matches"] is not False, reading


def test_two_camels_read_in_each_other_s_places_are_swapped_back(tmp_path, capsys):
    """Orange and yellow were read in each other's places (yellow alone on 4, orange under white on 7): moving
    either one alone leaves two camels of one colour's place empty and costs more; swapped, the board fits."""
    track = {11: ["blue"], 4: ["orange"], 7: ["yellow", "white"], 3: ["green"]}
    reading = read_independent(tmp_path, capsys, 3, "props", 0, track)
    assert reading["track"] == {str(space): stack for space, stack in sorted(track.items())}, reading


def test_the_camera_s_own_reading_beating_a_matching_board_by_a_camel_is_no_difference(tmp_path, capsys):
    """The bench's dev seed 601 (props, table 1, the fourth --expect board, the board the log leads to): the
    camera's own reading (orange on 3 on top of yellow) explained the picture better than the game's board by
    1.15, one camel moved, and was answered as a difference nobody foresaw: a false alarm."""
    log = {
        "format": "camelup-game-log/1", "edition": "2014", "players": ["Ann", "Bob"],
        "setup": {"track": {"1": ["green", "blue"], "3": ["yellow"], "6": ["orange"], "16": ["white"]}},
        "actions": [{"player": "Ann", "type": "pyramid", "die": "green", "value": 1}],
    }
    expected = {2: ["green", "blue"], 3: ["yellow"], 6: ["orange"], 16: ["white"]}
    reading = read_independent(tmp_path, capsys, 1, "props", 102, expected, seed=601, log=log)
    assert reading["expected"] == {str(space): stack for space, stack in expected.items()}
    assert reading["matches"] is not False, reading


def test_a_board_carrying_camels_out_of_view_is_no_cheaper_than_one_the_picture_cannot_show(tmp_path, capsys):
    """The bench's dev seed 602 (props, table 6, the second --expect board, the board the log leads to): the
    pyramid hides space 3 and the palm tree 5 to 7. A grey die instead of yellow 3 would have carried the white
    crazy camel's stack below space 1, out of the picture, where it cost nothing: answered as that mis-entered
    die by 1.65, a false alarm. Out of view, camels cost what they cost on a covered space."""
    log = {
        "format": "camelup-game-log/1", "edition": "2018", "players": ["Ann", "Bob"],
        "setup": {"track": {"2": ["blue"], "3": ["white", "purple", "yellow", "red"], "5": ["black"], "7": ["green"]}},
        "actions": [{"player": "Ann", "type": "pyramid", "die": "yellow", "value": 3}],
    }
    expected = {2: ["blue"], 3: ["white", "purple"], 5: ["black"], 6: ["yellow", "red"], 7: ["green"]}
    reading = read_independent(tmp_path, capsys, 6, "props", 100, expected, seed=602, log=log)
    assert reading["expected"] == {str(space): stack for space, stack in expected.items()}
    assert reading["matches"] is not False, reading


@pytest.mark.parametrize(
    ("photo", "track", "allowed"),
    [
        # Counted as the yellow camel's clutter, the border made a yellow camel alone in the middle of space 7
        # (beside it) cost more there than on top of the blue camel on space 4.
        (11, {4: ["blue"], 5: ["purple", "green", "red"], 7: ["yellow"], 14: ["white"], 15: ["black"]}, (7,)),
        # Counted as the yellow camel's evidence, the border above the blue camel on space 3 read as a yellow
        # camel on top of it (the yellow camel is on top of space 2's stack: read there, or unseen).
        (3, {2: ["purple", "green", "red", "yellow"], 3: ["blue"], 15: ["black", "white"]}, (2, None)),
    ],
)
def test_the_board_s_printed_border_is_no_yellow_camel(tmp_path, capsys, photo, track, allowed):
    """The independent renderer's board has a brown printed border: to the camera, a dark yellow, a band along
    the far spaces beyond the track. Kept from the whole-race bench (`benchmarks/camera_independent_race.py --seed
    7001`, a development seed: table 0), read with the board's usual colours, as a companion without a
    calibration file reads it."""
    board = calibration_board("2018")
    table = make_table(7001 * 1000, "2018", [stack[0] for stack in board.values()])
    picture = tmp_path / "race.jpg"
    render(table, "light", track, photo, str(picture), tiles=False)
    capsys.readouterr()
    assert main(["vision", "read", str(picture), "--board", "2018"]) == 0
    reading = json.loads(capsys.readouterr().out)
    placed = {camel: int(space) for space, stack in reading["track"].items() for camel in stack}
    assert placed.get("yellow") in allowed, reading


def test_a_far_camel_s_colour_is_measured_from_its_own_pixels_not_the_board_s_red_border(tmp_path, capsys):
    """A reviewer's table (the independent renderer's table 5181): the board is printed with a red border, and
    the calibration photo's yellow camel stands on space 3, in the far row, against it. While calibrating, a
    colour not known yet is anything unlike the board, and the border drew the yellow camel's box onto it: yellow
    was measured as the border's red (BGR 27, 54, 139 beside red's 31, 39, 143), and the calibration misread its
    own photo."""
    board = calibration_board("2018")
    table = make_table(5181, "2018", ["green", "yellow", "red", "blue", "purple", "black", "white"])
    photo = tmp_path / "calibration.jpg"
    render(table, "light", board, 0, str(photo), calibration=True)
    out = tmp_path / "cal.json"
    assert main(["vision", "calibrate", str(photo), "--board", "2018", "--out", str(out)]) == 0
    profiles = json.loads(out.read_text())["profiles"]
    _, green, red = profiles["yellow"]
    assert green / red > 0.55, profiles  # yellow: green well up towards red (the border's red: 0.39)
    assert abs(green / red - profiles["red"][1] / profiles["red"][2]) > 0.3, profiles


def test_a_yellow_camel_beside_the_board_s_darker_tone_under_a_lamp_is_read(tmp_path, capsys):
    """Dev seed 600, light, table 1, scene 4: under the lamp the next space's darker tone (14) looked like the yellow
    camel, and all of it counted for yellow: a patch larger than a camel, forgotten with the yellow camel standing
    against it on 13 (unseen). Left out of the patch with the seam where the two tones meet, the camel is a piece no
    wider than a camel, and stays; the tone's floor is still forgotten."""
    track = {14: ["green", "blue"], 13: ["yellow"], 6: ["white"], 15: ["orange"]}
    reading = read_independent(tmp_path, capsys, 1, "light", 4, track)
    assert reading["track"].get("13") == ["yellow"], reading


@pytest.mark.parametrize(
    ("seed", "table_index", "tier", "scene", "track", "misread"),
    [
        # White at the bottom of the stack on 1 was read alone on 6, where the board fits the picture 1.2 worse
        # with it than without (the blue camel on top of the stack on 3 read on 1 had taken its place).
        (99, 2, "props", 4, {3: ["black", "red", "yellow", "blue"], 1: ["white", "purple", "green"]}, ("white", 6)),
    ],
)
def test_a_camel_the_board_fits_worse_with_is_unseen_not_guessed(
    tmp_path, capsys, seed, table_index, tier, scene, track, misread
):
    """Seed 99 (fresh in the seventh round, development since): every camel stands somewhere, and where the picture
    shows one nowhere its least bad place is a poor fit; the reading must not put it there."""
    reading = read_independent(tmp_path, capsys, table_index, tier, scene, track, seed=seed)
    camel, space = misread
    assert camel not in reading["track"].get(str(space), []), reading
    placed = {name: int(where) for where, stack in reading["track"].items() for name in stack}
    assert placed.get(camel) in (None, *(where for where, stack in track.items() if camel in stack)), reading


@pytest.mark.parametrize(
    ("scene", "track"),
    [
        # Black stands at the bottom of the stack on 8; yellow, hidden, was read on 8 in its place.
        (0, {9: ["purple", "green"], 8: ["black", "blue", "red"], 3: ["yellow"], 10: ["white"]}),
        # Black stands at the bottom of the stack on 6; purple, hidden, was read on 6 in its place.
        (4, {6: ["black", "blue"], 16: ["green"], 15: ["white"], 1: ["red"], 3: ["purple"], 5: ["yellow"]}),
    ],
)
def test_the_palm_tree_s_trunk_is_no_black_camel(tmp_path, capsys, scene, track):
    """Seed 93 (fresh in the eighth round, development since), props, table 2: the palm tree's dark brown trunk
    stands on the track by space 4 and was read as the black camel there. Its piece of strong black on the track
    (1.5 to 2.1 body boxes) is under the sizes at which a patch is too large to be a camel, but the whole piece,
    from the track up past its far edge into the fronds, stands taller than any camel's pieces can reach."""
    reading = read_independent(tmp_path, capsys, 2, "props", scene, track, seed=93)
    assert "4" not in reading["track"], reading
    placed = {camel: int(space) for space, stack in reading["track"].items() for camel in stack}
    assert placed.get("black") in (None, *(space for space, stack in track.items() if "black" in stack)), reading


def test_a_camel_against_the_board_s_border_turning_a_corner_is_not_taken_for_a_trunk(tmp_path, capsys):
    """Seed 103 (development), clean, table 3, scene 2: orange on top of the stack on 6 touches the board's brown
    border, which to the camera is orange, where it turns the corner of the track. The piece they make is taller
    than a camel's pieces can reach, as the palm tree's trunk is, but wide too: orange must not be forgotten there
    and read on 5 instead."""
    track = {10: ["green"], 4: ["white"], 6: ["yellow", "blue", "orange"]}
    reading = read_independent(tmp_path, capsys, 3, "clean", 2, track, seed=103)
    placed = {camel: int(space) for space, stack in reading["track"].items() for camel in stack}
    assert placed.get("orange") in (None, 6), reading


@pytest.mark.parametrize(
    ("scene", "track", "space"),
    [
        # (in the bench's order: the renderer draws each stack's pieces in turn)
        (0, {13: ["red", "purple", "blue"], 11: ["yellow"], 14: ["black"], 12: ["green", "white"]}, 14),
        (2, {8: ["purple", "yellow", "green"], 16: ["black"], 7: ["blue"], 3: ["red", "white"]}, 16),
    ],
)
def test_a_black_camel_brighter_than_its_calibrated_black_is_read(tmp_path, capsys, scene, track, space):
    """Seed 103 (development), light, table 2: the black camel alone in plain view, its paint's sheen under the lamp
    making its pixels about 2.5 times as bright as the black the calibration photo measured. Its colour's range of
    shading did not reach that far, so it looked like nothing known and was reported unseen."""
    reading = read_independent(tmp_path, capsys, 2, "light", scene, track, seed=103)
    assert reading["track"].get(str(space)) == ["black"], reading


@pytest.mark.parametrize(
    ("seed", "table_index", "scene", "track", "disc", "camel"),
    [
        # Yellow alone on 1 was read on a spectator tile's tan disc on 11.
        (99, 2, 4, {1: ["yellow"], 2: ["black"], 4: ["green"], 3: ["purple"], 15: ["red"], 5: ["blue"],
                    16: ["white"]}, 11, "yellow"),
        # White alone on 8 was read on a tile's grey disc on 6.
        (97, 0, 2, {12: ["green"], 10: ["yellow"], 7: ["red", "blue"], 11: ["purple"], 13: ["black"], 8: ["white"]},
         6, "white"),
    ],
)
def test_a_tile_s_printed_disc_is_no_camel(tmp_path, capsys, seed, table_index, scene, track, disc, camel):
    """Seeds 99 and 97 (development), light: a tile's disc of about a camel's colour, a flat even patch larger than
    the camel's own and wider than a camel facing along the track there, fitted its body box better than the
    camel's own shaded body; the tile's pale face passed for the board, so the space was not covered."""
    reading = read_independent(tmp_path, capsys, table_index, "light", scene, track, seed=seed)
    assert str(disc) not in reading["track"], reading
    placed = {name: int(space) for space, stack in reading["track"].items() for name in stack}
    assert placed.get(camel) in (None, *(space for space, stack in track.items() if camel in stack)), reading


def test_a_far_camel_reaching_over_a_border_of_about_its_colour_is_read(tmp_path, capsys):
    """Seed 99 (development), clean, table 4, scene 4: red on top of purple on space 3, in the far row, reaches up
    over the board's printed border, an orange-brown that is surely red to the evidence. Touching it, red's pixels
    beyond the track made one band with the border, and all of it was forgotten: red was left unseen. Of the band,
    only the pixels near the border's own colour are the border; the camel's, a colour apart, stay its evidence."""
    track = {8: ["black", "yellow", "blue"], 13: ["green"], 3: ["purple", "red"], 14: ["white"]}  # the bench's order
    reading = read_independent(tmp_path, capsys, 4, "clean", 4, track, seed=99)
    assert reading["track"].get("3") == ["purple", "red"], reading
