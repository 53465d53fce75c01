"""A scorer with no camel colour known (nothing to tell apart): each colour's rival and the nearest colour are
infinitely far, as the second smallest of no rows was, instead of an error."""

from __future__ import annotations

import numpy as np

from vision.silhouette import FitConfig
from vision.silhouette_evidence import camel_evidence, nearest_of_others


def test_no_colour_known_leaves_no_rival_and_nothing_near() -> None:
    # (as the second smallest of no rows was: infinitely far)
    others, nearest = nearest_of_others(np.empty((0, 7), np.float32))
    assert others.shape == (0, 7)
    assert nearest.dtype == np.float32 and np.isinf(nearest).all() and nearest.shape == (7,)
    fit = FitConfig()
    pixels = np.array([[150, 200, 230], [20, 20, 120]], np.float32)
    planes, boardlike, _, surely, occluded = camel_evidence(fit, pixels, pixels[0], [])
    assert planes.shape == (0, 2) and surely is None
    assert occluded.tolist() == [False, True]  # far from the board, and from every camel there is
    assert boardlike[0] == 1.0
