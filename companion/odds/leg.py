"""Exact leg odds: every remaining draw sequence of the leg, weighted by its true probability.

Sequences that reach the same board with the same dice still inside are merged layer by layer, so the work
grows with the number of distinct boards, not with the number of sequences (1,049,760 at a 2018 leg
start). Moves are the engine's own: :mod:`companion.rules.batch` (its move rule for a whole layer of boards
at once) for the exact odds, :func:`~companion.rules.track.step_camel` and
:func:`~companion.rules.track.crazy_camel_to_move` for sampled legs; nothing here re-implements a rule.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from companion.rules import GREY_DIE, Edition, GameState, PlaceTile, Tile, Track, crazy_camel_to_move, is_legal
from companion.rules.batch import Boards, batch_rules, boards_from_tracks, crazy_camels_to_move, leaders, step_camels
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

    ``rank=False`` skips ranking the final boards (``first`` and ``second`` stay 0): what valuing a tile
    spot needs.
    """
    if draws_left == 0:
        first = dict.fromkeys(edition.racing_camels, 0.0)
        second = dict.fromkeys(edition.racing_camels, 0.0)
        if rank:
            leader, runner_up = track.leaders(frozenset(edition.racing_camels))
            first[leader] = second[runner_up] = 1.0
        return LegOdds(first, second, 0.0, {}, {})
    if draws_left == 1:
        return _last_draw(track, tiles, inside, edition, rank)
    return _layers(track, tiles, inside, draws_left, edition, rank)


def _last_draw(
    track: Track, tiles: Mapping[int, Tile], inside: tuple[str, ...], edition: Edition, rank: bool
) -> LegOdds:
    """One draw left: a few dozen moves, one engine call each (numpy's fixed costs would dominate)."""
    racing = frozenset(edition.racing_camels)
    first = dict.fromkeys(edition.racing_camels, 0.0)
    second = dict.fromkeys(edition.racing_camels, 0.0)
    landings: dict[int, float] = defaultdict(float)
    ends: dict[int, float] = defaultdict(float)
    crossed = 0.0
    share = 1.0 / (len(inside) * len(edition.die_faces))
    for die in inside:
        if die == GREY_DIE:
            colours = edition.crazy_camels
            moves = [(crazy_camel_to_move(track, colour, edition), share / len(colours)) for colour in colours]
        else:
            moves = [(die, share)]
        for camel, p in moves:
            for steps in edition.die_faces:
                moved, tile, end = step_camel(track, camel, steps, edition, tiles)
                if tile is not None:
                    landings[tile.space] += p
                else:
                    ends[end] += p
                if end < 1 or end > edition.track_length:
                    crossed += p
                if rank:
                    leader, runner_up = moved.leaders(racing)
                    first[leader] += p
                    second[runner_up] += p
    return LegOdds(first, second, crossed, dict(landings), _on_track(ends, edition))


