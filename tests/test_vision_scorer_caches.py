"""The silhouette scorer keeps what it has worked out (each space's masks and layouts, the ground's doubt in
plain view, what the stacks in front hide, each stack's cost). Whatever was asked before, a board costs what
a scorer that never saw another board says it costs."""

import numpy as np
import pytest

import vision.silhouette_geometry as geometry
from tests.photo_kit import calibrated
from vision.photo import make_table, render_scene
from vision.read import ReadConfig, observe
from vision.silhouette import SilhouetteScorer, first_track
from vision.silhouette_evidence import bits_set
from vision.synth import EDITION_CAMELS

CONFIG = ReadConfig()
TRACK = {2: ["green"], 5: ["blue", "white"], 9: ["orange"], 13: ["yellow"]}


@pytest.fixture(scope="module")
def scene():
    table = make_table(515_151, "2014")
    colours = calibrated(table, "light")
    image, _ = render_scene(table, TRACK, seed=3, tier="light")
    observation = observe(CONFIG, table.template, image)

    def new_scorer() -> SilhouetteScorer:
        geometry._last_shapes.clear()  # one that draws its own shapes (not those of the last picture, of this pose)
        return SilhouetteScorer(observation, colours.profiles, table.template, board_bgr=colours.board_bgr)

    return new_scorer


def space_behind_a_stack(scorer: SilhouetteScorer) -> tuple[int, int]:
    front = next(space for space in scorer.spaces if scorer.behind(space))
    return front, scorer.behind(front)[0]


def boards_around_a_stack_in_front(scorer: SilhouetteScorer) -> list[dict[int, list[str]]]:
    """Boards that differ only in the stack on a space in front of another: what it hides changes."""
    front, behind = space_behind_a_stack(scorer)
    return [
        TRACK,
        {front: ["blue", "white", "green"], behind: ["orange"]},
        {front: ["blue"], behind: ["orange"]},
        {behind: ["orange"]},
        {front: ["white", "blue", "green", "yellow"], behind: ["orange"]},
        {front: ["white", "blue", "green", "yellow"], behind: ["orange", "blue"]},
        {behind: ["yellow", "orange"], 9: ["green"]},
    ]


def costs_and_scores(scorer: SilhouetteScorer, board: dict[int, list[str]]) -> tuple[dict, dict]:
    return scorer.space_costs(board), {camel: scorer.camel_score(board, camel) for stack in board.values()
                                       for camel in stack}


def test_a_board_costs_the_same_in_whatever_order_boards_are_scored(scene):
    boards = boards_around_a_stack_in_front(scene())
    alone = [costs_and_scores(scene(), board) for board in boards]
    forward, backward = scene(), scene()
    in_order = [costs_and_scores(forward, board) for board in boards]
    reversed_order = [costs_and_scores(backward, board) for board in reversed(boards)][::-1]
    for board, expected, first, second in zip(boards, alone, in_order, reversed_order, strict=True):
        for got in (first, second):
            assert got[0] == pytest.approx(expected[0], abs=1e-9), board
            assert got[1] == pytest.approx(expected[1], abs=1e-9), board
    # The boards differ where it matters: the stack in front changes what the same camel behind it costs.
    _, behind = space_behind_a_stack(scene())
    assert len({round(costs[behind], 6) for costs, _ in alone[1:5]}) > 1


def test_the_first_board_and_the_lone_scores_do_not_depend_on_what_was_asked_before(scene):
    fresh = scene()
    expected_first = first_track(fresh)
    expected_lone = {space: fresh.lone(space).copy() for space in fresh.spaces}
    used = scene()
    for board in boards_around_a_stack_in_front(used):
        used.space_costs(board)
        used.camel_samples(board)
    for space in reversed(used.spaces):
        np.testing.assert_array_equal(used.lone(space), expected_lone[space])
    assert first_track(used) == expected_first
    assert used.space_costs(expected_first) == pytest.approx(fresh.space_costs(expected_first), abs=1e-9)


