"""The built-in bots that look no further than the current leg and the race odds: ``random``, ``greedy`` and
``strong`` (the ``expert``, which also looks at the next player, lives in :mod:`companion.sim.expert`)."""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.odds.leg import LegOdds, draws_left_in_leg, exact_leg_odds, leg_ticket_evs, sampled_leg_odds
from companion.odds.race import RaceOdds, finish_card_evs, race_odds
from companion.rules import FinishBet, GameState, LegalActions, LegBet, PlaceTile
from companion.sim.contract import DRAW, Choice


class RandomBot:
    """Takes a pyramid ticket half of the time, otherwise any other legal action uniformly."""

    name = "random"

    def choose(self, view: GameState, legal: LegalActions, rng: random.Random) -> Choice:
        others = list(legal.other_than_pyramid())
        if legal.dice and (not others or rng.random() < 0.5):
            return DRAW
        return rng.choice(others)


class GreedyBot:
    """Takes whatever pays most in expectation right now: the best top leg ticket, a tile where moves are
    likely to end, or a pyramid ticket (1 EP for sure).

    It is short-sighted on purpose, and fast: with more than ``exact_from_draws_left`` draws left in the leg
    it judges the leg as if it ended after the next draw (exact over that one draw), which is exact for the
    leg's last draw. Odds are kept until the next die comes out.
    """

    name = "greedy"
    exact_from_draws_left = 1
    samples = 0
    """Sampled legs for the odds early in a leg; 0 looks one draw ahead instead."""

    def __init__(self, shared: dict[object, object] | None = None) -> None:
        # Bots at one table may share what they computed about the board: it is public.
        self._cache: dict[object, object] = shared if shared is not None else {}

    def _about_board(self, kind: str, view: GameState, compute: Callable[[], object]) -> object:
        """``compute()`` once per board (track, dice inside, tiles) and kind of bot: until a die comes out,
        every decision at the table looks at the same board."""
        key = (kind, type(self).__name__, view.track, view.dice_in_pyramid(), view.tiles)
        value = self._cache.get(key)
        if value is None:
            if len(self._cache) > 256:
                self._cache.clear()
            value = self._cache[key] = compute()
        return value

    def leg_odds(self, view: GameState, rng: random.Random) -> LegOdds:
        def compute() -> LegOdds:
            if draws_left_in_leg(view) <= self.exact_from_draws_left:
                return exact_leg_odds(view)
            if self.samples:
                return sampled_leg_odds(view, self.samples, rng)
            return exact_leg_odds(view, horizon=1)

        return self._about_board("leg", view, compute)  # type: ignore[return-value]

    def options(self, view: GameState, legal: LegalActions, rng: random.Random) -> list[tuple[float, Choice]]:
        """Every choice this bot considers, with its expected value."""
        player = legal.player
        assert player is not None
        odds = self.leg_odds(view, rng)
        options: list[tuple[float, Choice]] = []
        if legal.dice:
            options.append((float(view.edition.pyramid_ticket_reward), DRAW))
        evs = leg_ticket_evs(view, odds)
        for camel in legal.leg_bets:
            ev = evs[camel]
            if ev is not None:
                options.append((ev, LegBet(player, camel)))
        # A tile earns about as often as moves end on its space. Only the best spots are offered, and the
        # (slower) list of legal spots is only worked out when a tile could beat everything else.
        tile_reward = view.edition.tile_reward
        landings = odds.space_landings
        best_so_far = max((value for value, _ in options), default=0.0)
        if landings and max(landings.values()) * tile_reward >= best_so_far:
            spots = [(landings.get(space, 0.0) * tile_reward, space, side) for space, side in legal.tile_spots]
            if spots:
                top = max(value for value, _, _ in spots)
                options += [(value, PlaceTile(player, space, side)) for value, space, side in spots if value == top]
        return options

    def choose(self, view: GameState, legal: LegalActions, rng: random.Random) -> Choice:
        options = self.options(view, legal, rng)
        if not options:
            return next(iter(legal))
        best = max(value for value, _ in options)
        # Ties (e.g. two tile sides) are broken at random so bots do not always pick the same one.
        return rng.choice([choice for value, choice in options if value >= best - 1e-9])


class StrongBot(GreedyBot):
    """Greedy, with more careful leg odds, and race odds for its finish cards: it plays a card when its
    expected value beats everything else this turn."""

    name = "strong"
    exact_from_draws_left = 3
    samples = 120
    rollouts = 300

    def race_odds(self, view: GameState, rng: random.Random) -> RaceOdds:
        compute = lambda: race_odds(view, self.rollouts, seed=rng.randrange(2**32))  # noqa: E731
        return self._about_board("race", view, compute)  # type: ignore[return-value]

    def options(self, view: GameState, legal: LegalActions, rng: random.Random) -> list[tuple[float, Choice]]:
        options = super().options(view, legal, rng)
        player = legal.player
        assert player is not None
        if legal.finish_cards:
            card_evs = finish_card_evs(view, player, self.race_odds(view, rng))
            for camel, piles in card_evs.items():
                for pile, ev in piles.items():
                    options.append((ev, FinishBet(player, pile, camel)))
        return options
