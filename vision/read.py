"""Reading the board: which camels stand on each space, bottom to top, from one oblique photo.

Stages, each ``(config, ...) -> result`` with its thresholds in :class:`ReadConfig`:

1. :func:`vision.locate.locate_board`: the markers give the board plane (millimetres → pixels).
2. :func:`camera_pose`: from that homography, the camera's focal length and pose (principal point at the
   image centre, square pixels), so points above the board can be projected too.
3. :func:`observe`: a large picture is cut down to the board's region (:func:`board_region`); on every space
   the stack is looked for where it stands (:func:`find_stack`, nearest the camera first), and vertical lines
   are sampled through it (:class:`_Line`), each sample divided by the light there (the board's own colour
   around that space), which takes out uneven light and colour casts.
4. :func:`blind_reading`: each line's samples labelled with the nearest camel colour (:func:`label_samples`),
   cut into camels bottom to top (:func:`stack_from_labels`), the lines across one stack agreed
   (:func:`agreed_stack`); each camel kept once.
5. :func:`read_board`: that first reading made sure by :mod:`vision.verify` (every camel moved to where the
   picture says it fits best; one whose place is not clear is reported unseen, never guessed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import cv2
import numpy as np

from vision.board import BoardTemplate
from vision.locate import BoardLocation, LocateConfig, locate_board

BOARD_BGR = (175.0, 222.0, 240.0)
"""The colour of an empty space under neutral light (the synthetic board's; calibrate for a real one)."""


@dataclass(frozen=True)
class ReadConfig:
    locate: LocateConfig = field(default_factory=LocateConfig)
    read_width: int = 1600
    """A larger picture is read in the board's region, brought down to this width (see :func:`board_region`)."""
    max_stack: int = 7
    sample_radius_px: int = 2
    empty_margin: float = 0.9
    """A sample is "no camel" when the board's colour is nearer than any camel's times this."""
    face_offset_mm: float = 3.0
    """The lines run this far in front of the middle of the stack (towards the camera)."""
    search_mm: float = 24.0
    """How far from the middle of its space a stack is looked for (a camel may be set down anywhere on it)."""
    search_step_mm: float = 6.0
    found_contrast: float = 0.1
    """A stack is found where the foot of a line differs from the board at least this much (as a share of
    full white); a space where nothing does is read along its middle."""
    level_gap_mm: float = 14.0
    """How far back from the line a camel's side may stand (the line's own offset, plus a camel set down
    off the centre of its space). Seen from above, what lies between the line and that side (the board, or
    the top of the camel below) shows first, so a camel at level k starts up to this far times the
    steepness of the view above k camel heights. A run of colour that starts higher up is something
    behind the stack: the board of the next space, or a camel standing there."""
    top_depth_mm: float = 22.0
    """How far behind the line a camel's top may still be seen (half its length, and the line's offset)."""
    placement_slack_mm: float = 6.0
    """How far from the middle of its space a camel may be set down."""
    lines: int = 3
    line_spread_mm: float = 4.0
    """The lines read across a stack's side lie this far either side of its middle."""
    line_step_px: float = 0.75
    min_run_share: float = 0.25
    """Runs of one colour shorter than this share of a camel's height (in this picture, at this space) are
    edges or outlines, not camels. Seen from high up, a camel's side is a thin band."""
    shading: tuple[float, float] = (0.45, 1.15)
    """How much darker or brighter than its profile a lit or shaded face of a camel may look."""
    brightness_weight: float = 1.5
    min_confidence: float = 0.25


@dataclass(frozen=True)
class Pose:
    matrix: np.ndarray
    rotation: np.ndarray
    translation: np.ndarray

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Points (N×3, mm; z into the table, so above the board is negative) to pixels (N×2)."""
        in_camera = points_mm @ self.rotation.T + self.translation
        projected = in_camera @ self.matrix.T
        return projected[:, :2] / projected[:, 2:3]


@dataclass(frozen=True)
class Reading:
    track: dict[int, list[str]]
    confidence: float
    problems: list[str]
    unseen: tuple[str, ...] = ()
    """Camels the reading could not find (hidden, or out of the picture)."""

    def as_json(self) -> dict[str, Any]:
        return {
            "track": {str(space): stack for space, stack in sorted(self.track.items())},
            "confidence": round(self.confidence, 3),
            "problems": self.problems,
        }


def camera_pose(location: BoardLocation, image_size: tuple[int, int]) -> Pose:
    """The camera's focal length and pose from the board's homography (Zhang's constraints with one unknown)."""
    width, height = image_size
    shift = np.array([[1, 0, -width / 2], [0, 1, -height / 2], [0, 0, 1]], float)
    h = shift @ location.homography
    h = h / np.linalg.norm(h[:, 0])
    # r1 ⊥ r2 and |r1| = |r2| for the columns of K⁻¹H are two equations a·w + b = 0 in w = 1/f². Solved
    # together by least squares, each weighs by how much it says: seen square on (no turn about the
    # vertical), the first says almost nothing, and taken alone it would throw the focal length off.
    a = np.array([h[0, 0] * h[0, 1] + h[1, 0] * h[1, 1], h[0, 0] ** 2 + h[1, 0] ** 2 - h[0, 1] ** 2 - h[1, 1] ** 2])
    b = np.array([h[2, 0] * h[2, 1], h[2, 0] ** 2 - h[2, 1] ** 2])
    w = -float(a @ b) / max(float(a @ a), 1e-18)
    focal = float(1 / np.sqrt(w)) if w > 0 else float(max(width, height))
    inverse = np.diag([1 / focal, 1 / focal, 1.0])
    a = inverse @ h
    scale = 1 / np.linalg.norm(a[:, 0])
    if a[2, 2] * scale < 0:  # the board must be in front of the camera
        scale = -scale
    r1 = a[:, 0] * scale
    r2 = a[:, 1] * scale
    r2 -= r1 * np.dot(r1, r2)
    r2 /= np.linalg.norm(r2)
    rotation = np.column_stack([r1, r2, np.cross(r1, r2)])
    translation = a[:, 2] * scale
    matrix = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]])
    return Pose(matrix, rotation, translation)


