"""The silhouette scorer: camels' bodies rendered where a board puts them, scored by how well their colour
fills that place, on photo-like scenes (vision/photo.py, an independent renderer)."""

import cv2
import numpy as np
import pytest

from vision.calibrate import calibrate
from vision.photo import make_table, render_calibration, render_scene
from vision.read import ReadConfig, observe
from vision.reader import read_with_scorer
from vision.silhouette import FitConfig, SilhouetteScorer, first_track
from vision.synth import EDITION_CAMELS

CONFIG = ReadConfig()
TRACK = {2: ["green"], 5: ["blue", "white"], 9: ["orange"], 13: ["yellow"]}


def scorer_of(table, colours, image) -> SilhouetteScorer:
    observation = observe(CONFIG, table.template, image)
    return SilhouetteScorer(observation, colours.profiles, table.template, board_bgr=colours.board_bgr)


def test_each_camel_fits_where_it_stands_and_not_one_space_off(table, colours):
    image, _ = render_scene(table, TRACK, seed=5, tier="clean")
    scorer = scorer_of(table, colours, image)
    for space, camel in ((2, "green"), (9, "orange")):
        moved = {**{s: list(v) for s, v in TRACK.items() if s != space}, space + 1: [camel]}
        assert scorer.camel_score(TRACK, camel) > 0.2, camel
        assert scorer.camel_score(moved, camel) < 0.0, camel
        assert scorer.track_cost(TRACK) < scorer.track_cost(moved) - 0.3, camel


def test_a_stack_in_the_wrong_order_costs_more(table, colours):
    image, _ = render_scene(table, TRACK, seed=6, tier="clean")
    scorer = scorer_of(table, colours, image)
    swapped = {**TRACK, 5: ["white", "blue"]}
    assert scorer.track_cost(TRACK) < scorer.track_cost(swapped) - 0.3


def test_the_first_board_is_built_bottom_up_and_names_no_camel_twice(table, colours):
    image, _ = render_scene(table, TRACK, seed=7, tier="clean")
    reading, scorer = read_with_scorer(CONFIG, table.template, colours.profiles, image, colours.board_bgr)
    first = first_track(scorer)
    placed = [camel for stack in first.values() for camel in stack]
    assert len(placed) == len(set(placed))
    assert first[2] == ["green"] and first[9] == ["orange"]
    seen = [camel for stack in reading.track.values() for camel in stack]
    assert len(seen) == len(set(seen)) and not set(seen) & set(reading.unseen)
    assert sorted(seen + list(reading.unseen)) == sorted(EDITION_CAMELS["2014"])
    # What the reading places, it places right (a camel it is unsure of is unseen, not guessed).
    for space, stack in reading.track.items():
        assert [camel for camel in TRACK.get(space, []) if camel in stack] == stack


def camel_as_seen(scorer: SilhouetteScorer, camel: str, space: int) -> np.ndarray:
    """A camel's colour in the scorer's picture (BGR): the median of the pixels most like it in ``space``'s window."""
    window = scorer._windows[space]
    like = window.evidence[..., scorer.names.index(camel)] > 0.5
    x0, y0 = window.origin
    height, width = like.shape
    return np.median(scorer.observation.image[y0 : y0 + height, x0 : x0 + width][like], axis=0)


def green_as_seen(scorer: SilhouetteScorer) -> np.ndarray:
    """The green camel's colour in this picture, where it stands on space 2."""
    return camel_as_seen(scorer, "green", 2)


def test_a_flat_patch_of_a_camels_colour_on_an_empty_space_is_not_that_camel(table, colours):
    """A tile or a card on a space is flat: the board around a camel's feet is the board, around a patch it is
    the patch. Painted the green camel's colour on the empty space 7, the green camel still reads on 2."""
    image, _ = render_scene(table, TRACK, seed=8, tier="clean")
    scorer = scorer_of(table, colours, image)
    corners = np.array(table.template.spaces[7], float)
    middle = corners.mean(axis=0)
    patch = middle + (corners - middle) * 0.8
    pixels = scorer.pose.project(np.column_stack([patch, np.zeros(4)]))
    bgr = green_as_seen(scorer)
    painted = image.copy()
    cv2.fillConvexPoly(painted, np.round(pixels).astype(np.int32), tuple(int(c) for c in bgr))
    reading, _ = read_with_scorer(CONFIG, table.template, colours.profiles, painted, colours.board_bgr)
    assert 7 not in reading.track
    assert "green" not in reading.unseen


