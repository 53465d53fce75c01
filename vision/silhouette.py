"""Scoring whole boards by the camels' silhouettes: render each hypothesis (a track) as the camera would see
it, and ask how well each camel's colour fills the place the hypothesis gives it.

A camel is modelled by its body (a box over its legs: a share of its length, width and height, see
:class:`FitConfig`), set on its space along the track and, when stacked, one ``step_mm`` higher per level.
The picture is turned into per-pixel **evidence** for each camel colour, between -1 and 1: how much nearer
(after dividing by the light on that space) a pixel's colour is to that camel's than to the board's or any
other camel's. A camel's score is the evidence of its colour summed over the pixels its body covers and can
be seen (not hidden by a camel stacked on it, nor by a stack nearer the camera), divided by all the pixels
its body would cover in plain view: mostly 0.2 to 0.7 for a camel in full view where it stands (median 0.56
in neutral light, 0.37 in a lamp's), near 0 for one hidden, negative where it is not (what is unlike the camel
inside its box counts half: the box is rougher than a camel). A board's cost is minus the sum of its camels'
scores, so costs are in "camels of evidence", and two boards whose costs differ by less than half a camel's
worth are not told apart (``VerifyConfig.decisive_margin``). A bottom camel also loses what the ground around
its feet fails to look like the board: a flat patch of its colour (a tile, a card) is not a camel. And each
camel's colour is on one piece only: what the window shows of it all around a camel, beyond the camel's own
reach, is something else (a pyramid's face, a palm frond, the table behind a far space), and a camel there
loses a share of its score (``FitConfig.clutter_free``).

Each space is scored in its own window of the picture (the space and the air above it up to a tall stack), and
each stack at the offset on its space (within ``offset_mm`` of the middle) where its camels fit best: players
never set them down exactly in the middle. A stack's cost depends only on its camels and on the stacks in front
of it, which are cached, so hypotheses that differ in a few spaces cost a few stacks each; each window's masks
(a body box, the ground at the feet, the floor) and what a set of stacks in front hides are drawn once too.

This is the same interface as :class:`vision.verify.BoardScorer` (``spaces``, ``behind``, ``stack_cost``,
``track_cost``, ``space_costs``, ``judge``, ``camel_samples``), so :func:`vision.verify.refine` and the
companion's verdicts use either.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.board import BoardTemplate
from vision.read import BOARD_BGR, Observation, Pose, light_at
from vision.verify import Verdict, VerifyConfig, judge_costs

Track = Mapping[int, Sequence[str]]
_Fronts = tuple[tuple[int, int, tuple[str, ...]], ...]
"""The stacks in front of a space, each with the offset it stands at (see ``SilhouetteScorer._in_front``)."""


@dataclass(frozen=True)
class FitConfig:
    length_mm: float = 30.0
    """The game's camels are about 30 × 14 × 22 mm (a calibration may measure them)."""
    width_mm: float = 14.0
    step_mm: float = 19.5
    """How much higher each camel of a stack stands (on the back of the one below: 18 to 20 mm)."""
    body: tuple[float, float, float, float] = (0.62, 0.7, 0.42, 0.9)
    """The body box: shares of the length and width, and from/to which share of ``step_mm`` above the camel's
    feet. Legs below, head and tail out front and back are left out: they cover too few pixels to count."""
    offset_mm: float = 9.0
    """How far from the middle of its space a stack may be set down."""
    offset_steps: int = 5
    """Offsets tried along each direction (an odd number keeps the middle)."""
    max_level: int = 5
    """The windows reach this many camels high."""
    evidence_scale: float = 0.05
    """A colour this much nearer one camel than anything else (a share of full white) is full evidence."""
    unlike_weight: float = 0.5
    """How much a pixel of the body box that is unlike the camel counts against it (one that is like it: 1)."""
    board_shading: tuple[float, float] = (0.55, 1.15)
    camel_shading: tuple[float, float] = (0.4, 1.6)
    ground_mm: tuple[float, float] = (3.0, 12.0)
    """The ground around a camel's feet: from this far beyond its footprint to this far. Where a camel stands,
    the board shows there; a flat patch of its colour (a tile, a card) is that colour there too."""
    floor_share: float = 0.85
    """The floor of a space whose look is asked: this share of its outline, about its middle."""
    ground_penalty: float = 1.0
    """What a bottom camel loses when the ground around it does not look like the board (a mean board-likeness
    of -1: the full amount)."""
    offsets_tried: int = 3
    """A stack is fitted at the offsets where its camels, each alone at its level, fit best: this many."""
    unknown_margin: float = 0.1
    """A camel whose colour is not known (calibrating) is whatever is this far from the board's colour."""
    own_mm: float = 8.0
    """How far a camel's own pieces (head, tail, a chunkier piece than the usual) may reach beyond its
    footprint and above its height: its colour there is its own."""
    clutter_free: float = 2.0
    """Each camel's colour is on one piece only: what the window shows of it outside the camel's own reach
    is something else of its colour (a pyramid's face, a frond, a card). Up to this many bodies' worth of it
    (a misfit edge, noise) costs nothing…"""
    clutter_penalty: float = 0.5
    """…and each body's worth beyond it costs this much, up to ``clutter_cap``."""
    clutter_cap: float = 1.0
    clutter_mm: float = 15.0
    """How far beyond a camel's own reach its colour is looked for."""
    strong_evidence: float = 0.5
    """A pixel whose evidence for a camel is at least this is surely of its colour."""
    covered_distance: float = 0.06
    """A space whose floor (where its stack leaves it in view) is mostly this far from the board's colour is
    covered: a tile (no camel stands on one), a card, a hand, the pyramid. Its camels cannot be seen: what the
    picture shows there counts neither for nor against them. On tuning seeds 100-101 half the floor of a bare
    space is within 0.036 of it (all spaces), of a tile's face beyond 0.058 (all tiles)."""
    covered_cost: float = 0.35
    """What each camel on a covered space costs when a board is judged: the boards that agree on it pay it
    alike, and one that moves a camel seen in plain view (however faintly) onto it pays it on top of what it
    loses where the camel was seen."""
    blind_covered_cost: float = 1.0
    """What each camel on a covered space costs while the board is read blind: a camel is not put where it
    cannot be seen (the white camel onto a tile's white disc) while it fits anywhere in view."""


