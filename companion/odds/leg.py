"""Exact leg odds: every remaining draw sequence of the leg, weighted by its true probability.

Sequences that reach the same board with the same dice still inside are merged layer by layer, so the work
grows with the number of distinct boards, not with the number of sequences (1,049,760 at a 2018 leg
start). Moves are the engine's own (:func:`companion.rules.track.step_camel`, and
:func:`~companion.rules.track.crazy_camel_to_move` for the grey die); nothing here re-implements a rule.
"""

from __future__ import annotations

import gc
import math
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from companion.rules import GREY_DIE, Edition, GameState, PlaceTile, Tile, Track, crazy_camel_to_move, is_legal
from companion.rules.track import step_camel


@dataclass(frozen=True)
class LegOdds:
    """Where the racing camels stand when the leg is scored, and what the tiles earn until then."""

    first: dict[str, float]
    second: dict[str, float]
    race_ends: float
    """Probability that a unit crosses the finish line during this leg."""
    tile_landings: dict[int, float]
    """Expected landings (= coins for the owner) per tile space, for the rest of the leg."""
    space_landings: dict[int, float]
    """Expected number of moves whose count ends on each space: roughly what a new tile there would earn
    (roughly, because the tile would change the moves after it)."""
    samples: int | None = None
    """``None`` for exact odds; the number of sampled legs for Monte Carlo odds."""

    def interval(self, p: float) -> float:
        """Half-width of the 95% interval of a sampled probability (0 for exact odds)."""
        if not self.samples:
            return 0.0
        return 1.96 * math.sqrt(max(p * (1 - p), 1e-12) / self.samples)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector: the enumeration builds hundreds of thousands of tuples and no
    cycles, and collections triggered by those allocations nearly double its time."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _grey_moves(track: Track, edition: Edition) -> list[tuple[str, int]]:
    """The crazy camels the grey die moves and the weight of each (out of 2 colours)."""
    chosen = [crazy_camel_to_move(track, colour, edition) for colour in edition.crazy_camels]
    if chosen[0] == chosen[-1]:
        return [(chosen[0], len(chosen))]
    return [(camel, 1) for camel in chosen]


def leg_distribution(
    track: Track,
    tiles: Mapping[int, Tile],
    inside: tuple[str, ...],
    draws_left: int,
    edition: Edition,
    rank: bool = True,
) -> LegOdds:
    """Exact odds of the leg from this board: ``inside`` are the dice still in the pyramid and
    ``draws_left`` how many will come out before the leg is scored.

    ``rank=False`` counts only where moves end and what the tiles earn (``first`` and ``second`` stay 0),
    which spares the last layer's boards: what valuing a tile spot needs.
    """
    with _collector_paused():
        return _enumerate_leg(track, tiles, inside, draws_left, edition, rank)


def _enumerate_leg(
    track: Track,
    tiles: Mapping[int, Tile],
    inside: tuple[str, ...],
    draws_left: int,
    edition: Edition,
    rank: bool,
) -> LegOdds:
    racing = frozenset(edition.racing_camels)
    faces = edition.die_faces
    colours = len(edition.crazy_camels) or 1
    landings: dict[int, float] = defaultdict(float)
    ends: dict[int, float] = defaultdict(float)
    first: dict[str, float] = dict.fromkeys(edition.racing_camels, 0.0)
    second: dict[str, float] = dict.fromkeys(edition.racing_camels, 0.0)
    crossed = 0.0
    layer: dict[tuple[Track, tuple[str, ...]], float] = {(track, inside): 1.0}
    for depth in range(draws_left):
        last = depth == draws_left - 1
        following: dict[tuple[Track, tuple[str, ...]], float] = defaultdict(float)
        for (board, dice), weight in layer.items():
            share = weight / (len(dice) * len(faces))
            for die in dice:
                rest = tuple(other for other in dice if other != die)
                if die == GREY_DIE:
                    moves = [(camel, count / colours) for camel, count in _grey_moves(board, edition)]
                else:
                    moves = [(die, 1.0)]
                for camel, part in moves:
                    p = share * part
                    for steps in faces:
                        moved, tile, end = step_camel(board, camel, steps, edition, tiles)
                        if tile is not None:
                            landings[tile.space] += p
                        else:
                            ends[end] += p
                        finished = end < 1 or end > edition.track_length
                        if finished:
                            crossed += p
                        if finished or last:
                            if rank:  # ranking each final board costs less than merging them first
                                leader, runner_up = moved.leaders(racing)
                                first[leader] += p
                                second[runner_up] += p
                        else:
                            following[(moved, rest)] += p
        layer = following

    if draws_left == 0 and rank:
        leader, runner_up = track.leaders(racing)
        first[leader] += 1.0
        second[runner_up] += 1.0
    return LegOdds(first, second, crossed, dict(landings), _on_track(ends, edition))


def _on_track(ends: Mapping[int, float], edition: Edition) -> dict[int, float]:
    return {space: p for space, p in sorted(ends.items()) if 1 <= space <= edition.track_length}


def draws_left_in_leg(state: GameState) -> int:
    return state.edition.draws_per_leg - len(state.dice_out)


