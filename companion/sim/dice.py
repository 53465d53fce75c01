"""Random dice for play without the electronic pyramid: starting positions and draws.

The rules engine takes dice as inputs; this module is where they are rolled, from a ``random.Random``
that the caller seeds (simulations) or a ``secrets.SystemRandom`` (real play).
"""

from __future__ import annotations

import random

from companion.rules import GREY_DIE, Edition, GameState, PyramidTicket

CRAZY_START_SPACE = {1: 16, 2: 15, 3: 14}
"""Where a crazy camel starts for each number of the grey die (setup step 8, 2018)."""


def roll_setup(edition: Edition, rng: random.Random) -> dict[int, tuple[str, ...]]:
    """Starting positions by the rulebook's setup (decision 11).

    Each racing die is rolled once and its camel goes on space 1 to 3; the grey die is rolled twice and
    the crazy camels go on 16, 15, 14 (the second on top of the first when they share a space). The order
    within a starting stack is free at the table: here it is shuffled.
    """
    track: dict[int, list[str]] = {}
    racing = list(edition.racing_camels)
    rng.shuffle(racing)
    for camel in racing:
        track.setdefault(rng.choice(edition.die_faces), []).append(camel)
    crazy = list(edition.crazy_camels)
    rng.shuffle(crazy)
    for camel in crazy:
        track.setdefault(CRAZY_START_SPACE[rng.choice(edition.die_faces)], []).append(camel)
    return {space: tuple(stack) for space, stack in track.items()}


def draw(state: GameState, player: str, rng: random.Random) -> PyramidTicket:
    """``player`` takes a pyramid ticket: a uniformly random die still inside, a uniform face, and for the
    grey die a uniform colour."""
    edition = state.edition
    die = rng.choice(state.dice_in_pyramid())
    value = rng.choice(edition.die_faces)
    crazy = rng.choice(edition.crazy_camels) if die == GREY_DIE else None
    return PyramidTicket(player, die, value, crazy)
