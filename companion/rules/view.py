"""What one player may see: the game with every other player's face-down finish cards hidden."""

from __future__ import annotations

from companion.rules.scoring import FinishCard
from companion.rules.state import GameState

HIDDEN = "?"
"""The camel shown for a face-down finish card that is not the viewer's own."""


def view_for(state: GameState, player: str | None) -> GameState:
    """``state`` as ``player`` may know it (``None``: as the table sees it). Until the race is over, other
    players' cards on the piles name :data:`HIDDEN` instead of their camel; their owners and order stay."""
    if state.game_over or all(card.owner == player for card in state.winner_pile + state.loser_pile):
        return state

    def mask(pile: tuple[FinishCard, ...]) -> tuple[FinishCard, ...]:
        return tuple(card if card.owner == player else FinishCard(card.owner, HIDDEN) for card in pile)

    return state.evolve(winner_pile=mask(state.winner_pile), loser_pile=mask(state.loser_pile))
