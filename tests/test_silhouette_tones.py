"""Boards print neighbouring spaces in two tones, and a space's window shows the next space's floor beside its
camels. Under a lamp the darker tone can look like the yellow or the orange camel: a patch of it is no camel, but
the camel standing against it is still one."""

from __future__ import annotations

import numpy as np
import pytest

from vision.silhouette import FitConfig
from vision.silhouette_evidence import camel_shadings, like_other_tone, ray_distance_rows, ray_distances

SAND = np.array([150, 200, 230], np.float32)
DARK_TONE = np.array([90, 150, 200], np.float32)  # the other tone, as a lamp makes it look
YELLOW = np.array([70, 150, 205], np.float32)


def test_the_other_tone_is_told_from_the_camel_and_the_space_s_own_colour() -> None:
    fit = FitConfig()
    pixels = np.array([DARK_TONE, YELLOW, SAND, 0.8 * DARK_TONE], np.float32)
    board_distance = ray_distances(pixels, SAND[None, :], fit.board_shading)[:, 0]
    # (what made it a patch of yellow: the tone is nearer yellow than the space's own colour)
    assert ray_distances(DARK_TONE[None, :], YELLOW[None, :], fit.camel_shading)[0, 0] < board_distance[0]
    toned = like_other_tone(fit, pixels, board_distance, YELLOW, DARK_TONE)
    assert toned.tolist() == [True, False, False, True]
    assert toned.shape == board_distance.shape


def test_only_a_dark_paint_may_look_brighter_than_its_camel_shading_allows():
    fit = FitConfig()
    profiles = np.array([[9.0, 11.0, 10.0], [124.0, 148.0, 174.0], [16.0, 15.0, 114.0]], np.float32)
    darkest, brightest = camel_shadings(fit, profiles)
    assert darkest == fit.camel_shading[0]
    assert brightest[0, 0] == pytest.approx(fit.dark_reach / 10.0)  # black may look as bright as dark_reach
    assert brightest[1, 0] == brightest[2, 0] == pytest.approx(fit.camel_shading[1])  # the others as before


def test_a_brightest_shading_per_colour_gives_each_colour_its_own_distances_bit_for_bit():
    # Black's range raised leaves every other colour's distances exactly as one call with the common range gives.
    fit = FitConfig()
    rng = np.random.default_rng(5)
    samples = rng.uniform(0, 255, (5000, 3)).astype(np.float32)
    squares = np.einsum("ij,ij->i", samples, samples)
    profiles = np.array([[9.0, 11.0, 10.0], [124.0, 148.0, 174.0], [16.0, 15.0, 114.0]], np.float32)
    darkest, brightest = camel_shadings(fit, profiles)
    together = ray_distance_rows(samples, squares, profiles, (darkest, brightest))
    for row, profile in enumerate(profiles):
        alone = ray_distance_rows(samples, squares, profile[None, :], (darkest, float(brightest[row, 0])))[0]
        assert together[row].tobytes() == alone.tobytes()
    plain = ray_distance_rows(samples, squares, profiles[1:], fit.camel_shading)
    assert together[1:].tobytes() == plain.tobytes()  # the colours not that dark: as before the change
    assert not np.array_equal(together[0], ray_distance_rows(samples, squares, profiles[:1], fit.camel_shading)[0])
