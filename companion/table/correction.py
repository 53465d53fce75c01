"""Taking the camera's word for the board: which die entry, entered differently, gives the board the camera
sees. A correction changes one recorded pyramid action (its die, value or grey colour) so that the game log
stays a log of actions in the standard format; the companion's stored history keeps what was changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.gamelog import action_from_json
from companion.rules import GREY_DIE, GameState, RuleError, apply


@dataclass(frozen=True)
class Amendment:
    index: int
    """Which of the game's standing actions (0-based) changes."""
    was: dict[str, Any]
    becomes: dict[str, Any]

    def describe(self) -> str:
        """``"Cy's pyramid ticket: red 2 → red 1"``."""
        return f"{self.was['player']}'s pyramid ticket: {_die_words(self.was)} → {_die_words(self.becomes)}"


def _die_words(action: Mapping[str, Any]) -> str:
    words = f"{action['die']} {action['value']}"
    return f"{words} ({action['crazy']} number)" if action.get("crazy") else words


def amendments_explaining(
    start: GameState, actions: Sequence[Mapping[str, Any]], seen: Mapping[int, Sequence[str]]
) -> list[Amendment]:
    """Every single change to one pyramid action of the latest leg with draws (its die, value or grey
    colour) after which all the actions still stand and the board is ``seen`` (space → camels, bottom first).
    """
    wanted = {int(space): tuple(stack) for space, stack in seen.items() if stack}
    before = [start]
    for obj in actions:
        before.append(apply(before[-1], action_from_json(obj)))
    draws = [index for index, obj in enumerate(actions) if obj.get("type") == "pyramid"]
    if not draws:
        return []
    leg = before[draws[-1]].leg
    found = []
    for index in reversed([i for i in draws if before[i].leg == leg]):
        outcomes: list[GameState] = []
        for becomes in _alternatives(before[index], actions[index]):
            state = _replay(before[index], [becomes, *actions[index + 1 :]])
            # Two changes to one entry that end the same game in every way (a grey die's number colour when
            # the rules choose the crazy camel anyway) are one correction: the smaller change is kept.
            if state is not None and state.track.as_dict() == wanted and _outcome(state) not in outcomes:
                outcomes.append(_outcome(state))
                found.append(Amendment(index, dict(actions[index]), becomes))
    return found


def _outcome(state: GameState) -> GameState:
    """The game as it ends, less the grey die's number colour where the rules chose the crazy camel anyway
    (the camel each roll moved is kept)."""
    return replace(state, dice_out=tuple(replace(roll, crazy=None) for roll in state.dice_out))


def _alternatives(state: GameState, was: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every other die, value and grey colour that could have come out at this point."""
    options = []
    for die in state.dice_in_pyramid():
        for value in state.edition.die_faces:
            for crazy in state.edition.crazy_camels if die == GREY_DIE else (None,):
                obj = {"player": was["player"], "type": "pyramid", "die": die, "value": value}
                if crazy is not None:
                    obj["crazy"] = crazy
                if obj != dict(was):
                    options.append(obj)
    # The smallest changes first (the value alone before the value and the grey colour): where two give the
    # same game, the one kept is the likelier slip.
    return sorted(options, key=lambda obj: sum(obj.get(key) != was.get(key) for key in ("die", "value", "crazy")))


def _replay(state: GameState, actions: Sequence[Mapping[str, Any]]) -> GameState | None:
    try:
        for obj in actions:
            state = apply(state, action_from_json(obj))
    except RuleError:
        return None
    return state
