"""Verifying a board instead of guessing it: how well each hypothesis (a whole track) explains the picture.

Each space's lines (see :mod:`vision.read`) are explained by a stack as runs along the line: whatever lies
below the stack (the board, or a stack in front covering the foot), then each camel bottom first, then
whatever lies behind. A camel's run costs each sample's distance from its colour; below and behind, a sample
costs its distance from the board's colour, or a flat ``other_cost`` for anything else (a hand, a stack
behind). The cheapest cut of a line into those runs (a small dynamic programme with the same limits the
blind reader uses: a run is at least part of a camel's height long, and the k-th camel starts low enough on
the line) is the line's cost; a stack's cost is its lines' sum, and a track's cost the sum over spaces.
Costs are in "levels of disagreement": one camel's height of samples at a full mismatch costs about 1.

Hypotheses differ in a few spaces only, so every (space, stack) is scored once and shared. Standalone: the
hypotheses are plain tracks; the game that produces them lives in the companion.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.read import Observation, ReadConfig, inside_convex

Track = Mapping[int, Sequence[str]]


@dataclass(frozen=True)
class VerifyConfig:
    other_cost: float = 0.1
    """What a sample explained as "something else" (not the board, not a camel of the stack) costs."""
    mismatch_scale: float = 0.25
    """A colour distance this large counts as a full mismatch (costs are capped there)."""
    min_run_levels: float = 0.6
    """A camel's run is at least this many camel heights: a camel that is there shows at least that much
    of itself on the lines (less only where something covers it)."""
    max_run_levels: float = 3.0
    """A camel's run is at most this many camel heights (its side, and the top of the top camel)."""
    shading: tuple[float, float] = (0.35, 1.15)
    """How much darker or brighter than its measured colour a camel's face may look (shade, and the lamp)."""
    level_mm: float = 19.5
    """How much higher each camel of a stack stands (the game's pieces: 18 to 20 mm)."""
    stack_radius_mm: float = 14.0
    """A stack's outline seen from any side, as a cylinder (the pieces are about 30 × 14 mm)."""
    top_extra_mm: float = 3.0
    front_reach_mm: float = 130.0
    """Stacks further than this from a space (its neighbours' and the next row's) cannot hide its lines."""
    dropped_lines: int = 1
    """Of each space's lines, this many that fit a stack worst do not count for it."""
    entry_prior: float = 0.15
    """What a mis-entered die costs before the picture is looked at (the expected board costs nothing)."""
    slip_prior: float = 0.3
    """What a hand's slip costs before the picture is looked at."""
    decisive_margin: float = 0.6
    """Two hypotheses closer than this (in levels of disagreement) cannot be told apart."""
    agreed_margin: float = 0.4
    """When the blind reading put a camel where the picture fits it best (two independent readings agree),
    its best place need beat the next only by this much to be kept. A lone camel fully in view rarely wins by
    more than about 0.8: whatever it would explain elsewhere costs only ``other_cost`` there."""
    disputed_margin: float = 1.0
    """When the blind reading put a camel elsewhere (or nowhere), its best place must beat the next by this."""


@dataclass(frozen=True)
class Verdict:
    answer: str
    """``"matches"``, ``"differs"`` or ``"cannot tell"``."""
    best: int
    """Index of the most likely hypothesis."""
    margin: float
    """How much better the answer explains the picture than its nearest rival (levels of disagreement)."""
    undecided: tuple[int, ...] = ()
    """Spaces on which the picture cannot tell the best hypothesis from a rival within the margin."""
    close: tuple[int, ...] = ()
    """Those rivals (indices)."""
    costs: list[float] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"answer": self.answer, "margin": round(self.margin, 2), "undecided": list(self.undecided)}


def ray_distance(samples: np.ndarray, profile: np.ndarray, shading: tuple[float, float]) -> np.ndarray:
    """How far each sample (N×3) is from what a colour (3, or N×3) looks like lit anywhere from ``shading[0]``
    to ``shading[1]`` times: the distance to that segment of its ray, as a share of full white. Unlike channel
    shares, it stays calm on dark colours, whose shares are mostly noise."""
    profile = np.broadcast_to(profile, samples.shape)
    scale = np.einsum("ij,ij->i", samples, profile) / (np.einsum("ij,ij->i", profile, profile) + 1e-6)
    scale = np.clip(scale, shading[0], shading[1])
    return np.linalg.norm(samples - scale[:, None] * profile, axis=1) / 255.0