def sample_colours(image: np.ndarray, points: np.ndarray, radius: int) -> np.ndarray:
    """Median colour of the (2r+1)² patch around each point (N×2 → N×3); NaN rows outside the picture."""
    height, width = image.shape[:2]
    xy = np.rint(points).astype(int)
    inside = (xy[:, 0] >= radius) & (xy[:, 0] < width - radius) & (xy[:, 1] >= radius) & (xy[:, 1] < height - radius)
    out = np.full((len(points), 3), np.nan, np.float32)
    if inside.any():
        offsets = np.arange(-radius, radius + 1)
        ys = xy[inside, 1][:, None, None] + offsets[None, :, None]
        xs = xy[inside, 0][:, None, None] + offsets[None, None, :]
        patches = image[ys, xs].reshape(int(inside.sum()), -1, 3).astype(np.float32)
        out[inside] = np.median(patches, axis=1)
    return out


def _distances(samples: np.ndarray, profile: np.ndarray, shading: tuple[float, float], weight: float) -> np.ndarray:
    """How far (light-corrected) samples are from a colour profile (one colour, or one per sample): the
    difference of their chroma (each channel's share), plus a penalty only when the brightness is outside
    what shading can make of the profile (a white camel's face in shadow is grey, not sand; black and white
    differ by brightness alone)."""
    totals = samples.sum(axis=1, keepdims=True) + 1e-6
    profile_totals = profile.sum(axis=-1, keepdims=True) + 1e-6
    chroma = np.linalg.norm(samples / totals - profile / profile_totals, axis=1)
    low, high = profile_totals[..., 0] * shading[0], profile_totals[..., 0] * shading[1]
    outside = np.maximum(0.0, np.maximum(low - totals[:, 0], totals[:, 0] - high)) / (3 * 255)
    return chroma + weight * outside


class _Line(NamedTuple):
    """One vertical line read up a stack's side: its samples' points, and how to cut them into camels."""

    space: int
    points: np.ndarray
    min_run: float
    """Shorter runs of one colour are edges or outlines, not camels (in samples)."""
    latest_starts: list[float]
    """The k-th camel must start by this sample, else it stands behind the stack."""
    latest_ends: list[float]
    """The k-th camel ends by this sample (its top seen from above included); beyond is something behind."""


