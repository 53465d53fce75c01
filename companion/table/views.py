"""The JSON views of a game: what everyone at the table may see, and what each caller (a seat, the host, the
table screen) sees besides. Until the race is over no view but its owner's depends on which camel a face-down
finish card names."""

from __future__ import annotations

from typing import Any

from companion.gamelog import FORMAT, summary
from companion.rules import GameState, legal_actions, view_for
from companion.sim.narrate import describe_movement, movement_facts
from companion.table.live import Caller, LiveGame
from companion.table.page_facts import table_facts


def export_log(game: LiveGame) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "edition": game.row.edition,
        "players": game.row.players,
        "setup": game.row.setup,
        "actions": game.actions,
    }


def public_state_json(game: LiveGame, version: int, state: GameState) -> dict[str, Any]:
    """What everyone at the table may see. Until the race is over nothing here depends on which camel a
    face-down finish card names (only how many cards lie on each pile)."""
    out = summary(state)
    edition = state.edition
    out.update({
        "game_id": game.row.id,
        "version": version,
        "dice_mode": game.row.dice,
        "players": list(state.players),
        "characters": game.row.characters,
        "racing_camels": list(edition.racing_camels),
        "crazy_camels": list(edition.crazy_camels),
        "tile_sides": list(edition.tile_sides),
        "tickets_left": {camel: list(state.tickets_left(camel)) for camel in edition.racing_camels},
        "leg_tickets": [{"owner": t.owner, "camel": t.camel, "value": t.value} for t in state.leg_tickets],
        "pyramid_tickets": {p: state.pyramid_tickets.count(p) for p in state.players},
        "pyramid_tickets_left": state.pyramid_tickets_left(),
        "dice_out": [{"die": r.die, "value": r.value, "crazy": r.crazy, "camel": r.camel} for r in state.dice_out],
        "dice_in_pyramid": len(state.dice_in_pyramid()),
        "piles": {"winner": len(state.winner_pile), "loser": len(state.loser_pile)},
        "partnerships": [list(pair) for pair in state.partnerships],
        "last_move": describe_movement(state.last_movement, state.track) if state.last_movement else None,
        "last_movement": movement_facts(state.last_movement, state.track) if state.last_movement else None,
        "leg_scoring": _leg_scoring_json(state),
        "race_scoring": _race_scoring_json(state),
    })
    out.update(table_facts(game.row, game.entries[:version], state, out))  # the pages' extras (additive)
    return out


def viewer_json(state: GameState, caller: Caller) -> dict[str, Any]:
    """The caller's own part: a seat's finish cards, and what the caller may do now."""
    viewer = caller.player if caller.role == "seat" else None
    out: dict[str, Any] = {"you": None}
    if viewer is not None:
        view = view_for(state, viewer)
        out["you"] = {
            "player": viewer,
            "finish_cards": list(state.finish_cards_in_hand(viewer)),
            "played": [
                {"pile": pile, "camel": card.camel}
                for pile, cards in (("winner", view.winner_pile), ("loser", view.loser_pile))
                for card in cards
                if card.owner == viewer
            ],
        }
    acting = state.current_player
    if acting is not None and (caller.role == "host" or viewer == acting):
        legal = legal_actions(state)
        out["legal"] = {
            "player": acting,
            "leg_bets": [{"camel": c, "value": state.tickets_left(c)[0]} for c in legal.leg_bets],
            "tile_spots": [list(spot) for spot in legal.tile_spots],
            "dice": list(legal.dice),
            # The host (scorekeeper) must not see a player's hand: it only learns how many cards are left.
            "finish_cards": list(legal.finish_cards) if viewer == acting else len(legal.finish_cards),
            "partners": list(legal.partners),
        }
    return out


def _leg_scoring_json(state: GameState) -> dict[str, Any] | None:
    if not state.leg_scorings:
        return None
    scoring = state.leg_scorings[-1]
    return {
        "leg": scoring.leg,
        "ranking": list(scoring.ranking),
        "players": [
            {
                "player": score.player,
                "lines": [reward.describe() for reward in score.rewards],
                "amounts": [reward.amount for reward in score.rewards],
                "explain": score.explain(),
                "before": score.before,
                "after": score.after,
            }
            for score in scoring.scores
        ],
    }


def _race_scoring_json(state: GameState) -> dict[str, Any] | None:
    scoring = state.race_scoring
    if scoring is None:
        return None
    return {
        "winner": scoring.winner,
        "loser": scoring.loser,
        "cards": [
            {"pile": p.pile, "owner": p.owner, "camel": p.camel, "right": p.right, "amount": p.amount,
             "before": p.before, "after": p.after}
            for p in scoring.payouts
        ],
        "final_money": dict(scoring.final_money),
        "winners": list(scoring.winners),
    }