class BoardScorer:
    """Scores tracks against one observed picture (see the module's description)."""

    def __init__(
        self,
        config: ReadConfig,
        observation: Observation,
        profiles: Mapping[str, Sequence[float] | None],
        verify: VerifyConfig | None = None,
    ) -> None:
        self.verify = verify or VerifyConfig()
        self.names = list(profiles)
        self._index = {name: i for i, name in enumerate(self.names)}
        usable = ~np.isnan(observation.corrected[:, 0])
        corrected = np.where(usable[:, None], observation.corrected, 0.0)
        scale = self.verify.mismatch_scale
        board_costs = ray_distance(corrected, observation.boards, (0.6, 1.1))
        # A camel whose colour is not known yet (``None``, when calibrating) is whatever is unlike the board.
        unlike_board = np.maximum(scale - board_costs, 0.0)
        camel_costs = np.stack(
            [
                unlike_board
                if profiles[name] is None
                else ray_distance(corrected, np.array(profiles[name], np.float32), self.verify.shading)
                for name in self.names
            ],
            axis=1,
        )
        camel_costs = np.minimum(camel_costs, scale) / scale
        background = np.minimum(np.minimum(board_costs, scale) / scale, self.verify.other_cost / scale)
        camel_costs[~usable] = 0.0  # outside the picture: says nothing for or against anything
        background[~usable] = 0.0
        self.observation = observation
        self._lines: dict[int, list[_LineModel]] = {}
        self._spans: dict[int, list[slice]] = {}
        for line, span in zip(observation.lines, observation.line_slices(), strict=True):
            self._spans.setdefault(line.space, []).append(span)
            count = span.stop - span.start
            per_level = max(count / config.max_stack, 1.0)
            cumulative = np.vstack([np.zeros(len(self.names)), np.cumsum(camel_costs[span], axis=0)])
            model = _LineModel(
                camel_cumulative=cumulative / per_level,
                background_cumulative=np.concatenate([[0.0], np.cumsum(background[span])]) / per_level,
                min_run=max(1, int(np.ceil(self.verify.min_run_levels * per_level))),
                max_run=max(2, int(self.verify.max_run_levels * per_level)),
                latest_starts=[int(start) for start in line.latest_starts],
                latest_ends=[int(np.ceil(end)) for end in line.latest_ends],
                visible=float(usable[span].mean()),
            )
            self._lines.setdefault(line.space, []).append(model)
        self.spaces = sorted(self._lines)
        self._stack_costs: dict[tuple[Any, ...], float] = {}
        self._front = _front_stacks(config, observation, self.spaces, self.verify)
        self._behind: dict[int, list[int]] = {}
        for space, fronts in self._front.items():
            for front, _ in fronts:
                self._behind.setdefault(front, []).append(space)

    def behind(self, space: int) -> list[int]:
        """The spaces whose lines a stack on ``space`` can hide."""
        return self._behind.get(space, [])

    def hidden(self, space: int, track: Track | None) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """For each of ``space``'s lines, how many samples at its foot the stacks ``track`` puts in front of
        it hide, and the camels (indices) of those stacks, which those samples then show."""
        lines = self._lines.get(space, [])
        hidden: list[tuple[int, tuple[int, ...]]] = [(0, ())] * len(lines)
        if not track:
            return tuple(hidden)
        for front, per_line in self._front.get(space, []):
            stack = track.get(front, ())
            if stack:
                camels = tuple(self._index[camel] for camel in stack if camel in self._index)
                for index, covered in enumerate(per_line):
                    count = int(covered[min(len(stack), len(covered) - 1)])
                    if count > hidden[index][0]:
                        hidden[index] = (count, tuple(sorted(set(hidden[index][1]) | set(camels))))
        return tuple(hidden)

    def stack_cost(self, space: int, stack: Sequence[str], track: Track | None = None) -> float:
        """How badly ``stack`` (bottom first) on ``space`` explains that space's lines (0 outside the picture),
        with the foot of the lines hidden by the stacks ``track`` puts in front of it left out."""
        hidden = self.hidden(space, track)
        key = (space, tuple(stack), hidden)
        cost = self._stack_costs.get(key)
        if cost is None:
            if any(camel not in self._index for camel in stack):
                cost = float("inf")
            else:
                labels = [self._index[camel] for camel in stack]
                # The line that fits worst is left out: a narrow camel, a hand or a shadow can miss one.
                costs = sorted(
                    line.hiding(*covered).cost(labels)
                    for line, covered in zip(self._lines.get(space, []), hidden, strict=True)
                )
                cost = float(sum(costs[: max(1, len(costs) - self.verify.dropped_lines)]))
            self._stack_costs[key] = cost
        return cost

    def camel_samples(self, track: Track, trim: float = 0.2) -> dict[str, np.ndarray]:
        """The light-corrected samples each camel of ``track`` (a board known to be right) covers on the lines
        of its space, cut as :meth:`stack_cost` explains them, without the ends of each run (outlines)."""
        found: dict[str, list[np.ndarray]] = {}
        for space, stack in track.items():
            if not stack or int(space) not in self._lines or any(camel not in self._index for camel in stack):
                continue
            labels = [self._index[camel] for camel in stack]
            hidden = self.hidden(int(space), track)
            for line, span, covered in zip(self._lines[int(space)], self._spans[int(space)], hidden, strict=True):
                for camel, (start, end) in zip(stack, line.hiding(*covered).runs(labels), strict=True):
                    if end <= covered[0]:
                        continue
                    cut = int((end - start) * trim)
                    samples = self.observation.corrected[span][start + cut : end - cut]
                    found.setdefault(camel, []).append(samples[~np.isnan(samples[:, 0])])
        return {camel: np.concatenate(parts) for camel, parts in found.items()}

    def track_cost(self, track: Track) -> float:
        return sum(self.stack_cost(space, track.get(space, ()), track) for space in self.spaces)

    def space_costs(self, track: Track) -> dict[int, float]:
        return {space: self.stack_cost(space, track.get(space, ()), track) for space in self.spaces}

    def judge(self, hypotheses: Sequence[Track], priors: Sequence[float] | None = None) -> Verdict:
        """Which hypothesis the picture supports. The first is the expected board: ``"matches"`` when it is
        the best by the decisive margin, ``"differs"`` when another is better by that margin, otherwise
        ``"cannot tell"`` with the spaces that would decide. ``priors``: what each hypothesis costs before
        the picture is looked at (a slip is rarer than no slip), in the same units."""
        if not hypotheses:
            raise ValueError("no hypothesis to judge")
        per_space = [self.space_costs(track) for track in hypotheses]
        costs = [sum(costs.values()) for costs in per_space]
        if priors is not None:
            costs = [cost + prior for cost, prior in zip(costs, priors, strict=True)]
        order = sorted(range(len(costs)), key=lambda index: (costs[index], index))
        best = order[0]
        rivals = [index for index in order[1:] if _normalised(hypotheses[index]) != _normalised(hypotheses[best])]
        margin = costs[rivals[0]] - costs[best] if rivals else float("inf")
        close = [index for index in rivals if costs[index] - costs[best] < self.verify.decisive_margin]
        undecided = sorted(
            {
                int(space)
                for index in close
                for space in set(hypotheses[index]) | set(hypotheses[best])
                if tuple(hypotheses[index].get(space, ())) != tuple(hypotheses[best].get(space, ()))
            }
        )
        if close:
            return Verdict("cannot tell", best, margin, tuple(undecided), tuple(close), costs)
        return Verdict("matches" if best == 0 else "differs", best, margin, (), (), costs)


