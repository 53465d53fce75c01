"""Is the picture sharp and well exposed enough to read? Measured on the markers, whose print is known.

Each marker is a black square on white paper, so its four sides are a black-to-white step printed razor sharp:
however wide that step looks in the picture is what the camera's focus (or shake) did to it, in pixels, whatever
the camera, the light or the table. Across each side, away from the corners, the grey level is sampled from
7 mm inside the black square (its black border is 11.7 mm wide) to 7 mm out on the paper (the quiet zone is
8 mm): the step's width is its contrast over its steepest slope (a Gaussian blur of σ px gives σ·√(2π) ≈ 2.5σ;
a perfect step, about 1 px). The same samples give the paper's white and the square's black (the exposure),
the noise (how much the paper's grey differs along one side, where the print is even) and, over the board
between the markers, the share of clipped pixels (overexposed: the white camel and the sand both 255).

The limits (:data:`MAX_EDGE_PX` and the rest) are where the reader stops reading boards right, measured by
``benchmarks/camera_focus_exposure.py`` on the photo-like renderer's tables. Standalone: nothing here knows about
the companion.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

REFERENCE_WIDTH = 1280
"""The edge width is given in pixels of a picture this wide (a 4608-wide still of the same view counts its
pixels at 1280/4608), as the guidance's margin is."""
MAX_EDGE_PX = 4.5
"""Widest marker edge (px at 1280 wide) the reader reads at as on a sharp picture: wider, it loses camels (on two
sets of ten tables, camels unseen in view 4% -> 6-13% from 4.5 to 6 px; benchmarks/camera_focus_exposure.py)."""
MIN_WHITE = 60.0
"""Darkest the markers' white paper may look (grey level, 0-255): darker (two stops under), the reader loses
twice as many camels."""
MIN_SNR = 16.0
"""Least contrast between the markers' white and black over the paper's noise (standard deviation, grey, each
pixel's own): below it calibration fails and camels go unseen (39% of them from 12 to 16)."""
MAX_CLIPPED = 0.25
"""Largest share of the board's pixels at full white in any channel (beyond it the white camel and the sand go)."""
MIN_FRAME = (1280, 720)
"""Smallest frame (width × height) the guidance's numbers hold for (the README: a camera at 1280×720 is enough):
in a smaller one the camels are too few pixels tall to tell apart (a 640×360 frame read white on an empty space),
and the pose, the camels' size and the margins measured on it would blame the camera's place for the frame's
size."""
CLIP_LEVEL = 254
CLIP_STRIDE = 4
"""The clipped share is counted on every 4th pixel each way of a 1280-wide picture (a share needs no more, and
it is measured on every frame the reader reads)."""

ACROSS = 0.08
"""How far either side of a marker's edge it is sampled, as a share of the marker's side (5.6 mm of 70 mm: inside
the black border, 11.7 mm, and the white border, 8 mm, with room for a blur's tails)."""
SAMPLES_ACROSS = 61
POINTS_ALONG = 15
PLATEAU = 6
"""Samples at each end of a profile taken as the paper's white (outside) and the square's black (inside)."""


