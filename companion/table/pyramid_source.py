"""The electronic pyramid as the companion's dice source: the rig draws, lights and releases the die, and
the companion records it. ``firmware_py`` knows nothing of the companion; this adapter composes them.

The game is the authority on which dice are out: a press of the rig's button is released only once the game
has accepted it (:meth:`RigPyramid._authorize`), a draw asked for from a phone is picked here and released
when the game, having recorded it, syncs the rig (:meth:`RigPyramid.sync`, after every change, at start and
at every leg's end). When the rig cannot match the game by itself (a die to put back, a leg to refill) its
status carries a notice for the table screen."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from companion.rules import EDITIONS, GameState
from companion.sim.dice import CRAZY_START_SPACE
from firmware_py.pyramid import Draw, PyramidError
from firmware_py.rig import PyramidRig


class RigPyramid:
    """A :class:`~companion.table.service.DiceSource` backed by a :class:`PyramidRig` (real or mock pins)."""

    name = "gpio"

    def __init__(self, rig: PyramidRig) -> None:
        self.rig = rig
        self._on_button: Callable[[Draw], Any] | None = None
        rig.set_authorizer(self._authorize)

    def sync(self, state: GameState) -> None:
        """Make the rig agree with the game: the same leg, the same dice out (queued: never blocks)."""
        self.rig.reconcile(state.leg, [(roll.die, roll.value, roll.crazy) for roll in state.dice_out])

    def roll(self, state: GameState) -> tuple[str, int, str | None]:
        """A draw asked for from a phone: picked among the dice both the game and the rig hold. The rig
        releases it when the game, having stored it, syncs the rig.

        Raises:
            ApiError: 409 when the rig must first be refilled or have dice put back (its notice says which).
        """
        from companion.table.service import ApiError

        status = self.rig.status()
        if status["notice"] is not None:
            raise ApiError(409, status["notice"], "PyramidNotReady")
        if status["leg"] != state.leg:
            raise ApiError(409, "the pyramid is not in step with the game yet: try again in a moment",
                           "PyramidNotReady")
        try:
            draw = self.rig.pyramid.pick(among=state.dice_in_pyramid())
        except PyramidError as error:
            raise ApiError(409, f"the pyramid cannot draw: {error}", "PyramidNotReady") from None
        return draw.die, draw.value, draw.crazy

    def on_button(self, callback: Callable[[Draw], Any]) -> None:
        """``callback(draw)`` for presses of the rig's own button; a ``None`` result means the game refused
        the draw, and then nothing is released."""
        self._on_button = callback

    def on_status(self, callback: Callable[[], None]) -> None:
        """``callback()`` whenever the rig's state or notice changes."""
        self.rig.on_status(lambda status: callback())

    def status(self) -> dict[str, Any]:
        """What the table screen shows of the rig: its state and, when people must act, a notice (in English, and
        as catalog words the pages say in their language)."""
        status = self.rig.status()
        return {"state": status["state"], "notice": status["notice"], "notice_words": status["notice_words"],
                "put_back": status["put_back"]}

    def _authorize(self, draw: Draw) -> bool:
        if self._on_button is None:
            return True  # no game is listening: the rig works on its own
        return self._on_button(draw) is not None

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