def test_the_pixels_a_camel_shows_do_not_depend_on_what_was_asked_before(scene):
    boards = boards_around_a_stack_in_front(scene())
    used = scene()
    for board in reversed(boards):
        used.space_costs(board)
    for board in boards:
        expected = scene().camel_samples(board)
        got = used.camel_samples(board)
        assert got.keys() == expected.keys()
        for camel in expected:
            np.testing.assert_array_equal(got[camel], expected[camel])


@pytest.mark.parametrize("rows", [1, 2, 3, 4, 5, 1000, 1001])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_column_medians_are_numpys_median_bit_for_bit(rows, dtype):
    from vision.silhouette_evidence import column_medians

    values = (np.random.default_rng(rows).random((rows, 3)) * 255).astype(dtype)
    expected = np.median(values, axis=0)
    found = column_medians(values)
    assert found.dtype == expected.dtype and np.array_equal(found, expected)


@pytest.mark.parametrize("shape", [(1, 1), (7, 3), (112, 72), (145, 103)])
def test_box_sums_are_the_integral_images_bit_for_bit(shape):
    """The lone scores' boxes are summed as numpy's cumsum down and then across (float32) gives the integral image,
    read at their corners in float64: the same numbers, bit for bit, from only the rows the corners are read from."""
    from vision.silhouette_evidence import box_sums

    rng = np.random.default_rng(shape[0])
    values = rng.uniform(-1, 1, (*shape, 5)).astype(np.float32)
    integral = np.zeros((shape[0] + 1, shape[1] + 1, 5))
    integral[1:, 1:] = np.cumsum(np.cumsum(values, axis=0, dtype=np.float32), axis=1, dtype=np.float32)
    xs, ys = rng.integers(0, shape[1] + 1, (2, 60)), rng.integers(0, shape[0] + 1, (2, 60))
    x0, x1, y0, y1 = xs.min(axis=0), xs.max(axis=0), ys.min(axis=0), ys.max(axis=0)
    y0[:5] = 0  # boxes from the top row, and empty ones
    y1[5:8] = y0[5:8]
    expected = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    found = box_sums(values, x0, y0, x1, y1)
    assert found.dtype == expected.dtype and np.array_equal(found, expected)
    assert np.array_equal(box_sums(values, x0, y0 * 0, x1, y1 * 0), np.zeros((60, 5)))  # no row at all
    assert np.array_equal(box_sums(values, x0 * 0, y0, x1 * 0, y1), np.zeros((60, 5)))  # nor column


@pytest.mark.parametrize("weight", [0.0, 0.3, 0.5, 1.0, 1.5])
def test_the_unlike_weight_is_numpys_masked_multiply_bit_for_bit(weight):
    from vision.silhouette_evidence import weigh_unlike

    rng = np.random.default_rng(11)
    edges = [0.0, -0.0, 1e-45, -1e-45, -1.0, 1.0, np.nan]  # (1e-45: float32's smallest)
    values = np.concatenate([rng.uniform(-1, 1, 5000), edges]).astype(np.float32)
    expected = values.copy()
    np.multiply(expected, weight, out=expected, where=expected < 0)
    weigh_unlike(values, weight)
    assert values.tobytes() == expected.tobytes()  # (-0.0 and NaN too)


