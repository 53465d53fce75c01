"""The dice pyramid's logic: which dice are inside, fair draws, legs, undo, refill and the setup roll.

No hardware here: :class:`firmware_py.rig.PyramidRig` drives the button, LED and servo around it. Draws are
published to subscribers through queues, so no subscriber code runs on gpiozero's callback threads.
"""

from __future__ import annotations

import queue
import random
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Die:
    """One die of the pyramid. ``crazy_colours`` is non-empty for the grey die, whose numbers have a colour."""

    name: str
    led_colour: tuple[float, float, float]
    faces: tuple[int, ...] = (1, 2, 3)
    crazy_colours: tuple[str, ...] = ()


@dataclass(frozen=True)
class Draw:
    """A die out of the pyramid. Published to subscribers; ``as_json`` is what the commands print."""

    leg: int
    sequence: int
    die: str
    value: int
    crazy: str | None
    time: float

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {"leg": self.leg, "die": self.die, "value": self.value}
        if self.crazy is not None:
            out["crazy"] = self.crazy
        return out


@dataclass(frozen=True)
class Refilled:
    leg: int
    time: float


@dataclass(frozen=True)
class Undone:
    draw: Draw
    time: float


Event = Draw | Refilled | Undone


class PyramidError(RuntimeError):
    """The pyramid cannot do that now (the leg is over, nothing to undo)."""


class LegOverError(PyramidError):
    pass


def _default_colour(name: str) -> tuple[float, float, float]:
    return DEFAULT_LED_COLOURS[name]  # every preset die has its colour: no fallback that no die would use


DEFAULT_LED_COLOURS: dict[str, tuple[float, float, float]] = {
    "blue": (0.0, 0.0, 1.0),
    "green": (0.0, 1.0, 0.0),
    "orange": (1.0, 0.25, 0.0),
    "yellow": (1.0, 0.7, 0.0),
    "white": (1.0, 1.0, 1.0),
    "red": (1.0, 0.0, 0.0),
    "purple": (0.5, 0.0, 1.0),
    "grey": (0.25, 0.25, 0.25),
}

PRESETS: dict[str, tuple[Die, ...]] = {
    "2014": tuple(Die(name, _default_colour(name)) for name in ("blue", "green", "orange", "yellow", "white")),
    "2018": (
        *(Die(name, _default_colour(name)) for name in ("green", "yellow", "red", "blue", "purple")),
        Die("grey", _default_colour("grey"), crazy_colours=("white", "black")),
    ),
}
"""The dice of each edition's pyramid; the 2018 grey die's numbers are white or black."""


