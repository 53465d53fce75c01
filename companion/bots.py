"""Bots: a bot sees the game as its player may see it and returns one of the engine's legal actions.

A bot that wants a pyramid ticket returns :data:`DRAW`; whoever runs the game rolls the dice (the dice
are not the bot's to choose).
"""

from __future__ import annotations

import random
from typing import Final, Protocol

from companion.rules import Action, GameState, LegalActions


class _Draw:
    def __repr__(self) -> str:
        return "DRAW"


DRAW: Final = _Draw()
"""What a bot returns to take a pyramid ticket and have the dice rolled."""

Choice = Action | _Draw


class Bot(Protocol):
    name: str

    def choose(self, state: GameState, legal: LegalActions, rng: random.Random) -> Choice: ...


class RandomBot:
    """Takes a pyramid ticket half of the time, otherwise any other legal action uniformly."""

    name = "random"

    def choose(self, state: GameState, legal: LegalActions, rng: random.Random) -> Choice:
        others = list(legal.other_than_pyramid())
        if legal.dice and (not others or rng.random() < 0.5):
            return DRAW
        return rng.choice(others)

