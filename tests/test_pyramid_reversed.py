"""Servos that turn the other way for a longer pulse (SG90 clones differ): opening must still swing each plate
towards the button's leg, so such a gate is configured the other way round, closed at 135° and open at 45°, for
every gate or for one. The rig, the self-test, calibration and the digital twin all take it."""

import argparse
import io

import pytest

from companion.cli import main
from firmware_py.cli import cmd_calibrate
from firmware_py.config import load_config, parse_config
from firmware_py.servos import SimulatedPca9685Bus, open_gates, tick_seconds
from firmware_py.twinsim import run_legs

ALL_REVERSED = {"servo": {"closed_angle": 135, "open_angle": 45}}
ONE_REVERSED = {"servo": {"closed_angles": {"red": 135}, "open_angles": {"red": 45}}}


def test_a_reversed_gate_is_sent_the_long_pulse_when_closed_and_the_short_one_when_open():
    config = parse_config(ONE_REVERSED).servo
    bus = SimulatedPca9685Bus(0x40)
    gates = open_gates(config, simulate=True, bus=bus)
    tick = tick_seconds(config)
    for die, closed, opened in (("red", 0.002, 0.001), ("green", 0.001, 0.002)):
        gates.set_angle(die, config.closed_angles[die])
        assert bus.pulse_width(config.channels[die]) == pytest.approx(closed, abs=tick)
        gates.set_angle(die, config.open_angles[die])
        assert bus.pulse_width(config.channels[die]) == pytest.approx(opened, abs=tick)


@pytest.mark.parametrize("settings", [ALL_REVERSED, ONE_REVERSED], ids=["all", "one"])
def test_the_twin_releases_exactly_the_drawn_die_with_reversed_gates(settings):
    report = run_legs(parse_config(settings), 40, seed=5)
    assert report.releases > 100
    assert report.wrong_releases == report.unreconciled == report.phantom_draws == 0, report.problems


def test_selftest_and_calibrate_take_a_reversed_rig(tmp_path, capsys):
    path = tmp_path / "rig.toml"
    path.write_text("[servo]\nclosed_angle = 135\nopen_angle = 45\n")
    assert main(["pyramid", "selftest", "--simulate", "--config", str(path), "--step", "0", "--timeout", "2"]) == 0
    assert "PASS  gates" in capsys.readouterr().out
    # Calibrating a reversed gate: '-' moves its open angle further from closed, as on any gate.
    keys = io.StringIO("\n-\n" + "\n" * 11)
    args = argparse.Namespace(simulate=True, edition=None, config=str(path), save=str(path), step_degrees=5.0)
    assert cmd_calibrate(args, keys, io.StringIO()) == 0
    servo = load_config(path).servo
    assert servo.closed_angles["green"] == 135.0 and servo.open_angles["green"] == 40.0
    assert servo.open_angles["red"] == 45.0
