"""Reading the board: which camels stand on each space, bottom to top, from one oblique photo.

Stages, each ``(config, ...) -> result`` with its thresholds in :class:`ReadConfig` and
:class:`vision.silhouette.FitConfig`:

1. :func:`vision.locate.locate_board`: the markers give the board plane (millimetres → pixels).
2. :func:`camera_pose`: from that homography, the camera's focal length and pose (principal point at the
   image centre, square pixels), so points above the board can be projected too.
3. :func:`observe`: a large picture is cut down to the board's region (:func:`board_region`) at the pose.
4. :func:`vision.silhouette.first_track`: a first board, built as camels are (the clearest camel standing on
   a space first, or the clearest on top of a stack already placed), each camel's body scored by how well its
   colour fills the place (:class:`vision.silhouette.SilhouetteScorer`).
5. :func:`vision.reader.read_board`: that first board made sure by :func:`vision.verify.refine` (every camel
   moved to where the picture says it fits best; one whose place is not clear is reported unseen, never guessed).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.board import BoardTemplate
from vision.locate import BoardLocation, LocateConfig, fit_lens, locate_board
from vision.silhouette_evidence import BOARD_SHADING, column_medians, ray_distances

BOARD_BGR = (175.0, 222.0, 240.0)
"""The colour of an empty space under neutral light (the synthetic board's; calibrate for a real one)."""


@dataclass(frozen=True)
class ReadConfig:
    locate: LocateConfig = field(default_factory=LocateConfig)
    read_width: int = 1600
    """A larger picture is read in the board's region, brought down to this width (see :func:`board_region`)."""
    max_stack: int = 7
    """The board's region reaches this many camels above the spaces."""
    sample_radius_px: int = 2
    min_confidence: float = 0.15
    """Below this mean score of the camels placed (see :mod:`vision.silhouette`: a camel in plain view where it
    stands scores mostly 0.2 to 0.7), the reading says the colours do not fit this picture."""


@dataclass(frozen=True)
class Pose:
    matrix: np.ndarray
    rotation: np.ndarray
    translation: np.ndarray
    radial: float = 0.0
    """The lens's first radial distortion term (OpenCV's k1): negative for barrel distortion, about -0.1 to
    -0.3 for webcams and wide lenses, where a straight projection would be off by 10 to 30 pixels."""

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Points (N×3, mm; z into the table, so above the board is negative) to pixels (N×2)."""
        in_camera = points_mm @ self.rotation.T + self.translation
        # x/z and y/z a column at a time: the same quotients, twice as fast as dividing N×2 by N×1.
        ideal = np.empty((len(in_camera), 2))
        np.divide(in_camera[:, 0], in_camera[:, 2], out=ideal[:, 0])
        np.divide(in_camera[:, 1], in_camera[:, 2], out=ideal[:, 1])
        if self.radial:
            ideal = ideal * (1 + self.radial * np.einsum("ij,ij->i", ideal, ideal))[:, None]
        return ideal @ self.matrix[:2, :2].T + self.matrix[:2, 2]


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


def camera_pose(location: BoardLocation, image_size: tuple[int, int], template: BoardTemplate | None = None) -> Pose:
    """The camera's focal length, lens distortion and pose from the markers' corners (with ``template``), or
    its focal length and pose from the board's homography alone."""
    pose = _homography_pose(location, image_size)
    if template is None or len(location.markers) < 3:
        return pose
    lens = fit_lens(template, location.markers, image_size, float(pose.matrix[0, 0]))
    # Markers taped a few millimetres off can pull the fit to any distortion: a lens past these bounds is
    # not a lens a builder would use, and the straight projection is the safer guess then.
    if lens is None or not -RADIAL_LIMIT <= lens.radial <= RADIAL_LIMIT / 3:
        return pose
    return Pose(lens.matrix, lens.rotation, lens.translation, lens.radial)


RADIAL_LIMIT = 0.45
"""The strongest barrel distortion (k1) fitted; a pincushion is allowed a third of it."""


def _homography_pose(location: BoardLocation, image_size: tuple[int, int]) -> Pose:
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
        # An odd number of samples: the median is the middle one (numpy's median, bit for bit, 4 times faster).
        middle = patches.shape[1] // 2
        out[inside] = np.partition(patches, middle, axis=1)[:, middle]
    return out


def rim_colours(config: ReadConfig, template: BoardTemplate, pose: Pose, image: np.ndarray) -> dict[int, np.ndarray]:
    """Each space's own colour where no camel stands (see :func:`rim_samples`)."""
    return rim_samples(config, template, pose, image)[0]


def rim_samples(
    config: ReadConfig, template: BoardTemplate, pose: Pose, image: np.ndarray
) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray]]:
    """Each space's own colour where no camel stands, from samples all around its rim (``RIM_POINTS`` along each
    edge). What stands on a space covers some of them: a white camel near a corner is brighter than any board,
    a tall stack of dark camels or a shadow darker. So a space's usual sample (the one at ``RIM_RANK`` by
    brightness) is checked against the spaces of its tone on either side (``TONE_STEPS``; boards print the spaces
    in two alternating tones, see :func:`light_at`): its colour is its own sample nearest to their middle; a space
    that looks like none of their shades is covered, and its colour their middle (the spaces two away's).
    Spaces outside the picture are left out.

    Returns each space's colour, and its usual sample as it is (a start space printed lighter than its tone, a
    tile or a card over its rim)."""
    found, usual, _ = _rim_samples(config, template, pose, image)
    return found, usual


