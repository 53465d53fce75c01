"""The array form of the move rule (companion.rules.batch) agrees with the engine's one-board functions."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import EDITION_2014, EDITION_2018, Tile, Track, crazy_camel_to_move
from companion.rules.batch import (
    batch_rules,
    board_track,
    boards_from_tracks,
    crazy_camels_to_move,
    leaders,
    step_camels,
)
from companion.rules.track import step_camel


@st.composite
def boards_and_tiles(draw, edition):
    """Several random boards (every camel on 1..16, random stacks) and random tiles on empty spaces."""
    tracks = []
    # A narrow stretch of track now and then, so stacks, crazy camels riding each other and units stepping
    # back under a stack from a minus tile come up often.
    low = draw(st.integers(1, edition.track_length - 3))
    high = draw(st.integers(low + 2, edition.track_length))
    for _ in range(draw(st.integers(1, 12))):
        camels = draw(st.permutations(edition.camels))
        spaces = [draw(st.integers(low, high)) for _ in camels]
        stacks: dict[int, list[str]] = {}
        for camel, space in zip(camels, spaces, strict=True):
            stacks.setdefault(space, []).append(camel)
        tracks.append(Track.from_mapping(stacks))
    occupied = {space for track in tracks for space, _ in track}
    free = [space for space in range(2, edition.track_length + 1) if space not in occupied]
    tiles = {}
    for space in draw(st.lists(st.sampled_from(free), unique=True, max_size=4)) if free else []:
        tiles[space] = Tile(space, "Ann", draw(st.sampled_from(edition.tile_sides)))
    return tracks, tiles


@settings(max_examples=150, deadline=None)
@given(data=st.data(), edition=st.sampled_from([EDITION_2014, EDITION_2018]))
def test_step_camels_moves_every_board_as_step_camel_does(data, edition):
    tracks, tiles = data.draw(boards_and_tiles(edition))
    # Every camel with every face on every board, one row each.
    moves = [(track, camel, steps) for track in tracks for camel in edition.camels for steps in edition.die_faces]
    moved, tile_space, end = step_camels(
        boards_from_tracks([track for track, _, _ in moves], edition),
        np.array([edition.camels.index(camel) for _, camel, _ in moves]),
        np.array([steps for _, _, steps in moves], dtype=np.int8),
        batch_rules(edition, tiles),
    )
    for row, (track, camel, steps) in enumerate(moves):
        expected, tile, expected_end = step_camel(track, camel, steps, edition, tiles)
        assert board_track(moved, row, edition) == expected
        assert int(end[row]) == expected_end
        assert int(tile_space[row]) == (tile.space if tile else 0)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_the_grey_die_chooses_the_same_crazy_camel_as_the_engine(data):
    edition = EDITION_2018
    tracks, _ = data.draw(boards_and_tiles(edition))
    rules = batch_rules(edition, {})
    boards = boards_from_tracks(tracks, edition)
    for colour_index, colour in enumerate(edition.crazy_camels):
        chosen = crazy_camels_to_move(boards, colour_index, rules)
        for row, track in enumerate(tracks):
            assert edition.camels[chosen[row]] == crazy_camel_to_move(track, colour, edition)


@settings(max_examples=100, deadline=None)
@given(data=st.data(), edition=st.sampled_from([EDITION_2014, EDITION_2018]))
def test_leaders_rank_as_the_track_does(data, edition):
    tracks, _ = data.draw(boards_and_tiles(edition))
    first, second = leaders(boards_from_tracks(tracks, edition), batch_rules(edition, {}))
    racing = edition.racing_camels
    for row, track in enumerate(tracks):
        assert (racing[first[row]], racing[second[row]]) == track.leaders(frozenset(racing))


def test_the_upper_of_two_stacked_crazy_camels_moves_when_neither_carries_anyone():
    # Decision 3, rule 2, whatever colour the grey die shows.
    edition = EDITION_2018
    track = Track.from_mapping(
        {3: ("green",), 4: ("yellow",), 5: ("red",), 6: ("blue",), 7: ("purple",), 10: ("black", "white")}
    )
    rules = batch_rules(edition, {})
    chosen = crazy_camels_to_move(boards_from_tracks([track], edition), 0, rules)
    assert edition.camels[chosen[0]] == "white"
