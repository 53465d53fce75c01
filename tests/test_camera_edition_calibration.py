"""A calibration made for the other edition's camels never reads a board silently wrong: `vision read
--calibration F --expect LOG` of another edition than F's is refused naming both; `camelup doctor` says what the
companion's camera reads each edition's board with (it follows the game's edition:
tests/test_camera_follows_edition.py)."""

from __future__ import annotations

import dataclasses
import json
import random

import cv2
import pytest

from companion.table.config import load_settings
from tests.test_doctor import doctor as run_doctor
from tests.test_doctor import pi  # noqa: F401  (the fixture)
from tests.test_vision_bad_input import _run  # the command line's status and output
from vision.board import load_template
from vision.calibrate import Calibration, save_calibration
from vision.read import BOARD_BGR
from vision.synth import SceneVariation, camel_profiles, random_track, render_scene

SETUPS = {
    "2018": {"1": ["blue", "red", "purple"], "3": ["yellow", "green"], "14": ["black"], "15": ["white"]},
    "2014": {"1": ["blue", "green"], "2": ["orange"], "3": ["yellow", "white"]},
}


def _log(tmp_path, edition: str) -> str:
    path = tmp_path / f"game{edition}.json"
    path.write_text(json.dumps({"format": "camelup-game-log/1", "edition": edition, "players": ["Ann", "Bob"],
                                "setup": {"track": SETUPS[edition]}, "actions": []}), encoding="utf-8")
    return str(path)


def _calibration(tmp_path, edition: str, name: str | None = None) -> str:
    """A calibration file for ``edition``'s board (its camels' usual colours)."""
    calibration = Calibration(load_template(edition), camel_profiles(edition), BOARD_BGR)
    return str(save_calibration(calibration, tmp_path / (name or f"cal{edition}.json")))


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    """A photo of a 2018 board (no hand over it)."""
    image, _ = render_scene(load_template("2018"), random_track("2018", random.Random(5)), 5,
                            SceneVariation(hand_chance=0.0))
    path = tmp_path_factory.mktemp("photo") / "board2018.png"
    cv2.imwrite(str(path), image)
    return str(path)


@pytest.mark.parametrize(("calibrated", "played"), [("2014", "2018"), ("2018", "2014")])
def test_read_with_a_calibration_of_the_other_edition_than_the_log_is_refused_naming_both(
        tmp_path, photo, capsys, calibrated, played):
    calibration, log = _calibration(tmp_path, calibrated), _log(tmp_path, played)
    status, out, err = _run(["vision", "read", photo, "--calibration", calibration, "--expect", log], capsys)
    assert status == 2  # input that cannot be used, as the README says
    answer = json.loads(out)
    assert list(answer) == ["error"]  # no reading printed as if valid
    message = answer["error"]
    assert f"the camera was calibrated for the {calibrated} edition ({calibration})" in message
    assert f"the game of {log} is the {played} edition" in message
    assert f"camelup vision calibrate PHOTO --board {played}" in message
    assert message in err


def test_read_with_the_calibration_of_the_logs_edition_still_reads(tmp_path, photo, capsys):
    status, out, _ = _run(["vision", "read", photo, "--calibration", _calibration(tmp_path, "2018"), "--expect",
                           _log(tmp_path, "2018")], capsys)
    assert status == 0 and "matches" in json.loads(out)


def test_calibrating_from_a_log_of_the_other_edition_is_refused_and_writes_nothing(tmp_path, photo, capsys):
    out_file = tmp_path / "camera.json"
    status, _, err = _run(["vision", "calibrate", photo, "--board", "2014", "--expect", _log(tmp_path, "2018"),
                           "--out", str(out_file)], capsys)
    assert status == 2 and "is a 2018 game, the board is the 2014 one" in err
    assert not out_file.exists()


def test_doctor_says_what_it_reads_each_edition_with_the_old_learnt_file_for_its_own(pi):  # noqa: F811
    pi.service_active = lambda: True
    learnt = pi.service_data / "camera-calibration.json"
    save_calibration(Calibration(load_template("2014"), camel_profiles("2014"), BOARD_BGR), learnt)
    checks, _ = run_doctor(pi, camera="picamera2", pyramid="none")
    detail = checks["camera"].detail
    assert f"2014 with what it learnt at this table ({learnt})" in detail, detail
    assert "2018 with the camels' usual colours" in detail


def test_doctor_says_which_edition_a_configured_calibration_reads_and_that_it_overrides_board(
        pi, tmp_path):  # noqa: F811
    pi.service_active = lambda: True
    calibration = _calibration(tmp_path, "2014")
    settings = dataclasses.replace(load_settings(None), camera="picamera2", pyramid="none", data=pi.service_data,
                                   camera_calibration=calibration)
    from companion.doctor import run_checks

    detail = {check.name: check for check in run_checks(settings, False, pi)}["camera"].detail
    assert (f"(starts on 2014, or on the edition of a race still in play): 2014 calibrated by {calibration}"
            in detail), detail
    assert "overrides board" not in detail  # no board is set: nothing is overridden (the default is no setting)
    assert "2018 with the camels' usual colours" in detail
    config = tmp_path / "companion.toml"
    config.write_text('[camera]\nboard = "2018"\n')
    settings = dataclasses.replace(settings, config_file=str(config))
    detail = {check.name: check for check in run_checks(settings, False, pi)}["camera"].detail
    assert 'the calibration overrides board = "2018" under [camera]' in detail