def _rim_samples(
    config: ReadConfig, template: BoardTemplate, pose: Pose, image: np.ndarray
) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray], dict[int, np.ndarray]]:
    """:func:`rim_samples`, and every sample of each space's rim (to judge them again, see :func:`board_rims`)."""
    spaces = sorted(template.spaces)
    steps = np.arange(RIM_POINTS) / RIM_POINTS
    # Every space's rim at once (spaces × edges × points), from each corner towards the next one.
    centres = np.array([template.space_centre(space) for space in spaces], float)[:, None, :]
    ring = centres + 0.8 * (np.array([template.spaces[space] for space in spaces], float) - centres)
    edges = np.roll(ring, -1, axis=1) - ring
    rim = (ring[:, :, None, :] + steps[None, None, :, None] * edges[:, :, None, :]).reshape(-1, 2)
    rim = np.column_stack([rim, np.zeros(len(rim))])
    samples = sample_colours(image, pose.project(rim), config.sample_radius_px)
    samples = samples.reshape(len(spaces), 4 * RIM_POINTS, 3)
    seen = {space: around[~np.isnan(around[:, 0])] for space, around in zip(spaces, samples, strict=True)}
    seen = {space: around for space, around in seen.items() if len(around)}
    usual = {space: around[np.argsort(around.sum(axis=1), kind="stable")[round(RIM_RANK * (len(around) - 1))]]
             for space, around in seen.items()}
    return own_colours(spaces, seen, usual), usual, seen


def own_colours(
    spaces: Sequence[int],
    samples: Mapping[int, np.ndarray],
    usual: Mapping[int, np.ndarray],
    cast: np.ndarray | None = None,
    hued: Mapping[int, np.ndarray] | None = None,
    judged: Mapping[int, np.ndarray] | None = None,
) -> dict[int, np.ndarray]:
    """Each space's colour from its rim's ``samples``, judged against the ``usual`` samples of its tone on either
    side (see :func:`rim_samples`). With the board's colour as this picture casts it (``cast``, see
    :func:`board_cast`), a middle of those samples whose hue is not the board's (``BOARD_HUE``) is no tone: an arm's
    sleeve over a space's rim and both rims of its tone beside it agreed with each other and passed for their tone.
    Their rims of the board's hue (``hued``, of ``usual``) tell it then (all of that tone's on the board when none
    near is). ``judged``: the colours as judged without the board's, kept where every middle is of its hue (they
    would come out the same)."""
    spaces = list(spaces)
    found = {}
    for index, space in enumerate(spaces):
        if space not in samples:
            continue
        middles: Iterable[np.ndarray] = (column_medians(np.array(tone)) for tone in _tone_rims(spaces, index, usual))
        if cast is not None:
            everyone = list(middles)
            keep = _hues_apart(np.array(everyone, np.float64), cast) <= BOARD_HUE
            if keep.all() and judged is not None and space in judged:
                found[space] = judged[space]
                continue
            middles = [middle for middle, ok in zip(everyone, keep, strict=True) if ok] or _board_hued_middles(
                spaces, index, hued or {}) or everyone
        found[space] = _own_colour(samples[space], middles)
    return found


