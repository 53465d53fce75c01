"""Where a camel's body falls in the picture: each space's window (its part of the picture, see :class:`Window`),
and, for a stack of camels set down at one of the offsets tried on the space, the pixels each camel's body box
covers, the ground around its feet, the space's floor, and what the stacks in front of a space hide of it.

The camel model is :class:`vision.silhouette.FitConfig`'s (a body box of a share of its length, width and
height, one ``step_mm`` higher per level). Outlines are pixels of a window with 2 bits of sub-pixel (OpenCV's
``shift=2``); every shape is drawn the first time it is asked for and kept on its window, since many hypotheses
ask for the same ones. :class:`vision.silhouette.SilhouetteScorer` builds on this to score boards.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from vision.board import BoardTemplate
from vision.read import Pose

if TYPE_CHECKING:
    from vision.silhouette import FitConfig

Fronts = tuple[tuple[int, int, int], ...]
"""The stacks in front of a space: each one's space, the offset it stands at and how many camels it has (see
``SilhouetteScorer._in_front``). What they hide is their shape's alone, whichever camels they are."""


@dataclass
class Window:
    """One space's part of the picture: its pixels' evidence per camel colour, and what lights it."""

    space: int
    origin: tuple[int, int]
    evidence: np.ndarray
    """height × width × camels, float32."""
    corrected: np.ndarray
    """height × width × 3: the pixels divided by the light on this space."""
    boardlike: np.ndarray
    """height × width, -1 to 1: how much nearer each pixel is to the board's colour than to any camel's."""
    board_distance: np.ndarray
    """height × width: how far each pixel is from the board's colour (shading aside)."""
    others: np.ndarray
    """n × 3: the colour of the spaces of this one's tone (the median of it and the two on either side), in
    this space's light: what its board is when its own colour misled (a camel's shadow, a printed edge). On the
    start space, also its rim's usual sample as it is: boards print it unlike its tone, and no tile is ever
    laid on it (a tile's edge can lie under a space's rim)."""
    middle: np.ndarray
    heading: np.ndarray
    distance: float
    """From the camera to the middle of the space (mm, on the board): nearer stacks hide further ones."""
    planes: np.ndarray
    """The evidence again, camels × pixels (flat): each camel's pixels are summed from its own row."""
    corners: np.ndarray | None = None
    boxes: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)
    grounds: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    floor: np.ndarray | None = None
    layouts: dict[tuple[int, int], Layout] = field(default_factory=dict)
    box_masks: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)
    ring_masks: dict[int, np.ndarray] = field(default_factory=dict)
    bottom: tuple[int, np.ndarray, np.ndarray] | None = None
    """Every offset's body box at level 0 and ground ring, drawn together (see ``_bottom_masks``)."""
    ground_parts: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    """Per height of a stack, where its ground is counted at every offset (see ``SilhouetteScorer._ground_parts``)."""
    floor_mask: np.ndarray | None = None
    floor_box: tuple[slice, slice] | None = None
    """The rows and columns that hold the floor (see ``SilhouetteScorer._floor_box``)."""
    doubts: dict[tuple[int, int], float] = field(default_factory=dict)
    covers: dict[tuple[Any, ...], bool] = field(default_factory=dict)
    unlike: list[np.ndarray] | None = None
    floor_unlike: tuple[int, int] | None = None
    open_floors: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)
    open_unlike: dict[tuple[int, int], int] = field(default_factory=dict)
    """How many pixels of each (offset, count)'s open floor are unlike the board (see ``SilhouetteScorer._covered``)."""
    strays: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)
    """What each camel's colour around a camel at (offset, level) costs it (see ``SilhouetteScorer._clutter``)."""
    strong: list[np.ndarray] | None = None
    strong_sums: list[np.ndarray] | None = None
    stray_bounds: tuple[Any, ...] | None = None
    stray_rects: tuple[Any, ...] | None = None
    """Where ``SilhouetteScorer._stray_bounds`` counts around a camel at every offset × level (see
    ``SilhouetteScorer._stray_rectangles``)."""
    lone_cores: tuple[np.ndarray, ...] | None = None
    """The boxes' cores the lone scores are summed over (see ``vision.silhouette._lone_cores``)."""
    clutter: tuple[np.ndarray, np.ndarray] | None = None
    """Which pixels lie beyond the track (height × width), and which of them are surely each camel's as clutter
    counts them (those pixels × camels: the table is no rival there)."""
    reach: np.ndarray | None = None
    widest: tuple[int, int] | None = None
    """How far across and up a camel's pieces can reach on this space at most (pixels), once worked out."""
    facing: tuple[int, int] | None = None
    """How far across and up the pieces of a camel facing along the track reach on this space (pixels)."""
    areas: dict[tuple[int, int], float] = field(default_factory=dict)


