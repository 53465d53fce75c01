"""Playing whole games with bots and random dice, without hardware (``camelup play``, simulations)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from companion.gamelog import GameLog, make_log
from companion.rules import EDITIONS, Action, GameState, apply, legal_actions, new_game, view_for
from companion.sim.bots import DRAW, Bot
from companion.sim.dice import draw, roll_setup


@dataclass(frozen=True)
class PlayedGame:
    log: GameLog
    state: GameState
    actions: int


def play_game(
    edition: str,
    seats: Sequence[tuple[str, Bot]],
    dice_rng: random.Random,
    bot_rng: random.Random | None = None,
    setup: Mapping[int, Sequence[str]] | None = None,
    on_action: Callable[[GameState, Action, GameState], None] | None = None,
    max_actions: int = 10_000,
) -> PlayedGame:
    """Play one game to the end. The dice come from ``dice_rng`` alone, so the same seed gives the same
    dice whatever the bots do (paired comparisons); the bots' own choices draw on ``bot_rng``.
    ``on_action(before, action, after)`` sees every accepted action."""
    rules = EDITIONS[edition]
    bot_rng = bot_rng or dice_rng
    track = dict(setup) if setup is not None else roll_setup(rules, dice_rng)
    players = [name for name, _ in seats]
    bots = dict(seats)
    state = new_game(rules, players, track)
    actions: list[Action] = []
    while not state.game_over:
        if len(actions) >= max_actions:
            raise RuntimeError(f"the game did not end within {max_actions} actions")
        player = state.current_player
        assert player is not None
        view = view_for(state, player)
        choice = bots[player].choose(view, legal_actions(view), bot_rng)
        action = draw(state, player, dice_rng) if choice is DRAW else choice
        after = apply(state, action)  # type: ignore[arg-type]
        actions.append(action)  # type: ignore[arg-type]
        if on_action is not None:
            on_action(state, action, after)  # type: ignore[arg-type]
        state = after
    return PlayedGame(make_log(edition, players, track, actions), state, len(actions))
