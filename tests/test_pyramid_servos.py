"""Gate pulses through Adafruit's real PCA9685 driver, decoded from the registers the chip would hold.

The simulated board only stores bytes; the arithmetic (prescale, 16-bit duty cycle to 12-bit counts) is the
library's. Each pulse is decoded here a second, independent way, from the raw register bytes."""

import io
import itertools
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_py.cli import cmd_calibrate, cmd_selftest
from firmware_py.config import load_config, parse_config
from firmware_py.servos import (
    BusError,
    SimulatedPca9685Bus,
    open_gates,
    open_i2c_bus,
    prescale_for,
    pulse_ticks,
    tick_seconds,
)


def raw_pulse(bus: SimulatedPca9685Bus, channel: int, clock: float = 25e6) -> float:
    """From the register bytes alone: LEDn_OFF - LEDn_ON counts of (prescale + 1) / clock seconds."""
    base = 0x06 + 4 * channel
    on = int.from_bytes(bus.registers[base : base + 2], "little")
    off = int.from_bytes(bus.registers[base + 2 : base + 4], "little")
    if off & 0x1000:
        return 0.0
    return (off - on) * (bus.registers[0xFE] + 1) / clock


def gates_for(settings_: dict):
    config = parse_config(settings_).servo
    bus = SimulatedPca9685Bus(config.i2c_address)
    return config, bus, open_gates(config, simulate=True, bus=bus)


@pytest.mark.parametrize(("frequency", "prescale", "tick_us"), [(50, 121, 4.88), (250, 23, 0.96)])
def test_the_library_sets_the_prescale_and_the_tick_is_what_the_docs_say(frequency, prescale, tick_us):
    config, bus, _ = gates_for({"servo": {"frequency": frequency}})
    assert bus.registers[0xFE] == prescale == prescale_for(frequency, 25e6)
    assert tick_seconds(config) * 1e6 == pytest.approx(tick_us, abs=0.005)
    assert bus.frequency() == pytest.approx(frequency, rel=0.02)  # the chip's real rate, not quite the asked one


@settings(max_examples=200, deadline=None)
@given(angle=st.floats(0, 180), frequency=st.sampled_from([50, 100, 250, 333]))
def test_every_angle_gets_the_nearest_whole_tick(angle, frequency):
    config, bus, gates = gates_for({"servo": {"frequency": frequency}})
    gates.set_angle("red", angle)
    channel = config.channels["red"]
    wanted = config.pulse_width(angle)
    tick = tick_seconds(config)
    assert abs(raw_pulse(bus, channel) - wanted) <= tick / 2 + 1e-12
    assert gates.pulse_width("red") == pytest.approx(raw_pulse(bus, channel), abs=1e-12)
    if frequency >= 250:
        assert tick < 1e-6  # the 1 µs, met by a digital servo's faster frame


def test_release_stops_the_pulses_and_touches_no_other_channel():
    config, bus, gates = gates_for({})
    gates.set_angle("blue", 90)
    before = {c: bus.channel_registers(c) for c in range(16) if c != config.channels["blue"]}
    gates.release("blue")
    assert raw_pulse(bus, config.channels["blue"]) == 0.0
    assert {c: bus.channel_registers(c) for c in before} == before


def test_calibrates_smallest_step_changes_the_pulse_by_one_tick(tmp_path):
    path = tmp_path / "rig.toml"
    path.write_text('edition = "2014"\n')
    config = parse_config({"edition": "2014"}).servo
    steps = [".", ".", ".", ",", "."]
    out = io.StringIO()
    import argparse

    args = argparse.Namespace(simulate=True, edition=None, config=str(path), save=str(path), step_degrees=0.01)
    assert cmd_calibrate(args, io.StringIO("\n".join(steps) + "\n" * 12), out) == 0
    shown = [float(w.split(" µs")[0].split("(")[-1]) for w in out.getvalue().split("blue closed:")[1:7]]
    ticks = [round(us / (tick_seconds(config) * 1e6)) for us in shown]
    assert [b - a for a, b in itertools.pairwise(ticks)] == [1, 1, 1, -1, 1]
    assert "'.' or ',' moves 0.439° (one 4.88 µs step)" in out.getvalue()
    # The asked 0.01° step is too small for the chip: '+' is raised to one tick too.
    assert "'+' or '-' moves 0.4392°" in out.getvalue()
    saved = load_config(path).servo  # the saved angle gives the chosen pulse, to the tick
    assert pulse_ticks(saved, saved.pulse_width(saved.closed_angles["blue"])) == ticks[-1]


def test_selftest_fails_when_the_board_does_not_hold_a_pulse(monkeypatch, capsys):
    """A board that loses writes to one channel (a bad solder joint, a wrong address bit) fails the test."""
    original = SimulatedPca9685Bus.writeto

    def lossy(self, address, buffer, *, start=0, end=None):
        data = bytes(buffer[start:end])
        if data and data[0] == 0x06 + 4 * 2:  # channel 2 (red in 2018) never takes a new pulse
            return
        original(self, address, buffer, start=start, end=end)

    monkeypatch.setattr(SimulatedPca9685Bus, "writeto", lossy)
    import argparse

    args = argparse.Namespace(simulate=True, edition=None, config=None, step=0.0, timeout=2.0)
    assert cmd_selftest(args) == 1
    out = capsys.readouterr().out
    assert "FAIL  gates: red closed" in out and "I²C on GPIO2/3" in out


def test_a_missing_board_is_a_clear_error():
    config = parse_config({}).servo
    with pytest.raises(BusError, match="check the PCA9685's wiring"):
        open_gates(config, simulate=False, bus=SimulatedPca9685Bus(0x41))


def test_off_a_pi_the_i2c_bus_says_what_to_do():
    # Blinka's board module refuses to import off a Pi; the firmware must import it only when asked, and
    # turn the refusal into advice. Run in a fresh interpreter so no test has imported board already.
    code = (
        "import firmware_py.servos as s, firmware_py.rig, firmware_py.cli, sys\n"
        "assert 'board' not in sys.modules and 'busio' not in sys.modules\n"
        "try:\n    s.open_i2c_bus()\nexcept s.BusError as e:\n    print(e)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "enable I²C" in result.stdout or "I²C" in result.stdout


def test_open_i2c_bus_is_used_when_not_simulating(monkeypatch):
    monkeypatch.setattr("firmware_py.servos.open_i2c_bus", lambda: SimulatedPca9685Bus(0x40))
    gates = open_gates(parse_config({}).servo, simulate=False)
    gates.set_angle("green", 0)
    assert gates.pulse_width("green") == pytest.approx(0.0005, abs=tick_seconds(gates.config) / 2)
    assert open_i2c_bus is not None
