"""How far a calibration's colours are from the camels' own pixels in a photo of the independent renderer
(benchmarks/independent), which knows which camel each pixel shows (``render(..., shows=...)``).

A camel's true colour is the median of the pixels the renderer drew of it, its outline left out (eroded by one
pixel), light-corrected as the reader corrects its space's window (:class:`vision.silhouette.SilhouetteScorer`):
the very colour a calibration should learn. The error is the ray distance between the two (a camel's range of
shading allowed, ``FitConfig.camel_shading``), the scale the reader tells colours apart on: on dev seeds 97, 99
and 103 (the 59 calibrations accepted before the eleventh round, 355 camels) the median camel was 0.007 off and 92%
were under 0.03; a camel learnt from the board's border or half from the board was 0.07 to 0.14 off.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from vision.calibration_file import Calibration
from vision.read import ReadConfig, observe
from vision.silhouette import FitConfig, SilhouetteScorer, ray_distances

OFF = 0.06
"""A learnt colour this far from the camel's own is counted as learnt from something else (the benches' count)."""


def true_colours(
    image: np.ndarray, calibration: Calibration, track: Mapping[int, Sequence[str]], shows: Mapping,
) -> dict[str, np.ndarray]:
    """Each camel's true colour in ``image`` (see the module's docstring); ``shows``: what ``render`` filled in.
    Camels showing fewer than 3 pixels of their inside, or on a space out of the picture, are left out."""
    scorer = SilhouetteScorer(observe(ReadConfig(), calibration.template, image), calibration.profiles,
                              calibration.template, fit=calibration.fit(), board_bgr=calibration.board_bgr)
    inside = np.ones((3, 3), np.uint8)
    found: dict[str, np.ndarray] = {}
    for space, stack in track.items():
        window = scorer._windows.get(int(space))
        if window is None:
            continue
        (x0, y0), (height, width) = window.origin, window.corrected.shape[:2]
        for camel in stack:
            if camel not in shows["camels"]:
                continue
            drawn = (shows["camel"] == shows["camels"].index(camel)).astype(np.uint8)
            body = cv2.erode(drawn, inside)[y0:y0 + height, x0:x0 + width] > 0
            if np.count_nonzero(body) >= 3:
                found[camel] = np.median(window.corrected[body], axis=0)
    return found


def colour_errors(learnt: Mapping[str, Sequence[float]], true: Mapping[str, np.ndarray]) -> dict[str, float]:
    """Each camel's learnt colour's distance from its true one (camels with both)."""
    shading = FitConfig().camel_shading
    return {camel: float(ray_distances(np.array([learnt[camel]], np.float32), np.array([colour], np.float32),
                                       shading)[0, 0])
            for camel, colour in true.items() if camel in learnt}