def _tone_rims(spaces: list[int], index: int, rims: Mapping[int, np.ndarray]) -> list[list[np.ndarray]]:
    """Per group of ``TONE_STEPS``, the ``rims`` of the spaces of ``spaces[index]``'s tone in it (those it has)."""
    return [[rims[other] for other in (spaces[(index + step) % len(spaces)] for step in steps) if other in rims]
            for steps in TONE_STEPS]


def _board_hued_middles(spaces: list[int], index: int, hued: Mapping[int, np.ndarray]) -> list[np.ndarray]:
    """The middles of the tone of ``spaces[index]`` from the ``hued`` rims (those of the board's hue) only: those of
    ``TONE_STEPS`` that have any, else all of that tone's on the board."""
    tones = [tone for tone in _tone_rims(spaces, index, hued) if tone] or [
        [hued[other] for other in spaces[index % 2::2] if other in hued]]
    return [column_medians(np.array(tone)) for tone in tones if tone]


def board_cast(usual: Mapping[int, np.ndarray], board: Sequence[float]) -> np.ndarray | None:
    """The board's colour as this picture's light casts it: the median of the ``usual`` rim samples within
    ``BOARD_CAST`` of the calibrated ``board``'s hue; ``None`` when none is (another board, or light no
    calibration saw: nothing to judge a rim's hue by)."""
    colours = np.array(list(usual.values()), np.float64).reshape(-1, 3)
    near = colours[_hues_apart(colours, board) <= BOARD_CAST]
    return column_medians(near) if len(near) else None


def hue_apart(colour: Sequence[float] | np.ndarray, board: Sequence[float] | np.ndarray) -> float:
    """How far ``colour``'s hue is from ``board``'s, brightness aside: the distance between the two colours brought
    to the same length (0 alike, up to 1.41)."""
    return float(_hues_apart(np.asarray(colour, np.float64)[None, :], board)[0])


def _hues_apart(colours: np.ndarray, board: Sequence[float] | np.ndarray) -> np.ndarray:
    """:func:`hue_apart` of each row of ``colours`` (N×3) at once."""
    board = np.asarray(board, np.float64)
    units = colours / np.maximum(np.linalg.norm(colours, axis=1), 1e-6)[:, None]
    return np.linalg.norm(units - board / max(float(np.linalg.norm(board)), 1e-6), axis=1)


def _own_colour(samples: np.ndarray, middles: Iterable[np.ndarray]) -> np.ndarray:
    """A space's colour from its rim's ``samples``: the one nearest to the first of ``middles`` (its tone, as ever
    more spaces show it) it is a shade of. Nothing of the board's tone all around it: a tile, a card or a hand
    covers the space; its board is then its neighbours' tone, the first (what covers it is unlike the board, as
    it is)."""
    first = None
    for middle in middles:
        first = middle if first is None else first
        nearest = samples[int(np.argmin(np.linalg.norm(samples - middle, axis=1)))]
        if _shade_apart(nearest, middle) <= RIM_COVERED:
            return nearest
    assert first is not None
    return first


def _shade_apart(colour: np.ndarray, board: np.ndarray) -> float:
    """How far ``colour`` is from any shade of ``board`` the reader allows, a share of white (the scorer's
    distance, at its default shadings of the board)."""
    return float(ray_distances(colour[None, :], board[None, :], BOARD_SHADING)[0, 0])