def test_a_tile_of_a_camels_colour_is_not_that_camel_wherever_its_motif_leaves_board(table, colours):
    """A desert tile covers its space: its face the colour of a camel, its motif (a big pale disc) like the
    board. A camel set beside the disc would have board around its feet; the rest of the space is not board."""
    image, _ = render_scene(table, TRACK, seed=8, tier="clean")
    scorer = scorer_of(table, colours, image)
    corners = np.array(table.template.spaces[7], float)
    middle = corners.mean(axis=0)
    bgr = green_as_seen(scorer)
    painted = image.copy()
    face = scorer.pose.project(np.column_stack([middle + (corners - middle) * 0.95, np.zeros(4)]))
    cv2.fillConvexPoly(painted, np.round(face).astype(np.int32), tuple(int(c) for c in bgr))
    angles = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    disc = middle + 20 * np.column_stack([np.cos(angles), np.sin(angles)])
    board = scorer.observation.rims[7]
    pixels = scorer.pose.project(np.column_stack([disc, np.zeros(len(disc))]))
    cv2.fillConvexPoly(painted, np.round(pixels).astype(np.int32), tuple(int(c) for c in board))
    reading, _ = read_with_scorer(CONFIG, table.template, colours.profiles, painted, colours.board_bgr)
    assert 7 not in reading.track
    assert "green" not in reading.unseen


def test_a_disc_of_a_camels_colour_on_a_tile_is_not_that_camel(table, colours):
    """A spectator tile covers its space (no camel ever stands on one): its face unlike the board, its printed
    disc the white camel's colour. With the white camel off the board, the blind reading does not put it on the
    disc (it did: its face was nearer the board's colour than any camel's, so the ground around the disc looked
    like the board); it is unseen. For a judged board, what the covered space shows does not count."""
    image, _ = render_scene(table, TRACK, seed=8, tier="clean")
    scorer = scorer_of(table, colours, image)
    white_bgr = camel_as_seen(scorer, "white", 5)
    without_white = {**TRACK, 5: ["blue"]}
    image, _ = render_scene(table, without_white, seed=8, tier="clean")
    corners = np.array(table.template.spaces[7], float)
    middle = corners.mean(axis=0)
    painted = image.copy()
    face = scorer.pose.project(np.column_stack([middle + (corners - middle) * 0.8, np.zeros(4)]))
    cv2.fillConvexPoly(painted, np.round(face).astype(np.int32), (200, 120, 120))
    angles = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    disc = middle + 14 * np.column_stack([np.cos(angles), 0.8 * np.sin(angles)])
    pixels = scorer.pose.project(np.column_stack([disc, np.zeros(len(disc))]))
    cv2.fillConvexPoly(painted, np.round(pixels).astype(np.int32), tuple(int(c) for c in white_bgr))
    reading, scorer = read_with_scorer(CONFIG, table.template, colours.profiles, painted, colours.board_bgr)
    assert 7 not in reading.track and reading.unseen == ("white",)
    assert reading.track == without_white
    on_tile = {**without_white, 7: ["white"]}
    assert scorer.covered(on_tile, 7) and not scorer.covered(without_white, 5)
    assert scorer.stack_cost(7, ["white"], on_tile) == scorer.fit.covered_cost
    assert scorer.stack_cost(7, ["white", "green"], on_tile) == 2 * scorer.fit.covered_cost


def test_only_spaces_further_from_the_camera_can_be_hidden_by_a_stack(table, colours):
    image, _ = render_scene(table, TRACK, seed=9, tier="clean")
    scorer = scorer_of(table, colours, image)
    hiding = [space for space in scorer.spaces if scorer.behind(space)]
    assert hiding, "a tall stack on some space reaches over the spaces behind it"
    for space in hiding:
        here = scorer._windows[space].distance
        assert all(scorer._windows[other].distance > here for other in scorer.behind(space))


