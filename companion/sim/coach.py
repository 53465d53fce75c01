"""The coach: what every decision of a game cost.

For each action of a game log, from what the acting player could know then (:func:`view_for`): the expected
value of what they did and of the best legal alternative, in coins.

- a pyramid ticket: +1, sure;
- a top leg ticket: exact EV over every remaining draw of the leg;
- a tile: exact EV net of the player's tile where it stands, for the spot taken and the most promising spots
  (ranked by where moves end now; each is its own enumeration, so not every spot is valued exactly);
- a finish card: P(right) × the payout behind the cards already on the pile − P(wrong), from seeded race
  rollouts, with a 95% interval;
- a partnership: the partner's expected best ticket reward this leg (an estimate from the leg odds).

A decision's **cost** is the best alternative's EV minus the EV of what was done. **Skill** is the sum of the
EVs of a player's choices; **luck** is the money they won beyond their start money minus that sum.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.gamelog import GameLog, action_from_json
from companion.odds.leg import LegOdds, draws_left_in_leg, exact_leg_odds, leg_distribution, leg_ticket_evs
from companion.odds.race import RaceOdds, finish_card_evs, race_odds
from companion.rules import (
    Action,
    FinishBet,
    GameState,
    LegalActions,
    LegBet,
    Partnership,
    PlaceTile,
    PyramidTicket,
    Tile,
    apply,
    legal_actions,
    view_for,
)
from companion.sim.expert import ExpertBot

TILE_CANDIDATES = 3


@dataclass(frozen=True)
class Option:
    what: str
    """The choice in words, e.g. ``the top blue leg ticket (5)``."""
    ev: float
    interval: float = 0.0
    """Half-width of the 95% interval of ``ev`` (0 when exact)."""
    choice: tuple[tuple[str, Any], ...] = ()
    """The choice as data, for pages that word it in their own language: ``type`` (``pyramid``, ``leg_bet``,
    ``spectator``, ``partnership``, ``finish_bet``) and its ``camel``, ``value``, ``space``, ``side``, ``partner``,
    ``pile``."""

    def as_json(self) -> dict[str, Any]:
        return {"what": self.what, "ev": self.ev, "ev_95": self.interval, "choice": dict(self.choice)}


@dataclass(frozen=True)
class Decision:
    index: int
    """1-based index of the action in the log."""
    player: str
    leg: int
    done: Option
    best: Option

    @property
    def cost(self) -> float:
        return max(0.0, self.best.ev - self.done.ev)

    def in_words(self) -> str:
        return (f"leg {self.leg}, action {self.index}: {self.player} took {self.done.what} ({self.done.ev:+.2f}); "
                f"{self.best.what} was worth {self.best.ev:+.2f}")

    def as_json(self) -> dict[str, Any]:
        return {"index": self.index, "player": self.player, "leg": self.leg, "done": self.done.as_json(),
                "best": self.best.as_json(), "cost": self.cost}


@dataclass
class PlayerReport:
    player: str
    decisions: list[Decision] = field(default_factory=list)
    start_money: int = 0
    final_money: int = 0

    @property
    def cost(self) -> float:
        return sum(decision.cost for decision in self.decisions)

    @property
    def skill(self) -> float:
        return sum(decision.done.ev for decision in self.decisions)

    @property
    def luck(self) -> float:
        return self.final_money - self.start_money - self.skill

    def worst(self, count: int = 3) -> list[Decision]:
        costly = [decision for decision in self.decisions if decision.cost > 1e-9]
        return sorted(costly, key=lambda decision: -decision.cost)[:count]

    def as_json(self) -> dict[str, Any]:
        return {"player": self.player, "decisions": len(self.decisions), "total_cost": self.cost,
                "ev_of_choices": self.skill, "luck": self.luck, "start_money": self.start_money,
                "final_money": self.final_money, "most_expensive": [d.in_words() for d in self.worst()]}


@dataclass
class CoachReport:
    edition: str
    rollouts: int
    seed: int
    players: dict[str, PlayerReport]

    def only(self, player: str) -> CoachReport:
        return CoachReport(self.edition, self.rollouts, self.seed, {player: self.players[player]})

    def as_json(self) -> dict[str, Any]:
        return {
            "format": "camelup-coach/1",
            "edition": self.edition,
            "rollouts": self.rollouts,
            "seed": self.seed,
            "players": {name: report.as_json() for name, report in self.players.items()},
            "decisions": sorted((d.as_json() for r in self.players.values() for d in r.decisions),
                                key=lambda d: d["index"]),
        }


class _Pricer:
    """Prices the options of a position, caching what depends only on the board (shared by every decision
    until a die comes out)."""

    def __init__(self, rollouts: int, seed: int) -> None:
        self.rollouts = rollouts
        self.seed = seed
        self._cache: dict[object, object] = {}
        self._partner = ExpertBot()

    def _cached(self, key: object, compute: Callable[[], object]) -> Any:
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def leg(self, view: GameState) -> LegOdds:
        return self._cached(("leg", view.track, view.dice_in_pyramid(), view.tiles), lambda: exact_leg_odds(view))

    def race(self, view: GameState) -> RaceOdds:
        key = ("race", view.leg, view.track, view.dice_in_pyramid(), view.tiles)
        # The seed is the game's seed and the board: the same log always gets the same figures.
        board_seed = random.Random(f"{self.seed}:{key}").randrange(2**32)
        return self._cached(key, lambda: race_odds(view, self.rollouts, board_seed))

    def tile(self, view: GameState, player: str, space: int, side: str) -> float:
        others = tuple(tile for tile in view.tiles if tile.owner != player)

        def compute() -> float:
            tiles = {tile.space: tile for tile in others} | {space: Tile(space, player, side)}
            odds = leg_distribution(view.track, tiles, view.dice_in_pyramid(), draws_left_in_leg(view),
                                    view.edition, rank=False)
            return odds.tile_landings.get(space, 0.0) * view.edition.tile_reward

        return self._cached(("tile", view.track, view.dice_in_pyramid(), others, space, side), compute)

    def options(self, view: GameState, legal: LegalActions, done: Action) -> tuple[Option, list[Option]]:
        """The option that was ``done`` and every option considered."""
        player = legal.player
        assert player is not None
        edition = view.edition
        odds = self.leg(view)
        priced: list[tuple[Option, object]] = []
        if legal.dice:
            priced.append((Option("a pyramid ticket", float(edition.pyramid_ticket_reward),
                                   choice=(("type", "pyramid"),)), "pyramid"))
        tickets = view.tickets_left_by_camel()
        for camel, ev in leg_ticket_evs(view, odds).items():
            if ev is not None and camel in legal.leg_bets:
                choice = (("type", "leg_bet"), ("camel", camel), ("value", tickets[camel][0]))
                priced.append((Option(f"the top {camel} leg ticket ({tickets[camel][0]})", ev, choice=choice),
                               LegBet(player, camel)))
        own = view.tile_of(player)
        kept = odds.tile_landings.get(own.space, 0.0) * edition.tile_reward if own is not None else 0.0
        spots = sorted(((odds.space_landings.get(space, 0.0), space, side) for space, side in legal.tile_spots),
                       reverse=True)
        chosen = [(space, side) for _, space, side in spots[:TILE_CANDIDATES]]
        if isinstance(done, PlaceTile) and (done.space, done.side) not in chosen:
            chosen.append((done.space, done.side))
        for space, side in chosen:
            net = self.tile(view, player, space, side) - kept
            choice = (("type", "spectator"), ("space", space), ("side", side))
            priced.append((Option(f"the tile on space {space} ({side})", net, choice=choice),
                           PlaceTile(player, space, side)))
        for partner in legal.partners:
            value = self._partner.partnership_value(view, partner, odds)
            choice = (("type", "partnership"), ("partner", partner))
            priced.append((Option(f"a partnership with {partner}", value, choice=choice), Partnership(player, partner)))
        if legal.finish_cards:
            race = self.race(view)
            payouts = edition.finish_payouts
            for camel, piles in finish_card_evs(view, player, race).items():
                for pile, ev in piles.items():
                    p = race.win[camel] if pile == "winner" else race.lose[camel]
                    spread = race.interval(p) * (payouts[0] - edition.wrong_finish_card)
                    choice = (("type", "finish_bet"), ("camel", camel), ("pile", pile))
                    priced.append((Option(f"the {camel} finish card on the {pile} pile", ev, spread, choice),
                                   FinishBet(player, pile, camel)))
        key = "pyramid" if isinstance(done, PyramidTicket) else done
        done_option = next(option for option, choice in priced if choice == key)
        return done_option, [option for option, _ in priced]


def analyse_log(log: GameLog, rollouts: int = 1000, seed: int = 1,
                progress: Callable[[int], None] | None = None) -> CoachReport:
    """Price every decision of ``log`` (a log that replays; see :meth:`GameLog.replay`)."""
    state = log.start()
    pricer = _Pricer(rollouts, seed)
    players = {player: PlayerReport(player, start_money=money) for player, money in state.money_by_player().items()}
    for index, obj in enumerate(log.actions, 1):
        action = action_from_json(obj)
        player = state.current_player
        if player is None:
            break
        view = view_for(state, player)
        done, options = pricer.options(view, legal_actions(view), action)
        best = max(options, key=lambda option: option.ev)
        players[player].decisions.append(Decision(index, player, state.leg, done, best))
        state = apply(state, action)
        if progress is not None:
            progress(index)
    for player, money in state.money_by_player().items():
        players[player].final_money = money
    return CoachReport(log.edition, rollouts, seed, players)


def coach_text(report: CoachReport) -> str:
    lines = [f"The coach ({report.edition} edition; finish cards from {report.rollouts} race rollouts, seed "
             f"{report.seed}). Cost = what the best choice was worth minus what the choice was worth, in coins."]
    for name, player in report.players.items():
        lines.append("")
        lines.append(f"{name}: {len(player.decisions)} decisions, total cost {player.cost:.2f}; EV of the choices "
                     f"{player.skill:+.2f}, money won {player.final_money - player.start_money:+d}, so luck "
                     f"{player.luck:+.2f}")
        for decision in player.decisions:
            mark = "" if decision.cost < 1e-9 else f"   cost {decision.cost:.2f}: {decision.best.what} "\
                f"{decision.best.ev:+.2f}{_pm(decision.best)}"
            lines.append(f"  {decision.index:3d} leg {decision.leg}: {decision.done.what} "
                         f"{decision.done.ev:+.2f}{_pm(decision.done)}{mark}")
        worst = player.worst()
        if worst:
            lines.append("  Most expensive:")
            lines += [f"    {decision.in_words()}" for decision in worst]
    return "\n".join(lines)


def _pm(option: Option) -> str:
    return f" ±{option.interval:.2f}" if option.interval > 0 and math.isfinite(option.interval) else ""
