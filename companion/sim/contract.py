"""What a bot is and what it returns, shared by every bot and by whoever runs the game: a bot sees the game as
its player may see it (:func:`companion.rules.view_for`) and returns one of the engine's legal actions, or
:data:`DRAW` for a pyramid ticket (the dice are not the bot's to choose; whoever runs the game rolls them)."""

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

    def choose(self, view: GameState, legal: LegalActions, rng: random.Random) -> Choice: ...