@pytest.mark.parametrize("rows", [1, 2, 5, 8])
def test_each_colours_rival_is_the_nearest_of_the_others(rows):
    """Each camel's rival (its evidence's) is the nearest of the other colours: the second nearest where it is the
    nearest (the other one where two are nearest alike), the nearest elsewhere; an unknown colour is infinitely
    far."""
    from vision.silhouette_evidence import nearest_of_others

    rng = np.random.default_rng(rows)
    values = rng.uniform(0, 1, (rows, 3000)).astype(np.float32)
    values[:, ::4] = np.round(values[:, ::4] * 4) / 4  # ties
    values[rows // 2, 1::7] = np.inf
    ordered = np.sort(values, axis=0)
    nearest, second = ordered[0], ordered[1] if rows > 1 else np.full(3000, np.inf, np.float32)
    others, found = nearest_of_others(values)
    assert found.tobytes() == nearest.tobytes()
    assert others.tobytes() == np.where(values == nearest, second, nearest).tobytes()


def _ground_doubt_alone(scorer, window, offset, count):
    """The ground's doubt of one offset of a stack of ``count`` in plain view, from that offset's own masks drawn
    whole: the plain arithmetic that the reader's all-offsets-at-once path (``_plain_doubts``) must give."""
    covered = scorer._box_mask(window, offset, 0)
    for level in range(1, count):
        covered = covered | scorer._box_mask(window, offset, level)
    free = ~covered
    ring, floor = scorer._ring_mask(window, offset) & free, scorer._floor_mask(window) & free
    return scorer._doubt(window.boardlike[ring], window.boardlike[floor])


def test_the_ground_doubt_of_every_offset_at_once_is_each_offsets_alone(scene):
    """The lone scores work out the ground's doubt of all offsets together (counts of packed masks, a median only
    where it can matter): the same numbers as asking each offset alone from its own masks."""
    together, alone, asked = scene(), scene(), scene()
    for scorer in (together, alone, asked):  # a shadow over half of one space: the ground there is unlike the board
        window = scorer._windows[scorer.spaces[3]]
        window.boardlike[:, : window.boardlike.shape[1] // 2] = -0.6
    raised = 0
    for space in together.spaces:
        found = together._plain_doubts(together._windows[space])
        window = alone._windows[space]
        expected = [_ground_doubt_alone(alone, window, offset, 1) for offset in range(len(alone._offsets))]
        assert found.tolist() == expected, space
        # Asked one offset at a time, with nothing worked out yet (as a stack's score asks it): the same numbers.
        one_by_one = [asked._ground_doubt(asked._windows[space], offset, 1, None)
                      for offset in range(len(asked._offsets))]
        assert one_by_one == expected, space
        raised += sum(doubt > 0 for doubt in expected)
        top, boxes, rings = together._windows[space].bottom
        for offset in range(len(alone._offsets)):  # the masks drawn together in a band are each offset's own
            for band, whole in ((boxes, alone._box_mask(window, offset, 0)), (rings, alone._ring_mask(window, offset))):
                np.testing.assert_array_equal(band[offset].view(bool), whole[top : top + band.shape[1]])
                assert np.count_nonzero(band[offset]) == np.count_nonzero(whole)  # nothing of it beyond the band
    assert raised  # some ground does not look like the board (the check compares more than zeros)


@pytest.mark.parametrize("stacked", [2, 3])
def test_the_ground_doubt_of_a_stack_at_every_offset_at_once_is_each_offsets_alone(scene, stacked):
    """A stack's ground doubt, worked out for all offsets together (to rank where a stack is tried), is what each
    offset gives alone from its own masks: the camels above hide more of the ground."""
    together, alone = scene(), scene()
    for scorer in (together, alone):  # a shadow over half of every space: some ground is unlike the board
        for window in scorer._windows.values():
            window.boardlike[:, : window.boardlike.shape[1] // 2] = -0.6
    raised = 0
    for space in together.spaces:
        found = together._plain_doubts(together._windows[space], stacked)
        window = alone._windows[space]
        expected = [_ground_doubt_alone(alone, window, offset, stacked) for offset in range(len(alone._offsets))]
        assert found.tolist() == expected, space
        raised += sum(doubt != _ground_doubt_alone(alone, window, offset, 1) for offset, doubt in enumerate(expected))
    assert raised  # the camels above change some offset's doubt (the stack's ground is not the lone camel's)


def test_the_colour_around_a_camel_is_counted_in_its_bounding_rectangle(scene):
    """What each camel's colour shows around a camel at every offset and level, counted at once from integral
    images, is what the pixels in that rectangle hold."""
    scorer = scene()
    checked = 0
    for space in scorer.spaces:
        window = scorer._windows[space]
        (x0, y0, x1, y1), empty, counts, largest = scorer._stray_bounds(window)
        strong = np.concatenate([part for part in window.strong], axis=2)[..., : len(scorer.names)]
        for offset in range(counts.shape[0]):
            for level in range(counts.shape[1]):
                if empty[offset, level]:
                    continue
                box = strong[y0[offset, level]:y1[offset, level], x0[offset, level]:x1[offset, level]]
                expected = box.reshape(-1, box.shape[2]).sum(axis=0)
                assert counts[offset, level].tolist() == expected.tolist()
                assert largest[offset, level] == expected.max()
                checked += int(expected.any())
    assert checked


def test_the_pixels_surely_of_a_camels_colour_are_its_evidence_and_beyond_the_track_its_clutter(scene):
    scorer = scene()
    beyond_some = 0
    for space in scorer.spaces:
        window = scorer._windows[space]
        expected = window.evidence >= scorer.fit.strong_evidence
        if window.clutter is not None:
            beyond, surely = window.clutter
            expected[beyond] |= surely
            beyond_some += int(surely.any())
        np.testing.assert_array_equal(scorer._strong(window), expected)
        # As OpenCV takes them (four camels a part, 0 past the last), from the evidence's rows and the words beyond.
        parts = np.concatenate(scorer._strong_parts(window), axis=2)
        camels = expected.shape[2]
        assert parts.dtype == np.uint8 and not parts[..., camels:].any()
        np.testing.assert_array_equal(parts[..., :camels].view(bool), expected)
    assert beyond_some  # some pixels beyond the track are surely a camel's colour (the words are merged)


def test_a_stack_in_front_that_reaches_none_of_a_stack_behind_changes_nothing_there(scene, monkeypatch):
    """A stack in front whose reach falls wholly beside what a stack behind is scored on is left out of what hides
    it: every board costs, to the last bit, what it costs when every stack in front is drawn."""
    import random

    import vision.silhouette as silhouette

    names = list(EDITION_CAMELS["2014"])
    rng = random.Random(5)
    scorer = scene()
    boards = boards_around_a_stack_in_front(scorer)
    for cut in (1, 3) * 15:  # a short or tall stack in front of a tall or short one, on pairs of such spaces
        front = rng.choice([space for space in scorer.spaces if scorer.behind(space)])
        boards.append({front: names[:cut], rng.choice(scorer.behind(front)): names[cut:]})
    left_out = [costs_and_scores(scorer, board) for board in boards]
    covered = [[scorer.covered(board, space) for space in board] for board in boards]
    reaches = list(scorer._reaches.values())
    assert True in reaches and False in reaches  # some stacks in front were left out, some not
    monkeypatch.setattr(silhouette, "_overlap", lambda first, second: True)
    drawn = scene()
    assert [costs_and_scores(drawn, board) for board in boards] == left_out
    assert [[drawn.covered(board, space) for space in board] for board in boards] == covered
    monkeypatch.setattr(silhouette, "_overlap", lambda first, second: False)
    assert [costs_and_scores(scene(), board) for board in boards] != left_out  # what is in front does matter


def test_bits_are_counted_as_unpacking_them_counts_them() -> None:
    rng = np.random.default_rng(7)
    packed = rng.integers(0, 256, (25, 301), dtype=np.uint8)
    assert bits_set(packed).tolist() == np.unpackbits(packed, axis=1).sum(axis=1).tolist()
    assert bits_set(np.full((1, 3), 255, np.uint8)).tolist() == [24]


def test_a_board_is_read_with_numpy_1_24s_functions_only(scene, monkeypatch) -> None:
    """Bookworm's numpy (1.24, the one apt's picamera2 is built against) has no np.bitwise_count, nor numpy 2's
    other new functions: the reader must read the board without them, and the same as with them."""
    with_them = first_track(scene())
    for name in ("bitwise_count", "unstack", "cumulative_sum", "concat", "astype", "isdtype"):
        monkeypatch.delattr(np, name, raising=False)
    assert first_track(scene()) == with_them
    assert sum(with_them.get(space) == stack for space, stack in TRACK.items()) >= 3  # a reading, not an empty board
