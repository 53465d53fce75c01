"""Playing whole games with bots and random dice, without hardware (``camelup play``, simulations)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from companion.bots import DRAW, Bot
from companion.dice import draw, roll_setup
from companion.gamelog import GameLog, make_log
from companion.rules import EDITIONS, Action, GameState, apply, legal_actions, new_game


@dataclass(frozen=True)
class PlayedGame:
    log: GameLog
    state: GameState


def play_game(
    edition: str,
    seats: Sequence[tuple[str, Bot]],
    rng: random.Random,
    setup: Mapping[int, Sequence[str]] | None = None,
    on_action: Callable[[GameState, Action, GameState], None] | None = None,
    max_actions: int = 10_000,
) -> PlayedGame:
    """Play one game to the end. ``on_action(before, action, after)`` sees every accepted action."""
    rules = EDITIONS[edition]
    track = dict(setup) if setup is not None else roll_setup(rules, rng)
    players = [name for name, _ in seats]
    bots = dict(seats)
    state = new_game(rules, players, track)
    actions: list[Action] = []
    while not state.game_over:
        if len(actions) >= max_actions:
            raise RuntimeError(f"the game did not end within {max_actions} actions")
        player = state.current_player
        assert player is not None
        choice = bots[player].choose(state, legal_actions(state), rng)
        action = draw(state, player, rng) if choice is DRAW else choice
        after = apply(state, action)
        actions.append(action)
        if on_action is not None:
            on_action(state, action, after)
        state = after
    return PlayedGame(make_log(edition, players, track, actions), state)
