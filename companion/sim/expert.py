"""``expert``: a bot that prices every kind of action by its exact leg expected value, and the race and
partnership parts by race odds.

What it considers, each in coins it expects to gain:

- **a pyramid ticket**: +1, sure;
- **each top leg ticket**: its exact EV over every remaining draw of the leg (no sampling, no horizon);
- **its tile**: the exact EV of the best few spots (each its own enumeration, since the tile changes the
  moves) *net* of what its tile already on the track earns where it stands;
- **its finish cards**: P(right) × the payout it would get behind the cards already on the pile, minus
  P(wrong), from seeded race rollouts (300 per board);
- **a partnership** (2018, 6+ players): the partner's best ticket reward it would copy, from the leg odds.

Then it looks one turn ahead, at the **next player**: every coin that player can expect from their best
ticket or pyramid ticket after this choice counts against it (weighted 1/(players − 1), since that player is
one rival among the others). A leg ticket taken leaves only the next, lower one of that colour; a pyramid
ticket late in a leg shows the next player where the camels went (each roll of the dice valued exactly), which
is why handing them a sure ticket is expensive.

It takes the best; ties go to the pyramid ticket, then at random.
"""

from __future__ import annotations

import random

from companion.odds.leg import LegOdds, draws_left_in_leg, exact_leg_odds, leg_distribution, leg_ticket_evs
from companion.odds.race import RaceOdds, finish_card_evs, race_odds
from companion.rules import (
    GREY_DIE,
    FinishBet,
    GameState,
    LegalActions,
    LegBet,
    Partnership,
    PlaceTile,
    PyramidTicket,
    Tile,
    apply,
)
from companion.sim.contract import DRAW, Choice, _Draw
from companion.sim.simple_bots import GreedyBot


