"""Random game logs for property tests: mostly legal play, tilted toward the rare corners of the rules
(tiles, partnerships, crazy camels near the finish line), optionally ending in a broken action."""

from __future__ import annotations

import random
from typing import Any

from companion.gamelog import FORMAT, action_from_json, action_to_json
from companion.rules import (
    EDITIONS,
    FinishBet,
    GameState,
    LegBet,
    Partnership,
    PlaceTile,
    apply,
    is_legal,
    legal_actions,
    new_game,
)
from companion.rules.errors import RuleError
from companion.sim.dice import roll_setup

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def wild_setup(edition: str, rng: random.Random) -> dict[int, tuple[str, ...]]:
    """Any space for any camel: puts crazy camels near the finish line and racing camels on their backs."""
    rules = EDITIONS[edition]
    camels = list(rules.camels)
    rng.shuffle(camels)
    spaces = [rng.choice([1, 2, 3, 4, 5, 8, 12, 14, 15, 16]) for _ in camels]
    track: dict[int, list[str]] = {}
    for camel, space in zip(camels, spaces, strict=True):
        track.setdefault(space, []).append(camel)
    return {space: tuple(stack) for space, stack in track.items()}


def noisy_action(state: GameState, rng: random.Random) -> dict[str, Any]:
    """An action object that is often, but not always, broken."""
    player = state.current_player if rng.random() < 0.8 else rng.choice([*state.players, "Nobody"])
    camels = [*state.edition.camels, "pink", 3]
    kind = rng.choice(["leg_bet", "spectator", "pyramid", "finish_bet", "partnership", "dance"])
    action: dict[str, Any] = {"player": player, "type": kind}
    if kind == "leg_bet":
        action["camel"] = rng.choice(camels)
    elif kind == "spectator":
        action["space"] = rng.choice([0, 1, 2, 5, 9, 16, 17, "7", 3.0])
        action["side"] = rng.choice(["cheer", "boo", "oasis", "mirage", "up"])
    elif kind == "pyramid":
        action["die"] = rng.choice([*state.edition.dice, "grey", "pink"])
        action["value"] = rng.choice([0, 1, 2, 3, 4, True, "2"])
        if rng.random() < 0.7:
            action["crazy"] = rng.choice(["black", "white", "red"])
    elif kind == "finish_bet":
        action["pile"] = rng.choice(["winner", "loser", "middle"])
        action["camel"] = rng.choice(camels)
    elif kind == "partnership":
        action["with"] = rng.choice([*state.players, "Nobody"])
    return action


def random_log(
    rng: random.Random,
    edition: str | None = None,
    players: int | None = None,
    wild: float = 0.3,
    noise: float = 0.02,
    max_actions: int = 600,
) -> dict[str, Any]:
    """One random game log. It ends at the race's end, at ``max_actions``, or at its first broken action."""
    edition = edition or rng.choice(["2014", "2018"])
    rules = EDITIONS[edition]
    count = players or rng.choice([2, 3, 4, 5, 6, 6, 7, 8])
    names = NAMES[:count]
    setup = wild_setup(edition, rng) if rng.random() < wild else roll_setup(rules, rng)
    state = new_game(rules, names, setup)
    actions: list[dict[str, Any]] = []
    while not state.game_over and len(actions) < max_actions:
        if rng.random() < noise:
            obj = noisy_action(state, rng)
            actions.append(obj)
            try:
                state = apply(state, action_from_json(obj))
            except RuleError:
                break
            continue
        legal = legal_actions(state)
        kinds = [None] * 9 + [LegBet] * 4 + [PlaceTile] * 3 + [FinishBet] * 2 + [Partnership] * 2
        others = list(legal.other_than_pyramid())
        while True:
            kind = rng.choice(kinds)
            if kind is None:
                options = list(legal.pyramid_rolls())
            else:
                options = [action for action in others if isinstance(action, kind)]
            if options:
                break
        action = rng.choice(options)
        assert is_legal(state, action)
        actions.append(action_to_json(action))
        state = apply(state, action)
    return {
        "format": FORMAT,
        "edition": edition,
        "players": names,
        "setup": {"track": {str(space): list(stack) for space, stack in setup.items()}},
        "actions": actions,
    }