def _line(
    config: ReadConfig, pose: Pose, camera_at: np.ndarray, space: int, foot: np.ndarray, camel_height: float
) -> _Line:
    top = config.max_stack * camel_height
    ends = pose.project(np.array([[foot[0], foot[1], 0.0], [foot[0], foot[1], -top]]))
    line_px = float(np.linalg.norm(ends[1] - ends[0]))
    steps = max(2, int(line_px / config.line_step_px))
    # The steeper the view, the higher up the line a camel standing back from it starts.
    steepness = -camera_at[2] / (np.linalg.norm(camera_at[:2] - foot) + 1e-9)
    starts_mm = np.minimum(np.arange(config.max_stack) * camel_height + config.level_gap_mm * steepness, top)
    ends_mm = np.minimum((np.arange(config.max_stack) + 1) * camel_height + config.top_depth_mm * steepness, top)

    def samples_at(heights_mm: np.ndarray) -> np.ndarray:
        pixels = pose.project(np.column_stack([np.full((len(heights_mm), 2), foot), -heights_mm]))
        return steps * np.linalg.norm(pixels - ends[0], axis=1) / max(line_px, 1e-9)

    return _Line(
        space,
        ends[0] + np.linspace(0.0, 1.0, steps)[:, None] * (ends[1] - ends[0]),
        max(1.0, config.min_run_share * steps / config.max_stack),
        samples_at(starts_mm).tolist(),
        samples_at(ends_mm).tolist(),
    )


BOARD_LABEL = -1


def label_samples(
    config: ReadConfig,
    corrected: np.ndarray,
    references: dict[str, np.ndarray],
    board_references: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Each light-corrected sample's nearest colour: the index of a camel in ``references`` with how
    clearly it beats the runner-up (0 to 1), or :data:`BOARD_LABEL` where the board's own colour (one per
    sample) is nearer."""
    names = list(references)
    table = np.stack(
        [_distances(corrected, references[name], config.shading, config.brightness_weight) for name in names],
        axis=1,
    )
    board = _distances(corrected, board_references, (0.6, 1.1), config.brightness_weight)
    order = np.argsort(table, axis=1)
    rows = np.arange(len(table))
    nearest = table[rows, order[:, 0]]
    second = table[rows, order[:, 1]] if len(names) > 1 else nearest + 1
    is_board = board < nearest * config.empty_margin + 1e-3
    labels = np.where(is_board, BOARD_LABEL, order[:, 0])
    clarity = np.where(is_board, 1.0, (second - nearest) / (second + 1e-6))
    return labels, clarity


class Seen(NamedTuple):
    """One camel in one line's reading."""

    camel: str
    clarity: float
    """How clearly its colour beat the runner-up's, 0 to 1."""
    at_foot: bool
    """It starts at the very bottom of the line: nothing (not even the board) was seen below it."""


def stack_from_labels(
    labels: np.ndarray, clarity: np.ndarray, names: list[str], min_run: float, latest_starts: list[float]
) -> list[Seen]:
    """The camels one line shows, bottom first: runs of one colour at least ``min_run`` samples long; the
    k-th must start by sample ``latest_starts[k]`` (else it stands behind the stack), and the board seen
    above the stack ends it."""
    if not len(labels):
        return []
    starts = np.concatenate([[0], np.flatnonzero(np.diff(labels)) + 1])
    lengths = np.diff(np.concatenate([starts, [len(labels)]]))
    sums = np.add.reduceat(clarity, starts)
    merged: list[list[Any]] = []  # [label, length, summed clarity, index where it starts]
    for label, length, total, start in zip(
        labels[starts].tolist(), lengths.tolist(), sums.tolist(), starts.tolist(), strict=True
    ):
        if length < min_run:
            continue
        # Dropping a short run (an outline) can leave two runs of one colour side by side.
        if merged and merged[-1][0] == label:
            merged[-1][1] += length
            merged[-1][2] += total
        else:
            merged.append([label, length, total, start])
    stack: list[Seen] = []
    for label, length, total, start in merged:
        if label == BOARD_LABEL:
            if stack:
                break
            continue
        if len(stack) >= len(latest_starts) or start > latest_starts[len(stack)]:
            break
        stack.append(Seen(names[label], total / length, start < min_run))
    return stack


def agreed_stack(readings: list[list[Seen]]) -> list[Seen]:
    """One stack from the lines read across it: what most lines agree on; failing that, the longest
    reading (a hand or a shadow over part of the stack shortens the lines it covers)."""
    counts: dict[tuple[str, ...], int] = {}
    for reading in readings:
        key = tuple(seen.camel for seen in reading)
        counts[key] = counts.get(key, 0) + 1
    agreed = [key for key, count in counts.items() if key and count * 2 > len(readings)]
    if agreed:
        return next(reading for reading in readings if tuple(seen.camel for seen in reading) == agreed[0])
    return max(readings, key=lambda reading: (len(reading), sum(seen.clarity for seen in reading)), default=[])


