"""Checks that guard against bad input and that no other test pinned: the companion's settings, setup
space keys, booleans posing as numbers, and button draws reaching a game whose dice are entered by hand."""

from __future__ import annotations

import copy
import random

import pytest

from companion.gamelog import LogError, parse_log
from companion.table.config import SettingsError, load_settings
from companion.table.service import Caller, GameService, SimulatedPyramid
from companion.table.store import Store

LOG = {"format": "camelup-game-log/1", "edition": "2018", "players": ["Ann", "Bob"],
       "setup": {"track": {"1": ["green", "red"], "3": ["yellow", "blue", "purple"], "14": ["black"],
                           "16": ["white"]}}, "actions": []}


@pytest.mark.parametrize(("text", "named"), [
    ("port = 0", "port"),
    ("port = 65536", "port"),
    ("port = true", "port"),
    ('port = "8000"', "port"),
    ('language = "de"', "language"),
    ('[pyramid]\nmode = "servo"', "pyramid.mode"),
    ('[camera]\nmode = "kinect"', "camera.mode"),
    ("host = 1", "host"),
    ("data = []", "data"),
    ('public_url = false', "public_url"),
    ("colour = 1", "colour"),
    ("camera = 1", "camera"),
    ('[camera]\nzoom = 2', "camera.zoom"),
    ("port = [", "not valid TOML"),
])
def test_a_bad_setting_is_refused_naming_it(tmp_path, text, named):
    path = tmp_path / "companion.toml"
    path.write_text(text + "\n")
    with pytest.raises(SettingsError, match=named.replace(".", r"\.")):
        load_settings(str(path))


def test_good_settings_and_overrides_are_taken(tmp_path):
    path = tmp_path / "companion.toml"
    path.write_text('port = 8123\nlanguage = "fr"\npublic_url = "http://192.168.4.1:8123"\n'
                    '[pyramid]\nconfig = "rig.toml"\n[camera]\nmode = "files"\nsource = "x.png"\nboard = "2014"\n'
                    'calibration = "cal.json"\n[hotspot]\nssid = "Caf\u00e9 Dunes"\npassword = "sand-\u00e9t\u00e9"\n',
                    encoding="utf-8")
    settings = load_settings(str(path), port=9000, pyramid="none")
    assert (settings.port, settings.language, settings.pyramid) == (9000, "fr", "none")
    assert (settings.public_url, settings.pyramid_config) == ("http://192.168.4.1:8123", "rig.toml")
    assert (settings.camera, settings.camera_source, settings.camera_board) == ("files", "x.png", "2014")
    assert settings.camera_calibration == "cal.json"
    assert (settings.hotspot_ssid, settings.hotspot_password) == ("Caf\u00e9 Dunes", "sand-\u00e9t\u00e9")
    with pytest.raises(SettingsError, match="cannot read"):
        load_settings(str(tmp_path / "missing.toml"))


def test_without_a_file_the_defaults_hold():
    settings = load_settings()
    assert (settings.host, settings.port, settings.language, settings.pyramid) == ("0.0.0.0", 8000, "auto", "auto")
    assert (settings.camera, settings.camera_board) == ("none", "2018")
    assert None is settings.public_url is settings.pyramid_config is settings.camera_calibration
    assert None is settings.hotspot_ssid is settings.hotspot_password


@pytest.mark.parametrize("line", ["port = 1", "port = 65535", *(f'language = "{x}"' for x in ("auto", "en", "fr")),
                                  *(f'[pyramid]\nmode = "{x}"' for x in ("auto", "gpio", "simulated", "none")),
                                  *(f'[camera]\nmode = "{x}"' for x in ("none", "picamera2", "webcam", "files"))])
def test_every_documented_value_is_accepted(tmp_path, line):
    path = tmp_path / "companion.toml"
    path.write_text(line + "\n")
    load_settings(str(path))


def test_an_unknown_key_is_answered_with_the_known_ones(tmp_path):
    path = tmp_path / "companion.toml"
    path.write_text("colour = 1\n")
    with pytest.raises(SettingsError, match="known: host, port, data, language"):
        load_settings(str(path))
    path.write_text("[camera]\nzoom = 2\n")
    with pytest.raises(SettingsError, match="known: mode, source, board, calibration"):
        load_settings(str(path))
    path.write_text('[camera]\nmode = "kinect"\n')
    with pytest.raises(SettingsError, match="none, picamera2, webcam, files"):
        load_settings(str(path))


@pytest.mark.parametrize("key", ["01", " 1", "1.0", "+1", "0", "17", "\u0661", ""])
def test_a_setup_space_must_be_written_as_a_plain_number_on_the_track(key):
    log = copy.deepcopy(LOG)
    log["setup"]["track"][key] = log["setup"]["track"].pop("1")
    with pytest.raises(LogError, match="space"):
        parse_log(log)


@pytest.mark.parametrize(("action", "field"), [
    ({"type": "pyramid", "die": "red", "value": True}, "value"),
    ({"type": "pyramid", "die": "red", "value": 2.0}, "value"),
    ({"type": "pyramid", "die": "red", "value": "2"}, "value"),
    ({"type": "spectator", "space": True, "side": "cheer"}, "space"),
    ({"type": "spectator", "space": 7.0, "side": "cheer"}, "space"),
])
def test_booleans_and_floats_are_not_numbers_in_a_log(action, field):
    log = copy.deepcopy(LOG)
    log["actions"] = [{"player": "Ann", **action}]
    with pytest.raises(LogError, match=field) as refused:
        parse_log(log).replay()
    assert refused.value.action == 1


def test_the_pyramid_button_never_draws_into_a_game_with_dice_entered_by_hand(tmp_path):
    service = GameService(Store(tmp_path / "games.sqlite3"), SimulatedPyramid(random.Random(1)))
    manual = service.create({**LOG, "dice": "manual"})["game_id"]
    assert service.button_draw("red", 2, None) is None
    assert service.state_json(manual, Caller("host"))["version"] == 0
    electronic = service.create({**LOG, "dice": "pyramid"})["game_id"]
    after = service.button_draw("red", 2, None)
    assert after is not None and after.dice_out[0].die == "red"
    assert service.state_json(electronic, Caller("host"))["version"] == 1
    assert service.state_json(manual, Caller("host"))["version"] == 0
    assert service.button_draw("red", 3, None) is None, "a die already out is refused, not drawn twice"