class Pyramid:
    """A pyramid of dice: draws pick uniformly among the dice still inside, then a face (and for the grey
    die a colour) uniformly.

    Real play uses :class:`secrets.SystemRandom`; a ``seed`` is for simulations and tests only.
    After ``draws_per_leg`` draws the leg is over and :meth:`draw` refuses until :meth:`refill`.
    """

    def __init__(
        self,
        dice: Sequence[Die],
        draws_per_leg: int = 5,
        seed: int | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if not dice:
            raise ValueError("a pyramid needs at least one die")
        if not 1 <= draws_per_leg <= len(dice):
            raise ValueError(f"draws_per_leg must be 1 to {len(dice)}, not {draws_per_leg}")
        self.dice = tuple(dice)
        self.draws_per_leg = draws_per_leg
        self._rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)
        self._clock = clock
        self._lock = threading.Lock()
        self._subscribers: list[queue.Queue[Event]] = []
        self.leg = 1
        self._sequence = 0
        self._out: list[Draw] = []

    # -- state ---------------------------------------------------------------------------------------------
    @property
    def inside(self) -> tuple[str, ...]:
        out = {draw.die for draw in self._out}
        return tuple(die.name for die in self.dice if die.name not in out)

    @property
    def drawn(self) -> tuple[Draw, ...]:
        """This leg's draws, in order."""
        return tuple(self._out)

    @property
    def leg_over(self) -> bool:
        return len(self._out) >= self.draws_per_leg

    @property
    def last(self) -> Draw | None:
        return self._out[-1] if self._out else None

    def die(self, name: str) -> Die:
        return next(die for die in self.dice if die.name == name)

    # -- events --------------------------------------------------------------------------------------------
    def subscribe(self) -> queue.Queue[Event]:
        """A queue that receives every later event (draws, undos, refills)."""
        events: queue.Queue[Event] = queue.Queue()
        self._subscribers.append(events)
        return events

    def _publish(self, event: Event) -> None:
        for events in self._subscribers:
            events.put(event)

    # -- actions -------------------------------------------------------------------------------------------
    def _roll(self, die: Die) -> tuple[int, str | None]:
        value = self._rng.choice(die.faces)
        crazy = self._rng.choice(die.crazy_colours) if die.crazy_colours else None
        return value, crazy

    @property
    def sequence(self) -> int:
        """How many draws this pyramid has made, over all legs (never goes back)."""
        return self._sequence

    def pick(self, among: Sequence[str] | None = None) -> Draw:
        """Choose a random die still inside (and in ``among`` if given) and roll it, without taking it out:
        :meth:`commit` does that once the draw is accepted.

        Raises:
            LegOverError: the leg's last die is already out; refill first.
            PyramidError: none of ``among`` is inside.
        """
        with self._lock:
            if self.leg_over:
                raise LegOverError(f"the leg is over ({self.draws_per_leg} dice are out): refill the pyramid")
            inside = [die for die in self.dice if die.name in self.inside and (among is None or die.name in among)]
            if not inside:
                raise PyramidError("none of those dice is inside the pyramid")
            die = self._rng.choice(inside)
            value, crazy = self._roll(die)
            return Draw(self.leg, self._sequence + 1, die.name, value, crazy, self._clock())

    def commit(self, draw: Draw) -> Draw:
        """Take ``draw``'s die out (a pick, or a draw the game made elsewhere); it gets the next sequence number.

        Raises:
            PyramidError: that die is already out, or the leg is over.
        """
        with self._lock:
            if self.leg_over:
                raise LegOverError(f"the leg is over ({self.draws_per_leg} dice are out): refill the pyramid")
            if draw.die not in self.inside:
                raise PyramidError(f"the {draw.die} die is not inside the pyramid")
            self._sequence += 1
            draw = Draw(self.leg, self._sequence, draw.die, draw.value, draw.crazy, draw.time)
            self._out.append(draw)
        self._publish(draw)
        return draw

    def draw(self) -> Draw:
        """Take one random die out of the pyramid.

        Raises:
            LegOverError: the leg's last die is already out; refill first.
        """
        return self.commit(self.pick())

    def restore(self, leg: int, sequence: int, out: Sequence[Draw]) -> None:
        """Set the leg, the sequence number and the dice out (a saved state, or the game's leg)."""
        with self._lock:
            self.leg = leg
            self._sequence = max(sequence, self._sequence)
            self._out = list(out)

    def take_back(self, die: str) -> Draw:
        """Put ``die`` (out this leg) back in, wherever it is in the order of draws.

        Raises:
            PyramidError: that die is not out.
        """
        with self._lock:
            found = next((draw for draw in self._out if draw.die == die), None)
            if found is None:
                raise PyramidError(f"the {die} die is not out of the pyramid")
            self._out.remove(found)
        self._publish(Undone(found, self._clock()))
        return found

    def undo(self) -> Draw:
        """Put the last die of this leg back in.

        Raises:
            PyramidError: no die is out this leg.
        """
        with self._lock:
            if not self._out:
                raise PyramidError("no die has come out this leg: nothing to undo")
            draw = self._out.pop()
        self._publish(Undone(draw, self._clock()))
        return draw

    def refill(self) -> None:
        """Put every die back and start the next leg (a refill before any draw keeps the leg number)."""
        with self._lock:
            if self._out:
                self.leg += 1
            self._out.clear()
        self._publish(Refilled(self.leg, self._clock()))

    def setup_roll(self) -> list[tuple[str, int, str | None]]:
        """The starting roll: every racing die once, then the grey die twice (where there is one).

        Returns ``(die, value, colour)`` in roll order; it does not change what is inside.
        """
        rolls = []
        for die in self.dice:
            for _ in range(2 if die.crazy_colours else 1):
                value, crazy = self._roll(die)
                rolls.append((die.name, value, crazy))
        return rolls
