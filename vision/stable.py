"""Steady boards: the board counts as steady once its picture has stayed still for several frames, judged from
the pictures themselves (the board's region, small and blurred, against the first frame of the still run), not
from the readings. On a table whose colours are not calibrated yet, sensor noise makes the blind reading of a
perfectly still board flicker (a camel read on one frame, unseen or a level off on the next); the picture does
not. A hand passing over the board or a camel being put down changes the picture, so it never counts, and a camel
hidden in every frame (behind the pyramid, the palm tree, a taller stack) does not keep a still board from
counting. The reading of a steady board is the consensus of its still frames' readings (per camel the place more
than two thirds of them agree on; unseen where they do not)."""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.read import Reading

Region = tuple[int, int, int, int]
"""A rectangle of the picture: x0, y0, x1, y1 (pixels, x1 and y1 excluded)."""


@dataclass(frozen=True)
class StillConfig:
    """How still a picture must be (measured in benchmarks/camera_watch_sequence.py ``--still``)."""

    width: int = 320
    """The board's region is compared at this width (pixels, about 2 mm a pixel): sensor noise averages out."""
    blur_sigma: float = 1.0
    reach: int = 1
    """A compared pixel counts as unchanged when its colour is within the range of its first frame's neighbours up
    to this many pixels away (a picture shaking by a pixel or two is no change; a camel moved is)."""
    level: float = 14.0
    """A compared pixel changed when one of its colours moved by more than this many levels (after the picture's
    overall change of exposure is taken out)..."""
    pixels: int = 10
    """...and the picture changed when more than this many did (a camel moved one space changes 13 to 165 of them;
    a still picture 0 to 8 with noise σ 4, 3% exposure breathing and a half-pixel shake)."""
    shift: float = 0.02
    """The board's region found more than this share of its width away: the camera was moved, a new picture. Less is
    the markers' own jitter (one flickering in and out behind the palm tree moves the fit by a few pixels): the
    run's region is compared, and a camera bumped by a pixel or two shows there."""


