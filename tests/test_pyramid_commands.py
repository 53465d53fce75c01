"""The rig's configuration file and the ``camelup pyramid`` commands, on simulated pins."""

import io
import json
import re
import tomllib
from pathlib import Path

import pytest

from companion.cli import main
from firmware_py.cli import cmd_calibrate, cmd_run
from firmware_py.config import ConfigError, load_config, parse_config

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"button": {"pin": 22}}, "led.red: GPIO22 is already used by button.pin"),
        ({"button": {"pin": 3}}, "button.pin: GPIO3 is already used by I2C SCL"),
        ({"led": {"red": 1}}, "led.red: 1 is not a GPIO pin"),
        ({"led": {"blue": 40}}, "led.blue: 40 is not a GPIO pin"),
        ({"servo": {"open_angles": {"red": 200}}}, "servo.open_angles.red: 200 is outside"),
        ({"servo": {"closed_angles": {"orange": 20}}}, "servo.closed_angles.orange: no such die in the 2018 pyramid"),
        ({"servo": {"open_angle": -5}}, "servo.open_angle: -5 is outside"),
        ({"servo": {"mode": "carousel"}}, "servo.mode: the single-servo carousel and gate were replaced"),
        ({"servo": {"angles": {"red": 20}}}, "servo.angles: the single-servo carousel"),
        ({"servo": {"channels": {"red": 0}}}, "servo.channels.red: channel 0 already opens the green gate"),
        ({"servo": {"channels": {"red": 16}}}, "servo.channels.red: 16 is not a PCA9685 channel"),
        ({"servo": {"frequency": 400}}, "servo.frequency: 400 is outside"),
        ({"servo": {"frequency": 333, "max_pulse_width": 0.0029}}, "servo.frequency: 333 Hz leaves no room"),
        ({"servo": {"i2c_address": 12}}, "servo.i2c_address: 12 is not a PCA9685 address"),
        ({"servo": {"driver": "gpiozero"}}, "servo.driver"),
        ({"servo": {"open_angles": {"red": 45}}}, "servo.open_angles.red: the red gate's open and closed angles"),
        ({"button": {"debounce": 2}}, "button.debounce: 2 is outside"),
        ({"servo": {"min_pulse_width": 0.002, "max_pulse_width": 0.001}}, "servo.max_pulse_width"),
        ({"led": {"common": "both"}}, "led.common"),
        ({"button": {"lockout": "long"}}, "button.lockout: must be a number"),
        ({"button": {"pull_up": "yes"}}, "button.pull_up"),
        ({"button": {"hold_time": 3, "refill_hold_time": 2}}, "button.refill_hold_time"),
        ({"buton": {}}, "buton: unknown key"),
        ({"led": {"colour": 3}}, "led.colour: unknown key"),
        ({"edition": "2020"}, "edition"),
        ({"pin_factory": "pigpio"}, "pin_factory"),
        ({"colours": {"red": "crimson"}}, "colours.red"),
        ({"servo": 5}, "servo: must be a table"),
    ],
)
def test_bad_configurations_name_the_key(settings, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        parse_config(settings)


def test_config_file_errors_name_the_file(tmp_path):
    path = tmp_path / "rig.toml"
    path.write_text("[led]\nred = 17\n")
    with pytest.raises(ConfigError, match=r"rig.toml: led.red: GPIO17 is already used by button.pin"):
        load_config(path)
    path.write_text("[led\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


def test_colour_overrides_and_2014_preset():
    config = parse_config({"edition": "2014", "colours": {"orange": "#ff8000"}})
    orange = next(die for die in config.dice if die.name == "orange")
    assert orange.led_colour == (1.0, 128 / 255, 0.0)
    assert [die.name for die in config.dice] == ["blue", "green", "orange", "yellow", "white"]


@pytest.mark.parametrize(("edition", "dice"), [("2014", 5), ("2018", 6)])
def test_simulate_prints_fair_legs_of_five_distinct_dice(capsys, edition, dice):
    assert main(["pyramid", "simulate", "--legs", "10", "--edition", edition, "--seed", "7", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 50
    for leg in range(1, 11):
        draws = [line for line in lines if line["leg"] == leg]
        assert len(draws) == 5 and len({d["die"] for d in draws}) == 5
    for line in lines:
        assert line["value"] in (1, 2, 3)
        assert ("crazy" in line) == (line["die"] == "grey")
    assert len({line["die"] for line in lines}) == dice


def test_simulate_is_repeatable_with_a_seed(capsys):
    main(["pyramid", "simulate", "--legs", "2", "--seed", "5", "--json"])
    first = capsys.readouterr().out
    main(["pyramid", "simulate", "--legs", "2", "--seed", "5", "--json"])
    assert capsys.readouterr().out == first


def test_simulate_says_which_die_the_mechanism_released(capsys):
    assert main(["pyramid", "simulate", "--legs", "20", "--seed", "3", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 100
    assert all(line["released"] == [line["die"]] for line in lines)


def test_simulate_with_faults_reports_zero_wrong_releases(capsys):
    assert main(["pyramid", "simulate", "--legs", "60", "--edition", "2014", "--faults", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"wrong releases\s+0 ", out) and re.search(r"unreconciled\s+0 ", out)
    assert re.search(r"power cuts\s+[1-9]", out)


def test_selftest_passes_on_simulated_pins(capsys):
    assert main(["pyramid", "selftest", "--simulate", "--step", "0", "--timeout", "2"]) == 0
    out = capsys.readouterr().out
    assert "PASS  LED" in out and "PASS  gates" in out and "PASS  button" in out
    assert "pulses exact to 4.88 µs at 50.03 Hz" in out


def test_a_bad_config_is_a_clear_message_and_exit_2(tmp_path, capsys):
    path = tmp_path / "rig.toml"
    path.write_text("[servo.open_angles]\nred = 999\n")
    assert main(["pyramid", "simulate", "--config", str(path)]) == 2
    assert "servo.open_angles.red: 999 is outside" in capsys.readouterr().err


def test_calibrate_steps_each_gate_and_saves_its_angles(tmp_path):
    path = tmp_path / "rig.toml"
    path.write_text('edition = "2014"\n[button]\nlockout = 2.0\n')
    # 2014: blue, green, orange, yellow, white; each gate closed then open.
    keys = io.StringIO("+\n+\n\n=45\n\n\n-3\n\nnonsense\n\n" + "\n" * 5)
    args = _args(config=str(path), save=str(path), step_degrees=5.0)
    out = io.StringIO()
    assert cmd_calibrate(args, keys, out) == 0
    config = load_config(path)
    # From the defaults, closed 45° and open 135°.
    assert config.servo.closed_angles == {"blue": 55.0, "green": 45.0, "orange": 45.0, "yellow": 45.0, "white": 45.0}
    assert config.servo.open_angles == {"blue": 45.0, "green": 132.0, "orange": 135.0, "yellow": 135.0, "white": 135.0}
    assert config.button.lockout == 2.0  # the rest of the file is kept
    assert "not a step" in out.getvalue()


def test_calibrate_quit_saves_nothing(tmp_path):
    path = tmp_path / "rig.toml"
    args = _args(config=None, save=str(path), step_degrees=5.0)
    assert cmd_calibrate(args, io.StringIO("+\nq\n"), io.StringIO()) == 1
    assert not path.exists()


def test_calibrate_refuses_a_save_path_it_cannot_write_before_any_stepping(tmp_path, monkeypatch):
    keys = io.StringIO("\n" * 12)
    with pytest.raises(ConfigError, match=re.escape(f"there is no folder {tmp_path / 'nodir'}")):
        cmd_calibrate(_args(config=None, save=str(tmp_path / "nodir/rig.toml"), step_degrees=5.0), keys, io.StringIO())
    assert keys.tell() == 0, "no angle was asked for"

    import tempfile

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refused)  # as /etc/camelup is for the builder without sudo
    refusal = r"cannot save to .*rig.toml: Permission denied in .*Run the command with sudo"
    with pytest.raises(ConfigError, match=refusal):
        cmd_calibrate(_args(config=None, save=str(tmp_path / "rig.toml"), step_degrees=5.0), keys, io.StringIO())
    assert keys.tell() == 0


def test_calibrate_that_cannot_save_at_the_end_prints_the_angles_to_paste(tmp_path, monkeypatch, capsys):
    import firmware_py.durable

    def refused(path, text):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(firmware_py.durable, "write_atomically", refused)
    path = tmp_path / "rig.toml"
    out = io.StringIO()
    # Through main, as a builder runs it: no traceback, a non-zero exit, every angle printed.
    monkeypatch.setattr("sys.stdin", io.StringIO("+\n" + "\n" * 12))
    monkeypatch.setattr("sys.stdout", out)
    assert main(["pyramid", "calibrate", "--simulate", "--save", str(path)]) == 1
    text = out.getvalue()
    assert f"NOT SAVED to {path}: Permission denied" in text and "sudo nano" in text
    pasted = tomllib.loads(text[text.index("[servo."):])
    assert pasted["servo"]["closed_angles"]["green"] == 50.0 and pasted["servo"]["open_angles"]["grey"] == 135.0
    assert len(pasted["servo"]["closed_angles"]) == len(pasted["servo"]["open_angles"]) == 6
    assert "Traceback" not in capsys.readouterr().err


def test_calibrate_saves_to_the_config_file_it_read_by_default(tmp_path, monkeypatch):
    path = tmp_path / "rig.toml"
    path.write_text('edition = "2014"\n')
    monkeypatch.chdir(tmp_path)
    args = _args(config=str(path), save=None, step_degrees=5.0)
    assert cmd_calibrate(args, io.StringIO("+\n" + "\n" * 10), io.StringIO()) == 0
    assert load_config(path).servo.closed_angles["blue"] == 50.0 and not (tmp_path / "pyramid.toml").exists()


def test_run_draws_on_enter_and_takes_undo_and_refill_keys(tmp_path):
    out = io.StringIO()
    # Two draws, undo (the die must go back), r (it is back), four draws (the leg is over), r (refilled), a draw.
    keys = io.StringIO("\n\nu\nr\n\n\n\n\nr\n\nq\n")
    assert cmd_run(_args(config=_quick(tmp_path), seed=3, state=str(tmp_path / "state.json")), keys, out) == 0
    text = out.getvalue()
    assert text.count("leg 1 #") == 6  # five kept, one undone
    assert "undone:" in text and "back into the pyramid, then hold its button" in text
    assert "Leg over: put the dice back" in text and "refilled: leg 2" in text
    assert "leg 2 #7" in text


def test_run_starts_where_the_last_run_stopped(tmp_path):
    state = str(tmp_path / "state.json")
    first = io.StringIO()
    cmd_run(_args(config=_quick(tmp_path), seed=3, state=state), io.StringIO("\n\n\nq\n"), first)
    out_before = re.findall(r"leg 1 #\d: (\w+)", first.getvalue())
    again = io.StringIO()
    cmd_run(_args(config=_quick(tmp_path), seed=3, state=state), io.StringIO("\n\nq\n"), again)
    out_after = re.findall(r"leg 1 #(\d): (\w+)", again.getvalue())
    assert [n for n, _ in out_after] == ["4", "5"]
    assert not {die for _, die in out_after} & set(out_before)


def _quick(tmp_path):
    """A configuration whose gates move at once (the simulated board does not need the time)."""
    path = tmp_path / "quick.toml"
    path.write_text("[servo]\nmove_time = 0\n")
    return str(path)


def _args(**values):
    import argparse

    return argparse.Namespace(simulate=True, edition=None, **values)
