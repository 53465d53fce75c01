"""The Camel Up rules engine: pure (no I/O, no clock, no randomness), standard library only except
:mod:`companion.rules.batch`, the move rule over numpy arrays of boards for exact odds.

Typical use::

    from companion.rules import EDITIONS, new_game, apply, legal_actions, LegBet, PyramidTicket

    state = new_game(EDITIONS["2018"], ["Ann", "Bob"], {1: ("green", "red"), 2: ("yellow",), ...})
    state = apply(state, LegBet("Ann", "red"))
    state = apply(state, PyramidTicket("Bob", "red", 2))   # the dice come in as inputs
    legal_actions(state)                                   # what Ann may do now
"""

from companion.rules.actions import PILES, Action, FinishBet, LegBet, Partnership, PlaceTile, PyramidTicket
from companion.rules.editions import EDITION_2014, EDITION_2018, EDITIONS, GREY_DIE, Edition
from companion.rules.engine import LegalActions, apply, check, is_legal, legal_actions
from companion.rules.errors import (
    DieNotInPyramidError,
    FinishCardError,
    InvalidActionError,
    NoTicketLeftError,
    NotYourTurnError,
    PartnershipError,
    RaceOverError,
    RuleError,
    TilePlacementError,
)
from companion.rules.scoring import (
    CardPayout,
    FinishCard,
    LegScoring,
    LegTicket,
    PlayerLegScore,
    RaceScoring,
    Reward,
    score_leg,
    score_race,
)
from companion.rules.state import GameState, Roll, new_game
from companion.rules.track import Movement, Tile, Track, crazy_camel_to_move, move_camel
from companion.rules.view import HIDDEN, view_for

__all__ = [
    "EDITIONS",
    "EDITION_2014",
    "EDITION_2018",
    "GREY_DIE",
    "HIDDEN",
    "PILES",
    "Action",
    "CardPayout",
    "DieNotInPyramidError",
    "Edition",
    "FinishBet",
    "FinishCard",
    "FinishCardError",
    "GameState",
    "InvalidActionError",
    "LegBet",
    "LegScoring",
    "LegTicket",
    "LegalActions",
    "Movement",
    "NoTicketLeftError",
    "NotYourTurnError",
    "Partnership",
    "PartnershipError",
    "PlaceTile",
    "PlayerLegScore",
    "PyramidTicket",
    "RaceOverError",
    "RaceScoring",
    "Reward",
    "Roll",
    "RuleError",
    "Tile",
    "TilePlacementError",
    "Track",
    "apply",
    "check",
    "crazy_camel_to_move",
    "is_legal",
    "legal_actions",
    "move_camel",
    "new_game",
    "score_leg",
    "score_race",
    "view_for",
]
