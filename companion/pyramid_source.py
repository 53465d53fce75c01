"""The electronic pyramid as the companion's dice source: the rig draws, lights and releases the die, and
the companion records it. ``firmware_py`` knows nothing of the companion; this adapter composes them."""

from __future__ import annotations

import queue
import random
import threading
from collections.abc import Callable

from companion.dice import CRAZY_START_SPACE
from companion.rules import EDITIONS, GameState
from firmware_py.pyramid import Draw
from firmware_py.rig import PyramidRig


class RigPyramid:
    """A :class:`~companion.service.DiceSource` backed by a :class:`PyramidRig` (real or mock pins)."""

    name = "gpio"

    def __init__(self, rig: PyramidRig, timeout: float = 5.0) -> None:
        self.rig = rig
        self.timeout = timeout
        self._events = rig.pyramid.subscribe()
        self._lock = threading.Lock()
        self._requested = threading.Event()
        self._on_button: Callable[[Draw], None] | None = None
        self._button_draws: queue.Queue[Draw] = queue.Queue()
        threading.Thread(target=self._watch, name="pyramid-events", daemon=True).start()

    def sync(self, state: GameState) -> None:
        """Put the rig's pyramid in step with the game: the same dice out this leg."""
        self.rig.pyramid.set_out([roll.die for roll in state.dice_out])

    def roll(self, state: GameState) -> tuple[str, int, str | None]:
        """A draw requested from a phone: the rig draws, shows and releases it."""
        with self._lock:
            self.sync(state)
            self._requested.set()
            try:
                self.rig.press()
                draw = self._button_draws.get(timeout=self.timeout)
            finally:
                self._requested.clear()
        return draw.die, draw.value, draw.crazy

    def on_button(self, callback: Callable[[Draw], None]) -> None:
        """``callback(draw)`` for draws made by pressing the rig's own button."""
        self._on_button = callback

    def _watch(self) -> None:
        while True:
            event = self._events.get()
            if not isinstance(event, Draw):
                continue
            if self._requested.is_set():
                self._button_draws.put(event)
            elif self._on_button is not None:
                self._on_button(event)

    def setup(self, edition: str) -> dict[int, tuple[str, ...]]:
        """Starting positions rolled by the rig (every racing die, then the grey die twice)."""
        rules = EDITIONS[edition]
        track: dict[int, list[str]] = {}
        crazy = list(rules.crazy_camels)
        random.SystemRandom().shuffle(crazy)
        for die, value, _ in self.rig.pyramid.setup_roll():
            if die in rules.racing_camels:
                track.setdefault(value, []).append(die)
            else:
                track.setdefault(CRAZY_START_SPACE[value], []).append(crazy.pop())
        return {space: tuple(stack) for space, stack in track.items()}
