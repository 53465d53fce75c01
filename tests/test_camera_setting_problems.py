"""A calibration setting that cannot be used (a missing file, a file of the other edition's camels) is named, with
its file, on serve's start, by doctor and on the host's page; it leaves the other edition's checking working, and
the advice never overwrites a good calibration (the reviewer's 2014-then-2018 evening at one table)."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

from companion.cli import _camera_and_reasons
from companion.table.camera_edition import camera_setup
from companion.table.config import load_settings
from companion.table.service import SimulatedPyramid
from companion.table.web import create_app
from tests.test_camera_follows_edition import STARTS, Table, _calibration


def _client(tmp_path: Path, settings):
    watch, unchecked = _camera_and_reasons(settings)
    if watch is not None:
        watch.stop()
    app = create_app(tmp_path / "data", SimulatedPyramid(random.Random(1)), "http://t", testing=True, camera=watch)
    app.extensions["camera_unchecked"] = unchecked  # as serve does
    return app.test_client(), watch


def _settings(tmp_path: Path, **camera: str):
    config = tmp_path / "companion.toml"
    config.write_text("")
    return dataclasses.replace(load_settings(None), camera="files", camera_source=str(tmp_path / "board.png"),
                               data=tmp_path / "data", config_file=str(config), **camera)


def _game(client, edition: str):
    setup = {"track": {str(space): stack for space, stack in STARTS[edition].items()}}
    made = client.post("/api/games", json={"edition": edition, "players": ["A", "B"], "dice": "manual",
                                           "setup": setup}).get_json()
    return made["game_id"], {"Authorization": f"Bearer {made['host_token']}"}


def _report(client, game, host) -> dict:
    return client.get(f"/api/games/{game}/camera?lang=en", headers=host).get_json()


def test_a_missing_2014_calibration_leaves_2018_checked_and_tells_the_2014_host_which_setting(tmp_path, capsys):
    missing = str(tmp_path / "missing14.json")
    settings = _settings(tmp_path, camera_board="2018", camera_calibration_2014=missing)
    Table(tmp_path).show("2018")
    client, watch = _client(tmp_path, settings)
    err = capsys.readouterr().err
    assert f'[camera] calibration_2014 = "{missing}"' in err and "cannot be read" in err, err
    assert watch is not None and watch.edition == "2018"  # the 2018 games are still checked
    game14, host14 = _game(client, "2014")
    report = _report(client, game14, host14)
    assert report["state"] == "not checked"
    assert report["message"] == (f'the 2014 calibration file ([camera] calibration_2014 = "{missing}"): cannot be '
                                 "read (No such file or directory): fix or empty calibration_2014 in "
                                 f"{settings.config_file}")
    refused = client.post(f"/api/games/{game14}/camera/correct", headers=host14)
    assert refused.status_code == 409 and refused.get_json()["code"] == "CameraNotChecked"
    game18, host18 = _game(client, "2018")
    assert _report(client, game18, host18)["state"] not in ("not checked", "off", "other board")


def test_a_2014_file_as_calibration_2018_starts_on_2014_and_advises_a_new_file(tmp_path, capsys):
    cal14 = _calibration(tmp_path, "2014", "cal14.json")
    before = Path(cal14).read_bytes()
    settings = _settings(tmp_path, camera_board="2018", camera_calibration_2018=cal14)
    client, watch = _client(tmp_path, settings)
    err = capsys.readouterr().err
    assert f'([camera] calibration_2018 = "{cal14}") is a calibration for the 2014' in err, err
    assert f"--out {cal14}" not in err  # never the advice to overwrite a good calibration
    assert f"--out {tmp_path / 'calibration-2018.json'}" in err and "move it to calibration_2014" in err
    assert watch is not None and watch.edition == "2014"  # it is good for 2014: those games are checked
    game18, host18 = _game(client, "2018")
    report = _report(client, game18, host18)
    assert report["state"] == "not checked" and "calibration_2018" in report["message"]
    assert Path(cal14).read_bytes() == before


def test_both_settings_unusable_turn_the_camera_off_and_the_host_is_told_why(tmp_path):
    missing = str(tmp_path / "missing.json")
    settings = _settings(tmp_path, camera_calibration_2014=missing, camera_calibration_2018=missing)
    client, watch = _client(tmp_path, settings)
    assert watch is None
    game, host = _game(client, "2014")
    report = _report(client, game, host)
    assert report["state"] == "not checked" and "calibration_2014" in report["message"]
    assert "calibration_2018" in report["message"] and "the camera is off" in report["message"]


def test_a_good_2018_calibration_beside_a_bad_2014_one_is_used(tmp_path):
    cal18 = _calibration(tmp_path, "2018", "cal18.json")
    found = camera_setup("2018", None, {"2014": str(tmp_path / "nope.json"), "2018": cal18}, tmp_path, None)
    assert found.first == "2018" and list(found.editions) == ["2018"]
    assert found.editions["2018"].calibration_file == cal18
    assert "calibration_2014" in found.unchecked["2014"]
    json.dumps(found.unchecked)  # said on pages as is


def test_doctor_names_the_setting_and_never_advises_overwriting_the_good_file(tmp_path):
    from companion.doctor import _camera

    cal14 = _calibration(tmp_path, "2014", "cal14.json")
    Table(tmp_path).show("2018")
    settings = _settings(tmp_path, camera_board="2018", camera_calibration_2018=cal14)
    check = _camera(settings, None, settings.config_file)
    assert not check.ok and f'[camera] calibration_2018 = "{cal14}"' in check.detail
    assert f"--out {cal14}" not in check.detail and "(games checked: 2014)" in check.detail
    missing = str(tmp_path / "missing14.json")
    check = _camera(_settings(tmp_path, camera_calibration_2014=missing), None, None)
    assert f'[camera] calibration_2014 = "{missing}"' in check.detail and "(games checked: 2018)" in check.detail


def test_a_lobby_read_of_the_other_edition_is_said_as_such_not_as_a_game_played_last(tmp_path):
    from tests.test_camera_follows_edition import _client as client_of
    from tests.test_camera_follows_edition import _leave, _watch

    table = Table(tmp_path)
    watch = _watch(_settings(tmp_path, camera_board="2014"))
    client = client_of(tmp_path, watch)
    game14, host14 = _game(client, "2014")
    _report(client, game14, host14)
    refused = client.get("/api/camera/setup?edition=2018")  # a GET never takes the camera from a game in play
    assert refused.status_code == 409 and refused.get_json()["code"] == "CameraInUse"
    _leave(client)  # the 2014 game is left
    client.get("/api/camera/setup?edition=2018")  # no 2018 game exists: the lobby reads a 2018 start
    watch.step(table.show("2018"))
    message = _report(client, game14, host14)["message"]
    assert message == ("the camera reads the 2018 board: a 2018 start was read in the lobby, for a new game; it "
                       "checks this 2014 game's board from its next entry")
    assert "game played last" not in message
    # Once a 2018 game is created and its page asks, it takes the camera (the 2014 game was left).
    game18, host18 = _game(client, "2018")
    _report(client, game18, host18)
    assert _report(client, game14, host14)["state"] == "other game"


def test_doctor_says_phones_cannot_join_a_companion_listening_on_loopback_as_serve_does(monkeypatch):
    from companion.doctor import _address
    from companion.table.web import net

    monkeypatch.setattr(net, "table_address", lambda: "192.0.2.2")  # the reviewer's table
    check = _address(dataclasses.replace(load_settings(None), host="127.0.0.1"))
    assert not check.ok and "phones cannot join" in check.detail and 'host = "0.0.0.0"' in check.fix
    assert not check.needed  # play still works in a browser on this computer
    assert _address(dataclasses.replace(load_settings(None), host="0.0.0.0", port=8031)).detail == "http://192.0.2.2:8031/"


def test_the_single_calibration_setting_is_named_too_and_the_host_told_why_the_camera_is_off(tmp_path, capsys):
    missing = str(tmp_path / "gone.json")
    settings = _settings(tmp_path, camera_calibration=missing)
    client, watch = _client(tmp_path, settings)
    assert watch is None
    assert f'[camera] calibration = "{missing}"' in capsys.readouterr().err
    game, host = _game(client, "2018")
    report = _report(client, game, host)
    assert report["state"] == "not checked" and f"fix or empty calibration in {settings.config_file}" in report[
        "message"] and "the camera is off" in report["message"]
