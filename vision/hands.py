"""A hand or an arm over the board: where it is in the picture, and the spaces it hides.

An arm is unlike a camel in ways that do not depend on its colour (a sleeve may be any camel's): it comes from
outside the board, it is long, and it is far larger than any camel or stack. So, in a small copy of the picture
(:func:`arm_mask`):

1. what is unlike both the board's spaces and what lies around the board (the board's border or margin, the
   table: rings of samples around the track, see ``HandConfig.rings_mm``) is *foreground*: camels, the pyramid,
   the palm tree, cards, an arm (:func:`foreground`; the printed markers are left out);
2. of it, only what is thicker than a stack of camels is kept (a morphological opening, ``thick_mm``), and of
   that, a piece at least ``min_area_mm2`` large that comes from afar (it reaches the picture's edge or beyond
   the band around the board, ``near_mm``: a phone or a box beside the board does not) and crosses that band
   as a bar pointing at the board with the table on both its sides (a lamp's bright spot, the room behind the
   table do not) is an arm;
3. a bare forearm and a hand can look like the board (skin on sand): beyond the sleeve's end towards the
   board, a band as wide as the sleeve, ``hand_mm`` long, is taken as the arm too.

What the arm covers then shows no camel: its pixels count for and against none
(:class:`vision.silhouette.SilhouetteScorer` leaves them out of every camel's evidence), and a space whose
camels' place (its floor, up to ``covered_levels`` camels high) it mostly covers is covered
(:func:`hidden_spaces`): camels there are not seen and not guessed, as on any covered space (see
:meth:`vision.silhouette.SilhouetteScorer.covered`).

Tuned on the development sets only (the project's renderer, seeds 100-101; the independent renderer, seed 600):
an arm was found in 6 of their 19 pictures with one and in 1 of their 201 without (a sleeve the colour of
neither the board nor the table is found; a black sleeve on a dark table, a sleeve that barely enters the
picture, or one that merges with the room behind the table is not, and the picture is then read as without it).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.board import BoardTemplate

__all__ = ["HandConfig", "arm_mask", "find_arm", "hidden_spaces"]


@dataclass(frozen=True)
class HandConfig:
    width_px: int = 320
    """The picture is looked at this wide (an arm is large: a small copy shows it, and costs little)."""
    unlike: float = 0.09
    """A pixel further than this (a share of full white, shading aside) from the board's spaces and from what
    lies around the board is foreground."""
    board_shading: tuple[float, float] = (0.65, 1.7)
    """The shades of the board's spaces allowed (a dark sleeve is no shaded space)…"""
    table_shading: tuple[float, float] = (0.45, 2.2)
    """…and of what lies around the board (a lamp's gradient across the table, an arm's shadow), at most: as
    far as each ring around the board shows them, ``table_slack`` times further (see :func:`_shades`)."""
    table_slack: float = 1.25
    rings_mm: tuple[float, ...] = (22.0, 150.0, 190.0)
    """Around the track, at these distances, what the picture shows (a border, a margin, the table) is
    background (each ring's median: an arm crosses a small part of it)."""
    thick_mm: float = 45.0
    """Foreground thinner than this (a camel or a stack, the board's printed lines, a coin, fingers) is left out:
    a sleeve is 60 to 100 mm wide. On seeds 100-101, 22 mm took a camel beside the sleeve for the arm."""
    min_area_mm2: float = 15000.0
    """An arm's piece in view is at least this large (on the board's plane); a phone is about 10000 mm², a stack
    of five camels seen side on about 3000 mm²."""
    margin_mm: float = 60.0
    """The board's prism, where anything standing on it is seen: the track grown by this, up to ``reach_mm``
    (the 2018 pyramid is about 200 mm high, the palm tree a little more)."""
    reach_mm: float = 260.0
    near_mm: float = 400.0
    """The band around the board's prism that an arm crosses: out to the track grown by this, up to
    ``hand_height_mm``. It crosses it as a bar ``bar_ratio`` times longer than wide (the spread along and
    across), pointing at the board."""
    hand_height_mm: float = 150.0
    bar_ratio: float = 1.7
    arm_width_mm: float = 200.0
    """An arm's bar is at most this wide (its shadow beside it, the picture's perspective; a sleeve is 60 to
    100 mm): the room behind the table fills the band far wider."""
    hand_mm: float = 250.0
    """A bare forearm and hand reach this far beyond a sleeve's end (see :func:`_add_hand`)…"""
    sleeve_mm: float = 300.0
    """…when the sleeve's last this much is a bar…"""
    hand_width_mm: float = 100.0
    """…as wide as the sleeve, at most this."""
    grow_mm: float = 3.0
    """The arm found is grown by this (its blurred outline)."""
    covered_levels: float = 1.5
    """A space's camels' place: its floor up to this many camels high."""
    space_share: float = 0.5
    """A space whose camels' place an arm covers this much of is covered. On seeds 100-101 and 600, 0.3 hid
    camels in plain view in front of an arm."""


