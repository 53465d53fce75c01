"""Something over the board in a calibration photo (a hand, an arm, a sleeve): where it hides a camel, its colour is
measured as the camel's, and colour alone cannot tell (a brown hand is as plausible a camel as a brown camel). What
tells it is its size: a camel's colour stops at the camel, while what covers it continues well beyond where any
camel could stand (across the next spaces, into the board's middle or border).

For each camel, the pixels near its measured colour (and unlike every tone of the board: the track's two
alternating tones, its border's and its middle's) are grown from where it may stand; what they cover beyond where
any camel of the photo may stand, less the largest part within one other space (a tile laid flat on an empty space
can be a camel's colour), is compared with the area of one camel there (``SPREAD``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from vision.board import BoardTemplate
from vision.read import Observation, light_at
from vision.silhouette import FitConfig, ray_distances

SPREAD = 1.0
"""A camel's colour that continues over more than this many camels' areas beyond where any camel may stand (and
beyond one space's worth) is something over the board, not the camel. Measured on photo-like calibration photos in
the light tier (``benchmarks/calibration_hand.py``): without a hand, at most 0.01 (seeds 1-3, 60 photos, looked at
while building) and 0.00 (seeds 4-5, 39 fresh); with an arm over the board, up to 17.6 and 5.6 where it continues.
Most hands are not found so (their colour near the board's, or a camel only partly covered): it refuses 8 of 58
and 7 of 37 such photos; 6 of the 37 still learn a hidden camel's colour from the hand."""
NEAR = 0.05
"""A pixel within this (a share of white, its shading aside) of a camel's colour shows that colour."""
APART = 0.03
"""...and only if this much nearer it than every tone of the board (a camel about as pale as its space is left
alone: where its colour stops cannot be told)."""
PALE_SHARES = 0.08
"""A colour whose channels' shares lie this close together is a white or grey (see :func:`_pale`)."""
REACH_MM = 160.0
"""How far around a camel's space its colour is followed (two spaces' worth)."""
ABOVE_MM = 150.0
"""How high above the board what covers a camel may be (a hand reaching in)."""


def covering_something(
    observation: Observation,
    template: BoardTemplate,
    track: Mapping[int, Sequence[str]],
    measured: Mapping[str, tuple[float, float, float]],
    board_colour: tuple[float, float, float],
    fit: FitConfig,
) -> list[int]:
    """The spaces of ``track`` (one camel each, as in a calibration photo; the top one of a stack is looked at)
    whose camel's colour, as measured, continues far beyond where any camel may stand (see ``SPREAD``)."""
    spreads = cover_spreads(observation, template, track, measured, board_colour, fit)
    return sorted(space for space, spread in spreads.items() if spread > SPREAD)


def cover_spreads(
    observation: Observation,
    template: BoardTemplate,
    track: Mapping[int, Sequence[str]],
    measured: Mapping[str, tuple[float, float, float]],
    board_colour: tuple[float, float, float],
    fit: FitConfig,
) -> dict[int, float]:
    """For each space of ``track`` whose camel's colour can be told from the board's, how far that colour
    continues beyond where any camel may stand, in camels' areas (see the module's description)."""
    image, pose = observation.image, observation.pose
    height, width = image.shape[:2]
    spaces = [space for space in track if track[space] and space in observation.rims]
    if not spaces:
        return {}
    reach = fit.offset_mm + fit.length_mm / 2 + 2
    stands = np.zeros((height, width), np.uint8)  # where the camels of the photo may stand (at any offset)
    for space in track:
        stands |= _hull(pose, template.space_centre(space), reach, reach, fit.step_mm * len(track[space]),
                        (height, width))
    floors = {space: _polygon(pose, corners, (height, width)) for space, corners in template.spaces.items()}
    board, middle, border = _zones(template, pose, (height, width))
    reference = np.array(board_colour, np.float32)
    odd = np.median([observation.rims[s] for s in observation.rims if s % 2], axis=0)
    even = np.median([observation.rims[s] for s in observation.rims if s % 2 == 0], axis=0)
    # The board's own colours as they are in the picture: what a camel's colour runs into there says nothing.
    tones = [odd, even, *(np.median(image[zone], axis=0) for zone in (middle, border) if zone.any())]
    spreads: dict[int, float] = {}
    for space in spaces:
        camel = track[space][-1]
        if camel not in measured:
            continue
        light = np.maximum(light_at(template, observation.rims, space) / reference, 0.05).astype(np.float32)
        centre = template.space_centre(space)
        x0, y0, x1, y1 = _bounds(pose, centre, REACH_MM, ABOVE_MM, (height, width))
        crop = image[y0:y1, x0:x1].reshape(-1, 3).astype(np.float32) / light
        colour = np.array([measured[camel]], np.float32)
        near = ray_distances(crop, colour, fit.camel_shading)[:, 0]
        own_tones = np.array([tone / light for tone in tones], np.float32)
        board_like = float(ray_distances(colour, own_tones, fit.board_shading).min()) < NEAR + APART
        if board_like or _pale(colour[0], reference):
            continue  # about the board's colour, or a lamp's glare on it: where it stops cannot be told
        apart = ray_distances(crop, own_tones, fit.board_shading).min(axis=1)
        shows = ((near < NEAR) & (apart > near + APART)).reshape(y1 - y0, x1 - x0)
        shows &= board[y0:y1, x0:x1]
        # Printed lines and noise of that colour do not join it to anything: only areas count.
        mask = cv2.morphologyEx(shows.view(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        _, labels = cv2.connectedComponents(mask, connectivity=8)
        own = _hull(pose, centre, reach, reach, fit.step_mm * len(track[space]), (height, width))[y0:y1, x0:x1]
        grown = np.unique(labels[own.view(bool) & (labels > 0)])
        beyond = np.isin(labels, grown[grown > 0]) & ~stands[y0:y1, x0:x1].view(bool)
        if not beyond.any():
            spreads[space] = 0.0
            continue
        tile = max(int(np.count_nonzero(beyond & floors[other][y0:y1, x0:x1].view(bool)))
                   for other in floors if other != space)
        body = _hull(pose, centre, fit.length_mm / 2, fit.width_mm / 2, fit.step_mm, (height, width))
        spreads[space] = (int(np.count_nonzero(beyond)) - tile) / max(int(np.count_nonzero(body)), 1)
    return spreads


def _pale(colour: np.ndarray, board: np.ndarray) -> bool:
    """A white or grey as bright as half the board or more: a lamp's glare on the board looks alike (a white
    camel's colour ran into it on 2 of 40 photos without a hand, ``benchmarks/calibration_hand.py`` seeds 2-3)."""
    shares = colour / max(float(colour.sum()), 1e-6)
    return float(np.ptp(shares)) < PALE_SHARES and float(colour.sum()) > 0.5 * float(board.sum())


def _hull(pose, centre, half_x: float, half_y: float, top: float, shape: tuple[int, int]) -> np.ndarray:
    """The pixels (uint8 mask) of a box standing on the board around ``centre`` (mm), ``top`` mm high."""
    cx, cy = centre
    corners = np.array([(cx + dx, cy + dy, -z) for dx in (-half_x, half_x) for dy in (-half_y, half_y)
                        for z in (0.0, top)])
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, cv2.convexHull(np.round(pose.project(corners)).astype(np.int32)), 1)
    return mask


def _polygon(pose, corners: Sequence[tuple[float, float]], shape: tuple[int, int]) -> np.ndarray:
    """The pixels (uint8 mask) of an outline on the board (mm)."""
    mask = np.zeros(shape, np.uint8)
    points = np.array([(x, y, 0.0) for x, y in corners])
    cv2.fillConvexPoly(mask, np.round(pose.project(points)).astype(np.int32), 1)
    return mask


def _zones(template: BoardTemplate, pose, shape: tuple[int, int]) -> tuple[np.ndarray, ...]:
    """Boolean masks: the board around the track (up to 35 mm beyond it), a band of its middle inside the track
    and a band of its border outside it (their colours are the board's too)."""
    corners = np.array([corner for outline in template.spaces.values() for corner in outline])
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    cell = float(np.median([np.ptp(np.array(outline)[:, 0]) for outline in template.spaces.values()]))

    def square(inset: float) -> np.ndarray:
        return _polygon(pose, [(x0 + inset, y0 + inset), (x1 - inset, y0 + inset), (x1 - inset, y1 - inset),
                               (x0 + inset, y1 - inset)], shape).view(bool)

    board, track = square(-35.0), square(0.0)
    middle = square(cell + 5.0) & ~square(cell + 35.0)
    return board, middle, board & ~track


def _bounds(pose, centre, reach: float, above: float, shape: tuple[int, int]) -> tuple[int, int, int, int]:
    """The picture's rectangle (x0, y0, x1, y1) showing ``reach`` mm around ``centre`` up to ``above`` mm high."""
    cx, cy = centre
    corners = np.array([(cx + dx, cy + dy, -z) for dx in (-reach, reach) for dy in (-reach, reach)
                        for z in (0.0, above)])
    pixels = pose.project(corners)
    x0, y0 = np.maximum(np.floor(pixels.min(axis=0)), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(pixels.max(axis=0)), [shape[1], shape[0]]).astype(int)
    return int(x0), int(y0), max(int(x1), int(x0) + 1), max(int(y1), int(y0) + 1)