def exact_leg_odds(
    state: GameState, tiles: Mapping[int, Tile] | None = None, horizon: int | None = None
) -> LegOdds:
    """Exact odds for the rest of the leg in progress (``tiles`` replaces the tiles on the track).

    ``horizon`` looks only that many draws ahead, as if the leg were scored then (a quick estimate).
    """
    draws = 0 if state.game_over else draws_left_in_leg(state)
    return leg_distribution(
        state.track,
        state.tiles_by_space() if tiles is None else tiles,
        state.dice_in_pyramid(),
        draws if horizon is None else min(draws, horizon),
        state.edition,
    )


def random_draw(
    board: Track,
    dice: list[str],
    rand: Callable[[], float],
    edition: Edition,
    tiles: Mapping[int, Tile],
) -> tuple[Track, Tile | None, int]:
    """One random die out of ``dice`` (removed from it), a random face and grey colour, and the engine's
    move: what sampled leg odds and race rollouts both do, many thousands of times."""
    die = dice.pop(int(rand() * len(dice)))
    faces = edition.die_faces
    steps = faces[int(rand() * len(faces))]
    if die == GREY_DIE:
        crazy = edition.crazy_camels
        camel = crazy_camel_to_move(board, crazy[int(rand() * len(crazy))], edition)
    else:
        camel = die
    return step_camel(board, camel, steps, edition, tiles)


def sampled_leg_odds(state: GameState, samples: int, rng: random.Random) -> LegOdds:
    """Monte Carlo leg odds (for bots that cannot wait, and to cross-check the exact ones)."""
    edition = state.edition
    racing = frozenset(edition.racing_camels)
    tiles = state.tiles_by_space()
    first: dict[str, float] = dict.fromkeys(edition.racing_camels, 0.0)
    second: dict[str, float] = dict.fromkeys(edition.racing_camels, 0.0)
    landings: dict[int, float] = defaultdict(float)
    ends: dict[int, float] = defaultdict(float)
    crossed = 0
    draws = 0 if state.game_over else draws_left_in_leg(state)
    inside = state.dice_in_pyramid()
    rand = rng.random
    for _ in range(samples):
        board = state.track
        dice = list(inside)
        for _ in range(draws):
            board, tile, end = random_draw(board, dice, rand, edition, tiles)
            if tile is not None:
                landings[tile.space] += 1
            else:
                ends[end] += 1
            if end < 1 or end > edition.track_length:
                crossed += 1
                break
        leader, runner_up = board.leaders(racing)
        first[leader] += 1
        second[runner_up] += 1
    return LegOdds(
        {camel: count / samples for camel, count in first.items()},
        {camel: count / samples for camel, count in second.items()},
        crossed / samples,
        {space: count / samples for space, count in landings.items()},
        _on_track({space: count / samples for space, count in ends.items()}, edition),
        samples=samples,
    )


# -- expected values --------------------------------------------------------------------------------------


def leg_ticket_evs(state: GameState, odds: LegOdds) -> dict[str, float | None]:
    """Expected coins from taking each colour's top leg ticket now (``None``: no ticket left)."""
    edition = state.edition
    evs: dict[str, float | None] = {}
    for camel, left in state.tickets_left_by_camel().items():
        if not left:
            evs[camel] = None
            continue
        p1, p2 = odds.first[camel], odds.second[camel]
        evs[camel] = (
            left[0] * p1 + edition.second_place_reward * p2 + edition.other_place_reward * (1.0 - p1 - p2)
        )
    return evs


def pyramid_ticket_ev(state: GameState) -> float:
    """A pyramid ticket always pays at the leg's scoring, even when the race ends during the leg."""
    return float(state.edition.pyramid_ticket_reward)


def tile_evs(
    state: GameState,
    player: str | None = None,
    progress: Callable[[list[tuple[int, str]]], Iterable[tuple[int, str]]] | None = None,
) -> dict[tuple[int, str], float]:
    """Expected coins ``player``'s tile would earn on each space and side where it may go now, for the
    rest of the leg (each placement is its own exact enumeration: the tile changes the moves).

    ``progress`` may wrap the list of spots (a progress bar: early in a leg this takes seconds).
    """
    player = player or state.current_player
    if player is None:
        return {}
    others = {space: tile for space, tile in state.tiles_by_space().items() if tile.owner != player}
    as_player = _as_turn_of(state, player)
    spots = [
        (space, side)
        for space in range(2, state.edition.track_length + 1)
        for side in state.edition.tile_sides
        if is_legal(as_player, PlaceTile(player, space, side))
    ]
    evs = {}
    for space, side in progress(spots) if progress else spots:
        tiles = {**others, space: Tile(space, player, side)}
        odds = leg_distribution(
            state.track, tiles, state.dice_in_pyramid(), draws_left_in_leg(state), state.edition, rank=False
        )
        evs[(space, side)] = odds.tile_landings.get(space, 0.0) * state.edition.tile_reward
    return evs


def _as_turn_of(state: GameState, player: str) -> GameState:
    """The same state with ``player`` to act, to ask where their tile could go."""
    return state.evolve(turn=state.players.index(player))
