"""The subprocess bot protocol, ``camelup-bot/1``: one JSON line in, one JSON action out.

For every decision the engine writes one line to the bot's standard input::

    {"protocol": "camelup-bot/1", "you": "Ann", "seed": 123, "state": {...}, "legal": [...]}

``state`` is the game as the seat may know it (other players' finish cards on the piles read ``"?"``);
``legal`` lists every legal action as a game-log action object without ``player``, with a pyramid ticket
listed once as ``{"type": "pyramid"}`` (the dice are rolled by the engine, not chosen). The bot answers with
one line: one of the ``legal`` objects (``player`` may be added; it must then be the bot's own seat).
"""

from __future__ import annotations

import json
from typing import Any

from companion.gamelog import action_from_json, action_to_json
from companion.rules import GameState, LegalActions, PyramidTicket
from companion.sim.contract import DRAW, Choice

PROTOCOL = "camelup-bot/1"
PYRAMID = {"type": "pyramid"}


class AnswerError(ValueError):
    """A bot's answer that is not JSON, not an action, or not legal now."""


def view_to_json(view: GameState) -> dict[str, Any]:
    """The seat's view of the game as plain JSON data (see the README for every key)."""
    edition = view.edition
    you = view.current_player
    return {
        "edition": edition.name,
        "players": list(view.players),
        "money": view.money_by_player(),
        "leg": view.leg,
        "track": {str(space): list(stack) for space, stack in view.track},
        "ranking": list(view.ranking()),
        "tiles": [{"space": tile.space, "owner": tile.owner, "side": tile.side} for tile in view.tiles],
        "leg_tickets_left": {camel: list(left) for camel, left in view.tickets_left_by_camel().items()},
        "leg_tickets_taken": [{"camel": t.camel, "value": t.value, "owner": t.owner} for t in view.leg_tickets],
        "pyramid_tickets": list(view.pyramid_tickets),
        "dice_out": [{"die": r.die, "value": r.value, "camel": r.camel, "crazy": r.crazy} for r in view.dice_out],
        "dice_in_pyramid": list(view.dice_in_pyramid()),
        "draws_left_in_leg": edition.draws_per_leg - len(view.dice_out),
        "partnerships": [list(pair) for pair in view.partnerships],
        "winner_pile": [{"owner": card.owner, "camel": card.camel} for card in view.winner_pile],
        "loser_pile": [{"owner": card.owner, "camel": card.camel} for card in view.loser_pile],
        "finish_cards_in_hand": list(view.finish_cards_in_hand(you)) if you is not None else [],
        "rules": {
            "racing_camels": list(edition.racing_camels),
            "crazy_camels": list(edition.crazy_camels),
            "track_length": edition.track_length,
            "tile_sides": list(edition.tile_sides),
            "finish_payouts": list(edition.finish_payouts),
        },
    }


def legal_to_json(legal: LegalActions) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = [dict(PYRAMID)] if legal.dice else []
    for action in legal.other_than_pyramid():
        obj = action_to_json(action)
        del obj["player"]
        actions.append(obj)
    return actions


def request(view: GameState, legal: LegalActions, seed: int) -> str:
    """The line written to the bot for one decision (no newline). ``seed`` comes from the game's seeded bot
    stream: a bot that draws its random numbers from it plays the same game again on the same seed."""
    return json.dumps({"protocol": PROTOCOL, "you": legal.player, "seed": seed, "state": view_to_json(view),
                       "legal": legal_to_json(legal)}, separators=(",", ":"))


def parse_answer(line: str, legal: LegalActions) -> Choice:
    """The bot's answer as a choice.

    Raises:
        AnswerError: not JSON, not an action object, another player's, or not legal now.
    """
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as error:
        raise AnswerError(f"the answer is not JSON ({error.msg}): {line[:80]!r}") from None
    if not isinstance(obj, dict):
        raise AnswerError(f"the answer must be a JSON object, not {line[:80]!r}")
    player = obj.setdefault("player", legal.player)
    if player != legal.player:
        raise AnswerError(f"the answer is for {player!r}, but it is {legal.player}'s turn")
    if obj.get("type") == "pyramid":
        if not legal.dice:
            raise AnswerError("no pyramid ticket can be taken now")
        return DRAW
    try:
        action = action_from_json(obj)
    except ValueError as error:
        raise AnswerError(str(error)) from None
    if isinstance(action, PyramidTicket) or action not in legal:
        raise AnswerError(f"not a legal action now: {json.dumps(obj)}")
    return action
