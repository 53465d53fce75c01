"""Move instructions for whoever moves the camels: as words (English) and as facts the pages word in French."""

from companion.rules import EDITION_2014, EDITION_2018, Tile, Track, move_camel
from companion.sim.narrate import describe_movement, movement_facts


def track(**spaces: str) -> Track:
    return Track.from_mapping({int(key[1:]): tuple(value.split()) for key, value in spaces.items()})


def test_a_carried_unit_landing_on_a_stack_is_told_where_it_sits():
    after, movement = move_camel(track(s5="purple green", s7="yellow"), "purple", 2, EDITION_2018)
    facts = movement_facts(movement, after)
    assert facts == {"camel": "purple", "steps": 2, "carried": ["green"], "tile": None, "end": 7,
                     "on": "yellow", "under": None, "crossed": False}
    assert describe_movement(movement, after) == "Move purple 2 (carrying green): space 7, on top of yellow"


def test_a_minus_tile_sends_the_unit_back_under_the_stack():
    tiles = {6: Tile(6, "Ann", "mirage")}
    after, movement = move_camel(track(s3="orange", s5="yellow white"), "orange", 3, EDITION_2014, tiles)
    facts = movement_facts(movement, after)
    assert facts["tile"] == {"owner": "Ann", "space": 6} and facts["under"] == "yellow" and facts["on"] is None
    assert describe_movement(movement, after) == (
        "Move orange 3: lands on Ann's tile on space 6 (Ann +1), then steps to space 5, under yellow"
    )


def test_crossing_the_finish_line_is_said():
    after, movement = move_camel(track(s15="orange", s2="blue"), "orange", 3, EDITION_2014)
    assert movement_facts(movement, after)["crossed"]
    assert describe_movement(movement).endswith("— across the finish line!")