def _hides(pose: Pose, template: BoardTemplate, config: ReadConfig, space: int, levels: int, foot: np.ndarray) -> bool:
    """Whether a stack of ``levels`` camels on ``space`` covers the bottom of the line at ``foot`` (mm)."""
    cx, cy = template.space_centre(space)
    half_length = template.camel["length"] / 2 + config.placement_slack_mm
    half_width = template.camel["width"] / 2 + config.placement_slack_mm
    top = levels * template.camel["height"]
    box = np.array(
        [
            (cx + dx, cy + dy, z)
            for dx in (-half_length, half_length)
            for dy in (-half_width, half_width)
            for z in (0, -top)
        ]
    )
    outline = cv2.convexHull(pose.project(box).astype(np.float32))
    point = pose.project(np.array([[foot[0], foot[1], 0.0]]))[0]
    return cv2.pointPolygonTest(outline, (float(point[0]), float(point[1])), False) >= 0


def rim_colours(config: ReadConfig, template: BoardTemplate, pose: Pose, image: np.ndarray) -> dict[int, np.ndarray]:
    """Each space's own colour where no camel stands: the brightest (least shadowed) of samples near its
    corners. Spaces outside the picture are left out."""
    spaces = list(template.spaces)
    rim = []
    for space in spaces:
        cx, cy = template.space_centre(space)
        rim += [(cx + 0.8 * (x - cx), cy + 0.8 * (y - cy), 0.0) for x, y in template.spaces[space]]
    samples = sample_colours(image, pose.project(np.array(rim)), config.sample_radius_px).reshape(len(spaces), 4, 3)
    return {
        space: np.nanmax(corners, axis=0)
        for space, corners in zip(spaces, samples, strict=True)
        if not np.isnan(corners[:, 0]).all()
    }


def light_at(template: BoardTemplate, rims: dict[int, np.ndarray], space: int) -> np.ndarray:
    """The board's colour as the light makes it look at ``space``: boards print neighbouring spaces in two
    alternating tones, so the spaces of each parity near it (itself and the ones two away; the two next to
    it) give one median each, and the two count alike. Every space is then judged against the same mix of
    both tones (a camel's colour, measured on an odd space, reads the same on an even one)."""
    spaces = sorted(template.spaces)
    index = spaces.index(space)
    same = [rims[s] for s in (spaces[index - 2], space, spaces[(index + 2) % len(spaces)]) if s in rims]
    other = [rims[s] for s in (spaces[index - 1], spaces[(index + 1) % len(spaces)]) if s in rims]
    if not other:
        return np.median(np.array(same), axis=0)
    return np.sqrt(np.median(np.array(same), axis=0) * np.median(np.array(other), axis=0))


