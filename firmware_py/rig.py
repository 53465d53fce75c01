"""The pyramid rig: a button press draws a die, the LED shows it, the die's own gate releases it.

:class:`RigCore` decides everything from timestamped inputs (button edges, clock ticks, requests) on one
thread; :class:`PyramidRig` runs it on a worker thread fed by gpiozero's callbacks, so a second press can
never run a draw twice at once. Tests and the digital twin drive the core with a virtual clock.

Button rules (documented in hardware/README.md):
- a press draws when it starts, unless it comes within ``button.debounce`` of the button's last release
  (contact bounce, also after a long hold), during a draw, or within ``button.lockout`` after one;
- held ``hold_time`` (measured from the press, by the rig's clock): the last result is shown again;
- held ``refill_hold_time``: once the leg is over, or while dice must be put back, "all dice are back in".

The rig and the game agree: every state change is saved (:mod:`firmware_py.rigstate`) before a gate moves,
a release interrupted by a power cut is repeated at start (opening an empty chute's gate drops nothing), and
:meth:`RigCore.reconcile` makes the dice in the tray those the game has out: it releases what the game
has out and asks (LED, :meth:`RigCore.status`) for dice to be put back that the game has inside.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from firmware_py.config import RigConfig
from firmware_py.hardware import GpioButton, GpioRgbLed, Indicator
from firmware_py.patterns import (
    ERROR_PATTERN,
    LEG_OVER_PATTERN,
    READY_PATTERN,
    REFUSED_PATTERN,
    Pattern,
    die_pattern,
    put_back_pattern,
)
from firmware_py.pyramid import Draw, Pyramid, PyramidError
from firmware_py.rigstate import MemoryState, RigRecord, StateError, names_in_words
from firmware_py.servos import GateDriver


class StateStore(Protocol):
    def load(self, edition: str, dice: list[str]) -> RigRecord | None: ...
    def save(self, record: RigRecord) -> None: ...


Authorize = Callable[[Draw], bool]
"""Asked before a die is released: ``False`` (the game refuses it) means nothing is released."""


class RigCore:
    """The rig's decisions, on one thread. ``checkpoint(step)`` is called between the steps of a move (the
    digital twin cuts the power there)."""

    def __init__(
        self,
        pyramid: Pyramid,
        config: RigConfig,
        led: Indicator,
        gates: GateDriver,
        store: StateStore | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        checkpoint: Callable[[str], None] = lambda step: None,
    ) -> None:
        self.pyramid = pyramid
        self.config = config
        self.led = led
        self.gates = gates
        self.store: StateStore = store if store is not None else MemoryState()
        self.clock = clock
        self._sleep = sleep
        self._checkpoint = checkpoint
        self.authorize: Authorize | None = None
        self.on_status: Callable[[dict[str, Any]], None] | None = None
        self.releasing: str | None = None
        self.put_back: list[str] = []
        self.game: tuple[int, tuple[tuple[str, int, str | None], ...]] | None = None
        self.releases: list[str] = []
        """Every die whose gate this rig opened, in order (a repeated release counts again)."""
        self.ignored_presses = 0
        self.bounces = 0
        self.refused = 0
        self.last_error: str | None = None
        self.notice_error: str | None = None
        self._down = False
        self._down_since = 0.0
        self._last_release = float("-inf")
        self._quiet_until = float("-inf")
        self._hold_shown = False
        self._hold_done = False
        self._press_drew = False

    # -- start ----------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Load the saved state, close every gate, repeat a release a power cut interrupted, show the state."""
        names = [die.name for die in self.pyramid.dice]
        try:
            record = self.store.load(self.config.edition, names)
        except StateError as error:
            self.notice_error = f"the saved pyramid state was not used: {error}"
            record = None
        if record is not None:
            self.pyramid.restore(record.leg, record.sequence, record.out)
            self.put_back = [d for d in record.put_back if d in names]
            self.releasing = record.releasing
        servo = self.config.servo
        for die in servo.channels:  # one at a time: six servos starting together would dip the supply
            self.gates.set_angle(die, servo.closed_angles[die])
            self._wait(servo.move_time)
            self.gates.release(die)
        if self.releasing is not None:
            self._release(self.releasing)
        self._save()
        self._show_state(force=True)

    # -- inputs ---------------------------------------------------------------------------------------------
    def edge(self, pressed: bool, at: float) -> None:
        """The button went down (``pressed``) or up at ``at`` (the rig's clock)."""
        if not pressed:
            self._down = False
            self._last_release = at
            return
        if self._down:
            return
        self._down = True
        if at - self._last_release < self.config.button.debounce:
            # Contact bounce: the same press (or release) as before, so its hold keeps counting from its start.
            self.bounces += 1
            self.ignored_presses += 1
            return
        self._down_since = at
        self._hold_shown = self._hold_done = self._press_drew = False
        if at < self._quiet_until:
            self.ignored_presses += 1
            return
        self._press_drew = self.draw() is not None

    def next_deadline(self) -> float | None:
        """When :meth:`tick` next has something to do (a hold threshold), or ``None``."""
        if not self._down:
            return None
        button = self.config.button
        if not self._hold_shown:
            return self._down_since + button.hold_time
        if not self._hold_done:
            return self._down_since + button.refill_hold_time
        return None

    def tick(self, now: float) -> None:
        """Time passes: act on the button being held (measured from the press)."""
        if not self._down:
            return
        held = now - self._down_since + 1e-9  # (a + b) - a can be a hair under b
        button = self.config.button
        if held >= button.refill_hold_time and not self._hold_done:
            self._hold_done = self._hold_shown = True
            # Only a press that drew nothing may refill: holding on after the leg's last draw must not.
            if not self._press_drew and (self.put_back or self.pyramid.leg_over):
                self.all_back()
                return
        if held >= button.hold_time and not self._hold_shown:
            self._hold_shown = True
            if self.put_back:
                self._show_state(force=True)
            elif self.pyramid.last is not None:
                self.led.play(self._pattern(self.pyramid.last))

    def draw(self) -> Draw | None:
        """Draw a die and release it (a press, or a request from a key or page). Returns the draw, or ``None``
        when nothing may come out now (dice to put back, leg over, the game refused)."""
        try:
            if self.put_back:
                self._show_state(force=True)
                return None
            if self.pyramid.leg_over:
                self.led.play(LEG_OVER_PATTERN)
                return None
            draw = self.pyramid.pick()
            self._checkpoint("picked")
            if self.authorize is not None and not self.authorize(draw):
                self.refused += 1
                self.led.play(REFUSED_PATTERN)
                return None
            self._checkpoint("accepted")
            draw = self.pyramid.commit(draw)
            self.led.play(self._pattern(draw))
            self._release(draw.die)
            return draw
        finally:
            self._quiet_until = self.clock() + self.config.button.lockout

    def undo(self) -> Draw | None:
        """Take back this leg's last draw: its die lies in the tray and must be put back."""
        try:
            draw = self.pyramid.undo()
        except PyramidError as error:
            self.last_error = str(error)
            self.led.play(ERROR_PATTERN)
            return None
        self.put_back.append(draw.die)
        self._save()
        self._show_state(force=True)
        return draw

    def all_back(self) -> None:
        """Every die that should be inside is back (a refill at a leg's end, or dice put back as asked)."""
        if self.put_back:
            self.put_back = []
            if self.pyramid.leg_over:
                self.pyramid.refill()
        else:
            self.pyramid.refill()
        self._save()
        self._checkpoint("refilled")
        self._quiet_until = self.clock() + self.config.button.lockout
        self._reconcile()
        self._show_state(force=True)

    def reconcile(self, leg: int, out: Sequence[tuple[str, int, str | None]]) -> None:
        """The game is at ``leg`` with ``out`` (die, value, crazy colour) out of the pyramid: make the rig agree."""
        self.game = (leg, tuple(out))
        self._reconcile()

    # -- what the table screen shows ------------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        """``state`` (ready, leg over, put back), the dice inside and out, and a notice for people when they
        must act."""
        hold = f"{self.config.button.refill_hold_time:g}"
        notice: str | None = None
        # The notice as a message-catalog key and its params (the dice as colour ids and the seconds as a number, not
        # English words): the companion's pages say it in the players' language; ``notice`` stays English for the
        # rig's own CLI.
        words: dict[str, Any] | None = None
        if self.put_back:
            state = "put back"
            notice = (f"Put {names_in_words(self.put_back)} back into the pyramid, "
                      f"then hold its button {hold} s.")
            words = {"key": "rig.put_back_one" if len(self.put_back) == 1 else "rig.put_back",
                     "params": {"dice": list(self.put_back), "hold": self.config.button.refill_hold_time}}
        elif self.pyramid.leg_over:
            state = "leg over"
            notice = f"Leg over: put the dice back into the pyramid and hold its button {hold} s."
            words = {"key": "rig.leg_over", "params": {"hold": self.config.button.refill_hold_time}}
        else:
            state = "ready"
        return {
            "state": state,
            "notice": notice,
            "notice_words": words,
            "leg": self.pyramid.leg,
            "out": [d.die for d in self.pyramid.drawn],
            "put_back": list(self.put_back),
            "sequence": self.pyramid.sequence,
            "problem": self.notice_error,
        }

    def physical_tray(self) -> set[str]:
        """The dice the rig believes lie in the tray."""
        return {d.die for d in self.pyramid.drawn} | set(self.put_back)

    # -- inside ---------------------------------------------------------------------------------------------
    def _reconcile(self) -> None:
        if self.game is None:
            return
        leg, out = self.game
        wanted = [die for die, _, _ in out]
        pyramid = self.pyramid
        changed = False
        if pyramid.leg != leg:
            if pyramid.leg_over and leg == pyramid.leg + 1 and not wanted and not self.put_back:
                return  # the ordinary end of a leg: the LED says "leg over" until the dice are back
            if pyramid.drawn or self.put_back:
                # Dice of another leg lie in the tray: they all go back before this leg can match.
                self.put_back = list(dict.fromkeys([*self.put_back, *(d.die for d in pyramid.drawn)]))
                pyramid.restore(pyramid.leg, pyramid.sequence, [])
                self._save()
                self._show_state(force=True)
                return
            pyramid.restore(leg, pyramid.sequence, [])
            changed = True
        for draw in [d for d in pyramid.drawn if d.die not in wanted]:
            pyramid.take_back(draw.die)  # the game has it inside: it lies in the tray, so it must go back
            self.put_back.append(draw.die)
            changed = True
        have = {d.die for d in pyramid.drawn}
        for die, value, crazy in out:
            if die in have:
                continue
            draw = pyramid.commit(Draw(leg, 0, die, value, crazy, 0.0))
            changed = True
            if die in self.put_back:
                self.put_back.remove(die)  # it was waiting in the tray to go back: now the game has it out
                self._save()
            else:
                self._release(draw.die)
        if changed:
            self._save()
            self._show_state(force=bool(self.put_back))

    def _release(self, die: str) -> None:
        """Open the die's gate, let it fall, close the gate: saved first, so a power cut repeats it."""
        servo = self.config.servo
        self.releasing = die
        self._save()
        self._checkpoint("saved")
        self.releases.append(die)
        self.gates.set_angle(die, servo.open_angles[die])
        self._checkpoint("opening")
        self._wait(servo.move_time)
        self._checkpoint("open")
        self.gates.set_angle(die, servo.closed_angles[die])
        self._wait(servo.move_time)
        self.gates.release(die)
        self._checkpoint("closed")
        self.releasing = None
        self._save()

    def _wait(self, seconds: float) -> None:
        if seconds > 0:
            self._sleep(seconds)

    def _save(self) -> None:
        self.store.save(RigRecord(
            self.config.edition, self.pyramid.leg, self.pyramid.sequence, list(self.pyramid.drawn),
            self.releasing, list(self.put_back),
        ))
        if self.on_status is not None:
            self.on_status(self.status())

    def _pattern(self, draw: Draw) -> Pattern:
        return die_pattern(self.pyramid.die(draw.die), draw.value, draw.crazy, self.config.led)

    def _show_state(self, force: bool = False) -> None:
        if self.put_back:
            self.led.play(put_back_pattern(tuple(self.pyramid.die(d) for d in self.put_back)))
        elif self.pyramid.leg_over:
            self.led.play(LEG_OVER_PATTERN)
        elif force:
            last = self.pyramid.last
            self.led.play(self._pattern(last) if last else READY_PATTERN)


