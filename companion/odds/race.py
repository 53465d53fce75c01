"""Race odds by seeded Monte Carlo: random draws until a unit crosses the finish line.

Each rollout finishes the leg in progress (with the tiles on the track), then plays whole legs (tiles go
back to their owners at a leg's end) until the race ends. Moves are the engine's own.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from companion.odds.leg import random_draw
from companion.rules import GameState


@dataclass(frozen=True)
class RaceOdds:
    win: dict[str, float]
    lose: dict[str, float]
    rollouts: int

    def interval(self, p: float) -> float:
        """Half-width of the 95% normal interval of a probability estimated from the rollouts."""
        if not self.rollouts:
            return 0.0
        return 1.96 * math.sqrt(max(p * (1 - p), 1e-12) / self.rollouts)


def rollout(state: GameState, rng: random.Random) -> tuple[str, str]:
    """Play random draws from ``state`` to the end of the race; return (winner, loser)."""
    edition = state.edition
    racing = edition.racing_camels
    length = edition.track_length
    all_dice = edition.dice
    board = state.track
    tiles = state.tiles_by_space()
    dice = list(state.dice_in_pyramid())
    draws_left = edition.draws_per_leg - len(state.dice_out)
    rand = rng.random
    while True:
        if draws_left == 0:
            dice = list(all_dice)
            draws_left = edition.draws_per_leg
            tiles = {}
        draws_left -= 1
        board, _, end = random_draw(board, dice, rand, edition, tiles)
        if end < 1 or end > length:
            order = board.ranking(racing)
            return order[0], order[-1]


def race_odds(state: GameState, rollouts: int, seed: int | None = None) -> RaceOdds:
    """P(win) and P(lose) of the race for every racing camel, from ``rollouts`` seeded rollouts."""
    racing = state.edition.racing_camels
    win = dict.fromkeys(racing, 0)
    lose = dict.fromkeys(racing, 0)
    if state.game_over:
        ranking = state.ranking()
        return RaceOdds(
            {c: float(c == ranking[0]) for c in racing}, {c: float(c == ranking[-1]) for c in racing}, 0
        )
    rng = random.Random(seed)
    for _ in range(rollouts):
        winner, loser = rollout(state, rng)
        win[winner] += 1
        lose[loser] += 1
    total = max(rollouts, 1)
    return RaceOdds({c: n / total for c, n in win.items()}, {c: n / total for c, n in lose.items()}, rollouts)


def _expected_payout(payouts: Sequence[int], others: int, q: float) -> float:
    """E[payout of a right card] when ``others`` earlier cards of other players are right each with
    probability ``q`` (so ours is the (1 + Binomial(others, q))-th right card)."""
    expected = 0.0
    for k in range(others + 1):
        chance = math.comb(others, k) * q**k * (1 - q) ** (others - k)
        expected += chance * payouts[min(k, len(payouts) - 1)]
    return expected


def finish_card_evs(state: GameState, player: str, odds: RaceOdds) -> dict[str, dict[str, float]]:
    """Expected coins of playing each finish card ``player`` still holds, now, on each pile.

    What the player can know: their own cards on the piles (none names the same camel: one card per camel)
    and how many cards the others have placed. Model: each of the others' earlier cards on a pile names a
    given camel with that camel's probability of being the pile's answer, as if they bet by the same odds.
    The floor at 0 EP for wrong cards is not taken into account.
    """
    edition = state.edition
    payouts = edition.finish_payouts
    evs: dict[str, dict[str, float]] = {}
    piles = {"winner": (state.winner_pile, odds.win), "loser": (state.loser_pile, odds.lose)}
    for camel in state.finish_cards_in_hand(player):
        evs[camel] = {}
        for pile_name, (pile, chances) in piles.items():
            others = sum(1 for card in pile if card.owner != player)
            p = chances[camel]
            right = _expected_payout(payouts, others, p)
            evs[camel][pile_name] = p * right + (1 - p) * edition.wrong_finish_card  # pragma: no mutate (x/-1 = x*-1)
    return evs
