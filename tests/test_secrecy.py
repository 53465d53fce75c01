"""Face-down finish cards stay secret from every caller but their owner, at every moment of a race.

Two worlds are played in lockstep: identical but for the camel one player names on one finish card. Until
the race is over, every view of every other caller (the other seats, the host, the table screen) must be
identical in both worlds, byte for byte: whatever differs is a leak. The owner's view must differ (the
check can see a difference when there is one).
"""

from __future__ import annotations

import json
import random

import pytest

from companion.rules import EDITIONS
from companion.table.service import Caller, GameService
from companion.table.store import Store
from tests.gamegen import random_log


def _worlds(seed: int) -> tuple[dict, dict, str, int]:
    """A random legal log with a finish card, and the same log with that card naming another camel."""
    rng = random.Random(seed)
    while True:
        log = random_log(rng, players=rng.choice([3, 4, 6]), noise=0.0, wild=0.0)
        bets = [i for i, a in enumerate(log["actions"]) if a["type"] == "finish_bet"]
        for index in bets:
            owner = log["actions"][index]["player"]
            used = {a["camel"] for a in log["actions"] if a["type"] == "finish_bet" and a["player"] == owner}
            spare = [c for c in EDITIONS[log["edition"]].racing_camels if c not in used]
            if spare:
                other = json.loads(json.dumps(log))
                other["actions"][index]["camel"] = spare[0]
                return log, other, owner, index


def _start(service: GameService, log: dict) -> str:
    body = {"edition": log["edition"], "players": log["players"], "dice": "manual", "setup": log["setup"]}
    return service.create(body)["game_id"]


def _view(service: GameService, game_id: str, caller: Caller) -> dict:
    view = service.state_json(game_id, caller)
    view.pop("game_id")
    return view


@pytest.mark.parametrize("seed", range(6))
def test_no_caller_but_the_owner_can_tell_which_camel_a_card_names(tmp_path, seed):
    log_a, log_b, owner, index = _worlds(seed)
    world_a = GameService(Store(tmp_path / "a.sqlite3"))
    world_b = GameService(Store(tmp_path / "b.sqlite3"))
    game_a, game_b = _start(world_a, log_a), _start(world_b, log_b)
    host = Caller("host")
    callers = [host, Caller("table"), *(Caller("seat", p) for p in log_a["players"] if p != owner)]
    compared = owner_saw_it = 0
    for step, (action_a, action_b) in enumerate(zip(log_a["actions"], log_b["actions"], strict=True)):
        world_a.act(game_a, host, action_a)
        state = world_b.act(game_b, host, action_b)
        if step < index:
            continue
        if state.game_over:
            break  # the reveal: every card is turned over for everyone
        for caller in callers:
            assert _view(world_a, game_a, caller) == _view(world_b, game_b, caller), (
                f"{caller.role} {caller.player or ''} can tell the two worlds apart after action {step + 1} "
                f"({state.current_player} to act)"
            )
            compared += 1
        owner_seat = Caller("seat", owner)
        owner_saw_it += _view(world_a, game_a, owner_seat) != _view(world_b, game_b, owner_seat)
    assert compared > 0 and owner_saw_it > 0


def test_the_host_sees_how_many_cards_the_player_to_act_holds_never_which(tmp_path):
    """The scorekeeper's legal actions for a seat count its finish cards; they name no camel."""
    service = GameService(Store(tmp_path / "g.sqlite3"))
    game = _start(service, {"edition": "2018", "players": ["Ann", "Bob"], "setup": {"track": {
        "1": ["green", "red"], "3": ["yellow", "blue", "purple"], "14": ["black"], "16": ["white"]}}})
    host = Caller("host")
    service.act(game, host, {"player": "Ann", "type": "finish_bet", "pile": "winner", "camel": "red"})
    service.act(game, host, {"player": "Bob", "type": "leg_bet", "camel": "blue"})
    legal = service.state_json(game, host)["legal"]
    assert legal["player"] == "Ann" and legal["finish_cards"] == 4
    seat = service.state_json(game, Caller("seat", "Ann"))["legal"]
    assert sorted(seat["finish_cards"]) == ["blue", "green", "purple", "yellow"]
    assert "legal" not in service.state_json(game, Caller("seat", "Bob"))
    assert "legal" not in service.state_json(game, Caller("table"))
