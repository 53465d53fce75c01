"""Odds on the paths random games rarely take: a crazy camel crossing the line backwards, tiles at a leg's
end in race rollouts, and sampled legs in which the race ends."""

from __future__ import annotations

import random

import pytest

from companion.odds import exact_leg_odds, race_odds, sampled_leg_odds, tile_evs
from companion.rules import EDITION_2014, EDITION_2018, LegBet, PlaceTile, PyramidTicket, apply, new_game
from tests.test_odds import assert_same, engine_brute_force


def test_a_crazy_camel_crossing_backwards_ends_the_race_in_exact_leg_odds():
    # Black (carrying green) stands on space 1: any grey draw that moves black takes it over the line
    # backwards, which ends the race; exact odds must stop those paths as the engine does.
    state = new_game(EDITION_2018, ["Ann", "Bob"],
                     {1: ("black", "green"), 3: ("white",), 5: ("yellow",), 6: ("red",), 7: ("blue", "purple")})
    for player, die in (("Ann", "yellow"), ("Bob", "red"), ("Ann", "blue")):
        state = apply(state, PyramidTicket(player, die, 1))
    assert "grey" in state.dice_in_pyramid() and not state.game_over
    exact = exact_leg_odds(state)
    assert exact.race_ends > 0.05
    assert_same(exact, *engine_brute_force(state))


def _last_draw_of_a_leg_with_a_far_tile(with_tile: bool):
    state = new_game(EDITION_2014, ["Ann", "Bob"], {1: ("blue", "green"), 2: ("orange", "yellow", "white")})
    first = PlaceTile("Ann", 14, EDITION_2014.tile_sides[0]) if with_tile else LegBet("Ann", "blue")
    state = apply(state, first)  # either way Bob is next and no die has been drawn
    for index, die in enumerate(("blue", "green", "orange", "yellow")):
        state = apply(state, PyramidTicket(state.current_player, die, 1))
        assert state.leg == 1, index
    return state


def test_race_rollouts_take_the_tiles_back_at_the_leg_s_end():
    # The tile on 14 cannot be reached by the leg's last draw; after it, tiles go back to their owners, so
    # the race odds must be exactly those of the same board without the tile (same seed, same dice).
    with_tile = _last_draw_of_a_leg_with_a_far_tile(True)
    without = _last_draw_of_a_leg_with_a_far_tile(False)
    assert with_tile.tiles and not without.tiles and with_tile.track == without.track
    assert with_tile.dice_in_pyramid() == without.dice_in_pyramid() == ("white",)
    odds_with, odds_without = race_odds(with_tile, 3000, seed=5), race_odds(without, 3000, seed=5)
    assert odds_with.win == odds_without.win and odds_with.lose == odds_without.lose


def test_sampled_legs_stop_where_the_race_ends():
    # Camels on the last spaces: most legs end the race before their last draw.
    state = new_game(EDITION_2014, ["Ann", "Bob"],
                     {12: ("white",), 13: ("blue",), 14: ("green", "orange"), 15: ("yellow",)})
    exact = exact_leg_odds(state)
    sampled = sampled_leg_odds(state, 6000, random.Random(11))
    assert exact.race_ends > 0.5
    assert sampled.race_ends == pytest.approx(exact.race_ends, abs=2 * sampled.interval(exact.race_ends))
    for camel in exact.first:
        assert abs(sampled.first[camel] - exact.first[camel]) <= 2 * sampled.interval(exact.first[camel])
        assert abs(sampled.second[camel] - exact.second[camel]) <= 2 * sampled.interval(exact.second[camel])



def _states_with_own_tile(count: int):
    """Mid-leg states of random games (two or three draws left) in which the player to act has a tile."""
    from tests.test_odds import mid_leg_states

    found = []
    for seed in range(400):
        _, states = mid_leg_states(seed, max_draws_left=3)
        for state, _ in states:
            left = state.edition.draws_per_leg - len(state.dice_out)
            if state.tile_of(state.current_player) is not None and left >= 2:
                found.append(state)
                break
        if len(found) == count:
            return found
    raise AssertionError("too few states with a tile")


def test_every_tile_spot_s_value_matches_the_engine_when_the_player_moves_their_tile():
    # The player's tile already stands on the track: each spot's value is that of the tile moved there (its
    # old spot empty), counted by brute force through the engine's apply.
    from tests.test_odds import _tile_coins

    for state in _states_with_own_tile(6):
        player = state.current_player
        gross = tile_evs(state, net=False)
        for spot, value in gross.items():
            moved = apply(state, PlaceTile(player, *spot))
            assert value == pytest.approx(_tile_coins(moved, player), abs=1e-12), (spot, state.tiles)


def test_a_tile_s_old_spot_no_longer_moves_camels_when_valuing_its_new_one():
    # Ann's oasis on 9, yellow carrying blue on 8, yellow's and blue's dice left. Moved to 10, the tile is hit
    # when yellow (with blue) goes to 9 and blue then steps onto 10; were the oasis still on 9, yellow's move
    # would carry them on to 10 at once (not a landing on the new spot) and blue would then step past it.
    from tests.test_odds import _tile_coins

    state = new_game(EDITION_2014, ["Ann", "Bob"], {8: ("yellow", "blue"), 1: ("green",), 2: ("orange",),
                                                    3: ("white",)})
    state = apply(state, PlaceTile("Ann", 9, "oasis"))
    for die in ("green", "orange", "white"):
        state = apply(state, PyramidTicket(state.current_player, die, 1))
    assert state.current_player == "Ann" and set(state.dice_in_pyramid()) == {"yellow", "blue"}
    moved = apply(state, PlaceTile("Ann", 10, "oasis"))
    assert tile_evs(state, net=False)[(10, "oasis")] == pytest.approx(_tile_coins(moved, "Ann"), abs=1e-12)
    assert _tile_coins(moved, "Ann") > 0
