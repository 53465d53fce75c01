"""A lamp's hot spot on a glossy board: a whole space whitened far past an ordinary reflection, its brightest
channels at the camera's limit. It is bare board (its camels are read), while an even pale sleeve at that limit
and a tile in the spot stay covered. Photo-like scenes of the project's renderer (vision/photo.py) with the spot
painted on over the whole space, its rim too (where the space's own colour is measured)."""

import dataclasses

import numpy as np
import pytest

from tests.test_silhouette_glare import space_mask
from vision.photo import render_scene
from vision.read import ReadConfig
from vision.reader import read_with_scorer
from vision.silhouette import SENSOR_LIMIT, FitConfig
from vision.silhouette_evidence import whitened_apart

CONFIG = ReadConfig()
TRACK = {2: ["green"], 5: ["blue", "white"], 9: ["orange"], 13: ["yellow"]}
HOT = (1.12, 80.0)
"""The spot's light: the board lit this much brighter, and this much grey added (of 255). Dev seed 103's hot corner
space showed about 70 of grey on top of its tone's colour, its red and green channels at the camera's limit."""
SHADING = FitConfig().board_shading


@pytest.fixture(scope="module")
def scene(table):
    image, _ = render_scene(table, TRACK, seed=5, tier="clean")
    return image


@pytest.fixture(scope="module")
def pose(table, colours, scene):
    return read_with_scorer(CONFIG, table.template, colours.profiles, scene, colours.board_bgr)[1].pose


def with_hot_spot(table, pose, image: np.ndarray, space: int, boardlike: np.ndarray | None = None) -> np.ndarray:
    """``image`` with a lamp's hot spot over all of ``space`` (``HOT``), clipped at 255 as a camera clips."""
    mask = space_mask(table, pose, image, space, 0.98)
    if boardlike is not None:
        mask = mask * boardlike  # on the board only: a camel's paint turns the lamp elsewhere
    brighter, grey = HOT
    lit = image * brighter + grey
    mask = mask[:, :, None]
    return np.clip(image * (1 - mask) + lit * mask, 0, 255).astype(np.uint8)


def board_pixels(table, colours, image: np.ndarray, space: int) -> np.ndarray:
    """Where the reader, reading ``image``, saw the board in ``space``'s window (1) or not (0), over the picture."""
    _, scorer = read_with_scorer(CONFIG, table.template, colours.profiles, image, colours.board_bgr)
    window = scorer._windows[space]
    (x0, y0), (height, width) = window.origin, window.boardlike.shape
    board = np.zeros(image.shape[:2], np.float32)
    board[y0 : y0 + height, x0 : x0 + width] = window.boardlike > 0
    return board


def test_a_camel_on_a_space_in_a_lamps_hot_spot_is_read(table, colours, scene, pose):
    """The orange camel alone on 9, the whole space whitened to the camera's limit: before, its floor was taken for
    covered (whitened past the ordinary reflection) and the camel was not seen; judged against the board as the spot
    shows it, it is read where it stands. With the spot's test turned off, the same picture loses it again."""
    hot = with_hot_spot(table, pose, scene, 9, board_pixels(table, colours, scene, 9))
    reading, scorer = read_with_scorer(CONFIG, table.template, colours.profiles, hot, colours.board_bgr)
    assert reading.track.get(9) == ["orange"]
    assert "orange" not in reading.unseen
    assert not scorer.covered(TRACK, 9)
    off = dataclasses.replace(FitConfig(), hot_clipped_share=1.1)
    before, scorer_before = read_with_scorer(CONFIG, table.template, colours.profiles, hot, colours.board_bgr, fit=off)
    assert scorer_before.covered(TRACK, 9)
    assert before.track.get(9) != ["orange"]


def test_an_empty_space_in_a_hot_spot_holds_no_camel(table, colours, scene, pose):
    """A bare space in the spot is judged bare (a camel put there would be seen, not covered), yet its whitened
    floor is no white camel: nothing is read on 11, and the rest of the board is as it was."""
    hot = with_hot_spot(table, pose, scene, 11)
    reading, scorer = read_with_scorer(CONFIG, table.template, colours.profiles, hot, colours.board_bgr)
    assert not scorer.covered({11: ["white"]}, 11)
    assert 11 not in reading.track
    assert reading.track == TRACK


