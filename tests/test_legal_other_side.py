"""Legality checked from the other side: candidate actions made without asking the engine what is legal.

The agreement test in test_properties.py replays logs built from the engine's own ``legal_actions``, so an
engine that wrongly refuses a legal move could never be caught there. Here, at every state of a game, a grid
of proposals (every kind, every value in and around the legal range, other players, malformed shapes) is put
to both the engine and the independent reference rules, which must agree on accept or refuse for each; the
game then goes on along a move the *reference* accepted.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from companion.gamelog import FORMAT, LogError, action_from_json
from companion.rules import EDITIONS, RuleError, apply, new_game
from companion.sim.dice import roll_setup
from tests.reference_rules import RULES, Game, Refused

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def proposals(game: Game, rng: random.Random) -> list[Any]:
    """What a player, a confused scorekeeper or a broken client might send now."""
    rules = RULES[game.edition]
    camels = [*rules["racing"], *rules["crazy"], "pink"]
    to_act = game.players[game.seat]
    someone_else = game.players[(game.seat + 1) % len(game.players)]
    out: list[Any] = []
    for player in (to_act, someone_else):
        out += [{"player": player, "type": "leg_bet", "camel": camel} for camel in camels]
        out += [{"player": player, "type": "spectator", "space": space, "side": side}
                for space in range(0, 18) for side in rules["sides"]]
        out += [{"player": player, "type": "finish_bet", "pile": pile, "camel": camel}
                for pile in ("winner", "loser") for camel in camels]
        out += [{"player": player, "type": "partnership", "with": other} for other in [*game.players, "Nobody"]]
        for die in [*rules["racing"], "grey", "pink"]:
            for value in (0, 1, 2, 3, 4):
                colours = [None, *rules["crazy"], "red"] if die == "grey" else [None, "black"]
                for colour in colours:
                    action = {"player": player, "type": "pyramid", "die": die, "value": value}
                    if colour is not None:
                        action["crazy"] = colour
                    out.append(action)
    junk = [  # wrong types and shapes: both must refuse, neither may crash
        {"player": to_act, "type": "pyramid", "die": rules["racing"][0], "value": True},
        {"player": to_act, "type": "pyramid", "die": rules["racing"][0], "value": "2"},
        {"player": to_act, "type": "pyramid", "die": rules["racing"][0], "value": 2.0},
        {"player": to_act, "type": "spectator", "space": "7", "side": next(iter(rules["sides"]))},
        {"player": to_act, "type": "spectator", "space": 7.0, "side": next(iter(rules["sides"]))},
        {"player": to_act, "type": "spectator", "space": True, "side": next(iter(rules["sides"]))},
        {"player": to_act, "type": "leg_bet", "camel": None},
        {"player": to_act, "type": "leg_bet", "camel": ["red"]},
        {"player": to_act, "type": "dance"},
        {"player": to_act},
        {"type": "leg_bet", "camel": rules["racing"][0]},
        {"player": None, "type": "leg_bet", "camel": rules["racing"][0]},
    ]
    return out + rng.sample(junk, 4)


def engine_accepts(state, proposal: Any) -> bool:
    try:
        apply(state, action_from_json(proposal))
    except (RuleError, LogError):
        return False
    return True


def reference_accepts(game: Game, proposal: Any) -> Game | None:
    trial = copy.deepcopy(game)
    try:
        trial.act(proposal)
    except Refused:
        return None
    return trial


@pytest.mark.parametrize("seed", range(8))
def test_engine_and_reference_agree_on_every_proposal(seed):
    rng = random.Random(seed)
    edition = ("2014", "2018")[seed % 2]
    players = NAMES[: (2, 3, 4, 6)[seed % 4]]
    setup = roll_setup(EDITIONS[edition], rng)
    state = new_game(EDITIONS[edition], players, setup)
    game = Game({"format": FORMAT, "edition": edition, "players": players,
                 "setup": {"track": {str(space): list(stack) for space, stack in setup.items()}}, "actions": []})
    checked = 0
    for _ in range(120):
        if state.game_over:
            break
        accepted = []
        for proposal in proposals(game, rng):
            after = reference_accepts(game, proposal)
            assert engine_accepts(state, proposal) == (after is not None), (
                f"the engine {'refuses' if after else 'accepts'} {proposal} (the reference does not)"
            )
            checked += 1
            if after is not None:
                accepted.append((proposal, after))
        assert accepted, "someone can always act while the race is on"
        proposal, game = rng.choice(accepted)
        state = apply(state, action_from_json(proposal))
    assert checked > 5000