@dataclass(frozen=True)
class PictureQuality:
    """The focus and exposure of one picture, from its markers (``None`` where no marker was measured)."""

    edge_px: float | None
    """Width of the markers' black-to-white edges (median over the sides), in px of a 1280-wide picture."""
    white: float | None
    """The markers' paper (grey level 0-255)."""
    black: float | None
    """The markers' black squares (grey level 0-255)."""
    snr: float | None
    """Contrast between white and black over the noise on the paper."""
    clipped: float
    """Share of the board's pixels (between the markers) at full white in any channel."""
    markers: int
    """How many markers were measured."""
    frame: tuple[int, int] | None = None
    """The picture's width and height (``None``: not known)."""

    @property
    def too_small(self) -> bool:
        return frame_too_small(self.frame)

    @property
    def blurred(self) -> bool:
        return self.edge_px is not None and round(self.edge_px, 1) > MAX_EDGE_PX

    @property
    def too_dark(self) -> bool:
        return self.white is not None and round(self.white) < MIN_WHITE

    @property
    def too_noisy(self) -> bool:
        return not self.too_dark and self.snr is not None and round(self.snr) < MIN_SNR

    @property
    def overexposed(self) -> bool:
        return round(self.clipped, 2) > MAX_CLIPPED

    @property
    def ok(self) -> bool:
        return not (self.too_small or self.blurred or self.too_dark or self.too_noisy or self.overexposed)

    def as_json(self) -> dict[str, Any]:
        return {
            "frame": None if self.frame is None else list(self.frame), "too_small": self.too_small,
            "edge_px": None if self.edge_px is None else round(self.edge_px, 1),
            "white": None if self.white is None else round(self.white),
            "black": None if self.black is None else round(self.black),
            "snr": None if self.snr is None else round(self.snr),
            "clipped": round(self.clipped, 3),
            "markers": self.markers,
            "blurred": self.blurred, "too_dark": self.too_dark, "too_noisy": self.too_noisy,
            "overexposed": self.overexposed,
            "limits": {"edge_px": MAX_EDGE_PX, "white": MIN_WHITE, "snr": MIN_SNR, "clipped": MAX_CLIPPED,
                       "frame": list(MIN_FRAME)},
        }

    def problems(self) -> list[str]:
        """What is wrong with the picture, in words with the figures and what to do (empty when fine)."""
        found = [small_frame_words(self.frame)] if self.too_small else []
        if self.blurred:
            found.append(
                f"the picture is blurred (the markers' edges are {self.edge_px:.1f} px wide, the reader needs at "
                f"most {MAX_EDGE_PX:.1f}): focus the camera (a Camera Module 3 focuses by itself: wait a few seconds "
                "and keep its lens clean; a camera with a focus ring: turn it until the markers look sharp) and hold "
                "it steady (a tripod or a clamp arm)")
        if self.too_dark:
            found.append(
                f"the picture is too dark (the markers' white paper is at {self.white:.0f} of 255, the reader "
                f"needs at least {MIN_WHITE:.0f}): more light on the table, or a longer exposure")
        elif self.too_noisy:
            found.append(
                f"the picture is too noisy (the markers' contrast is {self.snr:.0f} times the noise, the reader "
                f"needs at least {MIN_SNR:.0f}): more light on the table, so the camera needs less gain")
        if self.overexposed:
            found.append(
                f"the picture is overexposed ({100 * self.clipped:.0f}% of the board is pure white, at most "
                f"{100 * MAX_CLIPPED:.0f}% may be): less light on the board, or a shorter exposure (turn a lamp "
                "away from it)")
        return found


def frame_too_small(frame: tuple[int, int] | None) -> bool:
    """Whether a ``(width, height)`` frame is smaller than :data:`MIN_FRAME` (either way round)."""
    if frame is None:
        return False
    return max(frame) < max(MIN_FRAME) or min(frame) < min(MIN_FRAME)


def small_frame_words(frame: tuple[int, int]) -> str:
    """The too-small frame, in words with what to do."""
    return (f"the frame is {frame[0]}×{frame[1]}: set the camera to {MIN_FRAME[0]}×{MIN_FRAME[1]} or more (the "
            "camels are too few pixels tall to read in a smaller one, and the camera's place cannot be judged on it)")


_UNIT_SQUARE = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)


@functools.cache
def _unit_samples() -> np.ndarray:
    """Where the samples across each side of a marker fall on the unit square (the same for every marker: worked
    out once, as every frame read asks for them)."""
    along = np.linspace(0.2, 0.8, POINTS_ALONG)
    across = np.linspace(-ACROSS, ACROSS, SAMPLES_ACROSS)  # negative: inside the black square
    sides = []
    for a, b, inward in (((0, 0), (1, 0), (0, 1)), ((1, 0), (1, 1), (-1, 0)), ((1, 1), (0, 1), (0, -1)),
                         ((0, 1), (0, 0), (1, 0))):
        a, b, inward = np.array(a, float), np.array(b, float), np.array(inward, float)
        points = a + np.outer(along, b - a)
        unit = points[:, None, :] - across[None, :, None] * inward
        sides.append(unit.reshape(-1, 2))
    units = np.concatenate(sides).reshape(-1, 1, 2)
    units.flags.writeable = False
    return units


