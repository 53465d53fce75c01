"""The race track: camel stacks, how a camel unit moves, and the ranking.

Spaces are numbered 1 to 16 clockwise and the finish line lies between 16 and 1 (decision 1). A unit that
crosses it keeps its position past the track (17, 18, ... or 0, -1, ...) for the ranking.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from companion.rules.editions import Edition

Stack = tuple[str, ...]
"""Camels on one space, bottom first."""


@dataclass(frozen=True, slots=True)
class Tile:
    """A desert (2014) or spectator (2018) tile lying on the track."""

    space: int
    owner: str
    side: str


@dataclass(frozen=True, slots=True)
class Track:
    """Every non-empty space and its stack, ordered by position. Immutable and hashable."""

    stacks: tuple[tuple[int, Stack], ...]

    @classmethod
    def from_mapping(cls, spaces: Mapping[int, Stack]) -> Track:
        return cls(tuple(sorted((space, tuple(stack)) for space, stack in spaces.items() if stack)))

    def as_dict(self) -> dict[int, Stack]:
        return dict(self.stacks)

    def __iter__(self) -> Iterator[tuple[int, Stack]]:
        return iter(self.stacks)

    def stack_at(self, space: int) -> Stack:
        for position, stack in self.stacks:
            if position == space:
                return stack
        return ()

    def locate(self, camel: str) -> tuple[int, int]:
        """``(space, height)`` of ``camel``; height 0 is the bottom of its stack."""
        for position, stack in self.stacks:
            if camel in stack:
                return position, stack.index(camel)
        raise KeyError(camel)

    def position_of(self, camel: str) -> int:
        return self.locate(camel)[0]

    def occupied(self, space: int) -> bool:
        return any(position == space for position, _ in self.stacks)

    def camels(self) -> Iterator[str]:
        for _, stack in self.stacks:
            yield from stack

    def ranking(self, racing_camels: tuple[str, ...]) -> tuple[str, ...]:
        """Racing camels, leader first: farther along is ahead, higher in a stack is ahead (decision 2)."""
        racing = set(racing_camels)
        order = [camel for _, stack in self.stacks for camel in stack if camel in racing]
        order.reverse()
        return tuple(order)

    def __repr__(self) -> str:
        return f"Track.from_mapping({dict(self.stacks)!r})"


@dataclass(frozen=True, slots=True)
class Movement:
    """What one die did: which unit went where, and what a tile did to it on the way."""

    camel: str
    """The camel whose die moved the unit (the crazy camel chosen for the grey die)."""
    unit: Stack
    """The camels that moved together, bottom first."""
    start: int
    steps: int
    landing: int
    """Where the die's count took the unit, before any tile."""
    end: int
    """Where the unit finally stands."""
    tile: Tile | None = None
    underneath: bool = False
    """True when a minus tile put the unit underneath the stack it stepped back onto."""
    crossed_finish: bool = False


def is_on_track(space: int, edition: Edition) -> bool:
    return 1 <= space <= edition.track_length


def move_camel(
    track: Track,
    camel: str,
    steps: int,
    edition: Edition,
    tiles: Mapping[int, Tile] | None = None,
) -> tuple[Track, Movement]:
    """Move ``camel`` and everything on top of it ``steps`` spaces in its own direction.

    The unit lands on top of whatever is there. A tile on the landing space pays its owner (the caller
    credits it, from ``Movement.tile``) and moves the unit one more space in the moving camel's direction
    (plus side, on top) or against it (minus side, underneath) (decision 5). A unit that leaves spaces
    1..16 has crossed the finish line and keeps its position past the track (decision 1).
    """
    spaces = dict(track.stacks)
    start, height = track.locate(camel)
    stack = spaces[start]
    unit = stack[height:]
    if height:
        spaces[start] = stack[:height]
    else:
        del spaces[start]

    direction = edition.direction(camel)
    landing = start + direction * steps
    end = landing
    tile = None
    underneath = False
    if is_on_track(landing, edition) and tiles and landing in tiles:
        tile = tiles[landing]
        is_plus = tile.side == edition.plus_side
        end = landing + (direction if is_plus else -direction)
        underneath = not is_plus

    below = spaces.get(end, ())
    spaces[end] = unit + below if underneath else below + unit
    movement = Movement(
        camel=camel,
        unit=unit,
        start=start,
        steps=steps,
        landing=landing,
        end=end,
        tile=tile,
        underneath=underneath,
        crossed_finish=not is_on_track(end, edition),
    )
    return Track(tuple(sorted(spaces.items()))), movement


def crazy_camel_to_move(track: Track, colour: str, edition: Edition) -> str:
    """Which crazy camel the grey die moves when its number shows ``colour`` (decision 3).

    1. If exactly one crazy camel has racing camels anywhere above it in its stack, that one moves.
    2. Otherwise, if one crazy camel sits directly on the other, the upper one moves.
    3. Otherwise the colour of the number decides.
    """
    crazy = edition.crazy_camels
    carrying = []
    for camel in crazy:
        space, height = track.locate(camel)
        above = track.stack_at(space)[height + 1 :]
        if any(not edition.is_crazy(other) for other in above):
            carrying.append(camel)
    if len(carrying) == 1:
        return carrying[0]
    for camel in crazy:
        space, height = track.locate(camel)
        if height > 0 and edition.is_crazy(track.stack_at(space)[height - 1]):
            return camel
    return colour
