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

import numpy as np

from vision.read import Observation, ReadConfig

Track = Mapping[int, Sequence[str]]


@dataclass(frozen=True)
class VerifyConfig:
    other_cost: float = 0.1
    """What a sample explained as "something else" (not the board, not a camel of the stack) costs."""
    mismatch_scale: float = 0.25
    """A colour distance this large counts as a full mismatch (costs are capped there)."""
    max_run_levels: float = 3.0
    """A camel's run is at most this many camel heights (its side, and the top of the top camel)."""
    decisive_margin: float = 0.6
    """Two hypotheses closer than this (in levels of disagreement) cannot be told apart."""


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
        profiles: Mapping[str, Sequence[float]],
        verify: VerifyConfig | None = None,
    ) -> None:
        self.verify = verify or VerifyConfig()
        self.names = list(profiles)
        self._index = {name: i for i, name in enumerate(self.names)}
        usable = ~np.isnan(observation.corrected[:, 0])
        corrected = np.where(usable[:, None], observation.corrected, 0.0)
        scale = self.verify.mismatch_scale
        camel_costs = np.stack(
            [ray_distance(corrected, np.array(profiles[name], np.float32), config.shading) for name in self.names],
            axis=1,
        )
        board_costs = ray_distance(corrected, observation.boards, (0.6, 1.1))
        camel_costs = np.minimum(camel_costs, scale) / scale
        background = np.minimum(np.minimum(board_costs, scale) / scale, self.verify.other_cost / scale)
        camel_costs[~usable] = 0.0  # outside the picture: says nothing for or against anything
        background[~usable] = 0.0
        self._lines: dict[int, list[_LineModel]] = {}
        for line, span in zip(observation.lines, observation.line_slices(), strict=True):
            count = span.stop - span.start
            per_level = max(count / config.max_stack, 1.0)
            cumulative = np.vstack([np.zeros(len(self.names)), np.cumsum(camel_costs[span], axis=0)])
            model = _LineModel(
                camel_cumulative=cumulative / per_level,
                background_cumulative=np.concatenate([[0.0], np.cumsum(background[span])]) / per_level,
                min_run=max(1, int(np.ceil(line.min_run))),
                max_run=max(2, int(self.verify.max_run_levels * per_level)),
                latest_starts=[int(start) for start in line.latest_starts],
                visible=float(usable[span].mean()),
            )
            self._lines.setdefault(line.space, []).append(model)
        self.spaces = sorted(self._lines)
        self._stack_costs: dict[tuple[int, tuple[str, ...]], float] = {}

    def stack_cost(self, space: int, stack: Sequence[str]) -> float:
        """How badly ``stack`` (bottom first) on ``space`` explains that space's lines (0 outside the picture)."""
        key = (space, tuple(stack))
        cost = self._stack_costs.get(key)
        if cost is None:
            if any(camel not in self._index for camel in stack):
                cost = float("inf")
            else:
                labels = [self._index[camel] for camel in stack]
                cost = float(sum(line.cost(labels) for line in self._lines.get(space, [])))
            self._stack_costs[key] = cost
        return cost

    def track_cost(self, track: Track) -> float:
        return sum(self.stack_cost(space, track.get(space, ())) for space in self.spaces)

    def space_costs(self, track: Track) -> dict[int, float]:
        return {space: self.stack_cost(space, track.get(space, ())) for space in self.spaces}

    def judge(self, hypotheses: Sequence[Track]) -> Verdict:
        """Which hypothesis the picture supports. The first is the expected board: ``"matches"`` when it is
        the best by the decisive margin, ``"differs"`` when another is better by that margin, otherwise
        ``"cannot tell"`` with the spaces that would decide."""
        if not hypotheses:
            raise ValueError("no hypothesis to judge")
        per_space = [self.space_costs(track) for track in hypotheses]
        costs = [sum(costs.values()) for costs in per_space]
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
    visible: float
    _prefixes: dict[tuple[int, ...], np.ndarray] = field(default_factory=dict)

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
        ends = np.arange(n + 1)
        starts = ends[:, None] - np.arange(self.min_run, self.max_run + 1)[None, :]
        valid = starts >= 0
        values = np.where(valid, start_values[np.clip(starts, 0, n)], np.inf)
        result = values.min(axis=1) + camel
        self._prefixes[labels] = result
        return result


def _without(track: Track, camel: str) -> dict[int, list[str]]:
    out = {int(space): [other for other in stack if other != camel] for space, stack in track.items()}
    return {space: stack for space, stack in out.items() if stack}


def placements(scorer: BoardScorer, track: Track, camel: str) -> list[tuple[float, dict[int, list[str]]]]:
    """Every place ``camel`` could stand with the rest of ``track`` as it is (each space of the picture, each
    level of its stack), cheapest first, with the whole track's cost."""
    rest = _without(track, camel)
    base = {space: scorer.stack_cost(space, rest.get(space, ())) for space in scorer.spaces}
    total = sum(base.values())
    options = []
    for space in scorer.spaces:
        stack = rest.get(space, [])
        for level in range(len(stack) + 1):
            placed = [*stack[:level], camel, *stack[level:]]
            cost = total - base[space] + scorer.stack_cost(space, placed)
            options.append((cost, {**rest, space: placed}))
    options.sort(key=lambda option: option[0])
    return options


def refine(
    scorer: BoardScorer, track: Track, camels: Sequence[str], rounds: int = 3
) -> tuple[dict[int, list[str]], tuple[str, ...]]:
    """Blind reading made sure: starting from ``track`` (camels missing from it are placed too), move one camel
    at a time to where the picture says it fits best, until nothing improves; then each camel whose best
    place does not beat its next best by the decisive margin is reported unseen instead of guessed.

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
    unsure = []
    for camel in camels:
        options = placements(scorer, current, camel)
        if len(options) > 1 and options[1][0] - options[0][0] < scorer.verify.decisive_margin:
            unsure.append(camel)
    sure = {space: [camel for camel in stack if camel not in unsure] for space, stack in current.items()}
    return {space: stack for space, stack in sure.items() if stack}, tuple(unsure)