def _profiles(image: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """For each side of one marker, the grey levels across it (points along × samples from inside out, then the
    paper's :data:`PLATEAU` samples again, each its nearest pixel's) and the distance between two samples, in
    pixels of a picture :data:`REFERENCE_WIDTH` wide."""
    homography = cv2.getPerspectiveTransform(_UNIT_SQUARE, quad.astype(np.float32))
    pixels = cv2.perspectiveTransform(_unit_samples(), homography).reshape(4, POINTS_ALONG, SAMPLES_ACROSS, 2)
    height, width = image.shape[:2]
    x0, y0 = np.floor(pixels.reshape(-1, 2).min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(pixels.reshape(-1, 2).max(axis=0)).astype(int) + 2
    if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
        return None
    crop = image[y0:y1, x0:x1]  # only around the marker: a 4608×2592 still is not copied whole
    gray = (crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)).astype(np.float32)
    # A larger picture is measured as its 1280-wide copy would be: widths and noise in the guidance's pixels.
    shrink = min(1.0, REFERENCE_WIDTH / width)
    if shrink < 1.0:
        gray = cv2.resize(gray, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        pixels = (pixels - np.array([x0, y0]) + 0.5) * shrink - 0.5
    else:
        pixels = pixels - np.array([x0, y0])
    map_x = pixels[..., 0].reshape(-1, SAMPLES_ACROSS).astype(np.float32)
    map_y = pixels[..., 1].reshape(-1, SAMPLES_ACROSS).astype(np.float32)
    values = cv2.remap(gray, map_x, map_y, cv2.INTER_LINEAR).reshape(4, POINTS_ALONG, SAMPLES_ACROSS)
    # The paper's own pixels, not blended between neighbours (which would halve the noise): the noise is theirs.
    paper = cv2.remap(gray, map_x[:, -PLATEAU:], map_y[:, -PLATEAU:], cv2.INTER_NEAREST)
    values = np.concatenate([values, paper.reshape(4, POINTS_ALONG, PLATEAU)], axis=2)
    step = np.linalg.norm(pixels[:, :, 1:] - pixels[:, :, :-1], axis=-1).mean(axis=(1, 2))
    return values, step


def _board_clipped(image: np.ndarray, markers: Mapping[int, np.ndarray]) -> float:
    """The share of pixels at full white between the markers (the board), any channel, on a grid of pixels."""
    step = max(1, round(CLIP_STRIDE * image.shape[1] / REFERENCE_WIDTH))
    small = image[::step, ::step]
    points = np.concatenate([np.asarray(q, np.float32).reshape(-1, 2) for q in markers.values()]) / step
    hull = cv2.convexHull(points).astype(np.int32)
    x, y, w, h = cv2.boundingRect(hull)
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, small.shape[1]), min(y + h, small.shape[0])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, hull - np.array([x0, y0], np.int32), 1)
    crop = small[y0:y1, x0:x1]
    full = (crop >= CLIP_LEVEL).any(axis=2) if crop.ndim == 3 else crop >= CLIP_LEVEL
    inside = mask.astype(bool)
    return float(full[inside].mean()) if inside.any() else 0.0


def measure_picture(image: np.ndarray, markers: Mapping[int, np.ndarray]) -> PictureQuality:
    """Focus and exposure of ``image`` (BGR or grey, uint8) from the ``markers`` found in it (each one's four
    corners in its pixels, in OpenCV's order)."""
    clipped = _board_clipped(image, markers) if len(markers) >= 3 else 0.0
    sides, steps = [], []
    for quad in markers.values():
        measured = _profiles(image, np.asarray(quad, np.float32).reshape(4, 2))
        if measured is not None:
            sides.append(measured[0])
            steps.append(measured[1])
    if not sides:
        return PictureQuality(None, None, None, None, clipped, 0, _frame(image))
    both, step = np.concatenate(sides), np.concatenate(steps)  # every side: points along × samples across
    values, paper = both[:, :, :SAMPLES_ACROSS], both[:, :, SAMPLES_ACROSS:]
    profile = values.mean(axis=1)
    black, white = profile[:, :PLATEAU].mean(axis=1), profile[:, -PLATEAU:].mean(axis=1)
    slope = np.abs(np.diff(profile, axis=1)).max(axis=1) / step
    usable = (white - black > 4.0) & (slope > 0)
    white_level, black_level = float(np.median(paper)), float(np.median(values[:, :, :PLATEAU]))
    noise = float(np.median(paper.std(axis=1)))  # the paper's grey along one side, where the print is even
    return PictureQuality(
        edge_px=float(np.median((white - black)[usable] / slope[usable])) if usable.any() else None,
        white=white_level,
        black=black_level,
        snr=(white_level - black_level) / max(noise, 0.5),
        clipped=clipped,
        markers=len(sides),
        frame=_frame(image),
    )


