"""The rig on gpiozero's mock pins: press, LED duty cycles, servo pulse widths, debouncing, holds."""

import itertools
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware_py.config import parse_config
from firmware_py.patterns import AMBER, LEG_OVER_PATTERN, READY, WHITE, die_pattern
from firmware_py.pyramid import Pyramid
from firmware_py.rig import PyramidRig

FAST = {"button": {"lockout": 0.0}, "servo": {"move_time": 0.0}}


@pytest.fixture
def factory():
    return MockFactory(pin_class=MockPWMPin)


def make_rig(factory, settings=FAST, seed=1):
    config = parse_config(settings)
    pyramid = Pyramid(config.dice, seed=seed)
    events = pyramid.subscribe()
    rig = PyramidRig.build(pyramid, config, factory)
    return rig, events, config


def press(factory, config, rig=None):
    pin = factory.pin(config.button.pin)
    pin.drive_low()
    pin.drive_high()
    if rig is not None:
        rig.wait_idle()


def wait_until(condition, timeout=3.0):
    """Poll until ``condition()`` holds (timings on a busy machine vary); fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the rig did not get there in time"
        time.sleep(0.005)


def led_duty(factory, config):
    return tuple(round(factory.pin(p).state, 3) for p in (config.led.red, config.led.green, config.led.blue))


def test_a_press_draws_and_the_led_shows_the_die_colour(factory):
    slow_led = {**FAST, "led": {"show_time": 5.0}}
    rig, events, config = make_rig(factory, slow_led)
    try:
        assert led_duty(factory, config) == READY
        press(factory, config, rig)
        draw = events.get(timeout=2)
        colour = rig.pyramid.die(draw.die).led_colour
        assert led_duty(factory, config) == tuple(round(c, 3) for c in colour)
    finally:
        rig.close()


def test_common_anode_inverts_the_duty_cycle(factory):
    rig, events, config = make_rig(factory, {**FAST, "led": {"common": "anode", "show_time": 5.0}})
    try:
        press(factory, config, rig)
        colour = rig.pyramid.die(events.get(timeout=2).die).led_colour
        assert led_duty(factory, config) == tuple(round(1 - c, 3) for c in colour)
    finally:
        rig.close()


def test_value_is_shown_by_blinks_and_ends_on_the_colour(factory):
    timing = {**FAST, "led": {"show_time": 0.02, "blink_on": 0.02, "blink_off": 0.02}}
    rig, events, config = make_rig(factory, timing, seed=4)
    try:
        press(factory, config, rig)
        draw = events.get(timeout=2)
        pattern = die_pattern(rig.pyramid.die(draw.die), draw.value, draw.crazy, config.led)
        rig.led.wait(timeout=3)  # the pattern has played to its end
        assert led_duty(factory, config) == tuple(round(c, 3) for c in pattern.then)
        # Count how often the LED went dark after the press: one per pip.
        channel = max(range(3), key=lambda i: pattern.first_colour[i])
        pin = factory.pin((config.led.red, config.led.green, config.led.blue)[channel])
        states = [s.state for s in pin.states]
        press_at = max(i for i, s in enumerate(states) if s == READY[channel])
        after = states[press_at + 1 :]
        darks = sum(1 for prev, cur in itertools.pairwise(after) if cur == 0 and prev != 0)
        assert darks == draw.value
    finally:
        rig.close()


def test_patterns_for_grey_die_numbers_and_states_are_distinct():
    led = parse_config({}).led
    grey = Pyramid(parse_config({}).dice).die("grey")
    white, black = die_pattern(grey, 2, "white", led), die_pattern(grey, 2, "black", led)
    assert white.then == WHITE and black.then == grey.led_colour
    assert WHITE in [c for c, _ in white.steps] and WHITE not in [c for c, _ in black.steps]
    assert len(white.steps) == len(black.steps) == 1 + 2 * 2
    assert LEG_OVER_PATTERN.then is None and LEG_OVER_PATTERN.first_colour == AMBER


@pytest.mark.parametrize(("mode", "extra"), [("carousel", {}), ("gate", {"open_angle": 120, "closed_angle": 10})])
def test_servo_pulse_width_per_angle_then_detached(factory, mode, extra):
    settings = {**FAST, "servo": {"move_time": 0.0, "mode": mode, **extra}}
    rig, events, config = make_rig(factory, settings)
    try:
        press(factory, config, rig)
        draw = events.get(timeout=2)
        pin = factory.pin(config.servo.pin)
        pulses = [round(s.state * 0.02, 6) for s in pin.states if s.state]
        s = config.servo

        def width(angle):
            return round(s.min_pulse_width + (angle - s.min_angle) / (s.max_angle - s.min_angle)
                         * (s.max_pulse_width - s.min_pulse_width), 6)

        if mode == "gate":
            assert pulses == [width(120), width(10)]
        else:
            assert pulses == [width(s.angles[draw.die])]
        assert pin.state == 0  # detached: no more pulses
    finally:
        rig.close()


def test_carousel_angles_default_to_an_even_spread_and_calibrated_ones_win():
    config = parse_config({"servo": {"angles": {"red": 33}}})
    assert config.servo.angles["green"] == 0 and config.servo.angles["grey"] == 180
    assert config.servo.angles["red"] == 33


def test_bounces_and_double_presses_give_one_draw(factory):
    rig, events, config = make_rig(factory, {**FAST, "button": {"lockout": 30.0}})
    try:
        pin = factory.pin(config.button.pin)
        for _ in range(5):  # contact bounce
            pin.drive_low()
            pin.drive_high()
        rig.wait_idle()
        press(factory, config, rig)  # an impatient second press
        assert events.qsize() == 1
        assert rig.ignored_presses == 5
    finally:
        rig.close()


def test_a_press_after_the_lockout_draws_again(factory):
    rig, events, config = make_rig(factory, {**FAST, "button": {"lockout": 0.05}})
    try:
        press(factory, config, rig)
        time.sleep(0.08)
        press(factory, config, rig)
        assert events.qsize() == 2
    finally:
        rig.close()


def test_after_the_fifth_draw_presses_show_leg_over_and_draw_nothing(factory):
    rig, events, config = make_rig(factory)
    try:
        for _ in range(7):
            press(factory, config, rig)
        assert events.qsize() == 5
        assert rig.pyramid.leg_over
        assert rig.led.current is LEG_OVER_PATTERN
    finally:
        rig.close()


def test_holding_shows_the_last_result_and_a_long_hold_refills_once_the_leg_is_over(factory):
    settings = {**FAST, "button": {"lockout": 0.0, "hold_time": 0.1, "refill_hold_time": 0.35}}
    rig, _, config = make_rig(factory, settings)
    try:
        for _ in range(5):
            press(factory, config, rig)
        last = rig.pyramid.last
        pin = factory.pin(config.button.pin)
        rig.led.play(LEG_OVER_PATTERN)
        pin.drive_low()
        wait_until(lambda: rig.led.current.name.startswith(f"{last.die} {last.value}"))
        wait_until(lambda: rig.pyramid.leg == 2)
        pin.drive_high()
        assert not rig.pyramid.leg_over
    finally:
        rig.close()


def test_a_long_hold_mid_leg_does_not_refill(factory):
    settings = {**FAST, "button": {"lockout": 0.0, "hold_time": 0.1, "refill_hold_time": 0.2}}
    rig, _, config = make_rig(factory, settings)
    try:
        pin = factory.pin(config.button.pin)
        pin.drive_low()
        time.sleep(0.45)
        pin.drive_high()
        rig.wait_idle()
        assert len(rig.pyramid.drawn) == 1 and rig.pyramid.leg == 1
    finally:
        rig.close()


def test_undo_and_refill_requests(factory):
    rig, _, _ = make_rig(factory)
    try:
        rig.press()
        rig.press()
        rig.undo()
        rig.wait_idle()
        assert len(rig.pyramid.drawn) == 1
        rig.refill()
        rig.wait_idle()
        assert rig.pyramid.drawn == () and rig.pyramid.leg == 2
        rig.undo()  # nothing to undo: the rig shows an error and keeps going
        rig.wait_idle()
        assert rig.last_error and "nothing to undo" in rig.last_error
        rig.press()
        rig.wait_idle()
        assert len(rig.pyramid.drawn) == 1
    finally:
        rig.close()
