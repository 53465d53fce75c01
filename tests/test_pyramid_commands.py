"""The rig's configuration file and the ``camelup pyramid`` commands, on simulated pins."""

import io
import json
import re
from pathlib import Path

import pytest

from companion.cli import main
from firmware_py.cli import cmd_calibrate, cmd_run
from firmware_py.config import DEFAULTS, ConfigError, load_config, parse_config

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"button": {"pin": 18}}, "servo.pin: GPIO18 is already used by button.pin"),
        ({"led": {"red": 1}}, "led.red: 1 is not a GPIO pin"),
        ({"led": {"blue": 40}}, "led.blue: 40 is not a GPIO pin"),
        ({"servo": {"angles": {"red": 200}}}, "servo.angles.red: 200 is outside"),
        ({"servo": {"angles": {"orange": 20}}}, "servo.angles.orange: no such die in the 2018 pyramid"),
        ({"servo": {"open_angle": -5}}, "servo.open_angle: -5 is outside"),
        ({"servo": {"mode": "trapdoor"}}, "servo.mode"),
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
    path.write_text("[led]\nred = 18\n")
    with pytest.raises(ConfigError, match=r"rig.toml: led.red: GPIO18|rig.toml: servo.pin: GPIO18"):
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


def test_hardware_docs_name_the_pins_of_the_default_configuration():
    """The wiring table and the SVG diagram must match what the firmware drives by default."""
    config = parse_config({})
    readme = (ROOT / "hardware" / "README.md").read_text()
    table = dict(re.findall(r"^\| `([a-z_.]+)` \|[^|]*\| GPIO(\d+) ", readme, flags=re.M))
    assert {key: int(pin) for key, pin in table.items()} == config.pins()
    svg = (ROOT / "hardware" / "wiring.svg").read_text()
    for key, pin in config.pins().items():
        assert f"GPIO{pin}" in svg, f"{key} (GPIO{pin}) is missing from wiring.svg"
    example = load_config(ROOT / "hardware" / "pyramid.example.toml")
    assert example.pins() == config.pins()
    assert DEFAULTS["servo"]["pin"] == config.servo.pin


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


def test_selftest_passes_on_simulated_pins(capsys):
    assert main(["pyramid", "selftest", "--simulate", "--step", "0", "--timeout", "2"]) == 0
    out = capsys.readouterr().out
    assert "PASS  LED" in out and "PASS  servo" in out and "PASS  button" in out


def test_a_bad_config_is_a_clear_message_and_exit_2(tmp_path, capsys):
    path = tmp_path / "rig.toml"
    path.write_text("[servo]\nangles = { red = 999 }\n")
    assert main(["pyramid", "simulate", "--config", str(path)]) == 2
    assert "servo.angles.red: 999 is outside" in capsys.readouterr().err


def test_calibrate_steps_the_servo_and_saves_the_angles(tmp_path):
    path = tmp_path / "rig.toml"
    path.write_text('edition = "2014"\n[button]\nlockout = 2.0\n')
    keys = io.StringIO("+\n+\n\n=45\n\n-3\n\nnonsense\n\n\n")
    args = _args(config=str(path), save=str(path), step_degrees=5.0)
    out = io.StringIO()
    assert cmd_calibrate(args, keys, out) == 0
    config = load_config(path)
    assert config.servo.angles == {"blue": 10.0, "green": 45.0, "orange": 87.0, "yellow": 135.0, "white": 180.0}
    assert config.button.lockout == 2.0  # the rest of the file is kept
    assert "not a step" in out.getvalue()


def test_calibrate_quit_saves_nothing(tmp_path):
    path = tmp_path / "rig.toml"
    args = _args(config=None, save=str(path), step_degrees=5.0)
    assert cmd_calibrate(args, io.StringIO("+\nq\n"), io.StringIO()) == 1
    assert not path.exists()


def test_run_draws_on_enter_and_takes_undo_and_refill_keys():
    out = io.StringIO()
    keys = io.StringIO("\n\nu\n\n\n\n\nr\n\nq\n")
    assert cmd_run(_args(config=None, seed=3), keys, out) == 0
    text = out.getvalue()
    assert text.count("leg 1 #") == 6  # five kept, one undone
    assert "undone:" in text and "leg 1 is over" in text and "refilled: leg 2" in text
    assert "leg 2 #7" in text


def _args(**values):
    import argparse

    return argparse.Namespace(simulate=True, edition=None, **values)
