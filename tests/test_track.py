"""Camel movement, stacking, tiles, crazy camels and the ranking (the rulebooks' stacking examples)."""

import pytest

from companion.rules import EDITION_2014, EDITION_2018, Tile, Track, crazy_camel_to_move, move_camel


def track(**spaces: str) -> Track:
    """``track(s3="orange yellow")``: space 3 holds orange with yellow on top."""
    return Track.from_mapping({int(key[1:]): tuple(value.split()) for key, value in spaces.items()})


def test_a_camel_carries_everything_on_top_and_leaves_what_is_below():
    # 2014 rulebook: "The orange Die shows a 3. The orange Camel moves 3 spaces forward carrying along the
    # yellow Camel." Blue, beneath orange, stays where it is.
    before = track(s4="blue orange yellow")
    after, movement = move_camel(before, "orange", 3, EDITION_2014)
    assert after.as_dict() == {4: ("blue",), 7: ("orange", "yellow")}
    assert movement.unit == ("orange", "yellow")
    assert (movement.start, movement.end, movement.crossed_finish) == (4, 7, False)


def test_a_unit_that_lands_on_camels_jumps_on_top():
    # 2014 rulebook: white shows 2, carries green, and lands on yellow: white and green jump on top.
    before = track(s2="white green", s4="yellow")
    after, _ = move_camel(before, "white", 2, EDITION_2014)
    assert after.as_dict() == {4: ("yellow", "white", "green")}


def test_2018_example_purple_carries_green_onto_yellow():
    before = track(s5="purple green", s7="yellow")
    after, _ = move_camel(before, "purple", 2, EDITION_2018)
    assert after.stack_at(7) == ("yellow", "purple", "green")


def test_plus_tile_moves_the_unit_one_more_space_on_top():
    tiles = {6: Tile(6, "Ann", "oasis")}
    before = track(s5="green", s7="blue")
    after, movement = move_camel(before, "green", 1, EDITION_2014, tiles)
    assert after.as_dict() == {7: ("blue", "green")}
    assert movement.tile == tiles[6]
    assert (movement.landing, movement.end, movement.underneath) == (6, 7, False)


def test_minus_tile_moves_the_unit_back_underneath():
    tiles = {6: Tile(6, "Ann", "mirage")}
    before = track(s3="orange", s5="yellow white")
    after, movement = move_camel(before, "orange", 3, EDITION_2014, tiles)
    assert after.as_dict() == {5: ("orange", "yellow", "white")}
    assert movement.underneath


def test_minus_tile_can_put_the_unit_back_under_its_own_former_stack():
    # Red leaves blue behind on 5, lands on the booing tile on 6 and steps back under blue.
    tiles = {6: Tile(6, "Bob", "boo")}
    before = track(s5="blue red yellow")
    after, _ = move_camel(before, "red", 1, EDITION_2018, tiles)
    assert after.as_dict() == {5: ("red", "yellow", "blue")}


def test_crazy_camels_move_counterclockwise_and_carry_racers():
    before = track(s10="black red", s8="green")
    after, movement = move_camel(before, "black", 2, EDITION_2018)
    assert after.as_dict() == {8: ("green", "black", "red")}
    assert movement.end == 8


def test_cheering_tile_pushes_a_crazy_camel_further_counterclockwise():
    # Decision 5: a crazy camel's forward is counterclockwise.
    tiles = {9: Tile(9, "Ann", "cheer")}
    before = track(s11="white", s8="blue")
    after, movement = move_camel(before, "white", 2, EDITION_2018, tiles)
    assert after.as_dict() == {8: ("blue", "white")}
    assert movement.end == 8 and not movement.underneath


def test_booing_tile_sends_a_crazy_camel_back_clockwise_underneath():
    tiles = {9: Tile(9, "Ann", "boo")}
    before = track(s11="white", s10="yellow")
    after, movement = move_camel(before, "white", 2, EDITION_2018, tiles)
    assert after.as_dict() == {10: ("white", "yellow")}
    assert movement.underneath


@pytest.mark.parametrize(
    ("start", "camel", "steps", "end"),
    [(16, "red", 1, 17), (15, "red", 3, 18), (1, "black", 1, 0), (2, "white", 3, -1)],
)
def test_crossing_the_finish_line_keeps_the_position_past_the_track(start, camel, steps, end):
    others = {"red": "green", "black": "white", "white": "black"}
    before = Track.from_mapping({start: (camel,), 8: (others[camel],)})
    after, movement = move_camel(before, camel, steps, EDITION_2018)
    assert movement.crossed_finish
    assert after.stack_at(end) == (camel,)


def test_a_tile_step_can_cross_the_finish_line():
    tiles = {16: Tile(16, "Cy", "cheer")}
    _, movement = move_camel(track(s14="red"), "red", 2, EDITION_2018, tiles)
    assert (movement.landing, movement.end, movement.crossed_finish) == (16, 17, True)


def test_ranking_is_position_then_height_and_ignores_crazy_camels():
    board = track(s3="green", s5="blue black red", s7="white", s0="yellow", s17="purple")
    assert board.ranking(EDITION_2018.racing_camels) == ("purple", "red", "blue", "green", "yellow")


# -- decision 3: which crazy camel the grey die moves ------------------------------------------------------


@pytest.mark.parametrize(
    ("board", "colour", "moves"),
    [
        # Neither carries racers, apart: the colour decides.
        (track(s14="black", s16="white"), "white", "white"),
        (track(s14="black", s16="white"), "black", "black"),
        # Exactly one carries a racer: it moves whatever the colour.
        (track(s14="black red", s16="white"), "white", "black"),
        (track(s14="black", s16="white green"), "black", "white"),
        # A racer between them: only the lower one has a racer above it.
        (track(s12="black red white"), "white", "black"),
        # One sits directly on the other, no racers: the upper one moves.
        (track(s15="white black"), "white", "black"),
        (track(s15="black white"), "black", "white"),
        # Both have a racer above (it sits on the upper one): then the upper one moves.
        (track(s15="black white red"), "black", "white"),
        # Both carry racers on different spaces: the colour decides.
        (track(s10="black red", s12="white blue"), "white", "white"),
        (track(s10="black red", s12="white blue"), "black", "black"),
        # A racer under both does not count: only camels above.
        (track(s9="red black white"), "black", "white"),
        (track(s9="red black", s11="white"), "white", "white"),
    ],
)
def test_which_crazy_camel_moves(board, colour, moves):
    assert crazy_camel_to_move(board, colour, EDITION_2018) == moves