def _layers(
    track: Track,
    tiles: Mapping[int, Tile],
    inside: tuple[str, ...],
    draws_left: int,
    edition: Edition,
    rank: bool,
) -> LegOdds:
    """Layer by layer, every board of the layer takes every die, face and grey colour at once (the engine's
    move rule in array form, :mod:`companion.rules.batch`); boards with the same dice still inside are then
    merged."""
    racing = edition.racing_camels
    first = np.zeros(len(racing))
    second = np.zeros(len(racing))
    rules = batch_rules(edition, tiles)
    dice = edition.dice
    popcount = np.array([bin(bits).count("1") for bits in range(1 << len(dice))])
    faces = np.array(edition.die_faces, dtype=np.int8)
    boards = boards_from_tracks([track], edition)
    inside_bits = np.array([sum(1 << dice.index(die) for die in inside)], dtype=np.int64)
    weight = np.ones(1)
    landings: dict[int, float] = defaultdict(float)
    ends: dict[int, float] = defaultdict(float)
    crossed = 0.0
    for depth in range(draws_left):
        if not len(weight):
            break  # the race has ended on every path
        # Every (board, die, grey colour) of the layer as one row each, then every face.
        rows, camels, shares, bits = [], [], [], []
        for bit, die in enumerate(dice):
            holding = np.flatnonzero(inside_bits & (1 << bit))
            if not holding.size:
                continue
            share = weight[holding] / (popcount[inside_bits[holding]] * len(faces))
            if die == GREY_DIE:
                colours = len(rules.crazy)
                chosen = [crazy_camels_to_move(boards.take(holding), c, rules) for c in range(colours)]
                share = share / colours
            else:
                chosen = [np.full(holding.size, edition.camels.index(die), dtype=np.int64)]
            for camel in chosen:
                rows.append(holding)
                camels.append(camel)
                shares.append(share)
                bits.append(np.full(holding.size, 1 << bit))
        row = np.repeat(np.concatenate(rows), len(faces))
        p = np.repeat(np.concatenate(shares), len(faces))
        steps = np.tile(faces, len(row) // len(faces))
        moved, tile_space, end = step_camels(
            boards.take(row), np.repeat(np.concatenate(camels), len(faces)), steps, rules
        )

        on_tile = tile_space != 0
        _add(landings, tile_space[on_tile], p[on_tile])
        _add(ends, end[~on_tile], p[~on_tile])
        finished = (end < 1) | (end > edition.track_length)
        crossed += float(p[finished].sum())
        last = depth == draws_left - 1
        if rank:
            ranked, p_ranked = (moved, p) if last else (moved.take(finished), p[finished])
            leader, runner_up = leaders(ranked, rules)
            first += np.bincount(leader, p_ranked, minlength=len(racing))
            second += np.bincount(runner_up, p_ranked, minlength=len(racing))
        if last:
            break
        going_on = ~finished
        moved = moved.take(going_on)
        inside_bits = (inside_bits[row] & ~np.repeat(np.concatenate(bits), len(faces)))[going_on]
        boards, inside_bits, weight = _merge(moved, inside_bits, p[going_on])
    return _leg_odds(edition, first, second, crossed, landings, ends)


def _add(totals: dict[int, float], spaces: np.ndarray, p: np.ndarray) -> None:
    if not spaces.size:
        return
    low = int(spaces.min())
    for index, value in enumerate(np.bincount(spaces - low, p)):
        if value:
            totals[low + index] += float(value)


def _merge(boards: Boards, inside_bits: np.ndarray, weight: np.ndarray) -> tuple[Boards, np.ndarray, np.ndarray]:
    """One row per distinct (board, dice still inside), with the summed weight of the rows merged."""
    space, height = boards
    # Every camel's space (1..16 while the race runs) and height (< 8) in one byte, the dice in the low byte:
    # up to 7 camels and 8 dice fit 64 bits.
    assert space.shape[1] <= 7
    key = inside_bits.astype(np.uint64)
    for column in range(space.shape[1]):
        byte = space[:, column].astype(np.uint64) * np.uint64(8) + height[:, column].astype(np.uint64)
        key |= byte << np.uint64(8 * (column + 1))
    _, index, inverse = np.unique(key, return_index=True, return_inverse=True)
    return boards.take(index), inside_bits[index], np.bincount(inverse.ravel(), weight)


def _leg_odds(
    edition: Edition,
    first: np.ndarray,
    second: np.ndarray,
    crossed: float,
    landings: Mapping[int, float],
    ends: Mapping[int, float],
) -> LegOdds:
    racing = edition.racing_camels
    return LegOdds(
        {camel: float(first[i]) for i, camel in enumerate(racing)},
        {camel: float(second[i]) for i, camel in enumerate(racing)},
        crossed,
        dict(landings),
        _on_track(ends, edition),
    )


def _on_track(ends: Mapping[int, float], edition: Edition) -> dict[int, float]:
    return {space: p for space, p in sorted(ends.items()) if 1 <= space <= edition.track_length}


def draws_left_in_leg(state: GameState) -> int:
    return state.edition.draws_per_leg - len(state.dice_out)


def exact_leg_odds(state: GameState, tiles: Mapping[int, Tile] | None = None, horizon: int | None = None) -> LegOdds:
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
    """Expected coins from taking each colour's top leg ticket now (``None``: no ticket left): its printed
    value times P(first) + 1 × P(second) − 1 × P(neither).

    Two rules are left out, as the odds report says: the leg's net is floored at 0 EP (a player with little
    money loses less than the −1 counted here), and a partner (2018, 6+ players) may copy the ticket's
    reward when it is their best (a gain for the partner, not counted for the taker)."""
    edition = state.edition
    evs: dict[str, float | None] = {}
    for camel, left in state.tickets_left_by_camel().items():
        if not left:
            evs[camel] = None
            continue
        p1, p2 = odds.first[camel], odds.second[camel]
        evs[camel] = left[0] * p1 + edition.second_place_reward * p2 + edition.other_place_reward * (1.0 - p1 - p2)
    return evs


def pyramid_ticket_ev(state: GameState) -> float:
    """A pyramid ticket always pays at the leg's scoring, even when the race ends during the leg."""
    return float(state.edition.pyramid_ticket_reward)


def tile_ev_where_it_is(state: GameState, player: str) -> float:
    """Expected coins ``player``'s tile already on the track earns for the rest of the leg if left there
    (0 when the player's tile is not on the track)."""
    own = state.tile_of(player)
    if own is None or state.game_over:
        return 0.0
    odds = leg_distribution(
        state.track, state.tiles_by_space(), state.dice_in_pyramid(), draws_left_in_leg(state), state.edition,
        rank=False,
    )
    return odds.tile_landings.get(own.space, 0.0) * state.edition.tile_reward


def tile_evs(
    state: GameState,
    player: str | None = None,
    progress: Callable[[list[tuple[int, str]]], Iterable[tuple[int, str]]] | None = None,
    net: bool = True,
) -> dict[tuple[int, str], float]:
    """Expected coins ``player`` gains by putting their tile on each space and side where it may go now,
    for the rest of the leg (each placement is its own exact enumeration: the tile changes the moves).

    ``net`` (the default) subtracts what the player's tile already on the track would earn if left where
    it is (:func:`tile_ev_where_it_is`): moving a tile gives that up, so a spot worth no more than the
    current one gains 0. ``net=False`` gives what the tile would earn on the new spot alone.
    ``progress`` may wrap the list of spots (a progress bar: early in a leg this takes seconds).
    """
    player = player or state.current_player
    if player is None:
        return {}
    kept = tile_ev_where_it_is(state, player) if net else 0.0
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
        evs[(space, side)] = odds.tile_landings.get(space, 0.0) * state.edition.tile_reward - kept
    return evs


def _as_turn_of(state: GameState, player: str) -> GameState:
    """The same state with ``player`` to act, to ask where their tile could go."""
    return state.evolve(turn=state.players.index(player))
