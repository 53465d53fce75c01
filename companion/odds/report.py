"""Everything ``camelup odds`` prints for a state: as JSON, and as a table a player can read."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from companion.odds.leg import (
    draws_left_in_leg,
    exact_leg_odds,
    leg_ticket_evs,
    pyramid_ticket_ev,
    tile_ev_where_it_is,
    tile_evs,
)
from companion.odds.race import finish_card_evs, race_odds
from companion.rules import GameState, view_for


def odds_report(
    state: GameState,
    rollouts: int = 10_000,
    seed: int | None = None,
    player: str | None = None,
    tiles: bool = True,
    progress: Callable[[list[tuple[int, str]]], Iterable[tuple[int, str]]] | None = None,
) -> dict[str, Any]:
    """The odds of ``state`` as plain data; :data:`NOTES` says what each number is.

    ``player`` (default: whoever's turn it is) is whose finish cards and tile are valued, from what that
    player may know. ``rollouts`` 0 skips the race odds. ``progress`` may wrap the tile spots being valued.
    """
    player = player or state.current_player
    leg = exact_leg_odds(state)
    racing = state.edition.racing_camels
    report: dict[str, Any] = {
        "leg": {camel: {"first": leg.first[camel], "second": leg.second[camel]} for camel in racing},
        "leg_ticket_ev": leg_ticket_evs(state, leg),
        "pyramid_ticket_ev": pyramid_ticket_ev(state),
        "race_ends_this_leg": leg.race_ends,
        "draws_left_in_leg": 0 if state.game_over else draws_left_in_leg(state),
        "player": player,
        "notes": NOTES,
    }
    if tiles and player is not None and not state.game_over:
        by_space: dict[str, dict[str, float]] = {}
        for (space, side), ev in tile_evs(state, player, progress).items():
            by_space.setdefault(str(space), {})[side] = ev
        report["tile_ev"] = by_space
        report["tile_ev_where_it_is"] = tile_ev_where_it_is(state, player)
    if rollouts:
        race = race_odds(state, rollouts, seed)
        report["race"] = {
            camel: {
                "win": race.win[camel],
                "lose": race.lose[camel],
                "win_95": race.interval(race.win[camel]),
                "lose_95": race.interval(race.lose[camel]),
            }
            for camel in racing
        }
        report["rollouts"] = rollouts
        if player is not None:
            report["finish_card_ev"] = finish_card_evs(view_for(state, player), player, race)
    return report


NOTES = {
    "leg": "exact probability that each racing camel is first / second when the leg in progress is scored",
    "leg_ticket_ev": "expected coins at the leg's scoring from taking that colour's top leg ticket now "
    "(printed value x P(first) + 1 x P(second) - 1 x P(neither)); null when none is left. Not counted: the leg's "
    "net is floored at 0 EP, and a partner (2018, 6+ players) may copy the reward",
    "pyramid_ticket_ev": "coins a pyramid ticket pays at the leg's scoring (sure)",
    "tile_ev": "expected coins the player gains this leg by putting their tile on that space and side: what it "
    "would earn there minus tile_ev_where_it_is (moving the tile gives that up)",
    "tile_ev_where_it_is": "expected coins the player's tile already on the track earns this leg if left there "
    "(0 when it is not on the track)",
    "race": "P(win) and P(lose) of the race per camel by seeded Monte Carlo; *_95 is the 95% half-interval",
    "finish_card_ev": "expected coins at the race's end from playing that finish card now on that pile, "
    "assuming each earlier hidden card of another player names the pile's answer with that camel's race odds. "
    "Not counted: a wrong card's -1 is floored at 0 EP",
    "race_ends_this_leg": "probability that a camel crosses the finish line before the leg ends",
}
"""What each key of the report means (also in ``--json`` output, under ``notes``)."""


def _pct(p: float) -> str:
    return f"{100 * p:5.1f}%"


def odds_table(report: dict[str, Any]) -> str:
    """The report as a table for the terminal."""
    lines = []
    left = report["draws_left_in_leg"]
    lines.append(f"Leg odds (exact, {left} draw{'s' if left != 1 else ''} left in the leg; "
                 f"race ends this leg: {_pct(report['race_ends_this_leg']).strip()})")
    race = report.get("race")
    header = f"{'camel':8} {'first':>7} {'second':>7} {'top ticket EV':>14}"
    if race:
        header += f"   {'race win':>15} {'race lose':>15}"
    lines.append(header)
    for camel, leg in report["leg"].items():
        ev = report["leg_ticket_ev"][camel]
        row = f"{camel:8} {_pct(leg['first']):>7} {_pct(leg['second']):>7} {'—' if ev is None else f'{ev:+.2f}':>14}"
        if race:
            r = race[camel]
            win = f"{_pct(r['win']).strip()} ± {100 * r['win_95']:.1f}"
            lose = f"{_pct(r['lose']).strip()} ± {100 * r['lose_95']:.1f}"
            row += f"   {win:>15} {lose:>15}"
        lines.append(row)
    lines.append(f"pyramid ticket EV: {report['pyramid_ticket_ev']:+.2f}")
    tiles = report.get("tile_ev")
    if tiles:
        best = sorted(((ev, int(space), side) for space, sides in tiles.items() for side, ev in sides.items()),
                      reverse=True)[:3]
        spots = ", ".join(f"space {space} {side} {ev:+.2f}" for ev, space, side in best)
        kept = report.get("tile_ev_where_it_is", 0.0)
        where = f" (net of the tile where it is now, worth {kept:+.2f} left there)" if kept else ""
        lines.append(f"best tile spots for {report['player']}{where}: {spots}")
    cards = report.get("finish_card_ev")
    if cards:
        parts = [
            f"{camel} (winner {piles['winner']:+.2f}, loser {piles['loser']:+.2f})" for camel, piles in cards.items()
        ]
        lines.append(f"{report['player']}'s finish cards: " + "; ".join(parts))
    if race:
        lines.append(f"(race odds from {report['rollouts']} rollouts; ± is the 95% interval)")
    lines.append("(EVs are coins before the floor at 0 EP; a partner's copied reward is not counted)")
    return "\n".join(lines)
