"""`camelup pyramid selftest` on real pins (mock pins named "lgpio", a PCA9685 answering on the I²C bus): what it
can check it checks (the pins, the board's registers), what only eyes can check it names while it shows and, at a
terminal, asks; its PASS never claims what nobody saw."""

import argparse
import io
import threading

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

import firmware_py.servos as servos
from firmware_py import hardware
from firmware_py.cli import cmd_selftest
from firmware_py.servos import SimulatedPca9685Bus

DICE = ["green", "yellow", "red", "blue", "purple", "grey"]


@pytest.fixture
def real_pins(monkeypatch):
    """lgpio's pins (mock ones stand in) and the real board's path, on a bus where the PCA9685 answers."""
    factory = MockFactory(pin_class=MockPWMPin)
    monkeypatch.setattr(hardware, "make_pin_factory", lambda name="auto", simulate=False: (factory, "lgpio"))
    monkeypatch.setattr(servos, "open_i2c_bus", lambda: SimulatedPca9685Bus(0x40))
    return factory


class Watching(io.StringIO):
    """The terminal, noting what the LED's pins show whenever a line is written."""

    def __init__(self, factory):
        super().__init__()
        self.factory = factory
        self.shown: list[tuple[str, tuple[float, float, float]]] = []

    def write(self, text):
        pins = tuple(round(self.factory.pin(n).state, 3) for n in (22, 27, 24))
        self.shown.append((text, pins))
        return super().write(text)


def selftest(factory, answers=None, press=True):
    args = argparse.Namespace(simulate=False, edition=None, config=None, step=0.0, timeout=1.0 if press else 0.05)
    out = Watching(factory)
    if press:  # a builder pressing the button once it is asked for
        def presser():
            while "Press the button" not in out.getvalue():
                threading.Event().wait(0.01)
            factory.pin(17).drive_low()
            factory.pin(17).drive_high()

        threading.Thread(target=presser, daemon=True).start()
    keys = io.StringIO("".join(f"{a}\n" for a in answers)) if answers is not None else io.StringIO()
    status = cmd_selftest(args, out, keys=keys, interactive=answers is not None)
    return status, out


def test_each_colour_and_gate_is_named_while_it_shows(real_pins):
    status, out = selftest(real_pins)
    text = out.getvalue()
    assert status == 0
    named = [line.split("showing ")[1].strip() for line, _ in out.shown if line.startswith("LED: showing")]
    assert named == DICE
    lit = {line.split("showing ")[1].strip(): pins for line, pins in out.shown if line.startswith("LED: showing")}
    assert lit["red"] == (1.0, 0.0, 0.0) and lit["green"] == (0.0, 1.0, 0.0), "the name is printed as it lights"
    assert "gate green (PCA9685 output 0): closed, open, closed" in text
    assert text.index("gate green (PCA9685 output 0)") < text.index("gate grey (PCA9685 output 5)")


def test_without_a_terminal_the_result_says_what_was_sent_not_what_was_seen(real_pins):
    _, out = selftest(real_pins)
    text = out.getvalue()
    assert "PASS  LED: sent green, yellow, red, blue, purple, grey in that order; confirm by eye" in text
    assert "PASS  gates: the PCA9685 took every pulse" in text and "confirm by eye that each gate named" in text
    assert "(checked on the mock pins)" not in text


def test_at_a_terminal_the_builder_confirms_each(real_pins):
    status, out = selftest(real_pins, answers=["y"] * 6 + [""] * 6)
    text = out.getvalue()
    assert status == 0 and "did the LED look red? [Y/n]" in text and "did the grey gate (output 5) open" in text
    assert "PASS  LED: you saw green, yellow, red, blue, purple, grey, each as named" in text
    assert "you saw each gate move" in text


def test_a_colour_not_seen_fails_with_the_wires_to_look_at(real_pins):
    # Red and green swapped: the builder sees green when red is named, and red when green is.
    status, out = selftest(real_pins, answers=["n", "y", "n"] + ["y"] * 3 + ["y"] * 6)
    text = out.getvalue()
    assert status == 1 and "FAIL  LED: you did not see green, red as named" in text
    assert "two colours swapped are two wires swapped (GPIO22 (red), GPIO27 (green), GPIO24 (blue))" in text


def test_a_gate_that_did_not_move_names_its_output(real_pins):
    status, out = selftest(real_pins, answers=["y"] * 6 + ["y", "y", "n", "y", "y", "y"])
    text = out.getvalue()
    assert status == 1 and "FAIL  gates: the board took every pulse but red (output 2) did not move" in text


def test_no_press_is_a_failure_naming_the_pin(real_pins):
    status, out = selftest(real_pins, press=False)
    assert status == 1 and "FAIL  button: no press on GPIO17" in out.getvalue()
