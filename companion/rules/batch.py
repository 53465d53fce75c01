"""The move rule applied to many boards at once, as numpy arrays: what exact leg odds do to every board of
a layer in one step instead of one Python call per board.

It is the same rule as :func:`companion.rules.track.step_camel`, :func:`crazy_camel_to_move` and
:meth:`Track.leaders`, written for arrays; ``tests/test_batch.py`` checks it against them move for move on
random boards and tiles of both editions. A board is one row: every camel's space and height (0 = bottom of
its stack), camels in :attr:`Edition.camels` order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np

from companion.rules.editions import Edition
from companion.rules.track import Tile, Track


class Boards(NamedTuple):
    """``space[i, c]`` and ``height[i, c]``: where camel ``c`` stands on board ``i``."""

    space: np.ndarray
    height: np.ndarray

    def __len__(self) -> int:
        return len(self.space)

    def take(self, rows: np.ndarray) -> Boards:
        return Boards(self.space[rows], self.height[rows])


def boards_from_tracks(tracks: Sequence[Track], edition: Edition) -> Boards:
    camels = edition.camels
    space = np.zeros((len(tracks), len(camels)), dtype=np.int8)  # small rows: the layers hold ~10^5 boards
    height = np.zeros_like(space)
    column = {camel: index for index, camel in enumerate(camels)}
    for row, track in enumerate(tracks):
        for position, stack in track:
            for level, camel in enumerate(stack):
                space[row, column[camel]] = position
                height[row, column[camel]] = level
    return Boards(space, height)


def board_track(boards: Boards, row: int, edition: Edition) -> Track:
    spaces: dict[int, list[tuple[int, str]]] = {}
    for column, camel in enumerate(edition.camels):
        spaces.setdefault(int(boards.space[row, column]), []).append((int(boards.height[row, column]), camel))
    return Track.from_mapping({space: [camel for _, camel in sorted(stack)] for space, stack in spaces.items()})


class _Rules(NamedTuple):
    """An edition and its tiles as lookup arrays (built once per enumeration)."""

    direction: np.ndarray
    """+1 or -1 per camel."""
    tile_effect: np.ndarray
    """Per landing space (shifted by ``offset``): +1 plus side, -1 minus side, 0 no tile."""
    offset: int
    racing: np.ndarray
    """Columns of the racing camels."""
    crazy: np.ndarray


def batch_rules(edition: Edition, tiles: Mapping[int, Tile] | None) -> _Rules:
    offset = max(edition.die_faces) + 1
    effect = np.zeros(edition.track_length + 2 * offset + 1, dtype=np.int8)
    for space, tile in (tiles or {}).items():
        if 1 <= space <= edition.track_length:
            effect[space + offset] = 1 if tile.side == edition.plus_side else -1
    camels = edition.camels
    return _Rules(
        direction=np.array([edition.direction(camel) for camel in camels], dtype=np.int8),
        tile_effect=effect,
        offset=offset,
        racing=np.array([camels.index(camel) for camel in edition.racing_camels], dtype=np.int64),
        crazy=np.array([camels.index(camel) for camel in edition.crazy_camels], dtype=np.int64),
    )


def step_camels(
    boards: Boards, camel: np.ndarray, steps: np.ndarray, rules: _Rules
) -> tuple[Boards, np.ndarray, np.ndarray]:
    """Board ``i`` with camel ``camel[i]`` (a column) and everything on it moved ``steps[i]`` spaces:
    ``(boards, tile space landed on or 0, end space)``, as :func:`step_camel` for each row."""
    space, height = boards
    rows = np.arange(len(space))
    start = space[rows, camel]
    base = height[rows, camel]
    direction = rules.direction[camel]
    landing = start + direction * steps
    effect = rules.tile_effect[landing + rules.offset]
    end = landing + direction * effect
    underneath = effect < 0

    in_unit = (space == start[:, None]) & (height >= base[:, None])
    at_end = (space == end[:, None]) & ~in_unit
    unit_size = in_unit.sum(axis=1, dtype=np.int8)
    below = np.where(underneath, np.int8(0), at_end.sum(axis=1, dtype=np.int8))
    new_height = np.where(in_unit, height - base[:, None] + below[:, None], height)
    new_height = np.where(at_end & underneath[:, None], height + unit_size[:, None], new_height)
    new_space = np.where(in_unit, end[:, None], space)
    return Boards(new_space, new_height), np.where(effect != 0, landing, 0), end


def crazy_camels_to_move(boards: Boards, colour: int, rules: _Rules) -> np.ndarray:
    """The column of the crazy camel the grey die moves on each board when its number shows the
    ``colour``-th crazy colour (decision 3, as :func:`crazy_camel_to_move`)."""
    space, height = boards
    crazy = rules.crazy
    crazy_space = space[:, crazy]
    crazy_height = height[:, crazy]
    # 1. a crazy camel with racing camels anywhere above it in its stack
    racing_space = space[:, rules.racing]
    racing_height = height[:, rules.racing]
    carrying = (
        (racing_space[:, None, :] == crazy_space[:, :, None]) & (racing_height[:, None, :] > crazy_height[:, :, None])
    ).any(axis=2)
    # 2. a crazy camel sitting directly on another one
    same_space = crazy_space[:, :, None] == crazy_space[:, None, :]
    upper = (same_space & (crazy_height[:, :, None] == crazy_height[:, None, :] + 1)).any(axis=2)
    chosen = np.full(len(space), crazy[colour], dtype=np.int64)
    has_upper = upper.any(axis=1)
    chosen = np.where(has_upper, crazy[upper.argmax(axis=1)], chosen)
    only_one_carrying = carrying.sum(axis=1) == 1
    return np.where(only_one_carrying, crazy[carrying.argmax(axis=1)], chosen)


def leaders(boards: Boards, rules: _Rules) -> tuple[np.ndarray, np.ndarray]:
    """Indexes (into the racing camels) of the first and second racing camel on each board."""
    space, height = boards
    order = space[:, rules.racing].astype(np.int16) * 16 + height[:, rules.racing]
    first = order.argmax(axis=1)
    rows = np.arange(len(order))
    order[rows, first] = np.iinfo(order.dtype).min
    return first, order.argmax(axis=1)