SHAPES_ONCE = ("corners", "floor", "bottom", "floor_mask", "floor_box", "reach", "widest", "facing", "stray_rects",
               "lone_cores")
SHAPES_KEPT = ("boxes", "grounds", "layouts", "box_masks", "ring_masks", "areas", "open_floors", "ground_parts")
"""A window's shapes (:class:`Window`'s fields): where a stack's camels fall, what they leave of the ground and the
floor. They follow from the camera's pose alone (and the window's place in the picture), not from its pixels."""

_last_shapes: dict[tuple[Any, ...], dict[str, Any]] = {}
"""The shapes of the last pictures read (see ``SilhouetteGeometry._share_shapes``), by pose and picture size: each
one's template, windows and caches. Two: a still of the board's region taken between two frames keeps its own."""
KEPT_POSES = 2
_last_shapes_lock = threading.Lock()
"""Taken while ``_last_shapes`` is looked up and trimmed: the companion reads the camera's frames on a thread of its
own while a page may read a still on another."""


SIGNS = np.array([(a, b) for a in (-1, 1) for b in (-1, 1)], float)
"""A box's four corners on the board: back or front (along its heading), either side."""


@dataclass(frozen=True)
class Layout:
    """A stack of some height at one offset, drawn once: the window pixels (flat indices) each level shows when
    nothing in front hides it, each level's full area, and the ground around its feet that shows."""

    shown: list[np.ndarray]
    areas: list[float]
    ground: np.ndarray
    floor: np.ndarray