def find_arm(template: BoardTemplate, pose, image: np.ndarray, rims: dict[int, np.ndarray],
             config: HandConfig | None = None) -> tuple[frozenset[int], np.ndarray | None]:
    """The spaces a hand or an arm hides in ``image`` (read at ``pose``, see :class:`vision.read.Pose`;
    ``rims``: each space's own colour, :func:`vision.read.rim_colours`), and where the arm is (a uint8 mask as
    large as ``image``, 1 on the arm; None when there is no arm)."""
    config = config or HandConfig()
    found = arm_mask(template, pose, image, rims, config)
    if found is None:
        return frozenset(), None
    mask, scale = found
    full = cv2.resize(mask, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_NEAREST)
    return hidden_spaces(template, pose, mask, scale, config), full


def hidden_spaces(template: BoardTemplate, pose, mask: np.ndarray, scale: float,
                  config: HandConfig | None = None) -> frozenset[int]:
    """The spaces whose camels' place an arm (``mask``, :func:`arm_mask`'s) covers."""
    config = config or HandConfig()
    hidden = set()
    height = config.covered_levels * template.camel["height"]
    for space, corners in template.spaces.items():
        middle = np.mean(np.array(corners, float), axis=0)
        inside = middle + (np.array(corners, float) - middle) * 0.85
        points = np.array([(x, y, z) for x, y in inside for z in (0.0, -height)])
        outline = cv2.convexHull(np.round(pose.project(points) * scale * 4).astype(np.int32))
        place = np.zeros(mask.shape, np.uint8)
        cv2.fillConvexPoly(place, outline, 1, cv2.LINE_8, 2)
        area = cv2.countNonZero(place)
        if area and cv2.countNonZero(cv2.bitwise_and(place, mask)) >= config.space_share * area:
            hidden.add(space)
    return frozenset(hidden)