def test_an_even_pale_sleeve_at_the_limit_is_no_hot_spot(table, colours, scene, pose):
    """A pale yellow sleeve over the camel on 9 is as even as a bare space and at the camera's limit in red, but
    it is no whitening of the board's colour (its green rises far more than its blue): the space stays covered,
    nothing is read there. With any colour let through as a spot, the sleeve would pass for bare board."""
    mask = space_mask(table, pose, scene, 9, 0.98)[:, :, None]
    sleeve = np.array([120.0, 235.0, 255.0], np.float32)  # BGR: pale yellow, its red at the limit
    covered = (scene * (1 - mask) + sleeve * mask).astype(np.uint8)
    reading, scorer = read_with_scorer(CONFIG, table.template, colours.profiles, covered, colours.board_bgr)
    assert 9 not in reading.track
    assert scorer.covered(TRACK, 9)
    anything = dataclasses.replace(FitConfig(), hot_apart=1.0)
    _, careless = read_with_scorer(CONFIG, table.template, colours.profiles, covered, colours.board_bgr, fit=anything)
    assert not careless.covered(TRACK, 9)


def with_plain_tile(table, pose, image: np.ndarray, space: int) -> np.ndarray:
    """``image`` with a tile on ``space`` whose face is the board's own colour (as pale as the board under the same
    light) and a wide disc in its middle, dark grey (no camel's colour): its floor's median is the board's, so in a
    spot only the disc's unevenness tells it from bare board."""
    disc = space_mask(table, pose, image, space, 0.4)[:, :, None]
    printed = np.array([70, 70, 70], np.float32)
    return (image * (1 - disc) + printed * disc).astype(np.uint8)


def test_a_tile_in_a_hot_spot_stays_covered(table, colours, scene, pose):
    """A tile on 11 in the spot, its face the board's colour whitened to the limit as the board is: its median is
    the board whitened (0.027 off, within ``hot_apart``), but its disc leaves the floor uneven (0.67, as even as the
    most even tile under a lamp on the dev sets): still covered, and nothing is read on it. Were the evenness not
    asked, the tile would pass for the board in the spot."""
    tiled = with_hot_spot(table, pose, with_plain_tile(table, pose, scene, 11), 11)
    reading, scorer = read_with_scorer(CONFIG, table.template, colours.profiles, tiled, colours.board_bgr)
    assert scorer.covered({11: ["white"]}, 11)
    assert 11 not in reading.track
    unasked = dataclasses.replace(FitConfig(), even_share=0.0)
    _, careless = read_with_scorer(CONFIG, table.template, colours.profiles, tiled, colours.board_bgr, fit=unasked)
    assert not careless.covered({11: ["white"]}, 11)


def test_the_board_whitened_and_clipped_is_near():
    """whitened_apart: the board lit a little darker with 70 of grey added is within 0.005 (the grey is searched in
    steps); with 90, its red past the camera's limit and shown at it, too. A pale sleeve's colour is not, nor the
    board whitened past the grey allowed."""
    board = np.array([110.0, 150.0, 190.0])
    limit = np.full(3, float(SENSOR_LIMIT))
    assert whitened_apart(0.9 * board + 70.0, board, limit, SHADING, 0.35) < 0.005
    clipped = np.minimum(0.9 * board + 90.0, limit)
    assert clipped[2] == SENSOR_LIMIT
    assert whitened_apart(clipped, board, limit, SHADING, 0.35) < 0.005
    # Read as it is, the clipped red is 11 short of the whitened board's: the limit is what forgives it.
    assert whitened_apart(clipped, board, np.full(3, 255.0), SHADING, 0.35) > 0.01
    assert whitened_apart(np.array([120.0, 235.0, 250.0]), board, limit, SHADING, 0.35) > 0.05
    # Past the grey allowed it is not near either.
    assert whitened_apart(0.9 * board + 70.0, board, limit, SHADING, 0.1) > 0.05