class SilhouetteGeometry:
    """The windows of one picture and the shapes a stack casts in them (see the module's description).
    The windows themselves (``_windows``, by space) are added by the scorer, which works out their evidence."""

    def __init__(self, template: BoardTemplate, pose: Pose, fit: FitConfig, names: list[str]) -> None:
        self.template = template
        self.pose = pose
        self.fit = fit
        self.names = names
        self._windows: dict[int, Window] = {}
        self._offsets = self._offset_grid()
        self._visible_cache: dict[tuple[Any, ...], np.ndarray] = {}
        self._open_cache: dict[tuple[Any, ...], np.ndarray] = {}
        self._track_outline: np.ndarray | None = None

    def _share_shapes(self, picture: tuple[int, int], caches: tuple[str, ...] = ()) -> None:
        """Shapes drawn for a recent picture are this one's too when it was seen from the very same pose (a camera
        that has not moved, its markers where they were: see :func:`vision.locate.fit_lens`) in a picture of the same
        size: each window at the same place takes them over, and what either draws from now on serves both (every
        entry follows from the pose alone). ``caches``: more of the instance's dictionaries of such shapes."""
        pose = self.pose
        key = (pose.matrix.tobytes(), pose.rotation.tobytes(), pose.translation.tobytes(), float(pose.radial),
               tuple(picture), self.fit, tuple(self.names))
        names = ("_visible_cache", "_open_cache", *caches)
        with _last_shapes_lock:
            last = _last_shapes.pop(key, None)
        if last is not None and last["template"] is self.template:
            windows = last["windows"]
            same = len(windows) == len(self._windows)
            for space, window in self._windows.items():
                old = windows.get(space)
                if old is None or old.origin != window.origin or old.boardlike.shape != window.boardlike.shape:
                    same = False
                    continue
                for name in SHAPES_ONCE:
                    if getattr(window, name) is None:
                        setattr(window, name, getattr(old, name))
                for name in SHAPES_KEPT:
                    kept = getattr(old, name)
                    kept.update(getattr(window, name))
                    setattr(window, name, kept)
            if same:
                # (the same windows: what stacks in front hide, and which spaces they reach, are the same too)
                for name in names:
                    kept = last["caches"][name]
                    kept.update(getattr(self, name))
                    setattr(self, name, kept)
        with _last_shapes_lock:
            _last_shapes[key] = {"template": self.template, "windows": dict(self._windows),
                                 "caches": {name: getattr(self, name) for name in names}}
            while len(_last_shapes) > KEPT_POSES:
                del _last_shapes[next(iter(_last_shapes))]  # the pose seen longest ago

    def _cut(
        self, image: np.ndarray, pose: Pose, space: int, middle: np.ndarray
    ) -> tuple[tuple[int, int], np.ndarray] | None:
        """The window of ``space`` (its origin and pixels): wherever on it a stack of ``max_level`` camels can
        stand. None when too little of it is in the picture."""
        reach = self.fit.offset_mm + self.fit.length_mm / 2 + 2
        top = self.fit.max_level * self.fit.step_mm
        corners = np.array(
            [(middle[0] + dx, middle[1] + dy, -z) for dx in (-reach, reach) for dy in (-reach, reach) for z in (0, top)]
        )
        pixels = pose.project(corners)
        height, width = image.shape[:2]
        x0, y0 = np.maximum(np.floor(pixels.min(axis=0)) - 2, 0).astype(int)
        x1, y1 = np.minimum(np.ceil(pixels.max(axis=0)) + 2, [width, height]).astype(int)
        if x1 - x0 < 4 or y1 - y0 < 4:
            return None
        return (int(x0), int(y0)), image[y0:y1, x0:x1]

    def _offset_grid(self) -> np.ndarray:
        steps = np.linspace(-self.fit.offset_mm, self.fit.offset_mm, self.fit.offset_steps)
        grid = np.array([(dx, dy) for dx in steps for dy in steps])
        return grid[np.argsort(np.linalg.norm(grid, axis=1), kind="stable")]  # the middle first: ties go to it

    def _box(self, window: Window, offset: int, level: int) -> np.ndarray:
        """The body's outline (pixels in the window, 2 bits of sub-pixel) of a camel at ``level`` on the
        window's space, drawn the first time it is asked for (most offsets' upper levels never are)."""
        box = window.boxes.get((offset, level))
        if box is None:
            box = window.boxes[(offset, level)] = cv2.convexHull(self._corners(window)[offset, level]).reshape(-1, 2)
        return box

    def _corners(self, window: Window) -> np.ndarray:
        """The body boxes' corners, every offset × level × 8 corners × 2 (pixels in the window, 2 bits of
        sub-pixel), all projected at once the first time. Their extremes are their outlines' (a hull's
        vertices are some of its points): bounding rectangles need no outline."""
        if window.corners is None:
            fit = self.fit
            levels = np.arange(max(self.fit.max_level, len(self.names)))  # every camel on one stack
            heights = np.stack([(levels + fit.body[2]), (levels + fit.body[3])], axis=1) * fit.step_mm  # L × 2
            window.corners = self._boxes(window, fit.body[0] * fit.length_mm / 2, fit.body[1] * fit.width_mm / 2,
                                         heights)
        return window.corners

    def _boxes(self, window: Window, half_length: float, half_width: float, heights: np.ndarray) -> np.ndarray:
        """Boxes along the window's heading, at every offset: offsets × levels × 8 corners × 2 (pixels in the
        window, 2 bits of sub-pixel). ``heights``: each level's bottom and top (mm above the board), levels × 2."""
        along, across = window.heading, np.array([-window.heading[1], window.heading[0]])
        footprint = SIGNS[:, :1] * along * half_length + SIGNS[:, 1:] * across * half_width  # 4 × 2
        feet = window.middle + self._offsets  # O × 2
        corners = np.empty((len(feet), len(heights), 2, 4, 3))
        corners[..., :2] = (feet[:, None, :] + footprint[None, :, :])[:, None, None]  # O × 4 × 2 at every height
        corners[..., 2] = -heights[None, :, :, None]
        pixels = self.pose.project(corners.reshape(-1, 3)) - np.array(window.origin)
        return np.round(pixels.reshape(len(feet), len(heights), 8, 2) * 4).astype(np.int32)

    def _ground(self, window: Window, offset: int) -> tuple[np.ndarray, np.ndarray]:
        """The ground around a bottom camel's feet, a ring on the board: its inner and outer outlines (pixels
        in the window, 2 bits of sub-pixel). All offsets' rings are projected at once, the first time."""
        if not window.grounds:
            fit = self.fit
            along, across = window.heading, np.array([-window.heading[1], window.heading[0]])
            signs = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], float)
            reach = np.array(fit.ground_mm)[:, None, None]  # 2 × 1 × 1
            ring = (signs[None, :, :1] * along * (fit.length_mm / 2 + reach)
                    + signs[None, :, 1:] * across * (fit.width_mm / 2 + reach))  # 2 × 4 × 2
            xy = (window.middle + self._offsets)[:, None, None, :] + ring[None]  # O × 2 × 4 × 2
            corners = np.concatenate([xy, np.zeros((*xy.shape[:3], 1))], axis=-1).reshape(-1, 3)
            pixels = np.round((self.pose.project(corners) - np.array(window.origin)) * 4).astype(np.int32)
            pixels = pixels.reshape(len(self._offsets), 2, 4, 2)
            for index in range(len(self._offsets)):
                window.grounds[index] = (pixels[index, 0], pixels[index, 1])
        return window.grounds[offset]

    def _floor(self, window: Window) -> np.ndarray:
        """The space's own floor (its outline, a little inside its printed edge), pixels in the window with
        2 bits of sub-pixel. Where camels stand, the rest of their space shows the board; a tile or a card
        covers the whole space, wherever a stack would be set on it."""
        if window.floor is None:
            corners = np.array(self.template.spaces[window.space], float)
            inside = window.middle + (corners - window.middle) * self.fit.floor_share
            points = np.concatenate([inside, np.zeros((len(inside), 1))], axis=1)
            window.floor = np.round((self.pose.project(points) - np.array(window.origin)) * 4).astype(np.int32)
        return window.floor

    def _spaces_behind(self, space: int) -> list[int]:
        """The spaces further from the camera whose window a stack on ``space`` reaches into."""
        here = self._windows[space]
        outline = self._tall_outline(here)
        (left, top), (right, bottom) = outline.min(axis=0).tolist(), outline.max(axis=0).tolist()
        found = []
        for other in self.spaces:
            window = self._windows[other]
            if other == space or window.distance <= here.distance:
                continue
            height, width = window.evidence.shape[:2]
            x0, y0 = window.origin
            if right >= x0 and left <= x0 + width and bottom >= y0 and top <= y0 + height:
                found.append(other)
        return found

    def _tall_outline(self, window: Window) -> np.ndarray:
        """The corners (whole picture) of every body box a stack of up to ``max_level`` camels on the window's
        space can have: their extremes bound every pixel it can cover."""
        top = self.fit.max_level - 1
        return self._corners(window)[:, [0, top]].reshape(-1, 2) / 4 + np.array(window.origin)

    def _visible(self, window: Window, in_front: Fronts) -> np.ndarray | None:
        """The window's pixels (flat) that the stacks ``in_front`` leave in view; None when nothing is in front.
        Drawn once for each set of stacks in front (many stacks behind them are tried)."""
        if not in_front:
            return None
        key = (window.space, in_front)
        visible = self._visible_cache.get(key)
        if visible is None:
            visible = self._visible_cache[key] = self._fronts_drawn(window, in_front, self._box).ravel() == 0
        return visible

    def _fronts_drawn(self, window: Window, in_front: Fronts, shape: Any) -> np.ndarray:
        """A mask of ``window`` (uint8, 1 inside) of each level's ``shape(window, offset, level)`` (a polygon
        in its window's pixels, 2 bits of sub-pixel) of the stacks ``in_front``."""
        mask = np.zeros(window.boardlike.shape, np.uint8)
        for front, offset, count in in_front:
            other = self._windows[front]
            shift = (np.array(other.origin) - np.array(window.origin)) * 4
            for level in range(count):
                cv2.fillConvexPoly(mask, shape(other, offset, level) + shift, 1, cv2.LINE_8, 2)
        return mask

    def _layout(self, window: Window, offset: int, count: int) -> Layout:
        key = (offset, count)
        layout = window.layouts.get(key)
        if layout is None:
            # Each camel shows where no camel above it covers; the ground and floor, where none covers. (The top
            # camel shows all of its box; ``nonzero`` of the flat mask is numpy's flatnonzero without its wrapper.)
            covered = self._box_mask(window, offset, count - 1)
            shown = [covered.ravel().nonzero()[0]]
            for level in reversed(range(count - 1)):
                box = self._box_mask(window, offset, level)
                shown.append((box & ~covered).ravel().nonzero()[0])
                covered = covered | box
            free = ~covered
            areas = [self._box_area(window, offset, level) for level in range(count)]
            ground = (self._ring_mask(window, offset) & free).ravel().nonzero()[0]
            floor = (self._floor_mask(window) & free).ravel().nonzero()[0]
            layout = window.layouts[key] = Layout(shown[::-1], areas, ground, floor)
        return layout

    def _box_mask(self, window: Window, offset: int, level: int) -> np.ndarray:
        """The pixels of the window a camel's body at ``level`` covers (boolean, the window's shape)."""
        mask = window.box_masks.get((offset, level))
        if mask is None:
            canvas = np.zeros(window.boardlike.shape, np.uint8)
            cv2.fillConvexPoly(canvas, self._box(window, offset, level), 1, cv2.LINE_8, 2)
            mask = window.box_masks[(offset, level)] = canvas.view(bool)
        return mask

    def _bottom_masks(self, window: Window) -> tuple[int, np.ndarray, np.ndarray]:
        """Every offset's body box at level 0 and ground ring (uint8, offsets × a band of the window's rows), drawn
        all at once (the lone scores ask the ground's doubt of every offset), and the band's first row. The band
        holds every one of them and the space's floor whole: each is drawn as on the whole window (outlines moved
        up by whole rows, nothing cut off), in a fraction of the pixels."""
        count = len(self._offsets)
        height, width = window.boardlike.shape
        outlines = np.concatenate([*(self._box(window, offset, 0) for offset in range(count)),
                                   *(self._ground(window, offset)[1] for offset in range(count)), self._floor(window)])
        rows = outlines[:, 1] // 4
        top, bottom = max(int(rows.min()) - 2, 0), min(int(rows.max()) + 3, height)
        up = np.array([0, 4 * top], np.int32)
        boxes = np.zeros((count, bottom - top, width), np.uint8)
        rings = np.zeros_like(boxes)
        for offset in range(count):
            cv2.fillConvexPoly(boxes[offset], self._box(window, offset, 0) - up, 1, cv2.LINE_8, 2)
            inner, outer = self._ground(window, offset)
            cv2.fillConvexPoly(rings[offset], outer - up, 1, cv2.LINE_8, 2)
            cv2.fillConvexPoly(rings[offset], inner - up, 0, cv2.LINE_8, 2)
        return top, boxes, rings

    def _box_area(self, window: Window, offset: int, level: int) -> float:
        """A body box's area in pixels (what a camel in plain view there would cover)."""
        area = window.areas.get((offset, level))
        if area is None:
            area = window.areas[(offset, level)] = max(
                1.0, cv2.contourArea(self._box(window, offset, level).astype(np.float32)) / 16)
        return area

    def _ring_mask(self, window: Window, offset: int) -> np.ndarray:
        """The ground around a bottom camel's feet at ``offset`` (boolean, the window's shape)."""
        mask = window.ring_masks.get(offset)
        if mask is None:
            inner, outer = self._ground(window, offset)
            canvas = np.zeros(window.boardlike.shape, np.uint8)
            cv2.fillConvexPoly(canvas, outer, 1, cv2.LINE_8, 2)
            cv2.fillConvexPoly(canvas, inner, 0, cv2.LINE_8, 2)
            mask = window.ring_masks[offset] = canvas.view(bool)
        return mask

    def _floor_mask(self, window: Window) -> np.ndarray:
        """The space's own floor (boolean, the window's shape)."""
        if window.floor_mask is None:
            canvas = np.zeros(window.boardlike.shape, np.uint8)
            cv2.fillConvexPoly(canvas, self._floor(window), 1, cv2.LINE_8, 2)
            window.floor_mask = canvas.view(bool)
        return window.floor_mask

    def _outline(self) -> np.ndarray:
        """The track's outline in the picture (the hull of its spaces, pixels)."""
        if self._track_outline is None:
            corners = np.array([corner for outline in self.template.spaces.values() for corner in outline], np.float32)
            hull = cv2.convexHull(corners).reshape(-1, 2)
            self._track_outline = self.pose.project(np.column_stack([hull, np.zeros(len(hull))]))
        return self._track_outline

    def _on_track(self, origin: tuple[int, int], shape: tuple[int, int]) -> np.ndarray:
        """Which pixels (boolean, of a window at ``origin`` of ``shape``) show ground within the track's outline
        (the hull of its spaces); beyond it is the board's border and the table, where no camel stands."""
        canvas = np.zeros(shape, np.uint8)
        outline = np.round((self._outline() - np.array(origin)) * 4).astype(np.int32)
        cv2.fillPoly(canvas, [outline], 1, cv2.LINE_8, 2)
        return canvas.view(bool)

    def _shown(
        self, window: Window, offset: int, count: int, visible: np.ndarray | None
    ) -> tuple[list[np.ndarray], list[float]]:
        """For a stack of ``count`` at ``offset``: the window pixels (flat indices) each level shows, less what
        is not ``visible`` (flat, None: all is), and each level's full area."""
        layout = self._layout(window, offset, count)
        if visible is None:
            return layout.shown, layout.areas
        return [pixels[visible[pixels]] for pixels in layout.shown], layout.areas

    def _reach_corners(self, window: Window) -> np.ndarray:
        """2 (a camel's reach; and ``clutter_mm`` beyond) × offsets × levels × 8 corners × 2 (pixels in the
        window, 2 bits of sub-pixel): see ``SilhouetteScorer._strays``."""
        fit = self.fit
        step = np.arange(max(fit.max_level, len(self.names))) * fit.step_mm  # every camel on one stack
        found = []
        for beyond in (0.0, fit.clutter_mm):
            spare = fit.own_mm + beyond
            heights = np.stack([np.maximum(step - 2 - beyond, 0.0), step + fit.step_mm + spare], axis=1)
            found.append(self._boxes(window, fit.length_mm / 2 + spare, fit.width_mm / 2 + spare, heights))
        return np.stack(found)

    def _open_view(self, window: Window, in_front: Fronts) -> np.ndarray:
        """The window's pixels (uint8 mask) beyond the reach of the stacks ``in_front`` (their heads, tails
        and legs too, unlike :meth:`_visible`)."""
        key = (window.space, in_front)
        view = self._open_cache.get(key)
        if view is None:
            view = self._open_cache[key] = (self._fronts_drawn(window, in_front, self._reach_outline) == 0).view(
                np.uint8)
        return view

    def _reach_outline(self, window: Window, offset: int, level: int) -> np.ndarray:
        """The outline of a camel's reach at ``offset`` and ``level`` (its pieces beyond its body box, ``own_mm``;
        pixels in the window, 2 bits of sub-pixel)."""
        if window.reach is None:
            window.reach = self._reach_corners(window)
        return cv2.convexHull(window.reach[0, offset, level]).reshape(-1, 2)

    def _open_floor(self, window: Window, offset: int, count: int) -> np.ndarray:
        """The space's floor (uint8 mask) beyond the reach of a stack of ``count`` at ``offset``: its camels'
        heads, tails and legs stick out of their body boxes, their shadows fall around them."""
        floor = window.open_floors.get((offset, count))
        if floor is None:
            floor = self._floor_mask(window).astype(np.uint8)
            for level in range(count):
                cv2.fillConvexPoly(floor, self._reach_outline(window, offset, level), 0, cv2.LINE_8, 2)
            window.open_floors[(offset, count)] = floor
        return floor