RIM_POINTS = 4
"""Samples along each edge of a space's rim (from each corner on)."""
RIM_RANK = 0.55
"""Which of a space's rim samples is its colour, from the darkest (0) to the brightest (1)."""
TONE_STEPS = ((-2, 0, 2), (-4, -2, 0, 2, 4))
"""The spaces (steps along the track from a space) whose rims, printed in its tone, tell what its tone looks like:
the two spaces two away first (the light nearest alike), and only when the space looks like none of their shades
(covered, or between two covered spaces), two of its tone on each side, whose median holds while two of them are
covered (a tile, a card). With the spaces two away only, a space between two tiles (a blue one, a purple one)
was taken for covered and given a colour no space had, each channel another's median: the 4-high stack standing
on it was read nowhere (independent dev seed 600, light tier). With the five always, a lamp brighter on one side
of the board made its bare spaces there look covered (seed 600's props tier: 5 camels placed wrongly -> 14)."""
RIM_COVERED = 0.08
"""A space whose rim has no sample this near a shade of its tone (a share of white) is covered."""
BOARD_CAST = 0.3
"""How far (:func:`hue_apart`) a picture's light may cast the board's hue from the calibration photo's. On an arm set
(independent renderer, seed 609, an arm in every props scene) the median rim of a picture lay 0.03-0.16 from the
calibrated board; sleeves and palm fronds 0.35-0.57."""
BOARD_HUE = 0.2
"""A rim whose hue lies this far (:func:`hue_apart`) from the board's in the same picture is not the board's tone
(on that arm set: the rims of a picture 0.03-0.13 apart at the median; sleeves and fronds 0.32-0.55)."""


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
        return column_medians(np.array(same))
    return np.sqrt(column_medians(np.array(same)) * column_medians(np.array(other)))


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
    return region, Pose(shift @ pose.matrix, pose.rotation, pose.translation, pose.radial)


@dataclass(frozen=True)
class Observation:
    """Where the board is in one picture: the camera's pose, and the picture it is read in."""

    pose: Pose
    camera_at: np.ndarray
    """The camera's place (mm, in the board's frame; above the board is negative z)."""
    image: np.ndarray
    """The picture to read (the board's region of a large picture, see :func:`board_region`)."""
    location: BoardLocation
    """Where the markers were found (in the whole picture): the next frame looks for them there first."""
    rims: dict[int, np.ndarray] = field(default_factory=dict)
    """Each space's own colour where no camel stands (:func:`rim_colours`); spaces outside the picture left out."""
    prints: dict[int, np.ndarray] = field(default_factory=dict)
    """Each space's usual rim sample, even where unlike its tone (see :func:`rim_samples`)."""
    problems: list[str] = field(default_factory=list)
    rim_points: dict[int, np.ndarray] = field(default_factory=dict)
    """Every sample of each space's rim, to judge them again once the board's colour is known (:func:`board_rims`)."""


def observe(
    config: ReadConfig,
    template: BoardTemplate,
    image: np.ndarray,
    location: BoardLocation | None = None,
    near: BoardLocation | None = None,
    *,
    frames: bool = False,
) -> Observation:
    """Locate the board (unless ``location`` is given) and cut out the picture to read (``near``, ``frames``: see
    :func:`vision.locate.locate_board`).

    Raises:
        vision.locate.BoardNotFound: the markers are not all visible (nothing is guessed).
    """
    if location is None:
        location = locate_board(config.locate, template, image, near, frames=frames)
    pose = camera_pose(location, (image.shape[1], image.shape[0]), template)
    region, pose = board_region(config, template, image, pose)
    camera_at = -pose.rotation.T @ pose.translation
    rims, prints, points = _rim_samples(config, template, pose, region)
    problems = [f"space {space} is outside the picture" for space in template.spaces if space not in rims]
    return Observation(pose, camera_at, region, location, rims, prints, problems, points)


def board_rims(observation: Observation, template: BoardTemplate, board: Sequence[float]) -> dict[int, np.ndarray]:
    """Each space's own colour (:attr:`Observation.rims`) judged again with the ``board``'s colour known (a
    calibration's, see :func:`own_colours`): unchanged unless some space's usual rim sample is not of its hue."""
    cast = board_cast(observation.prints, board)
    if not observation.rim_points or cast is None:
        return observation.rims
    names = list(observation.prints)
    near = _hues_apart(np.array([observation.prints[name] for name in names], np.float64), cast) <= BOARD_HUE
    if near.all():
        return observation.rims
    hued = {name: observation.prints[name] for name, ok in zip(names, near, strict=True) if ok}
    return own_colours(sorted(template.spaces), observation.rim_points, observation.prints, cast, hued,
                       observation.rims)