def _front_stacks(
    config: ReadConfig, observation: Observation, spaces: Sequence[int], verify: VerifyConfig
) -> dict[int, list[tuple[int, list[np.ndarray]]]]:
    """For each space, the spaces nearer the camera whose stack can hide the foot of its lines, each with,
    for every line, how many samples at its foot a stack of 0, 1, 2, ... camels there hides."""
    pose, camera_at = observation.pose, observation.camera_at
    middles = observation.middles
    height = verify.level_mm
    angles = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    ring = np.column_stack([np.cos(angles), np.sin(angles)]) * verify.stack_radius_mm
    lines_of: dict[int, list[np.ndarray]] = {}
    for line in observation.lines:
        lines_of.setdefault(line.space, []).append(line.points)
    found: dict[int, list[tuple[int, list[np.ndarray]]]] = {}
    for space in spaces:
        if space not in middles:
            continue
        here = middles[space]
        distance_here = np.linalg.norm(camera_at[:2] - here)
        for front in spaces:
            there = middles.get(front)
            if (
                front == space
                or there is None
                or np.linalg.norm(there - here) > verify.front_reach_mm
                or np.linalg.norm(camera_at[:2] - there) >= distance_here
            ):
                continue
            per_line = []
            for points in lines_of.get(space, []):
                covered = [0]
                for levels in range(config.max_stack, 0, -1):
                    top = levels * height + verify.top_extra_mm
                    solid = np.vstack(
                        [np.column_stack([there + ring, np.zeros(len(ring))]),
                         np.column_stack([there + ring, np.full(len(ring), -top)])]
                    )
                    outline = cv2.convexHull(pose.project(solid).astype(np.float32)).reshape(-1, 2)
                    if not inside_convex(outline, points[:1])[0]:
                        break  # not even the foot hidden: a lower stack hides nothing either
                    inside = inside_convex(outline, points)
                    covered.append(int(np.argmin(inside)) if not inside.all() else len(points))
                # Found tallest first; zero for the heights that hide nothing.
                covered = [0] + [0] * (config.max_stack + 1 - len(covered)) + covered[:0:-1]
                per_line.append(np.array(covered))
            if any(table[-1] > 0 for table in per_line):
                found.setdefault(space, []).append((front, per_line))
    return found


