"""What changed in the picture since a reference frame, for a camera that does not move: per space, whether its
part of the picture looks as it did (after the exposure and white balance drift, and tolerant of a pixel or two of
a bumped board), and which spaces a large change reaching in from the picture's edge (an arm) lies over.

Pure pixels: which board the reference frame showed, and what a change means for a verdict, is the caller's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np

Rect = tuple[int, int, int, int]
"""x0, y0, width, height in the picture's pixels."""


@dataclass(frozen=True)
class ChangeConfig:
    cell: int = 2
    """Pixels a side averaged into one cell (noise, JPEG blocks and a little defocus average out)."""
    blur: float = 1.0
    """Both pictures are blurred this much (cells, a Gaussian's sigma) before they are compared: the camera's focus
    and shake differ from frame to frame, which sharp edges (the start line's checks, a black camel's outline)
    would show as change."""
    dark: float = 24.0
    """Added to each cell's brightness (0-255) before its logarithm: noise in the shadows is no change."""
    shift: int = 2
    """Cells each way a cell may have moved (a bumped board, a camera's jitter): the best of them counts."""
    threshold: float = 0.2
    """How far (natural log of the brightness, in any channel) a cell must be from the reference to have changed:
    about a fifth brighter or darker after each window's own gain is taken out."""
    still_cells: int = 6
    """A space's window with at most this many cells changed (in blobs of 2 by 2 cells at least: lone cells are
    noise) is unchanged; a camel set down or lifted changes several times more."""
    arm_cell: int = 8
    """The arm is looked for in coarser cells, across the whole picture (it is large)."""
    arm_share: float = 0.025
    """A changed region at least this share of the picture, touching its edge, is an arm (or anything reaching in
    from outside the picture: a sleeve, a hand)."""
    arm_cover: float = 0.6
    """A space whose window's changed cells (in ``arm_cell`` cells) are at least this share the arm's is under the
    arm: what changed there is the arm."""


@dataclass(frozen=True)
class Change:
    changed: Mapping[int, int]
    """Per space, how many of its window's cells changed."""
    unchanged: frozenset[int]
    """The spaces whose window looks as in the reference (``ChangeConfig.still_cells``)."""
    under_arm: frozenset[int]
    """The spaces a large change reaching in from the picture's edge lies over."""


NO_CHANGE_KNOWN = Change({}, frozenset(), frozenset())
"""Nothing can be said (frames of different sizes): no space unchanged, none under an arm."""


def change_since(
    reference: np.ndarray, frame: np.ndarray, windows: Mapping[int, Rect], config: ChangeConfig | None = None
) -> Change:
    """Compare ``frame`` with ``reference`` (two BGR pictures from the same camera) in each space's window."""
    config = config or ChangeConfig()
    if reference.shape != frame.shape or reference.ndim != 3:
        return NO_CHANGE_KNOWN
    cell = config.cell
    height, width = frame.shape[0] // cell, frame.shape[1] // cell
    if height < 3 or width < 3:
        return NO_CHANGE_KNOWN
    then, now = (_cells_of(picture, width, height, config.blur, config.dark) for picture in (reference, frame))
    changed: dict[int, int] = {}
    unchanged: set[int] = set()
    for space, (x0, y0, w, h) in windows.items():
        box = _cells((x0, y0, w, h), cell, width, height)
        if box is None:
            continue
        count = int(np.count_nonzero(_changed(then, now, box, config)))
        changed[space] = count
        if count <= config.still_cells:
            unchanged.add(space)
    return Change(changed, frozenset(unchanged), _under_arm(reference, frame, windows, config))


def _cells_of(picture: np.ndarray, width: int, height: int, blur: float, dark: float) -> np.ndarray:
    """The picture averaged into ``width`` × ``height`` cells, blurred by ``blur`` cells, as log brightness."""
    cells = cv2.resize(picture, (width, height), interpolation=cv2.INTER_AREA).astype(np.float32)
    if blur > 0:
        cells = cv2.GaussianBlur(cells, (0, 0), blur)
    return np.log(cells + dark)