def test_every_camel_on_one_stack_is_scored_even_above_the_window(table, colours):
    """All the camels can end on one stack (the game allows it); a board with them all there is scored, and
    a camel set on top of it too, though the top camels stand above the part of the picture read."""
    image, _ = render_scene(table, TRACK, seed=10, tier="clean")
    observation = observe(CONFIG, table.template, image)
    low = FitConfig(max_level=3)  # the picture read reaches three camels high
    scorer = SilhouetteScorer(observation, colours.profiles, table.template, fit=low,
                              board_bgr=colours.board_bgr)
    tower = {7: list(EDITION_CAMELS["2014"])}
    assert np.isfinite(scorer.track_cost(tower))
    assert scorer.track_cost(TRACK) < scorer.track_cost(tower)


def test_colours_that_fit_nothing_in_the_picture_are_reported_as_low_confidence(table, colours):
    image, _ = render_scene(table, TRACK, seed=11, tier="clean")
    reading, _ = read_with_scorer(CONFIG, table.template, colours.profiles, image, colours.board_bgr)
    assert reading.confidence >= CONFIG.min_confidence
    assert not any("low confidence" in problem for problem in reading.problems)
    grey = {camel: (90.0, 90.0, 200.0) for camel in colours.profiles}  # one reddish grey for every camel
    reading, _ = read_with_scorer(CONFIG, table.template, grey, image, colours.board_bgr)
    assert reading.confidence < CONFIG.min_confidence
    assert any(problem.startswith("low confidence") and "calibrate" in problem for problem in reading.problems)


def test_a_tablecloth_of_a_camels_colour_behind_the_far_row_is_no_evidence(table, colours):
    """Behind the far row's stacks the picture shows the table. Painted the blue camel's colour all around the
    track, the table would be a great stray of blue around a blue camel standing on the far row (it read
    unseen, or a space off), and would fill the box of a blue camel set on top of a far stack: there blue
    tells nothing, for the blue camel or against it."""
    image, _ = render_scene(table, TRACK, seed=12, tier="clean")
    scorer = scorer_of(table, colours, image)
    blue_bgr = camel_as_seen(scorer, "blue", 5)
    far = max(scorer.spaces, key=lambda space: scorer._windows[space].distance)
    track = {far: ["blue"], 9: ["orange"], 13: ["yellow"], far - 1 if far > 1 else far + 1: ["green", "white"]}
    image, _ = render_scene(table, track, seed=12, tier="clean")
    corners = np.array([corner for outline in table.template.spaces.values() for corner in outline], np.float32)
    hull = cv2.convexHull(corners).reshape(-1, 2)
    outline = scorer.pose.project(np.column_stack([hull, np.zeros(len(hull))]))
    # The camels standing on the track cover the cloth; the cloth covers everything else beyond the track.
    cloth = np.full(image.shape[:2], 255, np.uint8)
    cv2.fillPoly(cloth, [np.round(outline).astype(np.int32)], 0)
    for marker in table.template.markers:
        square = np.array(table.template.marker_corners(marker), float)
        quiet = square.mean(axis=0) + (square - square.mean(axis=0)) * 1.6  # and the white around it
        cv2.fillPoly(cloth, [np.round(scorer.pose.project(np.column_stack([quiet, np.zeros(4)]))).astype(np.int32)], 0)
    plain, _ = render_scene(table, {}, seed=12, tier="clean")
    cloth[np.abs(image.astype(int) - plain.astype(int)).max(axis=2) > 30] = 0
    painted = image.copy()
    painted[cloth > 0] = blue_bgr
    reading, scorer = read_with_scorer(CONFIG, table.template, colours.profiles, painted, colours.board_bgr)
    assert reading.track.get(far) == ["blue"], reading
    on_top = {**track, far: [], far - 1 if far > 1 else far + 1: ["green", "white", "blue"]}
    assert scorer.track_cost(track) < scorer.track_cost(on_top) - 0.3


class _StackScorer:
    """A scorer whose pictures show one stack on space 4: ``pale`` (barely told from the board: alone it does
    not pay its way) under ``plain`` (seen plainly, but only standing on a camel)."""

    fit = FitConfig()

    def __init__(self, pale_alone: float) -> None:
        self.pale_alone = pale_alone
        self.names = ["pale", "plain", "other"]
        self.spaces = [3, 4, 5]

    def lone(self, space: int) -> np.ndarray:
        scores = np.zeros((1, self.fit.max_level, len(self.names)))
        if space == 4:
            scores[0, 0, 0], scores[0, 1, 1] = 0.05, 0.7
        return scores

    def behind(self, space: int) -> list[int]:
        return []

    def stack_cost(self, space: int, stack, track=None) -> float:
        stack = list(stack)
        if space != 4 or not stack:
            return 0.0 if not stack else 0.4 * len(stack)
        costs = {("pale",): self.pale_alone, ("pale", "plain"): -0.7}
        return costs.get(tuple(stack), 0.4 * len(stack))

    def space_costs(self, track) -> dict[int, float]:
        return {space: self.stack_cost(space, track.get(space, ()), track) for space in self.spaces}


