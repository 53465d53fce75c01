"""Random boards a real game could show: the rulebook's setup, then random draws moving camels with everything
on top of them (crazy camels backwards), so stacks of two to five camels come up as often as at a table.

Self-contained on purpose (``vision`` knows nothing of the companion's rules engine); the tests check its boards
against the engine."""

from __future__ import annotations

import random

RACING = {"2014": ("blue", "green", "orange", "yellow", "white"), "2018": ("green", "yellow", "red", "blue", "purple")}
CRAZY = {"2014": (), "2018": ("black", "white")}
CRAZY_START = {1: 16, 2: 15, 3: 14}


def starting_track(edition: str, rng: random.Random) -> dict[int, list[str]]:
    """The rulebook's setup: each racing camel on space 1 to 3 by a die, crazy camels on 16 to 14."""
    track: dict[int, list[str]] = {}
    racing = list(RACING[edition])
    rng.shuffle(racing)
    for camel in racing:
        track.setdefault(rng.randint(1, 3), []).append(camel)
    crazy = list(CRAZY[edition])
    rng.shuffle(crazy)
    for camel in crazy:
        track.setdefault(CRAZY_START[rng.randint(1, 3)], []).append(camel)
    return track


def _move(track: dict[int, list[str]], camel: str, steps: int) -> bool:
    """Move ``camel`` and those on it ``steps`` spaces (negative: backwards), onto the top of the stack there.
    False (and nothing moved) when a racing camel would cross the finish line."""
    space = next(s for s, stack in track.items() if camel in stack)
    stack = track[space]
    unit = stack[stack.index(camel) :]
    target = space + steps
    if target > 16:
        return False
    if target < 1:
        target += 16
    del stack[stack.index(camel) :]
    if not stack:
        del track[space]
    track.setdefault(target, []).extend(unit)
    return True


def plausible_track(edition: str, rng: random.Random, draws: int | None = None) -> dict[int, list[str]]:
    """The board after ``draws`` random pyramid draws (0 to 30 when not given) from a random setup."""
    track = starting_track(edition, rng)
    draws = rng.randint(0, 30) if draws is None else draws
    racing, crazy = RACING[edition], CRAZY[edition]
    for _ in range(draws):
        if crazy and rng.random() < 1 / (len(racing) + 1):
            _move(track, rng.choice(crazy), -rng.randint(1, 3))
        else:
            _move(track, rng.choice(racing), rng.randint(1, 3))
    return {space: stack for space, stack in sorted(track.items())}


def scattered_track(edition: str, rng: random.Random) -> dict[int, list[str]]:
    """Every camel on any space, stacks in any order (harder than most games: tall stacks anywhere)."""
    camels = [*RACING[edition], *CRAZY[edition]]
    rng.shuffle(camels)
    spaces = rng.sample(range(1, 17), rng.randint(1, len(camels)))
    track: dict[int, list[str]] = {}
    for index, camel in enumerate(camels):
        track.setdefault(spaces[index % len(spaces)], []).append(camel)
    return {space: stack for space, stack in sorted(track.items())}


def random_board(edition: str, rng: random.Random) -> dict[int, list[str]]:
    """A board from a game most of the time, a scattered one sometimes."""
    return scattered_track(edition, rng) if rng.random() < 0.25 else plausible_track(edition, rng)
