"""Odds for players and bots: exact leg odds, race odds by Monte Carlo, and expected values.

Nothing here re-implements a rule: every move comes from the engine (``companion.rules``).
"""

from companion.odds.leg import (
    LegOdds,
    exact_leg_odds,
    leg_distribution,
    leg_ticket_evs,
    pyramid_ticket_ev,
    sampled_leg_odds,
    tile_ev_where_it_is,
    tile_evs,
)
from companion.odds.race import RaceOdds, finish_card_evs, race_odds
from companion.odds.report import odds_report, odds_table

__all__ = [
    "LegOdds",
    "RaceOdds",
    "exact_leg_odds",
    "finish_card_evs",
    "leg_distribution",
    "leg_ticket_evs",
    "odds_report",
    "odds_table",
    "pyramid_ticket_ev",
    "race_odds",
    "sampled_leg_odds",
    "tile_ev_where_it_is",
    "tile_evs",
]