def arm_mask(template: BoardTemplate, pose, image: np.ndarray, rims: dict[int, np.ndarray],
             config: HandConfig | None = None) -> tuple[np.ndarray, float] | None:
    """Where an arm is in a small copy of ``image`` (uint8 mask, 1 on the arm), and the copy's scale; None when
    no arm is in view."""
    config = config or HandConfig()
    scale = min(1.0, config.width_px / image.shape[1])
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image
    px_per_mm = _px_per_mm(template, pose) * scale
    if not rims or px_per_mm <= 0:
        return None
    unlike = foreground(template, pose, small, scale, rims, config)
    _clear_markers(template, pose, scale, unlike)
    side = max(3, round(config.thick_mm * px_per_mm) | 1)
    thick = cv2.morphologyEx(unlike, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(thick, connectivity=8)
    if count <= 1:
        return None
    prism = _prism(template, pose, scale, small.shape[:2], config.margin_mm, config.reach_mm)
    centre_px = _track_centre(template, pose) * scale
    near = _prism(template, pose, scale, small.shape[:2], config.near_mm, config.hand_height_mm)
    crossing = cv2.bitwise_and(near, 1 - prism)
    min_area = config.min_area_mm2 * px_per_mm**2
    arm = np.zeros(small.shape[:2], np.uint8)
    for label in range(1, count):
        if stats[label, cv2.CC_STAT_AREA] < min_area:
            continue
        x, y, w, h = stats[label, :4]
        piece = (labels == label).astype(np.uint8)
        edge = x == 0 or y == 0 or x + w == piece.shape[1] or y + h == piece.shape[0]
        if not edge and not cv2.countNonZero(cv2.bitwise_and(piece, 1 - near)):
            continue  # it lies on the table near the board: a phone, a box (an arm comes from further away)
        if _reaches_in(cv2.bitwise_and(piece, crossing), piece, 0.1 * min_area, centre_px, config.bar_ratio,
                       config.arm_width_mm * px_per_mm):
            arm |= piece
            _add_hand(arm, piece, near, centre_px, px_per_mm, config)
    if not arm.any():
        return None
    grow = max(1, round(config.grow_mm * px_per_mm))
    arm = cv2.dilate(arm, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1)))
    return arm, scale


def _add_hand(arm: np.ndarray, piece: np.ndarray, near: np.ndarray, centre_px: np.ndarray, px_per_mm: float,
              config: HandConfig) -> None:
    """The forearm and hand beyond the sleeve's end, drawn into ``arm`` (skin can look like the board, and a
    sleeve may stop anywhere): a band as wide as the sleeve (at most ``hand_width_mm``), ``hand_mm`` long along
    it, from its end nearest the board's middle (``centre_px``), when the piece is a bar over its last
    ``sleeve_mm`` (an arm, not the room behind the table that a sleeve passes over)."""
    ys, xs = np.nonzero(piece & near)
    if not len(xs):
        return
    points = np.column_stack([xs, ys]).astype(np.float32)
    end = points[int(np.argmin(np.linalg.norm(points - centre_px, axis=1)))]
    ys, xs = np.nonzero(piece)
    points = np.column_stack([xs, ys]).astype(np.float32)
    local = points[np.linalg.norm(points - end, axis=1) <= config.sleeve_mm * px_per_mm]
    if len(local) < 8:
        return
    middle = local.mean(axis=0)
    _, spread, axes = np.linalg.svd(local - middle, full_matrices=False)
    if spread[0] < config.bar_ratio * spread[1]:
        return
    direction = axes[0] if float((end - middle) @ axes[0]) >= 0 else -axes[0]
    along = (local - middle) @ axes[0]
    width = min(len(local) / max(float(along.max() - along.min()), 1.0), config.hand_width_mm * px_per_mm)
    tip = end + direction * config.hand_mm * px_per_mm
    cv2.line(arm, tuple(int(v) for v in np.round(end)), tuple(int(v) for v in np.round(tip)), 1,
             max(1, round(width)))


