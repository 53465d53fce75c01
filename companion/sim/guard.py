"""Every bot's decisions go through a guard: it times them, counts what kind of action each was, and
turns a crash, a timeout or an illegal answer into a pyramid ticket, counted as a fault."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from companion.rules import Action, FinishBet, GameState, LegalActions, LegBet, Partnership, PlaceTile
from companion.sim.bots import DRAW, Bot, Choice
from companion.sim.protocol import AnswerError

KINDS = ("leg_bet", "tile", "pyramid", "finish_card", "partnership")
FAULTS = ("crash", "timeout", "illegal")


def kind_of(choice: Choice | Action) -> str:
    if choice is DRAW:
        return "pyramid"
    if isinstance(choice, LegBet):
        return "leg_bet"
    if isinstance(choice, PlaceTile):
        return "tile"
    if isinstance(choice, FinishBet):
        return "finish_card"
    if isinstance(choice, Partnership):
        return "partnership"
    return "pyramid"


@dataclass
class SeatRecord:
    """What one seat's bot did in one game: its actions by kind, its decision times, its faults."""

    actions: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    seconds: list[float] = field(default_factory=list)
    faults: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULTS, 0))
    fault_examples: dict[str, str] = field(default_factory=dict)
    """The first message of each kind of fault, to tell the bot's writer what went wrong."""

    def as_json(self) -> dict[str, Any]:
        return {"actions": self.actions, "seconds": self.seconds, "faults": self.faults,
                "fault_examples": self.fault_examples}


class GuardedBot:
    """``bot`` behind the guard. ``timeout`` (seconds) bounds one decision: a subprocess bot is stopped
    when it runs over; an in-process Python bot cannot be interrupted, so its late answer is discarded."""

    def __init__(self, bot: Bot, timeout: float = 5.0) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", type(bot).__name__)
        self.timeout = timeout
        self.record = SeatRecord()

    def _fault(self, kind: str, message: str) -> Choice:
        self.record.faults[kind] += 1
        self.record.fault_examples.setdefault(kind, message)
        self.record.actions["pyramid"] += 1
        return DRAW

    def choose(self, view: GameState, legal: LegalActions, rng: random.Random) -> Choice:
        start = time.perf_counter()
        try:
            choose_timed = getattr(self.bot, "choose_within", None)
            if choose_timed is not None:
                choice = choose_timed(view, legal, rng, self.timeout)
            else:
                choice = self.bot.choose(view, legal, rng)
        except AnswerError as error:
            self.record.seconds.append(time.perf_counter() - start)
            return self._fault("illegal", str(error))
        except TimeoutError as error:
            self.record.seconds.append(time.perf_counter() - start)
            return self._fault("timeout", str(error) or f"no answer within {self.timeout:g} s")
        except Exception as error:  # any failure of a bot is its fault, not the game's
            self.record.seconds.append(time.perf_counter() - start)
            return self._fault("crash", f"{type(error).__name__}: {error}")
        elapsed = time.perf_counter() - start
        self.record.seconds.append(elapsed)
        if choose_timed is None and elapsed > self.timeout:  # a program bot keeps its own time
            return self._fault("timeout", f"answered after {elapsed:.2f} s (limit {self.timeout:g} s)")
        if choice is not DRAW and choice not in legal:
            return self._fault("illegal", f"{choice!r} is not legal now")
        if choice is DRAW and not legal.dice:
            return self._fault("illegal", "no pyramid ticket can be taken now")
        self.record.actions[kind_of(choice)] += 1
        return choice

    def close(self) -> None:
        close = getattr(self.bot, "close", None)
        if close is not None:
            close()
