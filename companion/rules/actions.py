"""The actions a player can take on their turn, as small immutable values.

They mirror the action objects of the game log (``shared/spec/game-log.md``); ``companion.gamelog``
converts between the two.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LegBet:
    """Take the top leg ticket of ``camel``."""

    player: str
    camel: str


@dataclass(frozen=True, slots=True)
class PlaceTile:
    """Place (or move) your desert/spectator tile on ``space`` with ``side`` up."""

    player: str
    space: int
    side: str


@dataclass(frozen=True, slots=True)
class PyramidTicket:
    """Take a pyramid ticket; ``die`` came out of the pyramid showing ``value``.

    For the grey die ``crazy`` is the colour of its number (``"black"`` or ``"white"``); the engine decides
    which crazy camel actually moves.
    """

    player: str
    die: str
    value: int
    crazy: str | None = None


@dataclass(frozen=True, slots=True)
class FinishBet:
    """Play your finish card of ``camel`` face down onto the ``"winner"`` or ``"loser"`` pile."""

    player: str
    pile: str
    camel: str


@dataclass(frozen=True, slots=True)
class Partnership:
    """Enter into a betting partnership with ``partner`` (2018 edition, 6 or more players)."""

    player: str
    partner: str


Action = LegBet | PlaceTile | PyramidTicket | FinishBet | Partnership

PILES = ("winner", "loser")
