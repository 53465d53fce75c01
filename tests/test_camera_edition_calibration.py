"""A calibration made for the other edition's camels never reads a board silently wrong: `vision read
--calibration F --expect LOG` of another edition than F's is refused naming both; the companion names the
calibration file (and how to make one) to a game of the other edition; colours it learnt at this table for the
other edition are not used, and the camera's state and `camelup doctor` say so."""

from __future__ import annotations

import dataclasses
import json
import random

import cv2
import pytest

from companion.table.camera_watch import CameraWatch
from companion.table.config import load_settings
from companion.table.service import SimulatedPyramid
from companion.table.web import create_app
from tests.test_doctor import doctor as run_doctor
from tests.test_doctor import pi  # noqa: F401  (the fixture)
from tests.test_vision_bad_input import _run  # the command line's status and output
from vision.board import load_template
from vision.calibrate import Calibration, save_calibration
from vision.read import BOARD_BGR
from vision.sources import ImageFiles
from vision.synth import EDITION_CAMELS, SceneVariation, camel_profiles, random_track, render_scene

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


def test_a_game_of_the_other_edition_is_told_to_calibrate_again_and_which_file(tmp_path):
    # The camera reads the 2014 board because its configured calibration is a 2014 one (a calibration sets the
    # board): setting board = "2018" would change nothing, so the page names the calibration file instead.
    calibration = _calibration(tmp_path, "2014")
    watch = CameraWatch(lambda: ImageFiles(tmp_path / "none.png"), load_template("2014"), camel_profiles("2014"),
                        calibration_file=calibration)
    app = create_app(tmp_path / "data", SimulatedPyramid(random.Random(1)), "http://t", testing=True, camera=watch)
    client = app.test_client()
    made = client.post("/api/games", json={"edition": "2018", "players": ["A", "B"], "dice": "manual"}).get_json()
    host = {"Authorization": f"Bearer {made['host_token']}"}
    report = client.get(f"/api/games/{made['game_id']}/camera", headers=host).get_json()
    assert report["state"] == "other board"
    assert report["message"].startswith(f"the camera was calibrated for the 2014 edition ({calibration}); this "
                                        "game is the 2018 edition")
    assert f"camelup vision calibrate PHOTO --board 2018 --out {calibration}" in report["message"]
    refused = client.post(f"/api/games/{made['game_id']}/camera/correct", headers=host)
    assert refused.status_code == 409
    assert f"--board 2018 --out {calibration}" in refused.get_json()["error"]


def test_the_other_edition_s_remedy_names_the_configuration_the_companion_runs_with(tmp_path):
    # Served with --config FILE, the words name FILE (a builder off the Pi edits that one, not /etc/camelup/...).
    config = tmp_path / "serve.toml"
    config.write_text('[camera]\nmode = "files"\nboard = "2014"\n')
    assert load_settings(str(config)).config_file == str(config)
    for calibration in (None, _calibration(tmp_path, "2014")):
        watch = CameraWatch(lambda: ImageFiles(tmp_path / "none.png"), load_template("2014"), camel_profiles("2014"),
                            calibration_file=calibration, config_file=load_settings(str(config)).config_file)
        app = create_app(tmp_path / "data", SimulatedPyramid(random.Random(1)), "http://t", testing=True, camera=watch)
        client = app.test_client()
        made = client.post("/api/games", json={"edition": "2018", "players": ["A", "B"], "dice": "manual"}).get_json()
        host = {"Authorization": f"Bearer {made['host_token']}"}
        message = client.get(f"/api/games/{made['game_id']}/camera", headers=host).get_json()["message"]
        assert f'board = "2018" under [camera] in {config}' in message, message
        assert "/etc/camelup" not in message
        refused = client.post(f"/api/games/{made['game_id']}/camera/correct", headers=host).get_json()["error"]
        assert f"under [camera] in {config}" in refused and "/etc/camelup" not in refused


def test_colours_learnt_for_the_other_edition_are_not_used_and_the_camera_says_so(tmp_path, photo, capsys):
    from companion.cli import _make_camera

    data = tmp_path / "data"
    data.mkdir()
    learnt = data / "camera-calibration.json"
    painted = {camel: (10.0, 20.0, 30.0 + 20 * index) for index, camel in enumerate(EDITION_CAMELS["2014"])}
    save_calibration(Calibration(load_template("2014"), painted, (100.0, 150.0, 200.0)), learnt)
    config = tmp_path / "companion.toml"
    config.write_text(f'[camera]\nmode = "files"\nsource = "{photo}"\nboard = "2018"\n')
    watch = _make_camera(load_settings(str(config), data=str(data)))
    try:
        assert watch is not None and watch.template.edition == "2018"
        assert watch.profiles == camel_profiles("2018") and watch.board_bgr == BOARD_BGR  # not the 2014 colours
        note = (f"what the camera learnt at this table before ({learnt}) is for the 2014 edition, and it reads the "
                "2018 board: not used")
        assert note in watch.learnt
        assert note in capsys.readouterr().err
        # Still said while a lesson waits for a steady frame: the host sees why it is not calibrated.
        watch.learn("game", 1, {int(space): stack for space, stack in SETUPS["2018"].items()})
        assert watch.learnt.startswith("not calibrated yet: waiting") and note in watch.learnt
    finally:
        watch.stop()


def test_doctor_says_what_the_camera_learnt_for_the_other_edition_is_not_used(pi):  # noqa: F811
    pi.service_active = lambda: True
    learnt = pi.service_data / "camera-calibration.json"
    save_calibration(Calibration(load_template("2014"), camel_profiles("2014"), BOARD_BGR), learnt)
    checks, _ = run_doctor(pi, camera="picamera2", pyramid="none")
    assert f"what the camera learnt at this table before ({learnt}) is for the 2014 edition" in \
        checks["camera"].detail
    assert "it reads the 2018 board: not used" in checks["camera"].detail


def test_doctor_says_which_edition_a_configured_calibration_reads_and_what_a_game_of_the_other_needs(
        pi, tmp_path):  # noqa: F811
    pi.service_active = lambda: True
    calibration = _calibration(tmp_path, "2014")
    settings = dataclasses.replace(load_settings(None), camera="picamera2", pyramid="none", data=pi.service_data,
                                   camera_calibration=calibration)
    from companion.doctor import run_checks

    detail = {check.name: check for check in run_checks(settings, False, pi)}["camera"].detail
    assert f"reads the 2014 board, calibrated by {calibration}" in detail
    assert 'the calibration overrides board = "2018" under [camera]' in detail
    assert (f"for 2018 games, a calibration for their camels: camelup vision calibrate PHOTO --board 2018 --out "
            f"{calibration}") in detail
    assert "for 2014 games" not in detail