class PyramidRig:
    """The core on a worker thread: gpiozero's callbacks only queue timestamped messages."""

    def __init__(self, core: RigCore, button: Any, parts: Sequence[Any] = ()) -> None:
        self.core = core
        self.pyramid = core.pyramid
        self.config = core.config
        self.led = core.led
        self.gates = core.gates
        self.button = button
        self._parts = parts
        self._clock = core.clock
        self._inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._status_lock = threading.Lock()
        self._status = core.status()
        self._listeners: list[Callable[[dict[str, Any]], None]] = []
        core.on_status = self._publish_status
        button.on_press(lambda: self._inbox.put(("edge", (True, self._clock()))))
        button.on_release(lambda: self._inbox.put(("edge", (False, self._clock()))))
        started = threading.Event()
        self._worker = threading.Thread(target=self._run, args=(started,), name="pyramid-rig", daemon=True)
        self._worker.start()
        started.wait(10)

    @classmethod
    def build(
        cls,
        pyramid: Pyramid,
        config: RigConfig,
        factory: object,
        gates: GateDriver | None = None,
        store: StateStore | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> PyramidRig:
        """A rig with gpiozero's button and LED on ``factory`` (real or mock pins) and the gates (by default a
        simulated PCA9685 when the pins are mock ones, the real board otherwise)."""
        from firmware_py.servos import open_gates

        if gates is None:
            from gpiozero.pins.mock import MockFactory

            gates = open_gates(config.servo, simulate=isinstance(factory, MockFactory))
        led = GpioRgbLed(config.led, factory)  # type: ignore[arg-type]
        button = GpioButton(config.button, factory)  # type: ignore[arg-type]
        core = RigCore(pyramid, config, led, gates, store, clock=clock)
        return cls(core, button, (button, gates, led))

    # -- called from any thread -------------------------------------------------------------------------
    def press(self) -> None:
        """Draw on request (a keyboard key, a web page): not debounced, but after a draw in progress."""
        self._inbox.put(("draw", None))

    def refill(self) -> None:
        self._inbox.put(("all back", None))

    def undo(self) -> None:
        self._inbox.put(("undo", None))

    def reconcile(self, leg: int, out: Sequence[tuple[str, int, str | None]]) -> None:
        """Make the rig agree with the game (queued: never blocks, so it may be called under a game's lock)."""
        self._inbox.put(("reconcile", (leg, tuple(out))))

    def set_authorizer(self, authorize: Authorize | None) -> None:
        self._inbox.put(("authorize", authorize))

    def status(self) -> dict[str, Any]:
        with self._status_lock:
            return dict(self._status)

    def on_status(self, callback: Callable[[dict[str, Any]], None]) -> None:
        """``callback(status)`` after every change the rig saves (on the rig's thread: keep it short)."""
        self._listeners.append(callback)

    @property
    def ignored_presses(self) -> int:
        return self.core.ignored_presses

    @property
    def last_error(self) -> str | None:
        return self.core.last_error

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until every message so far has been handled (for tests and the simulate command)."""
        done = threading.Event()
        self._inbox.put(("mark", done))
        return done.wait(timeout)

    def close(self) -> None:
        self._inbox.put(("stop", None))
        self._worker.join(timeout=5)
        for part in self._parts:
            part.close()

    # -- the worker ---------------------------------------------------------------------------------------
    def _publish_status(self, status: dict[str, Any]) -> None:
        with self._status_lock:
            if status == self._status:
                return
            self._status = status
        for listener in list(self._listeners):
            listener(status)

    def _run(self, started: threading.Event) -> None:
        core = self.core
        try:
            core.start()
        except Exception as error:  # a broken board must not stop the button and LED from saying so
            core.last_error = str(error)
            core.led.play(ERROR_PATTERN)
        self._publish_status(core.status())
        started.set()
        while True:
            deadline = core.next_deadline()
            try:
                kind, value = self._inbox.get(timeout=None if deadline is None else max(0.0, deadline - self._clock()))
            except queue.Empty:
                core.tick(self._clock())
                continue
            try:
                if kind == "stop":
                    return
                if kind == "edge":
                    core.tick(value[1])  # a hold threshold passed before this edge counts first
                    core.edge(*value)
                elif kind == "draw":
                    core.draw()
                elif kind == "all back":
                    core.all_back()
                elif kind == "undo":
                    core.undo()
                elif kind == "reconcile":
                    core.reconcile(*value)
                elif kind == "authorize":
                    core.authorize = value
                elif kind == "mark":
                    value.set()
            except Exception as error:  # the rig must keep running: show the error and go on
                core.last_error = str(error)
                core.led.play(ERROR_PATTERN)
            self._publish_status(core.status())