def _cells(rect: Rect, cell: int, width: int, height: int) -> tuple[int, int, int, int] | None:
    x0, y0, w, h = rect
    a, b = max(x0 // cell, 0), max(y0 // cell, 0)
    c, d = min((x0 + w) // cell, width), min((y0 + h) // cell, height)
    return (a, b, c, d) if c - a >= 3 and d - b >= 3 else None


def _changed(then: np.ndarray, now: np.ndarray, box: tuple[int, int, int, int], config: ChangeConfig) -> np.ndarray:
    """Which cells of ``box`` changed, once the window's own gain per channel (exposure, white balance, the
    vignette's share) is taken out: the median log ratio, which a camel or two over part of it barely moves."""
    a, b, c, d = box
    here = now[b:d, a:c]
    gain = np.median((here - then[b:d, a:c]).reshape(-1, 3), axis=0)
    return _far(then, here - gain, (a, b), config)


def _far(
    then: np.ndarray, here: np.ndarray, at: tuple[int, int], config: ChangeConfig, shift: int | None = None
) -> np.ndarray:
    """Cells of ``here`` (placed at ``at`` in ``then``'s cells) that no reference cell within ``config.shift``
    matches in every channel."""
    a, b = at
    rows, cols = here.shape[:2]
    best = np.full((rows, cols), np.inf, np.float32)
    s = config.shift if shift is None else shift
    padded = cv2.copyMakeBorder(then, s, s, s, s, cv2.BORDER_REPLICATE)
    for dy in range(-s, s + 1):
        for dx in range(-s, s + 1):
            there = padded[b + s + dy:b + s + dy + rows, a + s + dx:a + s + dx + cols]
            np.minimum(best, np.abs(here - there).max(axis=2), out=best)
    far = (best > config.threshold).astype(np.uint8)
    return cv2.morphologyEx(far, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)) > 0


def _under_arm(
    reference: np.ndarray, frame: np.ndarray, windows: Mapping[int, Rect], config: ChangeConfig
) -> frozenset[int]:
    """The spaces whose change is mostly a large changed region touching the picture's edge
    (``ChangeConfig.arm_cover``). The gain is taken out per quarter of the picture: an arm moves the whole
    picture's median little."""
    height, width = frame.shape[0] // config.arm_cell, frame.shape[1] // config.arm_cell
    then, now = (_cells_of(picture, width, height, 0.0, config.dark) for picture in (reference, frame))
    changed = np.zeros((height, width), bool)
    for ys in (slice(0, height // 2), slice(height // 2, height)):
        for xs in (slice(0, width // 2), slice(width // 2, width)):
            here = now[ys, xs]
            gain = np.median((here - then[ys, xs]).reshape(-1, 3), axis=0)
            changed[ys, xs] = _far(then, here - gain, (xs.start, ys.start), config, shift=1)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8), connectivity=8)
    arms = [label for label in range(1, count)
            if stats[label, cv2.CC_STAT_AREA] >= config.arm_share * height * width and _touches_edge(stats[label],
                                                                                                   width, height)]
    if not arms:
        return frozenset()
    arm = np.isin(labels, arms)
    covered = set()
    for space, rect in windows.items():
        box = _cells(rect, config.arm_cell, width, height)
        if box is None:
            continue
        on_arm = int(np.count_nonzero(arm[box[1]:box[3], box[0]:box[2]]))
        count = int(np.count_nonzero(changed[box[1]:box[3], box[0]:box[2]]))
        if count and on_arm >= config.arm_cover * count:
            covered.add(space)
    return frozenset(covered)


def _touches_edge(stat: np.ndarray, width: int, height: int) -> bool:
    x, y, w, h = (int(stat[key]) for key in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP, cv2.CC_STAT_WIDTH,
                                             cv2.CC_STAT_HEIGHT))
    return x == 0 or y == 0 or x + w >= width or y + h >= height


def space_windows(scorer: object) -> dict[int, Rect]:
    """Each space's window in the scorer's picture (``vision.silhouette.SilhouetteScorer``: where it looks for the
    space's stack, camels' height included)."""
    windows = getattr(scorer, "_windows", {})
    return {space: (int(window.origin[0]), int(window.origin[1]), int(window.corrected.shape[1]),
                    int(window.corrected.shape[0])) for space, window in windows.items()}