def foreground(template: BoardTemplate, pose, small: np.ndarray, scale: float, rims: dict[int, np.ndarray],
               config: HandConfig) -> np.ndarray:
    """Pixels of ``small`` (``scale`` times the picture ``pose`` projects into) unlike the board's spaces and
    what lies around the board (uint8 mask)."""
    from vision.read import sample_colours
    from vision.silhouette_evidence import column_medians, ray_distance_rows

    # The board prints its spaces in two alternating tones: each tone's median (the light across the board is
    # within the shades allowed).
    order = sorted(rims)
    tones = np.array([column_medians(np.array([rims[space] for space in order[parity::2]], np.float32))
                      for parity in (0, 1) if order[parity::2]], np.float32)
    rings, which = _rings(template, config.rings_mm)
    samples = sample_colours(small, pose.project(np.column_stack([rings, np.zeros(len(rings))])) * scale, 1)
    references = []
    for index in range(len(config.rings_mm)):
        seen = samples[(which == index) & ~np.isnan(samples[:, 0])]
        if len(seen) >= 12:
            references.append((np.median(seen, axis=0).astype(np.float32), _shades(seen, config)))
    pixels = small.reshape(-1, 3).astype(np.float32)
    squares = np.einsum("ij,ij->i", pixels, pixels)
    unlike = np.ones(len(pixels), bool)
    for row in ray_distance_rows(pixels, squares, tones, config.board_shading):
        unlike &= row > config.unlike
    for colour, shading in references:
        unlike &= ray_distance_rows(pixels, squares, colour[None], shading)[0] > config.unlike
    return unlike.reshape(small.shape[:2]).astype(np.uint8)


def _shades(samples: np.ndarray, config: HandConfig) -> tuple[float, float]:
    """The shades of a ring's colour it shows (most of its samples' brightness against the median's, widened
    by ``table_slack``, within ``table_shading``): a lamp's gradient across the table is allowed, while a red
    sleeve on a dark red-brown wood is no shade of the wood twice as bright."""
    brightness = samples.sum(axis=1)
    low, middle, high = np.percentile(brightness, [10, 50, 90])
    middle = max(float(middle), 1.0)
    lowest, highest = config.table_shading
    return (max(lowest, low / middle / config.table_slack), min(highest, high / middle * config.table_slack))