def test_a_camel_seen_plainly_on_top_of_one_barely_seen_is_found_with_it():
    """A white camel on a pale space barely fits alone (a cost of 0.02, more than nothing), and the green one on
    it fits well only there: the first board took neither, one camel at a time. Set together, they are found."""
    assert first_track(_StackScorer(pale_alone=0.02)) == {4: ["pale", "plain"]}
    # A pair that barely helps is not taken: two camels added at once are as often wrong as right.
    weak = _StackScorer(pale_alone=0.02)
    weak.stack_cost = lambda space, stack, track=None: -0.1 if tuple(stack) == ("pale", "plain") else 0.02 * len(stack)
    assert first_track(weak) == {}


def test_a_dark_table_behind_the_far_row_is_no_black_camel_on_a_stack_there():
    """A dark grey table behind the far row's stacks is not quite the black camel's colour, yet nearer to it than
    to the board or any other camel's: a black camel set on top of a far stack there filled its box with table
    and was read there (on top of blue and purple on 3) rather than where it stands in plain view, on 14.
    Beyond the track the table is a rival colour of every camel's."""
    table = make_table(41, "2018")
    photo, _ = render_calibration(table, seed=0, tier="light")
    colours = calibrate(CONFIG, table.template, list(EDITION_CAMELS["2018"]), photo)
    track = {1: ["green", "red"], 2: ["yellow"], 3: ["blue", "purple"], 14: ["black"], 16: ["white"]}
    image, _ = render_scene(table, track, seed=5, tier="light")
    reading, _ = read_with_scorer(CONFIG, table.template, colours.profiles, image, colours.board_bgr)
    assert reading.track.get(3) == ["blue", "purple"], reading
    assert reading.track.get(14) == ["black"], reading


