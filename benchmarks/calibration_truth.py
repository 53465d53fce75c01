"""The camels' true colours in a photo-like render (vision.photo), for the calibration benches: how far a
calibration's colours are from what the camera really showed of each camel.

A camel's true colour is the median of the pixels the renderer drew of it (in the picture as developed: light,
noise, white balance and JPEG included), its outline left out, relative to the board's colour by its space (as
the reader sees a camel: :func:`vision.read.light_at`). A calibration's colour for it is relative to the board's
colour it measured. The error is the distance between the two colours' channel shares (the scale of
``vision.calibrate_colours.MIN_CHROMA_GAP``: 0.02 is as far apart as two camels the reader can still tell apart).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

import vision.photo as photo
from vision.locate import BoardNotFound
from vision.read import ReadConfig, light_at, observe

_drawn: list[np.ndarray] = []
_light_picture = photo._light_picture


def _recording(*args: Any, **kwargs: Any) -> tuple[np.ndarray, np.ndarray]:
    picture, objects = _light_picture(*args, **kwargs)
    _drawn[:] = [objects]
    return picture, objects


photo._light_picture = _recording  # which object each pixel shows, as render_scene draws it


def render_with_colours(
    table: photo.Table, track: dict[int, list[str]], seed: int, tier: str, *, anywhere: bool = False
) -> tuple[np.ndarray, dict[str, Any], dict[str, np.ndarray]]:
    """:func:`vision.photo.render_scene`, and each camel's true colour relative to the board by its space
    (camels showing fewer than 20 pixels of their inside left out)."""
    image, truth = photo.render_scene(table, track, seed, tier, anywhere=anywhere)
    canvas = table.canvas
    objects = cv2.remap(_drawn[0].astype(np.float32), canvas.map_x, canvas.map_y, cv2.INTER_NEAREST,
                        borderMode=cv2.BORDER_CONSTANT, borderValue=0).astype(np.int32)
    try:
        rims = observe(ReadConfig(), table.template, image).rims
    except BoardNotFound:  # no colours to compare with
        return image, truth, {}
    colours = {}
    for camel, where in truth["camels"].items():
        mask = cv2.erode((objects == photo.camel_object(table.edition, camel)).astype(np.uint8),
                         np.ones((3, 3), np.uint8)).astype(bool)
        if mask.sum() < 20 or where["space"] not in rims:
            continue
        board = light_at(table.template, rims, where["space"])
        colours[camel] = np.median(image[mask].astype(float), axis=0) / np.maximum(board, 1.0)
    return image, truth, colours


def colour_errors(calibration: Any, true: dict[str, np.ndarray]) -> dict[str, float]:
    """Each camel's calibrated colour's distance from its true one (channel shares, both relative to the board),
    for the camels it measured (not those it left out, hidden)."""
    profiles, board_bgr = calibration.profiles, calibration.board_bgr
    errors = {}
    for camel, colour in true.items():
        if camel not in profiles or camel in getattr(calibration, "left_out", ()):  # (calibrations before it: none)
            continue
        measured = np.array(profiles[camel], float) / np.maximum(np.array(board_bgr, float), 1.0)
        errors[camel] = float(np.linalg.norm(measured / measured.sum() - colour / colour.sum()))
    return errors


def summary(errors: list[float]) -> str:
    """Median, 90th percentile and share over 0.05 of a list of colour errors, in words."""
    if not errors:
        return "no camels"
    values = np.array(errors)
    return (f"{len(values)} camels, colour error median {np.median(values):.3f}, 90th percentile "
            f"{np.percentile(values, 90):.3f}, over 0.05: {np.mean(values > 0.05):.1%}")

