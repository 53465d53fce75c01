"""The rig's parts behind small interfaces, each implemented with gpiozero.

Simulation happens at the lowest level, as in gpiozero's own tests: the same classes run on
``MockFactory(pin_class=MockPWMPin)``, whose pins tests can press (``pin.drive_low()``) and read
(``pin.state`` is an LED channel's duty cycle). The gate servos are on a PCA9685: see :mod:`firmware_py.servos`.
The pin factory is always passed in explicitly; nothing here touches gpiozero's global default.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from gpiozero import RGBLED, Button
from gpiozero.pins import Factory

from firmware_py.config import ButtonConfig, LedConfig
from firmware_py.patterns import OFF, Pattern


class FactoryError(RuntimeError):
    """The requested pin factory cannot be used here; the message says what to install or set. ``module`` names
    the missing Python module, when that is the reason."""

    def __init__(self, message: str, module: str | None = None) -> None:
        super().__init__(message)
        self.module = module


APT_PACKAGES = {"lgpio": "python3-lgpio", "rpigpio": "python3-rpi.gpio"}
"""Raspberry Pi OS's package of each pin factory's Python module."""


def running_on_raspberry_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text(errors="ignore").lower()
    except OSError:
        return False


def make_pin_factory(name: str = "auto", simulate: bool = False) -> tuple[Factory, str]:
    """The pin factory to use and its name.

    ``simulate`` forces gpiozero's mock pins. ``"auto"`` takes ``GPIOZERO_PIN_FACTORY`` if it is set, lgpio
    on a Raspberry Pi (fine on a Pi 5 and older ones), and mock pins anywhere else.
    """
    if simulate:
        name = "mock"
    elif name == "auto":
        name = os.environ.get("GPIOZERO_PIN_FACTORY", "").lower() or (
            "lgpio" if running_on_raspberry_pi() else "mock"
        )
    if name == "mock":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        return MockFactory(pin_class=MockPWMPin), "mock"
    try:
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory(), "lgpio"
        if name == "rpigpio":
            from gpiozero.pins.rpigpio import RPiGPIOFactory

            return RPiGPIOFactory(), "rpigpio"
    except ImportError as error:
        raise FactoryError(
            f"the {name} pin factory needs its Python module ({error.name}): on a Raspberry Pi run "
            f"'sudo apt install {APT_PACKAGES.get(name, name)}' (deploy/install.sh does), or in a checkout "
            "'make pi-extras' (the [pi] extra: lgpio, gpiod), or use --simulate",
            module=name,
        ) from None
    except Exception as error:  # the backends raise their own errors off a Pi
        raise FactoryError(f"the {name} pin factory cannot start here ({error}); use --simulate") from None
    raise FactoryError(f"unknown pin factory {name!r} (auto, lgpio, rpigpio or mock)")


# -- interfaces -----------------------------------------------------------------------------------------


class Indicator(Protocol):
    def play(self, pattern: Pattern) -> None: ...
    def close(self) -> None: ...


class Trigger(Protocol):
    def on_press(self, callback: Callable[[], None]) -> None: ...
    def on_release(self, callback: Callable[[], None]) -> None: ...
    def close(self) -> None: ...


# -- gpiozero implementations ---------------------------------------------------------------------------


class GpioRgbLed:
    """An RGB LED on three PWM pins. The first step of a pattern is shown at once, in the caller's thread
    (so a press lights the die's colour without waiting); the rest plays on a background thread that the
    next pattern cancels."""

    def __init__(self, config: LedConfig, factory: Factory) -> None:
        self.led = RGBLED(config.red, config.green, config.blue, active_high=config.active_high, pin_factory=factory)
        self._cancel = threading.Event()
        self._player: threading.Thread | None = None
        self.current: Pattern | None = None

    def play(self, pattern: Pattern) -> None:
        self._stop_player()
        self.current = pattern
        self.led.color = pattern.first_colour
        if len(pattern.steps) == 1 and pattern.then is not None:
            self.led.color = pattern.then
            return
        self._cancel = threading.Event()
        self._player = threading.Thread(target=self._run, args=(pattern, self._cancel), daemon=True)
        self._player.start()

    def _run(self, pattern: Pattern, cancel: threading.Event) -> None:
        first = True
        while True:
            for colour, seconds in pattern.steps:
                if not first:
                    self.led.color = colour
                first = False
                if cancel.wait(seconds):
                    return
            if pattern.then is not None:
                self.led.color = pattern.then
                return

    def wait(self, timeout: float | None = None) -> None:
        """Wait until the current pattern has played to its end (a repeating one never does)."""
        player = self._player
        if player is not None:
            player.join(timeout)

    def _stop_player(self) -> None:
        self._cancel.set()
        if self._player is not None and self._player is not threading.current_thread():
            self._player.join(timeout=1)
        self._player = None

    def close(self) -> None:
        self._stop_player()
        self.led.color = OFF
        self.led.close()


class GpioButton:
    """A push button between the pin and ground (``pull_up``) or 3.3 V. Debouncing and hold times are the
    rig's job, from these two edges and its own clock: mock pins ignore ``bounce_time``, the real backends
    treat it differently, and gpiozero's ``held_time`` counts from the first ``when_held``, not the press."""

    def __init__(self, config: ButtonConfig, factory: Factory) -> None:
        self.button = Button(config.pin, pull_up=config.pull_up, bounce_time=None, pin_factory=factory)

    def on_press(self, callback: Callable[[], None]) -> None:
        self.button.when_pressed = lambda: callback()

    def on_release(self, callback: Callable[[], None]) -> None:
        self.button.when_released = lambda: callback()

    def close(self) -> None:
        self.button.close()