def test_a_camel_larger_than_the_model_s_is_no_patch_of_its_colour():
    """A patch of a camel's colour larger than a few body boxes is forgotten only when it also reaches further
    than a camel's pieces can, turned any way: the synthetic scenes' camels are 40 × 20 × 18 mm boxes, over five
    body boxes of the default 30 mm model's, and their colour stays evidence (the black camel on 14 was forgotten
    while the reach was taken along the track only)."""
    from vision.board import load_template
    from vision.synth import SceneVariation, camel_profiles
    from vision.synth import render_scene as render_synthetic

    template = load_template("2018")
    track = {1: ["green", "red"], 7: ["blue", "purple", "yellow"], 14: ["black"], 16: ["white"]}
    calm = SceneVariation(light=(1.0, 1.0), cast=(1.0, 1.0), noise_sigma=(0.0, 0.0), blur=(0,), hand_chance=0.0)
    image, _ = render_synthetic(template, track, 3, calm)
    reading, scorer = read_with_scorer(CONFIG, template, camel_profiles("2018"), image)
    assert reading.track == track, reading
    window = scorer._windows[14]
    box = scorer._box_area(window, len(scorer._offsets) // 2, 0)
    black = window.evidence[..., scorer.names.index("black")] >= scorer.fit.strong_evidence
    assert np.count_nonzero(black) > scorer.fit.patch_bodies * box  # a patch by area, yet kept


def test_a_camels_outline_is_where_its_level_puts_it_in_the_picture(table, colours):
    image, _ = render_scene(table, TRACK, seed=5, tier="clean")
    scorer = scorer_of(table, colours, image)
    blue, white = scorer.camel_outline(TRACK, "blue"), scorer.camel_outline(TRACK, "white")
    assert white[3] < blue[3] and white[1] < blue[1]  # the upper camel stands higher in the picture
    assert abs((white[0] + white[2]) - (blue[0] + blue[2])) / 2 < (blue[2] - blue[0])  # above it, not beside
    # One space on along the track, it is somewhere else in the picture.
    moved = {**{s: v for s, v in TRACK.items() if s != 9}, 10: ["orange"]}
    here, there = scorer.camel_outline(TRACK, "orange"), scorer.camel_outline(moved, "orange")
    assert min(here[2], there[2]) - max(here[0], there[0]) < 0.5 * (here[2] - here[0])
    assert scorer.camel_outline(TRACK, "purple") is None  # not on the board


@pytest.mark.parametrize(("seed", "space", "camel"), [(0, 8, "white"), (1, 5, "green"), (2, 5, "white")])
def test_a_box_camel_s_lit_top_above_its_shaded_side_is_no_print(seed, space, camel):
    """The synthetic scenes' box camels show their top and their side both in their colour: a patch of over four
    body boxes lying as flat and wide as a tile's printed disc, with the board all around it. The top is lit more
    than the side below it, where a print is lit alike all over, so the patch stays evidence and the camel is read
    (a lone camel of seven, unseen while the patch was taken for a print: test_single_camels_on_clean_scenes)."""
    import random

    from vision.board import load_template
    from vision.synth import CAMEL_BGR, SceneVariation
    from vision.synth import render_scene as render_synthetic

    template = load_template("2018")
    spaces = random.Random(seed).sample(range(1, 17), 7)
    track = {at: [name] for at, name in zip(spaces, EDITION_CAMELS["2018"], strict=True)}
    assert track[space] == [camel]
    clean = SceneVariation(light=(1.0, 1.0), cast=(1.0, 1.0), noise_sigma=(0.0, 0.0), blur=(0,),
                           jpeg_quality=(95, 95), hand_chance=0.0)
    image, _ = render_synthetic(template, track, seed, clean)
    profiles = {name: CAMEL_BGR[name] for name in EDITION_CAMELS["2018"]}
    reading, scorer = read_with_scorer(CONFIG, template, profiles, image)
    assert reading.track.get(space) == [camel], reading
    window = scorer._windows[space]
    box = scorer._box_area(window, len(scorer._offsets) // 2, 0)
    kept = window.evidence[..., scorer.names.index(camel)] >= scorer.fit.strong_evidence
    assert np.count_nonzero(kept) > scorer.fit.print_bodies * box  # a patch large enough to be a print, yet kept


def test_a_patch_lit_alike_all_over_is_no_top_above_a_side():
    """What tells a box camel's patch from a print: its top third (of each column) is lit more than its bottom third
    (FitConfig.top_over_side). The white camel's patch on 8 (synthetic, clean) is; painted one colour, or shaded by a
    lamp's falloff of a tenth across it either way, it is not."""
    import random

    from vision.board import load_template
    from vision.synth import CAMEL_BGR, SceneVariation
    from vision.synth import render_scene as render_synthetic

    template = load_template("2018")
    track = {at: [name] for at, name in zip(random.Random(0).sample(range(1, 17), 7), EDITION_CAMELS["2018"],
                                             strict=True)}
    clean = SceneVariation(light=(1.0, 1.0), cast=(1.0, 1.0), noise_sigma=(0.0, 0.0), blur=(0,),
                           jpeg_quality=(95, 95), hand_chance=0.0)
    image, _ = render_synthetic(template, track, 0, clean)
    _, scorer = read_with_scorer(CONFIG, template, {name: CAMEL_BGR[name] for name in EDITION_CAMELS["2018"]}, image)
    window = scorer._windows[8]
    white = (window.evidence[..., scorer.names.index("white")] >= scorer.fit.strong_evidence).view(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(white, connectivity=8)
    patch = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, width, height = (int(value) for value in stats[patch, :4])
    inside = labels[y : y + height, x : x + width] == patch
    box = (x, y, width, height)
    assert scorer._top_above_side(window, inside, box)
    pixels = window.corrected[y : y + height, x : x + width]
    even = np.median(pixels[inside], axis=0)
    rows = np.linspace(0.0, 1.0, height, dtype=np.float32)[:, None, None]
    for shading in (np.ones_like(rows), 0.95 + 0.1 * rows, 1.05 - 0.1 * rows):
        pixels[inside] = (even * shading * np.ones((1, width, 1), np.float32))[inside]
        assert not scorer._top_above_side(window, inside, box)