def board_region(
    config: ReadConfig, template: BoardTemplate, image: np.ndarray, pose: Pose
) -> tuple[np.ndarray, Pose]:
    """A picture wider than ``config.read_width`` (a full-resolution still: the Camera Module 3 gives
    4608×2592) is read in the board's region only, cut out at full resolution and brought down to at most
    that width (averaging pixels, which also averages noise away): the camels stay far larger than in a
    video frame, and reading costs what a frame costs. The pose is moved to the cut-out."""
    height, width = image.shape[:2]
    if width <= config.read_width:
        return image, pose
    top = config.max_stack * template.camel["height"]
    outline = np.array(
        [(x, y, z) for corners in template.spaces.values() for x, y in corners for z in (0.0, -top)]
        + [(x, y, 0.0) for marker in template.markers for x, y in template.marker_corners(marker)]
    )
    pixels = pose.project(outline)
    x0, y0 = np.maximum(np.floor(pixels.min(axis=0)) - 8, 0).astype(int)
    x1, y1 = np.minimum(np.ceil(pixels.max(axis=0)) + 8, [width, height]).astype(int)
    if x1 - x0 < 16 or y1 - y0 < 16:
        return image, pose
    scale = min(1.0, config.read_width / (x1 - x0))
    region = image[y0:y1, x0:x1]
    if scale < 1.0:
        region = cv2.resize(region, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    shift = np.array([[scale, 0, -scale * x0], [0, scale, -scale * y0], [0, 0, 1.0]])
    return region, Pose(shift @ pose.matrix, pose.rotation, pose.translation)


def find_stack(
    config: ReadConfig,
    template: BoardTemplate,
    pose: Pose,
    image: np.ndarray,
    space: int,
    light: np.ndarray,
    space_board: np.ndarray,
    in_front: Sequence[np.ndarray] = (),
) -> tuple[np.ndarray, bool]:
    """Where on ``space`` (mm) the stack stands, and whether one was found: of the points on a grid over the
    space, the one whose camel-high column looks least like the board (nearer the middle when alike), not
    counting what lies inside the outlines ``in_front`` (stacks already found nearer the camera); the middle
    when none differs from the board by ``found_contrast``."""
    cx, cy = template.space_centre(space)
    steps = np.arange(-config.search_mm, config.search_mm + 1e-9, config.search_step_mm)
    grid = np.array([(cx + dx, cy + dy) for dx in steps for dy in steps])
    heights = template.camel["height"] * np.array([0.35, 0.55, 0.75])
    points = np.array([(x, y, -z) for x, y in grid for z in heights])
    pixels = pose.project(points)
    samples = sample_colours(image, pixels, 1) / np.maximum(light, 0.05)
    usable = ~np.isnan(samples[:, 0])
    for outline in in_front:
        usable &= ~inside_convex(outline, pixels)
    profile = np.broadcast_to(space_board, samples.shape)
    scale = np.einsum("ij,ij->i", np.where(usable[:, None], samples, 0), profile) / float(space_board @ space_board)
    scale = np.clip(scale, 0.6, 1.1)
    unlike = np.linalg.norm(np.where(usable[:, None], samples, 0) - scale[:, None] * profile, axis=1) / 255.0
    unlike = np.where(usable, np.minimum(unlike, 0.25), 0.0).reshape(len(grid), len(heights)).mean(axis=1)
    distance = np.linalg.norm(grid - (cx, cy), axis=1) / max(config.search_mm, 1e-9)
    score = unlike - 0.02 * distance
    best = int(np.argmax(score))
    if unlike[best] < config.found_contrast:
        return np.array([cx, cy]), False
    return grid[best], True


def stack_outline(pose: Pose, middle: np.ndarray, height: float, radius: float = 14.0) -> np.ndarray:
    """The picture's outline (a convex polygon, pixels) of a stack ``height`` mm tall standing at ``middle``,
    as a cylinder (the pieces are about 30 × 14 mm, turned any way)."""
    angles = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    ring = np.column_stack([np.cos(angles), np.sin(angles)]) * radius + middle
    solid = np.vstack(
        [np.column_stack([ring, np.zeros(len(ring))]), np.column_stack([ring, np.full(len(ring), -height)])]
    )
    return cv2.convexHull(pose.project(solid).astype(np.float32)).reshape(-1, 2)


def inside_convex(polygon: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Which points lie inside a convex polygon (either winding)."""
    edges = np.roll(polygon, -1, axis=0) - polygon
    relative = points[:, None, :] - polygon[None, :, :]
    cross = edges[None, :, 0] * relative[:, :, 1] - edges[None, :, 1] * relative[:, :, 0]
    return (cross >= 0).all(axis=1) | (cross <= 0).all(axis=1)


@dataclass(frozen=True)
class Observation:
    """What reading and verifying share: the camera's pose and every space's lines, sampled and corrected for
    the light (samples outside the picture are NaN)."""

    pose: Pose
    camera_at: np.ndarray
    lines: list[_Line]
    corrected: np.ndarray
    """Every line's samples, one after the other (``counts`` long each), divided by the light there."""
    boards: np.ndarray
    """The "no camel" colour for each sample: its space's own colour, corrected the same way."""
    counts: list[int]
    feet: dict[int, np.ndarray]
    problems: list[str]
    middles: dict[int, np.ndarray] = field(default_factory=dict)
    """Where on each space (mm) the stack was found (its middle when nothing was)."""
    lights: dict[int, np.ndarray] = field(default_factory=dict)
    """How the light changes the board's colour on each space (divide a sample by it)."""
    image: np.ndarray | None = None
    """The picture the lines were read in (the board's region of a large picture, see :func:`board_region`)."""
    location: BoardLocation | None = None
    """Where the markers were found (in the whole picture): the next frame looks for them there first."""

    def line_slices(self) -> list[slice]:
        ends = np.cumsum(self.counts).tolist()
        return [slice(end - count, end) for end, count in zip(ends, self.counts, strict=True)]


def observe(
    config: ReadConfig,
    template: BoardTemplate,
    image: np.ndarray,
    board_bgr: tuple[float, float, float] = BOARD_BGR,
    location: BoardLocation | None = None,
    near: BoardLocation | None = None,
) -> Observation:
    """Locate the board (unless ``location`` is given) and sample every space's lines.

    Raises:
        vision.locate.BoardNotFound: the markers are not all visible (nothing is guessed).
    """
    if location is None:
        location = locate_board(config.locate, template, image, near)
    pose = camera_pose(location, (image.shape[1], image.shape[0]))
    found_in = location
    image, pose = board_region(config, template, image, pose)
    camera_at = -pose.rotation.T @ pose.translation
    h = template.camel["height"]
    board_reference = np.array(board_bgr, np.float32)
    problems: list[str] = []
    feet: dict[int, np.ndarray] = {}
    middles: dict[int, np.ndarray] = {}
    lights_by_space: dict[int, np.ndarray] = {}
    lines: list[_Line] = []
    lights: list[np.ndarray] = []
    boards: list[np.ndarray] = []
    rims = rim_colours(config, template, pose, image)
    for space in template.spaces:
        if space not in rims:
            problems.append(f"space {space} is outside the picture")
            continue
        # The light here: how the board's colour looks on this space and its two neighbours (the median,
        # so that one space printed in another colour, or a hand over one, does not throw it off). What
        # this space itself looks like is the "no camel" colour to compare with.
        lights_by_space[space] = light_at(template, rims, space) / board_reference
    # Stacks are looked for nearest the camera first: a stack found in front is not found again, seen
    # over it, on the space behind.
    in_front: list[np.ndarray] = []
    for space in sorted(lights_by_space, key=lambda s: np.linalg.norm(camera_at[:2] - template.space_centre(s))):
        light = lights_by_space[space]
        space_board = rims[space] / np.maximum(light, 0.05)
        middle, found = find_stack(config, template, pose, image, space, light, space_board, in_front)
        middles[space] = middle
        if found:
            in_front.append(stack_outline(pose, middle, 2 * h))
    for space in template.spaces:
        if space not in lights_by_space:
            continue
        light, middle = lights_by_space[space], middles[space]
        space_board = rims[space] / np.maximum(light, 0.05)
        # Read up vertical lines through the stack, a little in front of its middle: bottom to top, each run
        # of one colour is one camel; what is seen above the stack (behind it) ends it. Several lines across
        # it, so that something over part of it does not hide the stack.
        toward = np.array([camera_at[0] - middle[0], camera_at[1] - middle[1]])
        toward = toward / (np.linalg.norm(toward) + 1e-9)
        across = np.array([-toward[1], toward[0]])
        feet[space] = middle + toward * config.face_offset_mm
        for offset in np.linspace(-config.line_spread_mm, config.line_spread_mm, config.lines):
            lines.append(_line(config, pose, camera_at, space, feet[space] + across * offset, h))
            lights.append(light)
            boards.append(space_board)
    counts = [len(line.points) for line in lines]
    if not lines:
        empty = np.zeros((0, 3), np.float32)
        return Observation(
            pose, camera_at, [], empty, empty, [], feet, problems, middles, lights_by_space, image, found_in
        )
    samples = sample_colours(image, np.concatenate([line.points for line in lines]), config.sample_radius_px)
    light_per_sample = np.maximum(np.repeat(np.array(lights), counts, axis=0), 0.05)
    corrected = (samples / light_per_sample).astype(np.float32)
    board_per_sample = np.repeat(np.array(boards), counts, axis=0).astype(np.float32)
    return Observation(
        pose, camera_at, lines, corrected, board_per_sample, counts, feet, problems, middles, lights_by_space, image,
        found_in,
    )


def read_board(
    config: ReadConfig,
    template: BoardTemplate,
    profiles: dict[str, tuple[float, float, float]],
    image: np.ndarray,
    board_bgr: tuple[float, float, float] = BOARD_BGR,
    observation: Observation | None = None,
) -> Reading:
    """The camels on every space, bottom first, as sure as the picture allows: the blind reading
    (:func:`blind_reading`) made sure by :func:`vision.verify.refine` (each camel moved to where the picture
    says it fits best; a camel whose place is not clear is reported unseen, never guessed). ``profiles`` are
    the camels' colours and ``board_bgr`` the board's, both as seen in the same light (a calibration
    measures them for a table).

    Raises:
        vision.locate.BoardNotFound: the markers are not all visible (nothing is guessed).
    """
    from vision.verify import BoardScorer, refine

    seen = observation or observe(config, template, image, board_bgr)
    first = blind_reading(config, template, profiles, image, board_bgr, seen)
    if not seen.lines:
        return first
    track, unseen = refine(BoardScorer(config, seen, profiles), first.track, list(profiles))
    problems = [problem for problem in first.problems if "not seen" not in problem and "sighting" not in problem]
    problems += [f"the {camel} camel is not seen" for camel in unseen]
    return Reading(track, first.confidence, problems, unseen)


def blind_reading(
    config: ReadConfig,
    template: BoardTemplate,
    profiles: dict[str, tuple[float, float, float]],
    image: np.ndarray,
    board_bgr: tuple[float, float, float] = BOARD_BGR,
    observation: Observation | None = None,
) -> Reading:
    """A first reading, line by line: each line's runs of one colour are the camels (the starting point of
    :func:`read_board`).

    Raises:
        vision.locate.BoardNotFound: the markers are not all visible (nothing is guessed).
    """
    seen = observation or observe(config, template, image, board_bgr)
    pose, feet, lines = seen.pose, seen.feet, seen.lines
    references = {camel: np.array(bgr, np.float32) for camel, bgr in profiles.items()}
    candidates: list[tuple[float, int, int, str]] = []  # (clarity, space, level, camel)
    problems = list(seen.problems)
    covered_feet: set[int] = set()
    if not lines:
        return Reading({}, 0.0, [*problems, "no space of the board is in the picture"], tuple(profiles))
    # Every line of the picture labelled at once, then cut into camels line by line.
    usable = ~np.isnan(seen.corrected[:, 0])
    corrected = np.where(usable[:, None], seen.corrected, 0.0)
    names = list(references)
    labels, clarity = label_samples(config, corrected, references, seen.boards)
    by_space: dict[int, list[list[Seen]]] = {}
    for line, span in zip(lines, seen.line_slices(), strict=True):
        inside = usable[span]
        end = len(inside) if inside.all() else int(np.argmin(inside))  # the line may leave the picture
        first = span.start
        by_space.setdefault(line.space, []).append(
            stack_from_labels(
                labels[first : first + end], clarity[first : first + end], names, line.min_run, line.latest_starts
            )
        )
    for space, readings in by_space.items():
        for level, seen in enumerate(agreed_stack(readings)):
            candidates.append((seen.clarity, space, level, seen.camel))
            if level == 0 and seen.at_foot:
                covered_feet.add(space)

    # Each camel once. A tall stack hides the bottom of the lines behind it, so its top camel can also be
    # seen there, at the very bottom: such a sighting gives way; otherwise the clearest sighting is kept.
    believable = [
        (clarity, space, level, camel)
        for clarity, space, level, camel in candidates
        if level > 0
        or space not in covered_feet
        or not any(
            other == camel and there != space and _hides(pose, template, config, there, high + 1, feet[space])
            for _, there, high, other in candidates
        )
    ]
    best: dict[str, tuple[float, int, int]] = {}
    for clarity, space, level, camel in believable:
        if camel not in best or clarity > best[camel][0]:
            best[camel] = (clarity, space, level)
    track: dict[int, list[str]] = {}
    for camel, (_, space, _level) in sorted(best.items(), key=lambda item: (item[1][1], item[1][2])):
        track.setdefault(space, []).append(camel)
    unseen = tuple(camel for camel in profiles if camel not in best)
    problems += [f"the {camel} camel is not seen" for camel in unseen]
    duplicates = len(candidates) - len(best)
    if duplicates:
        problems.append(f"{duplicates} sighting{'s' if duplicates > 1 else ''} of a camel already placed ignored")
    confidence = float(np.mean([c for c, *_ in candidates])) if candidates else 0.0
    if confidence < config.min_confidence:
        problems.append(f"low confidence ({confidence:.2f}): check the light and the colour profiles")
    return Reading(track, confidence, problems, unseen)