def _rings(template: BoardTemplate, distances: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Points (mm) along squares around the track at ``distances`` (off the printed markers), and which
    distance each is on."""
    xs = [x for corners in template.spaces.values() for x, _ in corners]
    ys = [y for corners in template.spaces.values() for _, y in corners]
    steps = np.linspace(0, 1, RING_POINTS, endpoint=False)
    rings = []
    for distance in distances:
        x0, y0, x1, y1 = min(xs) - distance, min(ys) - distance, max(xs) + distance, max(ys) + distance
        rings.append(np.concatenate([
            np.column_stack([x0 + (x1 - x0) * steps, np.full(RING_POINTS, y0)]),
            np.column_stack([np.full(RING_POINTS, x1), y0 + (y1 - y0) * steps]),
            np.column_stack([x1 - (x1 - x0) * steps, np.full(RING_POINTS, y1)]),
            np.column_stack([np.full(RING_POINTS, x0), y1 - (y1 - y0) * steps]),
        ]))
    which = np.repeat(np.arange(len(distances)), 4 * RING_POINTS)
    points = np.concatenate(rings)
    off = ~_on_marker(template, points, 15.0)
    return points[off], which[off]


RING_POINTS = 48
"""Samples along each side of a ring around the track."""


def _on_marker(template: BoardTemplate, points: np.ndarray, margin: float) -> np.ndarray:
    near = np.zeros(len(points), bool)
    for x, y in template.markers.values():
        near |= ((points[:, 0] >= x - margin) & (points[:, 0] <= x + template.marker_size + margin)
                 & (points[:, 1] >= y - margin) & (points[:, 1] <= y + template.marker_size + margin))
    return near


def _clear_markers(template: BoardTemplate, pose, scale: float, mask: np.ndarray) -> None:
    """The printed markers (and their white borders) are no arm."""
    for marker in template.markers:
        x, y = template.markers[marker]
        grown = 14.0
        corners = [(x - grown, y - grown), (x + template.marker_size + grown, y - grown),
                   (x + template.marker_size + grown, y + template.marker_size + grown),
                   (x - grown, y + template.marker_size + grown)]
        pixels = pose.project(np.array([(cx, cy, 0.0) for cx, cy in corners])) * scale
        cv2.fillConvexPoly(mask, np.round(pixels * 4).astype(np.int32), 0, cv2.LINE_8, 2)


def _reaches_in(part: np.ndarray, piece: np.ndarray, min_area: float, centre_px: np.ndarray, ratio: float,
                widest: float) -> bool:
    """Whether ``part`` (a piece's pixels in the band around the board's prism) is an arm reaching in: a bar at
    most ``widest`` wide (pixels) pointing at the board's middle (``centre_px``) with something else on both
    its sides, not a lamp's bright spot, a box, or the room behind the table (the picture's edge beside it)."""
    ys, xs = np.nonzero(part)
    if len(xs) < max(min_area, 8):
        return False
    points = np.column_stack([xs, ys]).astype(np.float32)
    middle = points.mean(axis=0)
    _, spread, axes = np.linalg.svd(points - middle, full_matrices=False)
    along = (points - middle) @ axes[0]
    width = len(points) / max(float(along.max() - along.min()), 1.0)
    towards = centre_px - middle
    pointing = abs(float(axes[0] @ towards)) / max(float(np.linalg.norm(towards)), 1e-9)
    if not (spread[0] >= ratio * spread[1] and pointing >= POINTING and width <= widest):
        return False
    # Beside the bar, on both sides along its length: not the piece, and inside the picture.
    steps = np.linspace(float(along.min()), float(along.max()), 9)[1:-1]
    aside = max(2.0, 1.5 * width)
    beside = np.concatenate([middle + steps[:, None] * axes[0] + side * aside * axes[1] for side in (-1, 1)])
    cells = np.round(beside).astype(int)
    rows, cols = piece.shape
    inside = (cells[:, 0] >= 0) & (cells[:, 0] < cols) & (cells[:, 1] >= 0) & (cells[:, 1] < rows)
    clear = np.zeros(len(cells), bool)
    clear[inside] = piece[cells[inside, 1], cells[inside, 0]] == 0
    return bool(clear.mean() >= BESIDE)


BESIDE = 0.6
"""An arm lies over the table: at least this share of the points beside it are something else (the room behind
the table, or a patch along the picture's edge, has the edge on one side)."""
POINTING = 0.6
"""An arm's bar points at the board's middle within about 53° (the cosine)."""


def _track_centre(template: BoardTemplate, pose) -> np.ndarray:
    middle = np.mean([template.space_centre(space) for space in template.spaces], axis=0)
    return pose.project(np.array([[middle[0], middle[1], 0.0]]))[0]


def _prism(template: BoardTemplate, pose, scale: float, shape: tuple[int, int], margin: float,
           top: float) -> np.ndarray:
    """Where anything on the board up to ``top`` high (the track grown by ``margin``) can be seen (uint8 mask)."""
    xs = [x for corners in template.spaces.values() for x, _ in corners]
    ys = [y for corners in template.spaces.values() for _, y in corners]
    m = margin
    corners = [(min(xs) - m, min(ys) - m), (max(xs) + m, min(ys) - m), (max(xs) + m, max(ys) + m),
               (min(xs) - m, max(ys) + m)]
    points = np.array([(x, y, z) for x, y in corners for z in (0.0, -top)])
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, cv2.convexHull(np.round(pose.project(points) * scale * 4).astype(np.int32)), 1,
                       cv2.LINE_8, 2)
    return mask


def _px_per_mm(template: BoardTemplate, pose) -> float:
    """Pixels per millimetre on the track, on average (from the spaces' areas)."""
    outlines = np.array([corners for corners in template.spaces.values()], float)  # spaces × 4 × 2
    flat = outlines.reshape(-1, 2)
    pixels = pose.project(np.column_stack([flat, np.zeros(len(flat))])).reshape(outlines.shape)
    total_px = sum(abs(cv2.contourArea(outline.astype(np.float32))) for outline in pixels)
    total_mm = sum(abs(cv2.contourArea(outline.astype(np.float32))) for outline in outlines)
    return float(np.sqrt(total_px / total_mm)) if total_mm else 0.0