def picture_problems(image: np.ndarray, markers: Mapping[int, np.ndarray]) -> list[str]:
    """What keeps ``image`` from being read well (blur, too dark, too noisy, overexposed), in words; empty when
    it is fine (for a reading's problems: see :func:`measure_picture`)."""
    return measure_picture(image, markers).problems() if markers else []


# The whole picture, when no marker is found to measure it on: a picture so blurred, so dark or so bright that the
# detector finds nothing says so first, before "point the camera at the board" (which would not help). Measured on
# the whole frame at 1280 wide: the steepest edges' width (the brightest and darkest levels' difference over the
# steepest slope, as on the markers: a step blurred by σ px is 2.5·σ wide, after a light smoothing that keeps the
# noise of a dim room from passing for sharp edges), the brightest level (the white paper, if it is in view) and
# the share of pixels at full white. The limits (:data:`WHOLE_MAX_EDGE_PX` and the rest) are where the markers
# stop being found on the photo-like renderer's tables, with room for pictures that are readable
# (benchmarks/picture_blur_dark.py). A black picture (no light at all: a lens cap, a hand over the lens) is told
# apart from a dim room, which more light would help, on the picture averaged over 16×16 cells: a scene, however
# dim, is alike from one cell to the next, noise is not (benchmarks/picture_black.py).

WHOLE_SMOOTH_SIGMA = 1.0
WHOLE_STEEP_SHARE = 0.999
"""The steepest slope is this quantile of the picture's gradients (the markers and the board's print are a few
thousand pixels of the 920 000 of a 1280×720 picture)."""
WHOLE_MAX_EDGE_PX = 8.0
"""Widest the picture's steepest edges may be before a picture without markers is called blurred. Measured
(benchmarks/picture_blur_dark.py, 12 tables, seed 1): unharmed pictures 3.2 to 4.9 px; no board was lost below
8.6 px (a blur of σ 4 px: 8.5 to 15.7, 42% located; σ 5: 10.7 to 19.8, none); a blur of σ 2 px, 4.9 to 8.8, is
already beyond what the reader reads well (:data:`MAX_EDGE_PX` on the markers). Seeds 2 and 3 (not tuned on):
unharmed up to 5.7 px; 94 of 97 and 96 of 102 boards lost to blur named blurred."""
WHOLE_MIN_BRIGHT = 25.0
"""Darkest the picture's brightest parts may be before it is called too dark: its 99th percentile grey, or, when
less, that of the picture averaged over 16×16 cells (:attr:`WholePicture.brightest`: a noisy camera's specks are
not light). Measured: unharmed pictures 130 to 187; no board was lost above 21 (exposure ×0.015: 19 to 28, 92%
located; ×0.005: 12 to 17, 17%); all 17 boards lost to darkness called too dark, no unharmed picture (seed 1). A
noisy camera (read noise 0.3-0.4% of full scale) 6 stops under: its specks reach 26 to 28 while its averaged
light is 22 to 23, and its board is lost (benchmarks/picture_black.py's rooms; without the averaging it was told
only to point the camera at the board)."""
WHOLE_MAX_CLIPPED = 0.40
"""Largest share of the whole picture at full white in any channel before it is called overexposed. Measured:
unharmed pictures at most 0.2%; the boards lost to overexposure (exposure ×12 to ×48, 8 to 17% of them) had 47%
or more; the markers' black survives a lot of light, so most pictures this bright still locate the board (and
are then judged on the markers)."""

BLACK_CELL = 16
"""A black picture is judged on the picture averaged over cells of 16×16 pixels (at 1280 wide): the sensor's noise
is averaged down, and what a scene sends, however little light, is alike from one cell to the next."""
WHOLE_MIN_STRUCTURE = 0.3
"""Least likeness of neighbouring cells (1 minus the variance of the differences between neighbours over twice the
variance of the cells, the worse of across and down: 0 for noise alone, whatever its strength; near 1 for a scene)
of a picture that shows anything at all: below it the picture is black, only the camera's own noise (a lens cap, a
hand over the lens, the room's light off). Measured (benchmarks/picture_black.py, 9 tables, seed 1): a camera's
dark frame with read noise from 0.05% to 3% of full scale (a pedestal of 16; JPEG), with row banding, and a hand
over the lens: at most 0.19, all black. Rooms 7.6 stops under (×0.005: the board is still found at times): at
least 0.43 even with the noisiest camera (0.3% of full scale), none black. Darker and noisier rooms show little
more than their noise (×0.002 with 0.3% noise: 0.11 to 0.69, 1 of 9 black; ×0.001: 7 of 9): the words name the
room's light too. Not black: a dark frame with a faint glow in a corner (up to 0.78: it is light). Seed 2 (not
tuned on): black pictures at most 0.14, rooms at ×0.005 at least 0.53."""
WHOLE_BLACK_LEVEL = 48.0
"""Brightest the averaged picture (its 99th percentile cell) may be (grey level) and still be black: an even
picture brighter than this is a blank surface in front of the camera, not a picture without light."""


