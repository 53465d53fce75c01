"""Leg odds at their edges (companion/odds/leg.py): a finished race, a sampled leg against the exact one on a
board small enough to sample quickly, and the sampled interval. Found by mutation testing with the quick tests."""

import math
import random

import pytest

from companion.odds import exact_leg_odds, sampled_leg_odds
from companion.odds.leg import LegOdds
from companion.rules import EDITION_2018, PlaceTile, PyramidTicket, apply, new_game

SETUP = {1: ("green", "red"), 3: ("yellow", "blue", "purple"), 14: ("black",), 16: ("white",)}


def late_in_the_leg():
    """Three dice out, a cheer tile on 6: two draws left among red, purple and grey."""
    state = new_game(EDITION_2018, ["Ann", "Bob"], SETUP)
    for action in (PlaceTile("Ann", 6, "cheer"), PyramidTicket("Bob", "green", 1, None),
                   PyramidTicket("Ann", "yellow", 1, None), PyramidTicket("Bob", "blue", 1, None)):
        state = apply(state, action)
    return state


def test_a_finished_race_has_its_order_for_certain_in_exact_and_sampled_odds():
    over = new_game(EDITION_2018, ["Ann", "Bob"], SETUP).evolve(game_over=True)
    for odds in (exact_leg_odds(over), sampled_leg_odds(over, 20, random.Random(1))):
        assert odds.first == {"green": 0.0, "yellow": 0.0, "red": 0.0, "blue": 0.0, "purple": 1.0}
        assert odds.second == {"green": 0.0, "yellow": 0.0, "red": 0.0, "blue": 1.0, "purple": 0.0}
        assert odds.race_ends == 0.0 and odds.tile_landings == {} and odds.space_landings == {}


def test_sampled_leg_odds_agree_with_the_exact_ones_on_every_number():
    state = late_in_the_leg()
    exact = exact_leg_odds(state)
    sampled = sampled_leg_odds(state, 3000, random.Random(5))
    assert exact.race_ends == 0.0 and sampled.race_ends == 0.0  # nothing can reach the line in two draws
    for camel in exact.first:
        assert sampled.first[camel] == pytest.approx(exact.first[camel], abs=0.04)
        assert sampled.second[camel] == pytest.approx(exact.second[camel], abs=0.04)
    assert set(sampled.tile_landings) == set(exact.tile_landings) == {6}
    assert sampled.tile_landings[6] == pytest.approx(exact.tile_landings[6], abs=0.04)
    assert set(sampled.space_landings) == set(exact.space_landings)
    for space, expected in exact.space_landings.items():
        assert sampled.space_landings[space] == pytest.approx(expected, abs=0.04)
    assert sum(exact.space_landings.values()) + sum(exact.tile_landings.values()) == pytest.approx(2.0)


def test_the_interval_is_zero_for_exact_odds_and_shrinks_with_samples():
    exact = LegOdds({}, {}, 0.0, {}, {})
    assert exact.interval(0.5) == 0.0
    sampled = LegOdds({}, {}, 0.0, {}, {}, samples=400)
    assert sampled.interval(0.5) == pytest.approx(1.96 * math.sqrt(0.25 / 400))
    assert sampled.interval(0.9) == pytest.approx(1.96 * math.sqrt(0.09 / 400))


def test_race_odds_of_a_forced_finish_are_certain():
    """Blue rides on red at 16; the last draw of the leg is red or blue, and either carries blue over the line
    first; purple is at the bottom of the last stack. Every rollout must give blue first and purple last."""
    from companion.odds import race_odds

    setup = {16: ("red", "blue"), 10: ("green",), 11: ("yellow",), 12: ("purple",), 5: ("black",), 3: ("white",)}
    state = new_game(EDITION_2018, ["Ann", "Bob"], setup)
    for player, die, crazy in (("Ann", "green", None), ("Bob", "yellow", None), ("Ann", "purple", None),
                               ("Bob", "grey", "white")):
        state = apply(state, PyramidTicket(player, die, 1, crazy))
    assert sorted(state.dice_in_pyramid()) == ["blue", "red"] and state.track.as_dict()[13] == (
        "purple", "yellow", "green")
    odds = race_odds(state, 300, 2)
    assert odds.win["blue"] == 1.0 and odds.lose["purple"] == 1.0


def test_race_odds_count_the_tiles_already_on_the_track():
    """Red on 15 with a cheer tile on 16: a red 1 lands on the tile and steps over the line this leg. The race
    odds must see the tile (seeded, so the comparison is the same every run)."""
    from companion.odds import race_odds
    from companion.rules import LegBet

    setup = {15: ("red",), 9: ("green",), 10: ("yellow",), 11: ("blue", "purple"), 5: ("black",), 3: ("white",)}

    def late_leg(first):
        state = new_game(EDITION_2018, ["Ann", "Bob"], setup)
        for action in (first, PyramidTicket("Bob", "green", 1, None), PyramidTicket("Ann", "yellow", 1, None),
                       PyramidTicket("Bob", "blue", 1, None), PyramidTicket("Ann", "purple", 1, None)):
            state = apply(state, action)
        return state

    with_tile = race_odds(late_leg(PlaceTile("Ann", 16, "cheer")), 2000, 3).win["red"]
    without = race_odds(late_leg(LegBet("Ann", "green")), 2000, 3).win["red"]
    assert with_tile > without + 0.03
