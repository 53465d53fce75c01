"""Odds on the paths random games rarely take: a crazy camel crossing the line backwards, tiles at a leg's
end in race rollouts, and sampled legs in which the race ends."""

from __future__ import annotations

import random

import pytest

from companion.odds import exact_leg_odds, race_odds, sampled_leg_odds
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