def _normalised(track: Track) -> tuple[tuple[int, tuple[str, ...]], ...]:
    return tuple(sorted((int(space), tuple(stack)) for space, stack in track.items() if stack))


@dataclass
class _LineModel:
    camel_cumulative: np.ndarray
    """(n + 1) × camels: each camel's summed cost up to each sample."""
    background_cumulative: np.ndarray
    min_run: int
    max_run: int
    latest_starts: list[int]
    latest_ends: list[int]
    visible: float
    _prefixes: dict[tuple[int, ...], np.ndarray] = field(default_factory=dict)
    _starts: dict[tuple[int, ...], np.ndarray] = field(default_factory=dict)
    _hidden: dict[tuple[int, tuple[int, ...]], _LineModel] = field(default_factory=dict)

    def hiding(self, covered: int, shown: tuple[int, ...] = ()) -> _LineModel:
        """This line with its first ``covered`` samples hidden by a stack in front, made of the camels
        ``shown``: there, whatever stack this line's space holds, a sample costs what the nearest of those
        camels (or the board, the stack's outline being rough) makes it cost."""
        if covered <= 0:
            return self
        key = (covered, shown)
        variant = self._hidden.get(key)
        if variant is None:
            cut = min(covered, len(self.background_cumulative) - 1)
            camel = np.diff(self.camel_cumulative, axis=0)
            background = np.diff(self.background_cumulative)
            seen = background[:cut].copy()
            for index in shown:
                seen = np.minimum(seen, camel[:cut, index])
            camel[:cut] = seen[:, None]
            background[:cut] = seen
            variant = _LineModel(
                np.vstack([np.zeros((1, camel.shape[1])), np.cumsum(camel, axis=0)]),
                np.concatenate([[0.0], np.cumsum(background)]),
                self.min_run,
                self.max_run,
                self.latest_starts,
                self.latest_ends,
                self.visible,
            )
            self._hidden[key] = variant
        return variant

    def cost(self, labels: list[int]) -> float:
        """The cheapest cut of this line into background, the camels ``labels`` bottom first, background."""
        n = len(self.background_cumulative) - 1
        if not labels:
            return float(self.background_cumulative[n])
        if len(labels) > len(self.latest_starts):
            return float("inf")
        best_end = self._prefix(tuple(labels))
        tail = self.background_cumulative[n] - self.background_cumulative
        return float(np.min(best_end + tail))

    def _prefix(self, labels: tuple[int, ...]) -> np.ndarray:
        """For every sample b, the cheapest cost of samples [0, b) with the camels ``labels`` ending at b."""
        cached = self._prefixes.get(labels)
        if cached is not None:
            return cached
        n = len(self.background_cumulative) - 1
        # Below the bottom camel lies background; below any other, the camels under it.
        before = (self.background_cumulative if len(labels) == 1 else self._prefix(labels[:-1])).copy()
        level = len(labels) - 1
        before[min(self.latest_starts[level], n) + 1 :] = np.inf  # this camel must start low enough
        camel = self.camel_cumulative[:, labels[-1]]
        start_values = before - camel  # + camel[b] for the run [a, b)
        # Only the ends this camel can have: not above where its top can be seen, nor beyond its latest start
        # and longest run.
        last = min(self.latest_ends[level], self.latest_starts[level] + self.max_run, n)
        ends = np.arange(last + 1)
        starts = ends[:, None] - np.arange(self.min_run, self.max_run + 1)[None, :]
        valid = starts >= 0
        values = np.where(valid, start_values[np.clip(starts, 0, n)], np.inf)
        choice = values.argmin(axis=1)
        result = np.full(n + 1, np.inf)
        result[: last + 1] = values[ends, choice] + camel[: last + 1]
        chosen = np.zeros(n + 1, int)
        chosen[: last + 1] = starts[ends, choice]
        self._prefixes[labels] = result
        self._starts[labels] = chosen
        return result

    def runs(self, labels: list[int]) -> list[tuple[int, int]]:
        """Where each camel's run lies (start, end samples) in the cheapest cut of the line, bottom first."""
        n = len(self.background_cumulative) - 1
        tail = self.background_cumulative[n] - self.background_cumulative
        end = int(np.argmin(self._prefix(tuple(labels)) + tail))
        found = []
        for count in range(len(labels), 0, -1):
            start = int(self._starts[tuple(labels[:count])][end])
            found.append((start, end))
            end = start
        return found[::-1]