@dataclass(frozen=True)
class WholePicture:
    """Focus and exposure of a whole picture, measured without markers."""

    edge_px: float
    """Width of its steepest edges, in px of a 1280-wide picture."""
    bright: float
    """Its brightest parts (99th percentile grey, 0-255)."""
    mean: float
    """Its mean grey."""
    clipped: float
    """Share of its pixels at full white in any channel."""
    frame: tuple[int, int] | None = None
    """The picture's width and height (``None``: not known)."""
    structure: float | None = None
    """How alike neighbouring cells of the picture are once its noise is averaged down (:data:`WHOLE_MIN_STRUCTURE`:
    0 for noise alone; ``None``: not measured)."""
    light_level: float | None = None
    """Its brightest parts once the noise is averaged down (grey level 0-255; ``None``: not measured)."""

    @property
    def too_small(self) -> bool:
        return frame_too_small(self.frame)

    @property
    def black(self) -> bool:
        """No light at all reaches the camera (a lens cap, a hand over the lens, the light off): only its noise."""
        if self.structure is None or self.light_level is None:
            return False
        return round(self.structure, 2) < WHOLE_MIN_STRUCTURE and round(self.light_level) <= WHOLE_BLACK_LEVEL

    @property
    def brightest(self) -> float:
        """Its brightest parts with the sensor's noise averaged down (a noisy camera's specks are no light): the
        lesser of :attr:`bright` and :attr:`light_level`."""
        return self.bright if self.light_level is None else min(self.bright, self.light_level)

    @property
    def too_dark(self) -> bool:
        return self.black or round(self.brightest) < WHOLE_MIN_BRIGHT

    @property
    def overexposed(self) -> bool:
        return round(self.clipped, 2) > WHOLE_MAX_CLIPPED

    @property
    def blurred(self) -> bool:
        # A dark or washed-out picture has shallow slopes too: that is said as what it is.
        return not (self.too_dark or self.overexposed) and round(self.edge_px, 1) > WHOLE_MAX_EDGE_PX

    @property
    def featureless(self) -> bool:
        """No edge at all (a lens cap, a blank wall): its edges' width is infinite, a figure no page can show."""
        return not np.isfinite(self.edge_px)

    def as_json(self) -> dict[str, Any]:
        return {
            # None for a picture without any edge: JSON has no infinity (a page could not parse the report).
            "edge_px": None if self.featureless else round(self.edge_px, 1), "bright": round(self.brightest),
            "mean": round(self.mean),
            "clipped": round(self.clipped, 3), "blurred": self.blurred, "too_dark": self.too_dark,
            "overexposed": self.overexposed, "black": self.black,
            "structure": None if self.structure is None else round(self.structure, 2),
            "frame": None if self.frame is None else list(self.frame), "too_small": self.too_small,
            "limits": {"edge_px": WHOLE_MAX_EDGE_PX, "bright": WHOLE_MIN_BRIGHT, "clipped": WHOLE_MAX_CLIPPED,
                       "frame": list(MIN_FRAME), "structure": WHOLE_MIN_STRUCTURE},
        }

    def problems(self) -> list[str]:
        """What is wrong with the whole picture, in words with the figures and what to do (empty when fine); a
        frame too small is said first, with what else is wrong."""
        return [small_frame_words(self.frame)] * self.too_small + self._exposure()

    def _exposure(self) -> list[str]:
        if self.black:  # more light or a longer exposure would not help: something is in front of the lens
            return [BLACK_WORDS]
        if self.too_dark:
            return [f"the picture is too dark (its brightest parts are at {self.brightest:.0f} of 255, the markers "
                    f"need at least {WHOLE_MIN_BRIGHT:.0f}): more light on the table, or a longer exposure"]
        if self.overexposed:
            return [f"the picture is overexposed ({100 * self.clipped:.0f}% of it is pure white, the markers are "
                    f"lost beyond {100 * WHOLE_MAX_CLIPPED:.0f}%): less light on the board, or a shorter exposure"]
        if self.blurred and self.featureless:
            return ["the picture shows nothing sharp at all (a lens cap, or the camera facing something blank): take "
                    "the cap off, point the camera at the board and focus it"]
        if self.blurred:
            return [f"the picture is blurred (its sharpest edges are {self.edge_px:.1f} px wide, the markers are "
                    f"lost beyond {WHOLE_MAX_EDGE_PX:.1f}): focus the camera (a Camera Module 3 focuses by itself: "
                    "wait a few seconds and keep its lens clean; a camera with a focus ring: turn it until the "
                    "picture looks sharp) and hold it steady"]
        return []


