"""The rig on gpiozero's mock pins and a simulated PCA9685: press, LED duty cycles, gate pulses decoded from
the board's registers, debouncing (also after holds), hold times, undo, refill, saved state, the game's veto.

No test sleeps to synchronise: each waits on an event with a timeout. Presses that must not count as bounce
are spaced on a clock the test steps forward (:class:`SteppedClock`)."""

import itertools
import queue
import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware_py.config import parse_config
from firmware_py.patterns import AMBER, LEG_OVER_PATTERN, READY, REFUSED_PATTERN, WHITE, die_pattern
from firmware_py.pyramid import Draw, Pyramid, Refilled
from firmware_py.rig import PyramidRig
from firmware_py.rigstate import StateFile
from firmware_py.servos import SimulatedPca9685Bus, open_gates

FAST = {"button": {"lockout": 0.0}, "servo": {"move_time": 0.0}}


class SteppedClock:
    """The monotonic clock plus an offset the test moves forward (a pause between presses, without waiting)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.offset


class Recorder:
    """Every pulse the simulated PCA9685 is told to send, per channel, in order."""

    def __init__(self, bus: SimulatedPca9685Bus) -> None:
        self.bus = bus
        self.pulses: dict[int, list[float]] = {}
        bus.on_write = lambda channel: self.pulses.setdefault(channel, []).append(round(bus.pulse_width(channel), 9))


@pytest.fixture
def factory():
    return MockFactory(pin_class=MockPWMPin)


def make_rig(factory, settings=FAST, seed=1, store=None, clock=None):
    config = parse_config(settings)
    pyramid = Pyramid(config.dice, seed=seed)
    events = pyramid.subscribe()
    bus = SimulatedPca9685Bus(config.servo.i2c_address)
    recorder = Recorder(bus)
    gates = open_gates(config.servo, simulate=True, bus=bus)
    clock = clock or SteppedClock()
    rig = PyramidRig.build(pyramid, config, factory, gates=gates, store=store, clock=clock)
    rig.recorder = recorder
    rig.test_clock = clock
    return rig, events, config


def press(factory, config, rig=None):
    """A clean press, a second after anything before it."""
    if rig is not None:
        rig.test_clock.offset += 1.0
    pin = factory.pin(config.button.pin)
    pin.drive_low()
    pin.drive_high()
    if rig is not None:
        rig.wait_idle()


def led_duty(factory, config):
    return tuple(round(factory.pin(p).state, 3) for p in (config.led.red, config.led.green, config.led.blue))


def led_watch(rig, name_start):
    """An event set when the LED next starts a pattern whose name starts so (set it up before acting)."""
    reached = threading.Event()
    original = rig.led.play

    def play(pattern):
        original(pattern)
        if pattern.name.startswith(name_start):
            reached.set()

    rig.led.play = play
    return reached


def test_a_press_draws_and_the_led_shows_the_die_colour(factory):
    rig, events, config = make_rig(factory, {**FAST, "led": {"show_time": 5.0}})
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


def test_a_draw_opens_and_closes_only_the_drawn_dies_gate(factory):
    settings = {**FAST, "servo": {"move_time": 0.0, "open_angles": {"red": 120}, "closed_angles": {"red": 10}}}
    rig, events, config = make_rig(factory, settings, seed=2)
    try:
        s = config.servo
        start = {channel: list(p) for channel, p in rig.recorder.pulses.items()}
        # At start every gate was sent closed, then let go.
        for die, channel in s.channels.items():
            assert start[channel][-2:] == [pytest.approx(s.pulse_width(s.closed_angles[die]), abs=3e-6), 0.0]
        for _ in range(5):
            before = {channel: len(p) for channel, p in rig.recorder.pulses.items()}
            press(factory, config, rig)
            draw = events.get(timeout=2)
            channel = s.channels[draw.die]
            moved = {c for c, p in rig.recorder.pulses.items() if len(p) > before.get(c, 0)}
            assert moved == {channel}
            sent = rig.recorder.pulses[channel][before[channel]:]
            assert sent == [
                pytest.approx(s.pulse_width(s.open_angles[draw.die]), abs=3e-6),
                pytest.approx(s.pulse_width(s.closed_angles[draw.die]), abs=3e-6),
                0.0,  # let go: no pulses, no hum
            ]
    finally:
        rig.close()


def test_bounces_and_double_presses_give_one_draw(factory):
    rig, events, config = make_rig(factory, {**FAST, "button": {"lockout": 30.0}})
    try:
        pin = factory.pin(config.button.pin)
        for _ in range(5):  # contact bounce: all within microseconds
            pin.drive_low()
            pin.drive_high()
        rig.wait_idle()
        press(factory, config, rig)  # an impatient second press, a second later
        assert events.qsize() == 1
        assert rig.ignored_presses == 5 and rig.core.bounces == 4
    finally:
        rig.close()


def test_a_press_after_the_lockout_draws_again(factory):
    rig, events, config = make_rig(factory, {**FAST, "button": {"lockout": 0.5}})
    try:
        press(factory, config, rig)
        press(factory, config, rig)  # one (stepped) second later
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
        assert rig.status()["state"] == "leg over" and "Leg over" in rig.status()["notice"]
    finally:
        rig.close()


def bouncing_release(pin, times=4):
    for _ in range(times):
        pin.drive_high()
        pin.drive_low()
    pin.drive_high()


def test_hold_times_are_measured_from_the_press_and_a_bouncing_release_draws_nothing(factory):
    """The documented times: the last result again after hold_time, "all back" after refill_hold_time, both
    counted from the press (not, as gpiozero's held_time, from the first when_held)."""
    settings = {**FAST, "button": {"lockout": 0.0, "hold_time": 0.2, "refill_hold_time": 0.6}}
    rig, events, config = make_rig(factory, settings, clock=time.monotonic)
    try:
        for _ in range(5):
            rig.press()
        rig.wait_idle()
        draws = [events.get(timeout=2) for _ in range(5)]
        last = draws[-1]
        pin = factory.pin(config.button.pin)
        again = led_watch(rig, f"{last.die} {last.value}")
        pressed = time.monotonic()
        pin.drive_low()  # the leg is over: this press draws nothing, its hold refills
        assert again.wait(3)  # the last result, shown again
        shown = time.monotonic() - pressed
        refilled = events.get(timeout=3)
        held = time.monotonic() - pressed
        assert isinstance(refilled, Refilled) and refilled.leg == 2
        assert 0.2 <= shown < 0.2 + 0.3
        assert 0.6 <= held < 0.6 + 0.3
        bouncing_release(pin)
        rig.wait_idle()
        assert rig.pyramid.drawn == ()  # the bounces drew nothing from the refilled pyramid
        assert events.empty()
    finally:
        rig.close()


def test_a_hold_after_a_draw_then_a_bouncing_release_gives_one_draw(factory):
    settings = {**FAST, "button": {"lockout": 0.0, "hold_time": 0.1, "refill_hold_time": 0.3}}
    rig, events, config = make_rig(factory, settings, clock=time.monotonic)
    try:
        pin = factory.pin(config.button.pin)
        shown = led_watch(rig, "")
        pin.drive_low()
        draw = events.get(timeout=2)
        assert shown.wait(2) and rig.led.current.name.startswith(f"{draw.die} {draw.value}")
        # Held past the refill time mid-leg: no refill (waited on the event queue, where none must come).
        with pytest.raises(queue.Empty):
            events.get(timeout=0.4)
        bouncing_release(pin)
        rig.wait_idle()
        assert len(rig.pyramid.drawn) == 1 and rig.pyramid.leg == 1
        assert events.empty()
    finally:
        rig.close()


def test_the_last_draw_of_a_leg_held_long_does_not_refill(factory):
    settings = {**FAST, "button": {"lockout": 0.0, "hold_time": 0.1, "refill_hold_time": 0.2}}
    rig, events, config = make_rig(factory, settings, clock=time.monotonic)
    try:
        for _ in range(4):
            rig.press()
        rig.wait_idle()
        pin = factory.pin(config.button.pin)
        ready = led_watch(rig, "ready")
        pin.drive_low()  # the leg's fifth draw, then held on past the refill time
        [events.get(timeout=2) for _ in range(5)]
        assert not ready.wait(0.4)  # no refill came (it would show the ready glow)
        pin.drive_high()
        rig.wait_idle()
        assert rig.pyramid.leg_over  # the dice are still in the tray: no refill
    finally:
        rig.close()


def test_undo_asks_for_the_die_back_and_refill_puts_everything_back(factory):
    rig, _, config = make_rig(factory)
    try:
        rig.press()
        rig.press()
        rig.wait_idle()
        second = rig.pyramid.last
        rig.undo()
        rig.wait_idle()
        status = rig.status()
        assert len(rig.pyramid.drawn) == 1 and status["put_back"] == [second.die]
        assert status["notice"].startswith(f"Put {second.die} back into the pyramid")
        press(factory, config, rig)  # while a die must go back, a press draws nothing
        assert len(rig.pyramid.drawn) == 1
        rig.refill()
        rig.wait_idle()
        assert rig.status()["put_back"] == [] and rig.status()["notice"] is None
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


def test_a_draw_the_game_refuses_is_neither_shown_nor_released(factory):
    rig, events, config = make_rig(factory, {**FAST, "led": {"show_time": 5.0}})
    try:
        asked: list[Draw] = []
        rig.set_authorizer(lambda draw: asked.append(draw) or False)
        before = {channel: len(p) for channel, p in rig.recorder.pulses.items()}
        press(factory, config, rig)
        assert len(asked) == 1 and events.empty()
        assert {c: len(p) for c, p in rig.recorder.pulses.items()} == before  # no gate moved
        assert rig.led.current is REFUSED_PATTERN
        assert rig.pyramid.drawn == ()
    finally:
        rig.close()


def test_the_rig_remembers_its_leg_across_a_restart(factory, tmp_path):
    store = StateFile(tmp_path / "state.json")
    rig, events, config = make_rig(factory, store=store)
    try:
        for _ in range(3):
            press(factory, config, rig)
        out = [events.get(timeout=2).die for _ in range(3)]
    finally:
        rig.close()
    factory.reset()
    for seed in range(8):  # whatever the dice's luck, no die already out comes out again
        pins = MockFactory(pin_class=MockPWMPin)
        again, events, config = make_rig(pins, seed=seed, store=store)
        try:
            sequence = again.pyramid.sequence
            assert [d.die for d in again.pyramid.drawn] == out and sequence == 3 + seed  # it never goes back
            press(pins, config, again)
            draw = events.get(timeout=2)
            assert draw.die not in out and draw.sequence == sequence + 1
            again.undo()
            again.refill()  # put it back, so the next restart starts from the same three
            again.wait_idle()
        finally:
            again.close()


def test_a_damaged_state_file_is_reported_and_the_rig_starts_full(factory, tmp_path):
    path = tmp_path / "state.json"
    path.write_text("{not json")
    rig, _, _ = make_rig(factory, store=StateFile(path))
    try:
        status = rig.status()
        assert status["problem"] and "state.json" in status["problem"]
        assert rig.pyramid.drawn == ()
    finally:
        rig.close()


def test_reconcile_releases_what_the_game_has_out_and_asks_for_the_rest_back(factory):
    rig, _, config = make_rig(factory)
    try:
        press(factory, config, rig)
        first = rig.pyramid.last.die
        others = [d.name for d in config.dice if d.name != first]
        rig.reconcile(1, [(others[0], 2, None), (others[1], 1, None)])
        rig.wait_idle()
        channels = config.servo.channels
        for die in others[:2]:  # released: their gates opened
            assert any(p > 0 for p in rig.recorder.pulses[channels[die]][-3:-1])
        status = rig.status()
        assert status["put_back"] == [first] and sorted(status["out"]) == sorted(others[:2])
        assert f"Put {first} back" in status["notice"]
        assert rig.led.current.name == f"put back {first}"
    finally:
        rig.close()


def test_a_press_while_a_gate_moves_releases_nothing_more(factory):
    rig, events, config = make_rig(factory, {"button": {"lockout": 0.0}, "servo": {"move_time": 0.2}})
    try:
        opened = threading.Event()
        bus = rig.recorder.bus
        record = bus.on_write
        bus.on_write = lambda channel: (record(channel), bus.pulse_width(channel) > 0.001 and opened.set())
        press(factory, config, rig)  # returns once the whole release is done; press again during the next one
        first = events.get(timeout=2)
        opened.clear()
        rig.test_clock.offset += 1.0
        pin = factory.pin(config.button.pin)
        pin.drive_low()
        pin.drive_high()
        assert opened.wait(2)  # the second die's gate is swinging open now
        pin.drive_low()  # an impatient press during the move
        pin.drive_high()
        rig.wait_idle()
        second = events.get(timeout=2)
        assert events.empty() and len(rig.pyramid.drawn) == 2 and first.die != second.die
        assert rig.core.releases == [first.die, second.die]
    finally:
        rig.close()


def test_the_state_file_is_replaced_whole_or_not_at_all(tmp_path, monkeypatch):
    from firmware_py import durable
    from firmware_py.rigstate import RigRecord

    store = StateFile(tmp_path / "state.json")
    store.save(RigRecord("2018", leg=2, sequence=7))
    before = (tmp_path / "state.json").read_text()

    def power_cut(*args):
        raise OSError("power cut")

    monkeypatch.setattr(durable.os, "replace", power_cut)
    with pytest.raises(OSError):
        store.save(RigRecord("2018", leg=3, sequence=8))
    assert (tmp_path / "state.json").read_text() == before  # the old state, whole
    assert store.load("2018", [d.name for d in parse_config({}).dice]).leg == 2