class ExpertBot(GreedyBot):
    name = "expert"
    rollouts = 300
    """Race rollouts for the finish cards (one run per board, shared at the table)."""
    tile_candidates = 4
    """Spots (space, side) valued exactly, chosen by where moves end now."""
    finish_margin = 0.3
    """A finish card must beat the best other option by this much: holding it keeps the choice open."""

    def leg_odds(self, view: GameState, rng: random.Random) -> LegOdds:
        return self._about_board("exact-leg", view, lambda: exact_leg_odds(view))  # type: ignore[return-value]

    def race_odds(self, view: GameState, rng: random.Random) -> RaceOdds:
        seed = rng.randrange(2**32)
        return self._about_board("race", view, lambda: race_odds(view, self.rollouts, seed))  # type: ignore[return-value]

    def tile_options(self, view: GameState, legal: LegalActions, odds: LegOdds, best_so_far: float
                     ) -> list[tuple[float, Choice]]:
        """Net EVs of the most promising tile spots, when a tile could beat ``best_so_far``."""
        player = legal.player
        assert player is not None
        edition = view.edition
        own = view.tile_of(player)
        kept = odds.tile_landings.get(own.space, 0.0) * edition.tile_reward if own is not None else 0.0
        landings = odds.space_landings
        spots = sorted(((landings.get(space, 0.0), space, side) for space, side in legal.tile_spots), reverse=True)
        # The ends of moves now are an upper-ish guide to a new tile's landings; +0.3 leaves room for the
        # moves the tile itself redirects.
        if not spots or spots[0][0] * edition.tile_reward - kept + 0.3 < best_so_far:
            return []
        others = {space: tile for space, tile in view.tiles_by_space().items() if tile.owner != player}
        options: list[tuple[float, Choice]] = []
        draws = draws_left_in_leg(view)
        for _, space, side in spots[: self.tile_candidates]:
            def compute(space: int = space, side: str = side) -> LegOdds:
                tiles = {**others, space: Tile(space, player, side)}
                return leg_distribution(view.track, tiles, view.dice_in_pyramid(), draws, edition, rank=False)

            placed = self._about_board(f"tile:{player}:{space}:{side}", view, compute)
            gross = placed.tile_landings.get(space, 0.0) * edition.tile_reward  # type: ignore[attr-defined]
            options.append((gross - kept, PlaceTile(player, space, side)))
        return options

    def partnership_value(self, view: GameState, partner: str, odds: LegOdds) -> float:
        """Expected best positive reward of ``partner``'s tickets this leg (what a partnership copies to us),
        taking the first and second places as the leg odds give them."""
        edition = view.edition
        tickets = [ticket for ticket in view.leg_tickets if ticket.owner == partner]
        if not tickets:
            return 0.0
        best_if_first = {}
        for ticket in tickets:
            best_if_first[ticket.camel] = max(best_if_first.get(ticket.camel, 0), ticket.value)
        p_first = sum(odds.first[camel] for camel in best_if_first)
        value = sum(odds.first[camel] * best for camel, best in best_if_first.items())
        p_second = min(1.0, sum(odds.second[camel] for camel in best_if_first))
        return value + (1.0 - p_first) * p_second * edition.second_place_reward

    def options(self, view: GameState, legal: LegalActions, rng: random.Random) -> list[tuple[float, Choice]]:
        player = legal.player
        assert player is not None
        odds = self.leg_odds(view, rng)
        options: list[tuple[float, Choice]] = []
        if legal.dice:
            options.append((float(view.edition.pyramid_ticket_reward), DRAW))
        for camel, ev in leg_ticket_evs(view, odds).items():
            if ev is not None and camel in legal.leg_bets:
                options.append((ev, LegBet(player, camel)))
        best = max((value for value, _ in options), default=0.0)
        options += self.tile_options(view, legal, odds, best)
        for partner in legal.partners:
            options.append((self.partnership_value(view, partner, odds), Partnership(player, partner)))
        if legal.finish_cards:
            best = max((value for value, _ in options), default=0.0)
            card_evs = finish_card_evs(view, player, self.race_odds(view, rng))
            for camel, piles in card_evs.items():
                for pile, ev in piles.items():
                    if ev > best + self.finish_margin:
                        options.append((ev - self.finish_margin, FinishBet(player, pile, camel)))
        return options

    lookahead_from_draws_left = 3
    """Value the rolls of a pyramid ticket for the next player when this many draws or fewer are left."""
    fresh_leg_value = 1.6
    """What the next player can expect from the first turn of a new leg (about a top 5 ticket's worth)."""
    candidates = 4
    """How many of its best options it looks ahead from."""

    def next_player_best(self, after: GameState) -> float:
        """The next player's best sure-or-ticket EV in ``after`` (tiles and finish cards left out: slower)."""
        if after.game_over:
            return 0.0
        odds = self._about_board("exact-leg", after, lambda: exact_leg_odds(after))
        evs = [ev for ev in leg_ticket_evs(after, odds).values() if ev is not None]  # type: ignore[arg-type]
        return max([float(after.edition.pyramid_ticket_reward), *evs])

    def after_draw(self, view: GameState, player: str) -> float | None:
        """Expected next player's best after a pyramid ticket, over every roll (None: too early in the leg)."""
        draws = draws_left_in_leg(view)
        if draws > self.lookahead_from_draws_left:
            return None  # taken as the board now: a lower bound (what the roll shows can only help them)
        if draws == 1:
            return self.fresh_leg_value
        edition = view.edition
        total = 0.0
        inside = view.dice_in_pyramid()
        for die in inside:
            colours = edition.crazy_camels if die == GREY_DIE else (None,)
            for value in edition.die_faces:
                for colour in colours:
                    p = 1 / (len(inside) * len(edition.die_faces) * len(colours))
                    after = apply(view, PyramidTicket(player, die, value, colour))
                    total += p * (self.fresh_leg_value if after.leg != view.leg else self.next_player_best(after))
        return total

    def choose(self, view: GameState, legal: LegalActions, rng: random.Random) -> Choice:
        options = self.options(view, legal, rng)
        if not options:
            return next(iter(legal))
        player = legal.player
        assert player is not None
        weight = 1 / (len(view.players) - 1)
        options.sort(key=lambda option: -option[0])
        if not any(choice is DRAW for _, choice in options[: self.candidates]):
            options = options[: self.candidates] + [option for option in options if option[1] is DRAW]
        scored = []
        for value, choice in options[: self.candidates + 1]:
            rival = self.after_draw(view, player) if choice is DRAW else None
            if rival is None:
                # A face-down card changes nothing for the next player: the board as it is now.
                rival = self.next_player_best(view if isinstance(choice, FinishBet | _Draw) else apply(view, choice))
            scored.append((value, rival, choice))
        ranked = [(value - weight * rival, choice) for value, rival, choice in scored]
        best = max(value for value, _ in ranked)
        top = [choice for value, choice in ranked if value >= best - 1e-9]
        return DRAW if DRAW in top else rng.choice(top)