@dataclass
class _Window:
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
    layouts: dict[tuple[int, int], _Layout] = field(default_factory=dict)
    box_masks: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)
    ring_masks: dict[int, np.ndarray] = field(default_factory=dict)
    floor_mask: np.ndarray | None = None
    doubts: dict[tuple[int, int], float] = field(default_factory=dict)
    covers: dict[tuple[Any, ...], bool] = field(default_factory=dict)
    unlike: list[np.ndarray] | None = None
    floor_unlike: tuple[int, int] | None = None
    open_floors: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)
    strays: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)
    strong: list[np.ndarray] | None = None
    strong_sums: list[np.ndarray] | None = None
    reach: np.ndarray | None = None
    areas: dict[tuple[int, int], float] = field(default_factory=dict)


@dataclass(frozen=True)
class _Layout:
    """A stack of some height at one offset, drawn once: the window pixels (flat indices) each level shows when
    nothing in front hides it, each level's full area, and the ground around its feet that shows."""

    shown: list[np.ndarray]
    areas: list[float]
    ground: np.ndarray
    floor: np.ndarray


class SilhouetteScorer:
    """Scores tracks against one picture (see the module's description)."""

    def __init__(
        self,
        observation: Observation,
        profiles: Mapping[str, Sequence[float] | None],
        template: BoardTemplate,
        verify: VerifyConfig | None = None,
        fit: FitConfig | None = None,
        board_bgr: Sequence[float] = BOARD_BGR,
    ) -> None:
        self.verify = verify or VerifyConfig()
        self.fit = fit or FitConfig()
        self.names = list(profiles)
        self._index = {name: i for i, name in enumerate(self.names)}
        self.observation = observation
        self.template = template
        pose, image = observation.pose, observation.image
        self.pose = pose
        camera_at = observation.camera_at
        rims = observation.rims
        board_reference = np.array(board_bgr, np.float32)
        self._windows: dict[int, _Window] = {}
        known = [np.array(profiles[name], np.float32) if profiles[name] is not None else None for name in self.names]
        spaces = sorted(self.template.spaces)
        for space in spaces:
            if space not in rims:
                continue
            light = np.maximum(light_at(self.template, rims, space) / board_reference, 0.05)
            board = rims[space] / light
            middle = np.array(self.template.space_centre(space), float)
            # Camels face along the track, towards the next space (crazy ones the other way: the same box).
            ahead = np.array(self.template.space_centre(spaces[(spaces.index(space) + 1) % len(spaces)]))
            heading = (ahead - middle) / max(float(np.linalg.norm(ahead - middle)), 1e-9)
            window = self._cut(image, pose, space, middle)
            if window is None:
                continue
            (x0, y0), pixels = window
            corrected = pixels.astype(np.float32) / light
            planes, boardlike, board_distance = self._evidence(corrected.reshape(-1, 3), board, known)
            index = spaces.index(space)
            tone = np.median([rims[other] for other in (spaces[index - 2], space, spaces[(index + 2) % len(spaces)])
                              if other in rims], axis=0)
            start = space == spaces[0] and space in observation.prints
            others = np.array([tone, observation.prints[space]] if start else [tone], np.float32) / light
            self._windows[space] = _Window(
                space, (x0, y0), np.ascontiguousarray(planes.T).reshape(*pixels.shape[:2], -1), corrected,
                boardlike.reshape(pixels.shape[:2]), board_distance.reshape(pixels.shape[:2]),
                others, middle, heading,
                float(np.linalg.norm(camera_at[:2] - middle)), planes,
            )
        self.spaces = sorted(self._windows)
        self._offsets = self._offset_grid()
        self._stack_cache: dict[tuple[Any, ...], tuple[float, int]] = {}
        self._visible_cache: dict[tuple[Any, ...], np.ndarray] = {}
        self._open_cache: dict[tuple[Any, ...], np.ndarray] = {}
        self._lone: dict[tuple[int, float], np.ndarray] = {}
        self.covered_cost = self.fit.covered_cost
        """What each camel on a covered space costs (see :meth:`reading_blind`)."""
        # A camel whose colour is not known yet (calibrating) is anything unlike the board: no clutter is its.
        self._known_colour = [profile is not None for profile in known]
        self._behind = {space: self._spaces_behind(space) for space in self.spaces}
        # Which spaces can hide part of each space's window (in self.spaces' order, as _in_front asks them).
        self._fronts = {space: [front for front in self.spaces if space in self._behind[front]]
                        for space in self.spaces}

    # The picture.

    def _cut(
        self, image: np.ndarray, pose: Pose, space: int, middle: np.ndarray
    ) -> tuple[tuple[int, int], np.ndarray] | None:
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

    def _evidence(
        self, corrected: np.ndarray, board: np.ndarray, known: list[np.ndarray | None]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each camel's evidence (camels × pixels), the board-likeness and the distance from the board's colour
        (pixels) of ``corrected`` (pixels × 3).
        Worked out camels × pixels: numpy is many times faster along a few long rows than many short ones."""
        fit = self.fit
        squares = np.einsum("ij,ij->i", corrected, corrected)
        board_distance = _ray_distances(corrected, squares, board[None, :], fit.board_shading)[0]
        have = [index for index, profile in enumerate(known) if profile is not None]
        distances = np.full((len(known), len(corrected)), np.inf, np.float32)
        if have:
            profiles = np.array([known[index] for index in have], np.float32)
            distances[have] = _ray_distances(corrected, squares, profiles, fit.camel_shading)
        # Each camel's rival is the nearest of the board and the other camels: the nearest camel's is the
        # second nearest (when two are nearest alike, each one's rival is the other, as near).
        nearest, second = _two_smallest(distances)
        evidence = np.where(distances == nearest, second, nearest)
        np.minimum(board_distance, evidence, out=evidence)
        evidence -= distances
        evidence /= fit.evidence_scale
        unknown = [index for index, profile in enumerate(known) if profile is None]
        if unknown:
            evidence[unknown] = ((board_distance - fit.unknown_margin) / fit.evidence_scale)[None, :]
        nearest_camel = np.where(np.isfinite(nearest), nearest, 1.0)
        boardlike = (nearest_camel - board_distance) / fit.evidence_scale
        # A body box is rougher than a camel (between its legs, around its neck): what does not look like the
        # camel there counts for less than what does.
        np.clip(evidence, -1.0, 1.0, out=evidence)
        np.multiply(evidence, fit.unlike_weight, out=evidence, where=evidence < 0)
        return evidence, np.clip(boardlike, -1.0, 1.0).astype(np.float32), board_distance

    # Geometry.

    def _offset_grid(self) -> np.ndarray:
        steps = np.linspace(-self.fit.offset_mm, self.fit.offset_mm, self.fit.offset_steps)
        grid = np.array([(dx, dy) for dx in steps for dy in steps])
        return grid[np.argsort(np.linalg.norm(grid, axis=1), kind="stable")]  # the middle first: ties go to it

    def _box(self, window: _Window, offset: int, level: int) -> np.ndarray:
        """The body's outline (pixels in the window, 2 bits of sub-pixel) of a camel at ``level`` on the
        window's space, drawn the first time it is asked for (most offsets' upper levels never are)."""
        box = window.boxes.get((offset, level))
        if box is None:
            box = window.boxes[(offset, level)] = cv2.convexHull(self._corners(window)[offset, level]).reshape(-1, 2)
        return box

    def _corners(self, window: _Window) -> np.ndarray:
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

    def _boxes(self, window: _Window, half_length: float, half_width: float, heights: np.ndarray) -> np.ndarray:
        """Boxes along the window's heading, at every offset: offsets × levels × 8 corners × 2 (pixels in the
        window, 2 bits of sub-pixel). ``heights``: each level's bottom and top (mm above the board), levels × 2."""
        along, across = window.heading, np.array([-window.heading[1], window.heading[0]])
        signs = np.array([(a, b) for a in (-1, 1) for b in (-1, 1)], float)
        footprint = signs[:, :1] * along * half_length + signs[:, 1:] * across * half_width  # 4 × 2
        feet = window.middle + self._offsets  # O × 2
        xy = feet[:, None, None, None, :] + footprint[None, None, None, :, :]  # O × 1 × 1 × 4 × 2
        xy = np.broadcast_to(xy, (len(feet), len(heights), 2, 4, 2))
        z = np.broadcast_to(-heights[None, :, :, None, None], (len(feet), len(heights), 2, 4, 1))
        corners = np.concatenate([xy, z], axis=-1).reshape(-1, 3)
        pixels = (self.pose.project(corners) - np.array(window.origin)).reshape(len(feet), len(heights), 8, 2)
        return np.round(pixels * 4).astype(np.int32)

    def _ground(self, window: _Window, offset: int) -> tuple[np.ndarray, np.ndarray]:
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

    def _floor(self, window: _Window) -> np.ndarray:
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
        found = []
        for other in self.spaces:
            window = self._windows[other]
            if other == space or window.distance <= here.distance:
                continue
            height, width = window.evidence.shape[:2]
            x0, y0 = window.origin
            if (outline[:, 0].max() >= x0 and outline[:, 0].min() <= x0 + width
                    and outline[:, 1].max() >= y0 and outline[:, 1].min() <= y0 + height):
                found.append(other)
        return found

    def _tall_outline(self, window: _Window) -> np.ndarray:
        """The corners (whole picture) of every body box a stack of up to ``max_level`` camels on the window's
        space can have: their extremes bound every pixel it can cover."""
        top = self.fit.max_level - 1
        return self._corners(window)[:, [0, top]].reshape(-1, 2) / 4 + np.array(window.origin)

    # Scoring.

    def lone(self, space: int) -> np.ndarray:
        """Each camel's score alone on ``space`` (nothing hiding it): offsets × levels × camels."""
        scores = self._lone.get((space, self.covered_cost))
        if scores is None:
            scores = self._lone[(space, self.covered_cost)] = _lone_scores(self, space)
        return scores

    def behind(self, space: int) -> list[int]:
        return self._behind.get(space, [])

    def _in_front(self, space: int, track: Track | None) -> tuple[tuple[int, int, tuple[str, ...]], ...]:
        """The stacks of ``track`` that can hide part of ``space``'s window, with the offset each stands at."""
        if not track:
            return ()
        found = []
        for front in self._fronts.get(space, ()):
            stack = tuple(track.get(front, ()))
            if stack:
                _, offset = self._stack(front, stack, track)
                found.append((front, offset, stack))
        return tuple(found)

    def _visible(self, window: _Window, in_front: tuple[tuple[int, int, tuple[str, ...]], ...]) -> np.ndarray | None:
        """The window's pixels (flat) that the stacks ``in_front`` leave in view; None when nothing is in front.
        Drawn once for each set of stacks in front (many stacks behind them are tried)."""
        if not in_front:
            return None
        key = (window.space, in_front)
        visible = self._visible_cache.get(key)
        if visible is None:
            visible = self._visible_cache[key] = self._fronts_drawn(window, in_front, self._box).ravel() == 0
        return visible

    def _fronts_drawn(self, window: _Window, in_front: _Fronts, shape: Any) -> np.ndarray:
        """A mask of ``window`` (uint8, 1 inside) of each level's ``shape(window, offset, level)`` (a polygon
        in its window's pixels, 2 bits of sub-pixel) of the stacks ``in_front``."""
        mask = np.zeros(window.boardlike.shape, np.uint8)
        for front, offset, stack in in_front:
            other = self._windows[front]
            shift = (np.array(other.origin) - np.array(window.origin)) * 4
            for level in range(len(stack)):
                cv2.fillConvexPoly(mask, shape(other, offset, level) + shift, 1, cv2.LINE_8, 2)
        return mask

    def _stack(self, space: int, stack: tuple[str, ...], track: Track | None) -> tuple[float, int]:
        """The stack's cost on ``space`` at its best offset, and that offset."""
        in_front = self._in_front(space, track)
        key = (space, stack, in_front, self.covered_cost)
        cached = self._stack_cache.get(key)
        if cached is not None:
            return cached
        window = self._windows[space]
        if not stack:
            result = (0.0, 0)
        elif any(camel not in self._index for camel in stack):
            result = (float("inf"), 0)
        else:
            visible = self._visible(window, in_front)
            labels = [self._index[camel] for camel in stack]
            # The offsets where the stack's camels, each alone at its level, fit best.
            lone = self.lone(space)
            alone = sum(lone[:, level, label] for level, label in enumerate(labels[: lone.shape[1]]))
            tried = np.argsort(-alone, kind="stable")[: self.fit.offsets_tried]
            best = min(((-self._score(window, labels, int(offset), visible, in_front), int(offset))
                        for offset in tried),
                       key=lambda item: item[0])
            result = (float(best[0]), int(best[1]))
        self._stack_cache[key] = result
        return result

    def _layout(self, window: _Window, offset: int, count: int) -> _Layout:
        key = (offset, count)
        layout = window.layouts.get(key)
        if layout is None:
            # Each camel shows where no camel above it covers; the ground and floor, where none covers.
            covered = np.zeros(window.boardlike.shape, bool)
            shown = []
            for level in reversed(range(count)):
                box = self._box_mask(window, offset, level)
                shown.append(np.flatnonzero(box & ~covered))
                covered |= box
            free = ~covered
            areas = [self._box_area(window, offset, level) for level in range(count)]
            ground = np.flatnonzero(self._ring_mask(window, offset) & free)
            floor = np.flatnonzero(self._floor_mask(window) & free)
            layout = window.layouts[key] = _Layout(shown[::-1], areas, ground, floor)
        return layout

    def _box_mask(self, window: _Window, offset: int, level: int) -> np.ndarray:
        """The pixels of the window a camel's body at ``level`` covers (boolean, the window's shape)."""
        mask = window.box_masks.get((offset, level))
        if mask is None:
            canvas = np.zeros(window.boardlike.shape, np.uint8)
            cv2.fillConvexPoly(canvas, self._box(window, offset, level), 1, cv2.LINE_8, 2)
            mask = window.box_masks[(offset, level)] = canvas.view(bool)
        return mask

    def _box_area(self, window: _Window, offset: int, level: int) -> float:
        """A body box's area in pixels (what a camel in plain view there would cover)."""
        area = window.areas.get((offset, level))
        if area is None:
            area = window.areas[(offset, level)] = max(
                1.0, cv2.contourArea(self._box(window, offset, level).astype(np.float32)) / 16)
        return area

    def _ring_mask(self, window: _Window, offset: int) -> np.ndarray:
        """The ground around a bottom camel's feet at ``offset`` (boolean, the window's shape)."""
        mask = window.ring_masks.get(offset)
        if mask is None:
            inner, outer = self._ground(window, offset)
            canvas = np.zeros(window.boardlike.shape, np.uint8)
            cv2.fillConvexPoly(canvas, outer, 1, cv2.LINE_8, 2)
            cv2.fillConvexPoly(canvas, inner, 0, cv2.LINE_8, 2)
            mask = window.ring_masks[offset] = canvas.view(bool)
        return mask

    def _floor_mask(self, window: _Window) -> np.ndarray:
        """The space's own floor (boolean, the window's shape)."""
        if window.floor_mask is None:
            canvas = np.zeros(window.boardlike.shape, np.uint8)
            cv2.fillConvexPoly(canvas, self._floor(window), 1, cv2.LINE_8, 2)
            window.floor_mask = canvas.view(bool)
        return window.floor_mask

    def _shown(
        self, window: _Window, offset: int, count: int, visible: np.ndarray | None
    ) -> tuple[list[np.ndarray], list[float]]:
        """For a stack of ``count`` at ``offset``: the window pixels (flat indices) each level shows, less what
        is not ``visible`` (flat, None: all is), and each level's full area."""
        layout = self._layout(window, offset, count)
        if visible is None:
            return layout.shown, layout.areas
        return [pixels[visible[pixels]] for pixels in layout.shown], layout.areas

    def _camel_scores(
        self, window: _Window, labels: list[int], offset: int, visible: np.ndarray | None, in_front: _Fronts = ()
    ) -> list[float]:
        if self._covered(window, offset, len(labels), in_front):
            return [0.0] * len(labels)
        shown, areas = self._shown(window, offset, len(labels), visible)
        return [float(window.planes[label][pixels].sum()) / area
                for pixels, label, area in zip(shown, labels, areas, strict=True)]

    def _score(
        self, window: _Window, labels: list[int], offset: int, visible: np.ndarray | None, in_front: _Fronts = ()
    ) -> float:
        """A stack's camels' scores at ``offset``, less the ground's doubt (pixels not ``visible`` left out)
        and the clutter of each camel's colour around it. On a covered space only ``covered_cost`` counts."""
        if self._covered(window, offset, len(labels), in_front):
            return -self.covered_cost * len(labels)
        clutter = sum(self._clutter(window, label, offset, level) for level, label in enumerate(labels))
        return sum(self._camel_scores(window, labels, offset, visible, in_front)) - self._ground_doubt(
            window, offset, len(labels), visible
        ) - clutter

    def _clutter(self, window: _Window, label: int, offset: int, level: int) -> float:
        """What a camel at ``level`` loses for its colour showing in its window beyond its own reach (see
        ``FitConfig.clutter_free``), in bodies' worth of pixels."""
        fit = self.fit
        if not self._known_colour[label] or not fit.clutter_penalty:
            return 0.0
        strays = window.strays.get((offset, level))
        if strays is None:
            strays = window.strays[(offset, level)] = self._strays(window, offset, level)
        bodies = float(strays[label]) / self._box_area(window, offset, level)
        return min(fit.clutter_cap, max(0.0, bodies - fit.clutter_free) * fit.clutter_penalty)

    def _strays(self, window: _Window, offset: int, level: int) -> np.ndarray:
        """Per camel: the pixels surely of its colour (``FitConfig.strong_evidence``) around a camel at
        ``offset`` and ``level`` (its reach, ``own_mm`` beyond its size, and ``clutter_mm`` more) but outside
        its reach: each camel's colour is on one piece only."""
        height, width = window.boardlike.shape
        if window.reach is None:
            window.reach = self._reach_corners(window)
        if window.strong_sums is None:
            # OpenCV's integral image and masked mean take up to four channels at a time, far faster than numpy.
            window.strong = [(window.evidence[..., first : first + 4] >= self.fit.strong_evidence).view(np.uint8)
                             for first in range(0, window.evidence.shape[2], 4)]
            window.strong_sums = [cv2.integral(part) for part in window.strong]
        inner, outer = window.reach[0, offset, level], window.reach[1, offset, level]
        x0, y0 = np.maximum(outer.min(axis=0) // 4, 0)
        x1, y1 = np.minimum(outer.max(axis=0) // 4 + 1, [width, height])
        if x1 <= x0 or y1 <= y0:
            return np.zeros(len(self.names))
        bounding = np.concatenate([(sums[y1, x1] - sums[y0, x1] - sums[y1, x0] + sums[y0, x0]).reshape(-1)
                                   for sums in window.strong_sums])
        if bounding.max() <= self.fit.clutter_free * self._box_area(window, offset, level):
            return bounding  # mostly: too few around to cost anything (the band is inside these bounds)
        shift = np.array([x0, y0]) * 4
        canvas = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(canvas, cv2.convexHull(outer - shift).reshape(-1, 2), 1, cv2.LINE_8, 2)
        cv2.fillConvexPoly(canvas, cv2.convexHull(inner - shift).reshape(-1, 2), 0, cv2.LINE_8, 2)
        pixels = cv2.countNonZero(canvas)
        if not pixels:
            return np.zeros(len(self.names))
        means = [cv2.mean(part[y0:y1, x0:x1], canvas)[: part.shape[2]] for part in window.strong]
        return np.concatenate(means) * pixels

    def _reach_corners(self, window: _Window) -> np.ndarray:
        """2 (a camel's reach; and ``clutter_mm`` beyond) × offsets × levels × 8 corners × 2 (pixels in the
        window, 2 bits of sub-pixel): see :meth:`_strays`."""
        fit = self.fit
        step = np.arange(max(fit.max_level, len(self.names))) * fit.step_mm  # every camel on one stack
        found = []
        for beyond in (0.0, fit.clutter_mm):
            spare = fit.own_mm + beyond
            heights = np.stack([np.maximum(step - 2 - beyond, 0.0), step + fit.step_mm + spare], axis=1)
            found.append(self._boxes(window, fit.length_mm / 2 + spare, fit.width_mm / 2 + spare, heights))
        return np.stack(found)

    def camel_score(self, track: Track, camel: str) -> float:
        """How well ``camel`` fits where ``track`` puts it (mostly 0.2 to 0.7 in plain view; 0 when hidden)."""
        for space, stack in track.items():
            if camel in stack and int(space) in self._windows:
                space, stack = int(space), tuple(stack)
                window = self._windows[space]
                _, offset = self._stack(space, stack, track)
                in_front = self._in_front(space, track)
                labels = [self._index[name] for name in stack]
                return self._camel_scores(window, labels, offset, self._visible(window, in_front), in_front)[
                    stack.index(camel)]
        return 0.0

    def _ground_doubt(self, window: _Window, offset: int, count: int, visible: np.ndarray | None) -> float:
        """How much the ground around the feet of a stack of ``count`` fails to look like the board (0 to
        ``ground_penalty``): the ground the stack leaves in view, less what ``visible`` (flat) leaves out.
        Mostly the stacks in front hide none of it: then it is the plain view's, worked out once."""
        if visible is not None:
            layout = self._layout(window, offset, count)
            ground, floor = visible[layout.ground], visible[layout.floor]
            if not (ground.all() and floor.all()):
                boardlike = window.boardlike.ravel()
                return self._doubt(boardlike[layout.ground[ground]], boardlike[layout.floor[floor]])
        doubt = window.doubts.get((offset, count))
        if doubt is None:
            # From the masks: the lone scores ask this of every offset, and most never get a layout.
            covered = self._box_mask(window, offset, 0)
            for level in range(1, count):
                covered = covered | self._box_mask(window, offset, level)
            free = ~covered
            ring, floor = self._ring_mask(window, offset) & free, self._floor_mask(window) & free
            doubt = window.doubts[(offset, count)] = self._doubt(window.boardlike[ring], window.boardlike[floor])
        return doubt

    def _covered(self, window: _Window, offset: int, count: int, in_front: _Fronts) -> bool:
        """Whether the floor of the space that a stack of ``count`` at ``offset`` leaves in view, and the stacks
        ``in_front`` too, is mostly unlike the board (see ``FitConfig.covered_distance``): unlike its own colour
        and the others it may have (``_Window.others``) alike (one can mislead; a tile is unlike them all)."""
        if self._floor_unlike(window)[1] < 5:
            return False  # then no floor it leaves in view (8 pixels or more) is mostly unlike the board
        key = (offset, count, in_front)
        covered = window.covers.get(key)
        if covered is None:
            floor = self._open_floor(window, offset, count)
            if in_front:
                floor = cv2.bitwise_and(floor, self._open_view(window, in_front))
            # Mostly unlike: the median beyond the limit, counted with OpenCV (called for every stack tried).
            shown = cv2.countNonZero(floor)
            covered = shown >= 8 and all(2 * cv2.countNonZero(cv2.bitwise_and(floor, far)) > shown
                                         for far in self._unlike_board(window))
            window.covers[key] = covered
        return covered

    def _may_be_covered(self, window: _Window) -> np.ndarray:
        """Per offset, whether a lone camel's space there can be covered at all, from areas alone (no drawing):
        only if the floor's pixels unlike the board outnumber half of what the camel's reach (at most its
        bounding rectangle) can leave of the floor."""
        floor, unlike = self._floor_unlike(window)
        if unlike < 5:
            return np.zeros(len(self._offsets), bool)
        if window.reach is None:
            window.reach = self._reach_corners(window)
        corners = window.reach[0, :, 0] / 4  # offsets × 8 × 2
        sides = corners.max(axis=1) - corners.min(axis=1)
        return 2 * unlike > floor - sides[:, 0] * sides[:, 1]

    def _floor_unlike(self, window: _Window) -> tuple[int, int]:
        """How many pixels the space's floor has, and how many of them are unlike its board's colour."""
        if window.floor_unlike is None:
            floor = self._floor_mask(window).view(np.uint8)
            window.floor_unlike = (cv2.countNonZero(floor),
                                   cv2.countNonZero(cv2.bitwise_and(floor, next(self._unlike_board(window)))))
        return window.floor_unlike

    def _unlike_board(self, window: _Window) -> Iterator[np.ndarray]:
        """The window's pixels (uint8 masks) beyond ``covered_distance`` of its board's colour, then of each
        of the others (worked out only when asked: most spaces look like their own board)."""
        limit = self.fit.covered_distance
        if window.unlike is None:
            window.unlike = [(window.board_distance > limit).view(np.uint8)]
        yield window.unlike[0]
        if len(window.unlike) == 1:
            pixels = window.corrected.reshape(-1, 3)
            distances = ray_distances(pixels, window.others, self.fit.board_shading).T
            window.unlike += [(row > limit).reshape(window.board_distance.shape).view(np.uint8) for row in distances]
        yield from window.unlike[1:]

    def _open_view(self, window: _Window, in_front: _Fronts) -> np.ndarray:
        """The window's pixels (uint8 mask) beyond the reach of the stacks ``in_front`` (their heads, tails
        and legs too, unlike :meth:`_visible`)."""
        key = (window.space, in_front)
        view = self._open_cache.get(key)
        if view is None:
            view = self._open_cache[key] = (self._fronts_drawn(window, in_front, self._reach_outline) == 0).view(
                np.uint8)
        return view

    def _reach_outline(self, window: _Window, offset: int, level: int) -> np.ndarray:
        """The outline of a camel's reach at ``offset`` and ``level`` (its pieces beyond its body box, ``own_mm``;
        pixels in the window, 2 bits of sub-pixel)."""
        if window.reach is None:
            window.reach = self._reach_corners(window)
        return cv2.convexHull(window.reach[0, offset, level]).reshape(-1, 2)

    def _open_floor(self, window: _Window, offset: int, count: int) -> np.ndarray:
        """The space's floor (uint8 mask) beyond the reach of a stack of ``count`` at ``offset``: its camels'
        heads, tails and legs stick out of their body boxes, their shadows fall around them."""
        floor = window.open_floors.get((offset, count))
        if floor is None:
            floor = self._floor_mask(window).astype(np.uint8)
            for level in range(count):
                cv2.fillConvexPoly(floor, self._reach_outline(window, offset, level), 0, cv2.LINE_8, 2)
            window.open_floors[(offset, count)] = floor
        return floor

    @contextmanager
    def reading_blind(self) -> Iterator[None]:
        """Within it, each camel on a covered space costs ``FitConfig.blind_covered_cost``: a board read
        blind puts camels where they are seen (a board judged: ``FitConfig.covered_cost``)."""
        self.covered_cost = self.fit.blind_covered_cost
        try:
            yield
        finally:
            self.covered_cost = self.fit.covered_cost

    def covered(self, track: Track, space: int) -> bool:
        """Whether ``space``, as ``track`` has it, is covered (see ``FitConfig.covered_distance``)."""
        stack = tuple(track.get(space, ()))
        if space not in self._windows or not stack or any(camel not in self._index for camel in stack):
            return False
        window = self._windows[space]
        _, offset = self._stack(space, stack, track)
        return self._covered(window, offset, len(stack), self._in_front(space, track))

    def _doubt(self, *grounds: np.ndarray) -> float:
        """The ground's doubt from the board-likeness of its pixels (each part of it judged alone)."""
        worst = 0.0
        for values in grounds:
            # Unless half of it is unlike the board, the median is not below 0 and cannot raise the doubt.
            if len(values) >= 8 and np.count_nonzero(values < 0) >= len(values) // 2:
                worst = max(worst, -_median(values))
        return self.fit.ground_penalty * worst

    def stack_cost(self, space: int, stack: Sequence[str], track: Track | None = None) -> float:
        if space not in self._windows:
            return 0.0
        return self._stack(space, tuple(stack), track)[0]

    def track_cost(self, track: Track) -> float:
        return sum(self.space_costs(track).values())

    def space_costs(self, track: Track) -> dict[int, float]:
        return {space: self.stack_cost(space, track.get(space, ()), track) for space in self.spaces}

    def judge(self, hypotheses: Sequence[Track], priors: Sequence[float] | None = None) -> Verdict:
        return judge_costs(self, hypotheses, priors)

    def camel_samples(self, track: Track, trim: float = 0.2) -> dict[str, np.ndarray]:
        """The light-corrected pixels each camel of ``track`` (a board known to be right) shows, where the
        fit puts it (its body, less what the stacks in front and the camels on it hide)."""
        found: dict[str, np.ndarray] = {}
        for space, stack in track.items():
            space = int(space)
            if not stack or space not in self._windows or any(camel not in self._index for camel in stack):
                continue
            window = self._windows[space]
            _, offset = self._stack(space, tuple(stack), track)
            visible = self._visible(window, self._in_front(space, track))
            shown, _ = self._shown(window, offset, len(stack), visible)
            height, width = window.evidence.shape[:2]
            # The body's edges (outline, legs, the board between them) would blur the colour: its middle only.
            for pixels, camel in zip(shown, stack, strict=True):
                mask = np.zeros(height * width, np.uint8)
                mask[pixels] = 1
                mask = mask.reshape(height, width)
                inner = cv2.erode(mask, np.ones((3, 3), np.uint8)) if trim > 0 else mask
                if inner.sum() < 3:
                    inner = mask
                found[camel] = window.corrected[inner.astype(bool)]
        return found


def ray_distances(samples: np.ndarray, profiles: np.ndarray, shading: tuple[float, float]) -> np.ndarray:
    """How far each of N samples is from each of C colours (N × C): the distance to what the colour looks like
    lit anywhere from ``shading[0]`` to ``shading[1]`` times (a segment of its ray), as a share of full white.
    Unlike channel shares, it stays calm on dark colours, whose shares are mostly noise."""
    samples = samples.astype(np.float32, copy=False)
    return np.ascontiguousarray(_ray_distances(samples, np.einsum("ij,ij->i", samples, samples), profiles, shading).T)


def _ray_distances(
    samples: np.ndarray, squares: np.ndarray, profiles: np.ndarray, shading: tuple[float, float]
) -> np.ndarray:
    """:func:`ray_distances` as C × N, of float32 ``samples`` whose squared lengths (``squares``) are known:
    each colour's row is worked out along the samples, the same arithmetic in the same order."""
    profiles = profiles.astype(np.float32, copy=False)
    dots = np.empty((len(profiles), len(samples)), np.float32)
    for start in range(0, len(samples), BLAS_ROWS):
        dots[:, start : start + BLAS_ROWS] = (samples[start : start + BLAS_ROWS] @ profiles.T).T
    lengths = (np.einsum("ij,ij->i", profiles, profiles) + 1e-6)[:, None]
    scale = dots / lengths
    np.clip(scale, shading[0], shading[1], out=scale)
    # squares - 2·scale·dots + scale²·lengths, in that order, without temporaries.
    squared = np.multiply(scale, 2, dtype=np.float32)
    squared *= dots
    np.subtract(squares, squared, out=squared)
    scale *= scale
    scale *= lengths
    squared += scale
    np.maximum(squared, 0.0, out=squared)
    np.sqrt(squared, out=squared)
    squared /= 255.0
    return squared


BLAS_ROWS = 4096
"""Samples per matrix product. OpenBLAS spreads a larger one over threads, which for three columns costs far
more than it saves (a 1600-wide board crop: 20 times the CPU); the frame budget is one core's."""


def _two_smallest(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The smallest and second smallest of each column (a value twice is both), a row at a time."""
    first = np.full(values.shape[1], np.inf, values.dtype)
    second = first.copy()
    for row in values:
        np.minimum(second, np.maximum(first, row), out=second)
        np.minimum(first, row, out=first)
    return first, second


def _median(values: np.ndarray) -> float:
    """The median, without numpy's overheads (called for every stack tried)."""
    middle = len(values) // 2
    part = np.partition(values, [middle - 1, middle] if len(values) % 2 == 0 else middle)
    return float(part[middle] if len(values) % 2 else (part[middle - 1] + part[middle]) / 2)


def _lone_scores(scorer: SilhouetteScorer, space: int) -> np.ndarray:
    """Each camel's score alone on ``space`` (nothing hiding it): offsets × levels × camels, for ranking
    where to look (a stack's own cost is worked out exactly). Each body box is taken as the core of its
    bounding rectangle (a share ``LONE_CORE`` of its width and height), summed from an integral image: all
    boxes of a window at once. At level 0 the ground around the feet must look like the board (see
    :meth:`SilhouetteScorer._ground_doubt`); where it would be covered, every level's score is what a camel there
    costs."""
    window = scorer._windows[space]
    height, width, camels = window.evidence.shape
    levels = scorer.fit.max_level
    offsets = len(scorer._offsets)
    corners = scorer._corners(window)[:, :levels].reshape(offsets * levels, 8, 2) / 4
    low, high = corners.min(axis=1), corners.max(axis=1)
    middle, half = (low + high) / 2, (high - low) / 2 * LONE_CORE
    x0, y0 = np.clip(np.rint(middle - half), 0, [width, height]).astype(int).T
    x1, y1 = np.clip(np.rint(middle + half), 0, [width, height]).astype(int).T
    area = np.maximum((x1 - x0) * (y1 - y0), 1)[:, None]
    integral = _integral(window.evidence[: y1.max(), : x1.max()], (height + 1, width + 1))
    sums = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    scores = (sums / area).reshape(offsets, levels, camels).astype(np.float32)
    maybe = scorer._may_be_covered(window)
    for offset in range(offsets):
        if maybe[offset] and scorer._covered(window, offset, 1, ()):
            scores[offset] = -scorer.covered_cost
        else:
            scores[offset, 0] -= scorer._ground_doubt(window, offset, 1, None)
    return scores


def _integral(values: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The integral image (float64, ``size``, zero beyond what ``values`` reach) of ``values`` (h × w × c,
    float32): the float32 running sums of numpy's ``cumsum`` down and then across, bit for bit, but added a
    whole row at a time, then a whole column (numpy's cumsum runs along one lane at a time, far slower)."""
    down = values.copy()
    for row in range(1, len(down)):
        down[row] += down[row - 1]
    across = np.ascontiguousarray(down.transpose(1, 0, 2))  # each column contiguous
    for column in range(1, len(across)):
        across[column] += across[column - 1]
    integral = np.zeros((size[1], size[0], values.shape[2]), np.float64)
    integral[1 : len(across) + 1, 1 : len(down) + 1] = across
    return integral.transpose(1, 0, 2)


LONE_CORE = 0.7
"""The share of a box's bounding rectangle (each way) its lone score is summed over."""


def first_track(scorer: SilhouetteScorer, threshold: float = 0.0, shortlist: int = 8) -> dict[int, list[str]]:
    """A first board, built as camels are: one camel at a time, standing on an empty space or on top of a
    stack already placed, each camel once. Of the ``shortlist`` moves whose camel fits best alone there, the
    one that makes the whole board fit best is taken (the stacks in front hide what they hide); it stops when
    no move makes the board fit better by ``threshold``."""
    scores = {space: scorer.lone(space) for space in scorer.spaces}
    track: dict[int, list[str]] = {}
    while True:
        placed = {camel for stack in track.values() for camel in stack}
        moves: list[tuple[float, int, str]] = []
        for space, table in scores.items():
            level = len(track.get(space, []))
            if level >= scorer.fit.max_level:
                continue
            alone = table[:, level, :].max(axis=0)
            moves += [(float(alone[index]), space, name) for index, name in enumerate(scorer.names)
                      if name not in placed]
        if not moves:
            break
        moves.sort(key=lambda move: -move[0])
        current = scorer.space_costs(track)
        best: tuple[float, dict[int, list[str]]] | None = None
        for _, space, camel in moves[:shortlist]:
            candidate = {**track, space: [*track.get(space, []), camel]}
            gain = sum(current[other] - scorer.stack_cost(other, candidate.get(other, ()), candidate)
                       for other in (space, *scorer.behind(space)))
            if best is None or gain > best[0]:
                best = (gain, candidate)
        if best is None or best[0] <= threshold:
            break
        track = best[1]
    return {space: stack for space, stack in sorted(track.items())}