def _without(track: Track, camel: str) -> dict[int, list[str]]:
    out = {int(space): [other for other in stack if other != camel] for space, stack in track.items()}
    return {space: stack for space, stack in out.items() if stack}


def placements(scorer: BoardScorer, track: Track, camel: str) -> list[tuple[float, dict[int, list[str]]]]:
    """Every place ``camel`` could stand with the rest of ``track`` as it is (each space of the picture, each
    level of its stack), cheapest first, with the whole track's cost."""
    rest = _without(track, camel)
    base = scorer.space_costs(rest)
    total = sum(base.values())
    options = []
    for space in scorer.spaces:
        stack = rest.get(space, [])
        affected = [space, *scorer.behind(space)]
        for level in range(len(stack) + 1):
            candidate = {**rest, space: [*stack[:level], camel, *stack[level:]]}
            cost = total + sum(
                scorer.stack_cost(other, candidate.get(other, ()), candidate) - base[other] for other in affected
            )
            options.append((cost, candidate))
    options.sort(key=lambda option: option[0])
    return options


def _places(track: Track) -> dict[str, tuple[int, int]]:
    """Each camel's (space, level) in ``track``."""
    return {camel: (int(space), level) for space, stack in track.items() for level, camel in enumerate(stack)}


def refine(
    scorer: BoardScorer, track: Track, camels: Sequence[str], rounds: int = 3, margin: float | None = None
) -> tuple[dict[int, list[str]], tuple[str, ...]]:
    """Blind reading made sure: starting from ``track`` (camels missing from it are placed too), move one camel
    at a time to where the picture says it fits best, until nothing improves; then each camel whose best
    place does not beat its next best by ``margin`` is reported unseen instead of guessed. Unless ``margin`` is
    given, it is ``agreed_margin`` for a camel ``track`` already had there (same space, same level) and
    ``disputed_margin`` for any other: where the blind reading and the scorer agree, a smaller lead suffices
    (measured on the photo bench's seeds 100-109).

    Returns the track of the camels placed surely, and the camels left unseen."""
    current: dict[int, list[str]] = {int(space): list(stack) for space, stack in track.items() if stack}
    for camel in camels:
        if not any(camel in stack for stack in current.values()):
            current = placements(scorer, current, camel)[0][1]
    cost = scorer.track_cost(current)
    for _ in range(rounds):
        improved = False
        for camel in camels:
            best_cost, best = placements(scorer, current, camel)[0]
            if best_cost < cost - 1e-9:
                current, cost, improved = best, best_cost, True
        if not improved:
            break
    first, final = _places(track), _places(current)
    unsure = []
    for camel in camels:
        options = placements(scorer, current, camel)
        if margin is not None:
            needed = margin
        elif camel in first and first[camel] == final.get(camel):
            needed = scorer.verify.agreed_margin
        else:
            needed = scorer.verify.disputed_margin
        if len(options) > 1 and options[1][0] - options[0][0] < needed:
            unsure.append(camel)
    sure = {space: [camel for camel in stack if camel not in unsure] for space, stack in current.items()}
    return {space: stack for space, stack in sure.items() if stack}, tuple(unsure)