def board_bounds(template: Any, location: Any, shape: tuple[int, ...]) -> Region:
    """Where the board (``template``: a ``vision.board.BoardTemplate``, markers included) is in a picture of
    ``shape`` whose markers were found at ``location`` (a ``vision.locate.BoardLocation``): its bounding rectangle,
    a little wider so that tall stacks at the far edge stay inside, clipped to the picture."""
    width, height = template.size
    corners = location.to_image(np.array([(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]))
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    margin = 0.05 * (x1 - x0)
    return (
        max(0, int(x0 - margin)), max(0, int(y0 - margin)),
        min(shape[1], int(np.ceil(x1 + margin))), min(shape[0], int(np.ceil(y1 + margin))),
    )


class StillPicture:
    """Whether the board's picture is the same as in the first frame of the current still run."""

    def __init__(self, config: StillConfig = StillConfig()) -> None:
        self.config = config
        self._anchor: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._region: Region | None = None

    def reset(self) -> None:
        self._anchor = self._region = None

    def thumbnail(self, frame: np.ndarray, region: Region) -> np.ndarray:
        """The board's region of ``frame``, small and blurred (float32)."""
        x0, y0, x1, y1 = region
        crop = frame[y0:y1, x0:x1]
        width = min(self.config.width, crop.shape[1])
        size = (width, max(1, round(crop.shape[0] * width / crop.shape[1])))
        small = cv2.resize(crop, size, interpolation=cv2.INTER_AREA).astype(np.float32)
        return cv2.GaussianBlur(small, (0, 0), self.config.blur_sigma)

    def reference(self, small: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A thumbnail and the range of its neighbours (what a still picture may show at each pixel)."""
        if self.config.reach <= 0:
            return small, small, small
        kernel = np.ones((2 * self.config.reach + 1,) * 2, np.uint8)
        return small, cv2.erode(small, kernel), cv2.dilate(small, kernel)

    def changed_pixels(self, frame: np.ndarray, region: Region) -> int | None:
        """How many compared pixels differ from the run's first frame (None: no first frame yet, or the board's
        region moved)."""
        if self._anchor is None or self._region is None:
            return None
        tolerance = self.config.shift * (self._region[2] - self._region[0])
        if max(abs(a - b) for a, b in zip(region, self._region, strict=True)) > tolerance:
            return None
        small = self.thumbnail(frame, self._region)
        if small.shape != self._anchor[0].shape:  # a picture of another size: not the same picture
            return None
        return changed(self._anchor, small, self.config.level)

    def feed(self, frame: np.ndarray, region: Region) -> bool:
        """True when ``frame`` shows the same picture as the run's first frame; otherwise it starts a new run."""
        count = self.changed_pixels(frame, region)
        if count is not None and count <= self.config.pixels:
            return True
        self._region = region
        self._anchor = self.reference(self.thumbnail(frame, region))
        return False


GAIN_LEVEL = 8.0
"""Pixels darker than this (grey levels) tell nothing of the exposure's gain between two frames."""
GAIN_PIXELS = 16
"""Fewer lit pixels than this in a colour: its gain is taken as unchanged."""


def changed(reference: tuple[np.ndarray, np.ndarray, np.ndarray], after: np.ndarray, level: float) -> int:
    """How many pixels of ``after`` lie more than ``level`` outside the range ``reference`` (a thumbnail, the
    lowest and the highest of its neighbours: :meth:`StillPicture.reference`) allows in some colour, once the
    overall change (auto exposure, a lamp's flicker) is taken out: per colour the median gain, then the median
    offset, both unmoved by the few pixels that really changed."""
    before, low, high = (image.reshape(image.shape[0], image.shape[1], -1) for image in reference)
    after = after.reshape(before.shape)
    worst = np.zeros(before.shape[:2], np.float32)
    for channel in range(before.shape[2]):
        b, a = before[:, :, channel], after[:, :, channel]
        b_few, a_few = b[::3, ::3], a[::3, ::3]  # every ninth pixel is plenty for the overall change, and cheaper
        # The gain from the pixels bright enough to have one (a dim room's dark pixels are mostly noise: taken
        # as 8, they made the same frame twice come out an eighth as bright).
        lit = b_few >= GAIN_LEVEL
        gain = float(np.median(a_few[lit] / b_few[lit])) if np.count_nonzero(lit) >= GAIN_PIXELS else 1.0
        offset = float(np.median(a_few - gain * b_few))
        below = gain * low[:, :, channel] + offset - a
        above = a - gain * high[:, :, channel] - offset
        np.maximum(worst, np.maximum(below, above), out=worst)
    return int(np.count_nonzero(worst > level))


AGREEING_SHARE = 2 / 3
"""A camel of a steady board is placed where more than this share of its still frames put it: on uncalibrated
photo-like tables, 18–37% fewer camels placed wrongly than by a plain majority (three sets of 8 tables), for about
a quarter more unseen (benchmarks/camera_watch_sequence.py; a camel unseen is not wrong, a camel misplaced is)."""


def consensus(readings: list[Reading], share: float = AGREEING_SHARE) -> Reading:
    """One reading from several of the same still board: each camel on the space more than ``share`` of them put
    it on, else unseen; each stack in the order most of them give."""
    if not readings:
        raise ValueError("no readings to agree on")
    if not 0.0 <= share < 1.0:
        raise ValueError("share must be at least 0 and below 1")
    votes: dict[str, Counter[int]] = {}
    for reading in readings:
        for space, stack in reading.track.items():
            for camel in stack:
                votes.setdefault(camel, Counter())[space] += 1
    placed: dict[int, list[str]] = {}
    for camel, spaces in votes.items():
        space, count = spaces.most_common(1)[0]
        if count > share * len(readings):
            placed.setdefault(space, []).append(camel)
    track: dict[int, list[str]] = {}
    for space, camels in sorted(placed.items()):
        orders: Counter[tuple[str, ...]] = Counter()
        rank: dict[str, list[float]] = {camel: [] for camel in camels}
        for reading in readings:
            stack = [camel for camel in reading.track.get(space, []) if camel in rank]
            if len(stack) == len(camels):
                orders[tuple(stack)] += 1
            for index, camel in enumerate(stack):
                rank[camel].append(index / max(1, len(stack) - 1))
        if orders:
            track[space] = list(orders.most_common(1)[0][0])
        else:  # no reading saw them all there at once: by their mean height in the stacks that were seen
            track[space] = sorted(camels, key=lambda camel: float(np.mean(rank[camel])))
    known = set(votes).union(*(reading.unseen for reading in readings))
    seen = {camel for stack in track.values() for camel in stack}
    unseen = tuple(sorted(known - seen))
    problems = [f"the {camel} camel is not seen" for camel in unseen]
    return Reading(track, float(np.mean([reading.confidence for reading in readings])), problems, unseen)


class StableReadings:
    """Feed it each frame's reading (``None`` when the board was not found), the frame and the board's region in
    it (:func:`board_bounds`); it answers the board's track once the picture has stayed still for ``agree``
    frames in a row, and keeps answering while it stays still. The track is the consensus (:func:`consensus`) of
    the readings of the run's last ``window`` still frames (each camel where more than two thirds of them put it).
    """

    def __init__(self, agree: int = 3, window: int = 5, config: StillConfig = StillConfig()) -> None:
        if agree < 1:
            raise ValueError("agree must be at least 1")
        if window < 1:
            raise ValueError("window must be at least 1")
        self.agree = agree
        self._picture = StillPicture(config)
        self._readings: deque[Reading] = deque(maxlen=window)
        self._count = 0
        self._reading: Reading | None = None
        self.run = 0
        """Which still run this is: it grows by one each time the picture changes (or the board is lost)."""

    @property
    def reading(self) -> Reading | None:
        """The steady board's reading (None while the board is not steady)."""
        return self._reading

    @property
    def unseen(self) -> tuple[str, ...]:
        """The camels the steady reading does not see (sorted; empty while the board is not steady)."""
        return self._reading.unseen if self._reading is not None else ()

    @property
    def still_readings(self) -> tuple[Reading, ...]:
        """The readings of the run's last ``window`` still frames, oldest first."""
        return tuple(self._readings)

    @property
    def frames(self) -> int:
        """How many frames in a row have shown the same still picture (0 after a frame without the board)."""
        return self._count

    def restart(self) -> None:
        """The next frame starts a new still run even if its picture is unchanged (what the board is judged
        against changed: a picture taken before that must not count)."""
        self._picture.reset()

    def feed(self, reading: Reading | None, frame: np.ndarray | None = None,
             region: Region | None = None) -> dict[int, list[str]] | None:
        """The steady board's track after this frame, or None while it is not steady.

        Raises:
            ValueError: a reading without its frame or region (nothing to judge the picture by).
        """
        if reading is None:  # no board: the run is broken
            self._picture.reset()
            if self._count:
                self.run += 1
            self._readings.clear()
            self._count, self._reading = 0, None
            return None
        if frame is None or region is None:
            raise ValueError("a reading needs its frame and the board's region in it")
        if self._picture.feed(frame, region):
            self._count += 1
        else:
            self._readings.clear()
            self._count = 1
            self.run += 1
        self._readings.append(reading)
        self._reading = consensus(list(self._readings)) if self._count >= self.agree else None
        return self._reading.track if self._reading is not None else None
