"""Game logs (``camelup-game-log/1``, see ``shared/spec/game-log.md``): load, validate, replay, export.

A game is its log: the setup plus every action in play order. The state is rebuilt by replaying it, so a
log that replays is a game the rules accept, action by action.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.rules import (
    EDITIONS,
    Action,
    FinishBet,
    GameState,
    InvalidActionError,
    LegBet,
    Partnership,
    PlaceTile,
    PyramidTicket,
    RuleError,
    apply,
    new_game,
)

FORMAT = "camelup-game-log/1"


class LogError(ValueError):
    """A log that breaks the format or a rule. ``action`` is the 1-based index of the first bad action,
    0 for a bad header or setup."""

    def __init__(self, message: str, action: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.action = action

    def as_json(self) -> dict[str, Any]:
        return {"error": self.message, "action": self.action}


@dataclass(frozen=True)
class GameLog:
    """A parsed, header-validated game log. Its actions are checked against the rules by :meth:`replay`."""

    edition: str
    players: tuple[str, ...]
    setup: dict[int, tuple[str, ...]]
    actions: tuple[Any, ...]
    """The raw action objects as they appear in the log."""

    def start(self) -> GameState:
        return new_game(EDITIONS[self.edition], self.players, self.setup)

    def replay(self) -> GameState:
        """The state after every action.

        Raises:
            LogError: naming the first action the format or the rules refuse.
        """
        return replay_actions(self.start(), self.actions)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "edition": self.edition,
            "players": list(self.players),
            "setup": {"track": {str(space): list(stack) for space, stack in sorted(self.setup.items())}},
            "actions": list(self.actions),
        }


# -- actions <-> JSON objects ---------------------------------------------------------------------------


def _field(obj: Mapping[str, Any], key: str, kind: type, what: str) -> Any:
    if key not in obj:
        raise InvalidActionError(f"a {what} action needs {key!r}")
    value = obj[key]
    if kind is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidActionError(f"{key!r} must be a whole number, not {json.dumps(value)}")
    elif not isinstance(value, kind):
        raise InvalidActionError(f"{key!r} must be a text, not {json.dumps(value)}")
    return value


def action_from_json(obj: object) -> Action:
    """Convert a log's action object to an action value, checking its shape (not the rules).

    Raises:
        InvalidActionError: not an object, unknown ``type``, a missing field or a field of the wrong type.
    """
    if not isinstance(obj, dict):
        raise InvalidActionError(f"an action must be a JSON object, not {json.dumps(obj)}")
    kind = obj.get("type")
    if kind not in ACTION_TYPES:
        raise InvalidActionError(
            f"unknown action type {json.dumps(kind)} (expected one of {', '.join(ACTION_TYPES)})"
        )
    player = _field(obj, "player", str, kind)
    if kind == "leg_bet":
        return LegBet(player, _field(obj, "camel", str, kind))
    if kind == "spectator":
        return PlaceTile(player, _field(obj, "space", int, kind), _field(obj, "side", str, kind))
    if kind == "pyramid":
        crazy = obj.get("crazy")
        if crazy is not None and not isinstance(crazy, str):
            raise InvalidActionError(f"'crazy' must be a text, not {json.dumps(crazy)}")
        return PyramidTicket(player, _field(obj, "die", str, kind), _field(obj, "value", int, kind), crazy)
    if kind == "finish_bet":
        return FinishBet(player, _field(obj, "pile", str, kind), _field(obj, "camel", str, kind))
    return Partnership(player, _field(obj, "with", str, kind))


def action_to_json(action: Action) -> dict[str, Any]:
    """The log's action object for ``action``."""
    if isinstance(action, LegBet):
        return {"player": action.player, "type": "leg_bet", "camel": action.camel}
    if isinstance(action, PlaceTile):
        return {"player": action.player, "type": "spectator", "space": action.space, "side": action.side}
    if isinstance(action, PyramidTicket):
        obj: dict[str, Any] = {"player": action.player, "type": "pyramid", "die": action.die, "value": action.value}
        if action.crazy is not None:
            obj["crazy"] = action.crazy
        return obj
    if isinstance(action, FinishBet):
        return {"player": action.player, "type": "finish_bet", "pile": action.pile, "camel": action.camel}
    return {"player": action.player, "type": "partnership", "with": action.partner}


