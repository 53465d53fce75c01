"""The pyramid rig: a button press draws a die, the LED shows it, the servo releases it.

Button callbacks (gpiozero's threads) only put a timestamped message on a queue; one worker thread does
all the work, so a slow subscriber or a second press can never run a draw twice at once.

Debouncing is done here, in software: a press while a draw is in progress, or within ``button.lockout``
seconds after it finished, is ignored. Holding the button shows the last result again; once the leg is
over, holding it for ``button.refill_hold_time`` refills the pyramid.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable

from firmware_py.config import RigConfig
from firmware_py.hardware import GpioButton, GpioRgbLed, GpioServo, Indicator, Release, Trigger
from firmware_py.patterns import ERROR_PATTERN, LEG_OVER_PATTERN, READY_PATTERN, Pattern, die_pattern
from firmware_py.pyramid import Draw, Pyramid, PyramidError


class PyramidRig:
    def __init__(
        self,
        pyramid: Pyramid,
        config: RigConfig,
        led: Indicator,
        servo: Release,
        button: Trigger,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.pyramid = pyramid
        self.config = config
        self.led = led
        self.servo = servo
        self.button = button
        self._clock = clock
        self._sleep = sleep
        self._inbox: queue.Queue[tuple[str, float]] = queue.Queue()
        self._quiet_until = float("-inf")
        self._refilled_this_hold = False
        self.ignored_presses = 0
        self.last_error: str | None = None
        self._marks: queue.Queue[threading.Event] = queue.Queue()
        button.on_press(lambda: self._inbox.put(("press", self._clock())))
        button.on_hold(lambda held: self._inbox.put(("hold", held)))
        self._worker = threading.Thread(target=self._run, name="pyramid-rig", daemon=True)
        self._worker.start()
        self.led.play(READY_PATTERN)

    @classmethod
    def build(cls, pyramid: Pyramid, config: RigConfig, factory: object) -> PyramidRig:
        """A rig with gpiozero parts on ``factory`` (real pins or gpiozero's mock pins)."""
        return cls(
            pyramid,
            config,
            GpioRgbLed(config.led, factory),  # type: ignore[arg-type]
            GpioServo(config.servo, factory),  # type: ignore[arg-type]
            GpioButton(config.button, factory),  # type: ignore[arg-type]
        )

    # -- called from any thread ---------------------------------------------------------------------------
    def press(self) -> None:
        """Draw on request (a keyboard key, a web page). A deliberate request is not debounced, but like the
        button it waits for a draw in progress to finish."""
        self._inbox.put(("request", self._clock()))

    def refill(self) -> None:
        self._inbox.put(("refill", self._clock()))

    def undo(self) -> None:
        self._inbox.put(("undo", self._clock()))

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until every message so far has been handled (for tests and the simulate command)."""
        done = threading.Event()
        self._inbox.put(("mark", 0.0))
        self._marks.put(done)
        return done.wait(timeout)

    def close(self) -> None:
        self._inbox.put(("stop", 0.0))
        self._worker.join(timeout=5)
        for part in (self.button, self.servo, self.led):
            part.close()

    # -- the worker ---------------------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            kind, value = self._inbox.get()
            try:
                if kind == "stop":
                    return
                if kind == "press":
                    self._on_press(value)
                elif kind == "request":
                    self._on_press(value, debounce=False)
                elif kind == "hold":
                    self._on_hold(value)
                elif kind == "refill":
                    self._refill()
                elif kind == "undo":
                    self._undo()
                elif kind == "mark":
                    self._marks.get().set()
            except Exception as error:  # the rig must keep running: show the error and go on
                self.last_error = str(error)
                self.led.play(ERROR_PATTERN)

    def _on_press(self, pressed_at: float, debounce: bool = True) -> None:
        if debounce and pressed_at < self._quiet_until:
            self.ignored_presses += 1
            return
        self._refilled_this_hold = False
        if self.pyramid.leg_over:
            self.led.play(LEG_OVER_PATTERN)
            self._quiet_until = self._clock() + self.config.button.lockout
            return
        draw = self.pyramid.draw()
        self.led.play(self._pattern(draw))
        self._release(draw.die)
        self._quiet_until = self._clock() + self.config.button.lockout

    def _pattern(self, draw: Draw) -> Pattern:
        return die_pattern(self.pyramid.die(draw.die), draw.value, draw.crazy, self.config.led)

    def _release(self, die: str) -> None:
        servo = self.config.servo
        if servo.mode == "gate":
            self.servo.move_to(servo.open_angle)
            self._sleep(servo.move_time)
            self.servo.move_to(servo.closed_angle)
        else:
            self.servo.move_to(servo.angles[die])
        self._sleep(servo.move_time)
        self.servo.detach()

    def _on_hold(self, held_for: float) -> None:
        if self.pyramid.leg_over and held_for >= self.config.button.refill_hold_time:
            if not self._refilled_this_hold:
                self._refilled_this_hold = True
                self._refill()
            return
        last = self.pyramid.last
        if last is not None:
            self.led.play(self._pattern(last))
        elif self.pyramid.leg_over:
            self.led.play(LEG_OVER_PATTERN)

    def _refill(self) -> None:
        self.pyramid.refill()
        self.led.play(READY_PATTERN)

    def _undo(self) -> None:
        try:
            self.pyramid.undo()
        except PyramidError as error:
            self.last_error = str(error)
            self.led.play(ERROR_PATTERN)
            return
        last = self.pyramid.last
        self.led.play(self._pattern(last) if last else READY_PATTERN)
