"""The race track: camel stacks, how a camel unit moves, and the ranking.

Spaces are numbered 1 to 16 clockwise and the finish line lies between 16 and 1 (decision 1). A unit that
crosses it keeps its position past the track (17, 18, ... or 0, -1, ...) for the ranking.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
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


class Track(tuple[tuple[int, Stack], ...]):
    """Every non-empty space as ``(space, stack)``, ordered by space. Immutable and hashable.

    A tuple underneath, because the odds and the simulations create and hash millions of tracks.
    """

    __slots__ = ()

    @classmethod
    def from_mapping(cls, spaces: Mapping[int, Sequence[str]]) -> Track:
        return cls(sorted((space, tuple(stack)) for space, stack in spaces.items() if stack))

    def as_dict(self) -> dict[int, Stack]:
        return dict(self)

    def stack_at(self, space: int) -> Stack:
        for position, stack in self:
            if position == space:
                return stack
        return ()

    def locate(self, camel: str) -> tuple[int, int]:
        """``(space, height)`` of ``camel``; height 0 is the bottom of its stack."""
        for position, stack in self:
            if camel in stack:
                return position, stack.index(camel)
        raise KeyError(camel)

    def position_of(self, camel: str) -> int:
        return self.locate(camel)[0]

    def occupied(self, space: int) -> bool:
        return any(position == space for position, _ in self)

    def camels(self) -> Iterator[str]:
        for _, stack in self:
            yield from stack

    def ranking(self, racing_camels: Collection[str]) -> tuple[str, ...]:
        """Racing camels, leader first: farther along is ahead, higher in a stack is ahead (decision 2)."""
        order = [camel for _, stack in self for camel in stack if camel in racing_camels]
        order.reverse()
        return tuple(order)

    def leaders(self, racing_camels: Collection[str]) -> tuple[str, str]:
        """The first and second racing camels (the two that leg tickets pay most for)."""
        found: list[str] = []
        for _, stack in reversed(self):
            for camel in reversed(stack):
                if camel in racing_camels:
                    found.append(camel)
                    if len(found) == 2:
                        return found[0], found[1]
        raise ValueError("fewer than two racing camels on the track")

    def __repr__(self) -> str:
        return f"Track.from_mapping({dict(self)!r})"


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


def step_camel(
    track: Track,
    camel: str,
    steps: int,
    edition: Edition,
    tiles: Mapping[int, Tile] | None = None,
) -> tuple[Track, Tile | None, int]:
    """The move rule itself, without the bookkeeping: ``(new track, tile landed on or None, end space)``.

    :func:`move_camel` describes the same move in full; the odds and the simulations call this one
    because it is what they do millions of times (hence the plain loops).
    """
    for index, (start, stack) in enumerate(track):  # noqa: B007 - the loop finds them for after it
        if camel in stack:
            break
    else:
        raise KeyError(camel)
    height = stack.index(camel)
    unit = stack[height:]

    direction = -1 if camel in edition.crazy_camels else 1
    end = start + direction * steps
    tile = None
    underneath = False  # pragma: no mutate (None is as false)
    if tiles and end in tiles and 1 <= end <= edition.track_length:  # pragma: no mutate (no tile on space 1)
        tile = tiles[end]
        if tile.side == edition.plus_side:
            end += direction
        else:
            end -= direction
            underneath = True

    spaces = list(track)
    if height:
        spaces[index] = (start, stack[:height])
    else:
        del spaces[index]
    for slot, (space, below) in enumerate(spaces):
        if space == end:
            spaces[slot] = (end, unit + below if underneath else below + unit)
            break
        if space > end:  # pragma: no mutate (space == end was taken just above)
            spaces.insert(slot, (end, unit))
            break
    else:
        spaces.append((end, unit))
    return Track(spaces), tile, end


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
    start, height = track.locate(camel)
    unit = track.stack_at(start)[height:]
    moved, tile, end = step_camel(track, camel, steps, edition, tiles)
    movement = Movement(
        camel=camel,
        unit=unit,
        start=start,
        steps=steps,
        landing=tile.space if tile else end,
        end=end,
        tile=tile,
        underneath=tile is not None and tile.side == edition.minus_side,
        crossed_finish=not is_on_track(end, edition),
    )
    return moved, movement


def crazy_camel_to_move(track: Track, colour: str, edition: Edition) -> str:
    """Which crazy camel the grey die moves when its number shows ``colour`` (decision 3).

    1. If exactly one crazy camel has racing camels anywhere above it in its stack, that one moves.
    2. Otherwise, if one crazy camel sits directly on the other, the upper one moves.
    3. Otherwise the colour of the number decides.
    """
    crazy = edition.crazy_camels
    carrying = []
    upper = None
    for _, stack in track:
        for height, camel in enumerate(stack):
            if camel in crazy:
                if any(other not in crazy for other in stack[height + 1 :]):
                    carrying.append(camel)
                if height and stack[height - 1] in crazy:
                    upper = camel
    if len(carrying) == 1:
        return carrying[0]
    return upper if upper is not None else colour