ACTION_TYPES = ("leg_bet", "spectator", "pyramid", "finish_bet", "partnership")


# -- whole logs -----------------------------------------------------------------------------------------


def _parse_setup(setup: object) -> dict[int, tuple[str, ...]]:
    if not isinstance(setup, dict) or not isinstance(setup.get("track"), dict):
        raise LogError("'setup' must be an object with a 'track' object (space number to stack, bottom first)")
    track: dict[int, tuple[str, ...]] = {}
    for key, stack in setup["track"].items():
        # ASCII digits only, and few of them: int() of thousands of digits is refused by Python itself.
        if not (key.isascii() and key.isdigit() and len(key) <= 3 and str(int(key)) == key):
            raise LogError(f"setup track space {json.dumps(key)} must be a space number such as \"1\"")
        if not isinstance(stack, list) or not all(isinstance(camel, str) for camel in stack):
            raise LogError(f"setup track space {key} must list camel names, bottom first, not {json.dumps(stack)}")
        track[int(key)] = tuple(stack)
    return track


def parse_log(data: object) -> GameLog:
    """Validate a log's header and setup (the actions are checked when replayed).

    Raises:
        LogError: with ``action`` 0, naming what is wrong.
    """
    if not isinstance(data, dict):
        raise LogError("a game log must be a JSON object")
    if data.get("format") != FORMAT:
        raise LogError(f"'format' must be {json.dumps(FORMAT)}, not {json.dumps(data.get('format'))}")
    edition = data.get("edition")
    if edition not in EDITIONS:
        raise LogError(f"'edition' must be one of {', '.join(map(json.dumps, EDITIONS))}, not {json.dumps(edition)}")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(player, str) for player in players):
        raise LogError("'players' must be a list of player names in seating order")
    if "setup" not in data:
        raise LogError("the log has no 'setup'")
    setup = _parse_setup(data["setup"])
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise LogError("'actions' must be a list of action objects")
    log = GameLog(edition, tuple(players), setup, tuple(actions))
    try:
        log.start()
    except RuleError as error:
        raise LogError(str(error)) from None
    return log


def replay_actions(state: GameState, actions: Iterable[object], first_index: int = 1) -> GameState:
    """Apply raw action objects one by one.

    Raises:
        LogError: at the first action whose shape or rules are wrong (its 1-based index).
    """
    for index, obj in enumerate(actions, start=first_index):
        try:
            state = apply(state, action_from_json(obj))
        except RuleError as error:
            raise LogError(str(error), index) from None
    return state


def loads(text: str) -> GameLog:
    """Parse a log from JSON text.

    Raises:
        json.JSONDecodeError: not JSON.
        LogError: a bad header or setup.
    """
    return parse_log(json.loads(text))


def summary(state: GameState) -> dict[str, Any]:
    """The state as ``camelup replay`` prints it (every key of the spec, plus tiles and winners)."""
    return {
        "edition": state.edition.name,
        "leg": state.leg,
        "game_over": state.game_over,
        "track": {str(space): list(stack) for space, stack in state.track},
        "ranking": list(state.ranking()),
        "money": state.money_by_player(),
        "next_player": state.current_player,
        "tiles": [{"space": tile.space, "owner": tile.owner, "side": tile.side} for tile in state.tiles],
        "winners": list(state.winners()),
    }


def make_log(
    edition: str, players: Iterable[str], setup: Mapping[int, Iterable[str]], actions: Iterable[Action]
) -> GameLog:
    """A log from action values (the way the companion and the simulations write their games)."""
    return GameLog(
        edition,
        tuple(players),
        {space: tuple(stack) for space, stack in setup.items()},
        tuple(action_to_json(action) for action in actions),
    )