BLACK_WORDS = ("the picture is black: is the lens cap on or the camera covered? (no light reaches it: take the cap "
               "off, move what covers the lens, or switch the room's light on)")
"""A black picture, in words: what to look at first (not "more light", which a dim room needs)."""


def unlocated_problems(image: np.ndarray) -> list[str]:
    """For a picture in which the board is not found: whether the whole picture is too blurred, too dark or too
    bright for markers to be found, in words to say before "point the camera at the board" (empty when it is
    not: then the board is not in view, or its markers are covered)."""
    return measure_whole(image).problems()


def not_found_words(image: np.ndarray, message: str, whole: WholePicture | None = None) -> str:
    """``vision.locate.BoardNotFound``'s ``message`` ("board not found: markers ... not seen") with what is wrong
    with the whole picture said first ("board not found: the picture is blurred (...): focus the camera ...;
    markers ... not seen"). ``whole``: the picture's figures when they are measured already."""
    problems = (whole or measure_whole(image)).problems()
    if not problems:
        return message
    head, colon, rest = message.partition(": ")
    return f"{head}{colon}{'; '.join([*problems, rest])}" if colon else "; ".join([*problems, message])


def measure_whole(image: np.ndarray) -> WholePicture:
    """Focus and exposure of the whole of ``image`` (BGR or grey, uint8), without markers."""
    shrink = min(1.0, REFERENCE_WIDTH / image.shape[1])
    small = image if shrink == 1.0 else cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    gray = small if small.ndim == 2 else cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    smooth = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), WHOLE_SMOOTH_SIGMA)
    slope_x = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3, scale=1 / 8)
    slope_y = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3, scale=1 / 8)
    steep = float(np.quantile(cv2.magnitude(slope_x, slope_y), WHOLE_STEEP_SHARE))
    dark, bright = (float(v) for v in np.percentile(gray, (1, 99)))
    step = max(1, round(CLIP_STRIDE * small.shape[1] / REFERENCE_WIDTH))
    grid = small[::step, ::step]
    full = (grid >= CLIP_LEVEL).any(axis=2) if grid.ndim == 3 else grid >= CLIP_LEVEL
    structure, light_level = _structure(gray)
    return WholePicture(edge_px=(bright - dark) / steep if steep > 1e-3 else float("inf"), bright=bright,
                        mean=float(gray.mean()), clipped=float(full.mean()), frame=_frame(image),
                        structure=structure, light_level=light_level)


def _structure(gray: np.ndarray) -> tuple[float, float]:
    """What the picture shows beyond its noise (:data:`BLACK_CELL`): how alike neighbouring cells are (the worse
    of across and down: row banding is alike along its rows only), and the brightest cells' level (grey 0-255)."""
    size = (max(2, gray.shape[1] // BLACK_CELL), max(2, gray.shape[0] // BLACK_CELL))
    cells = cv2.resize(gray.astype(np.float32), size, interpolation=cv2.INTER_AREA)
    level = float(np.percentile(cells, 99))
    spread = float(cells.var())
    if spread < 1e-4:  # all one grey (a camera that makes its dark frame pure black): nothing shown
        return 0.0, level
    unlike = max(float(np.diff(cells, axis=1).var()), float(np.diff(cells, axis=0).var()))
    return 1.0 - unlike / (2.0 * spread), level


def _frame(image: np.ndarray) -> tuple[int, int]:
    return int(image.shape[1]), int(image.shape[0])
