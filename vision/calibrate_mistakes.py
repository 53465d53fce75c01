"""The usual mistakes in setting out a calibration photo (:func:`vision.calibrate.calibration_layout`), told in
words that say what to do: no camels on the board, every camel one space off, the camels stacked as for a game's
start, two camels swapped. Each is a board of its own, so it is judged as boards are read: the board each mistake
would give, with the camels in the colours their paint usually has in this light, against the layout asked for
(:class:`vision.silhouette.SilhouetteScorer`), and, for what no layout names (where camels stand at all), a probe
that fits whatever is unlike the board on each space. Without this, such a photo was explained as another
edition's layout or as camels hidden by the pyramid, and a swap could even be learnt."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from vision.board import BoardTemplate
from vision.calibrate_colours import board_like, board_not_camel, check_distinct, paint_colour
from vision.calibration_file import CalibrationError
from vision.read import Observation
from vision.silhouette import FitConfig, SilhouetteScorer, ray_distances
from vision.synth import EDITION_CAMELS

STANDS = -0.3
"""Something stands on a space where a probe fitting whatever is unlike the board there explains the photo this
much better than the empty space (in camels of evidence, see :mod:`vision.silhouette`). Measured on the review's
calibration photos (2018 and 2014, clean and light): camels -0.4 to -1.1 (the 2018 white camel on sand about 0),
empty spaces +0.1 to +0.6, a desert tile or a shadow down to -0.7 on one or two spaces of a board."""
STACK_PAINTED = -0.1
"""Two camels stacked in their paints' colours explain a space at least this much better than one alone (the
review's game-start stacks -0.23 to -0.87; spaces where the probes alone saw a stack: a single camel of the reader's
own renders +0.34 and +0.53, an empty space beside a stack +0.01)."""
EMPTY_SPOTS = 3
"""An empty board may show this many spaces where something seems to stand (desert and spectator tiles, shadows;
measured on the review's empty boards: 0 to 3)."""
EMPTY_ON_LAYOUT = 2
"""An empty board may show something standing on this many of the layout's spaces (tiles of the light tier: 2)."""
EMPTY_TOLD = 1.0
"""With something on one of the layout's spaces, an empty board's layout explains the photo this much worse than
no camels (empty boards with a tile on a layout space: 2.7; a dark right 2014 photo where one camel stands out:
0.1)."""
SHIFTED = 2.0
"""The layout one space off explains the photo this much better than the layout asked for, and better than the
other edition's layout: the camels were set out one space off (measured: 5.8 to 7.7 better; right photos 4.8 to
7.1 worse)."""
SWAP_MARGIN = 0.0
"""Two camels exchanged explain the photo better than the layout (by more than this), better than an empty board
(by ``SWAP_SEEN``), and their colours measured fit their names crossed over (``CROSSED``): they were set down on
each other's spaces (measured on the review's photos and benchmarks/calibration_mistakes.py seed 1: swaps 0.2 to
2.1 better than the layout, right photos' best swap 1.3 worse, empty boards' best swap 0.1 to 0.2 better)."""
SWAP_SEEN = 0.0
"""A swapped board explains the photo at least this much better than an empty one (swaps -0.1 to -4.5, the dark
camels of a light-tier table the least; empty boards' best swap +2 or more)."""
CROSSED = 0.8
"""The two camels' colours fit their names crossed over at most this share as far off as told (swaps 0.13 to
0.38, orange and yellow in dim light 0.71; an empty board's fits 0.94 to 1.02). Two camels measured alike (a purple
painted red: 0.75) are not swapped whatever this says: the calibration names them as alike."""
ELSEWHERE = 0.4
"""A colour measured this far (a share of full white, shading aside) from both camels' paints is of something else
(the lit board beside a camel standing at the edge of its space): it tells nothing of a swap. Measured: the
swapped pairs of benchmarks/calibration_mistakes.py seeds 1-4, each colour within 0.145 of one of the two paints;
the right photo refused as swapped (independent renderer seed 90, table 0, lamp light: the black camel's colour
measured on the glare beside it) 0.81."""
_START_SPACES = {"2014": (1, 2, 3), "2018": (1, 2, 3, 14, 15, 16)}
"""Where a game's start stacks the camels (the racing ones on 1 to 3, the 2018 crazy ones on 16 to 14)."""


def layout_mistake(
    observation: Observation,
    template: BoardTemplate,
    camels: Sequence[str],
    track: Mapping[int, Sequence[str]],
    measured: Mapping[str, tuple[float, float, float]],
    board_colour: tuple[float, float, float],
    fit: FitConfig,
) -> tuple[str, str] | None:
    """What went wrong in setting out this calibration photo of ``track`` (the layout asked for): which mistake
    (``"shifted"``, ``"stacked"``, ``"empty"`` or ``"swapped"``) and, in words, what to do; ``None`` when none of
    the usual mistakes explains the photo better than the layout. ``measured``: the colours measured where the
    layout puts each camel."""
    layout = {space: list(stack) for space, stack in track.items()}
    put = _put_them(template.edition, layout)
    names = sorted({*camels, *(camel for its in EDITION_CAMELS.values() for camel in its)})
    painted = SilhouetteScorer(observation, {name: paint_colour(name, board_colour) for name in names}, template,
                               fit=fit, board_bgr=board_colour)
    costs = _layout_costs(painted, template, camels, layout)
    told = costs["layout"]
    others = [cost for name, cost in costs.items() if isinstance(name, str) and name.startswith("other")]
    for way in ("after", "before"):
        if costs[way] < told - SHIFTED and all(costs[way] < other for other in others):
            back = "back" if way == "after" else "forward"
            return "shifted", f"every camel stands one space {way} where it should: move each {back} one space; {put}"
    stands = _standing_spaces(observation, template, board_colour, fit)
    on_layout = [space for space in layout if stands.get(space)]
    if len(on_layout) * 2 < len(layout):
        stacked = [space for space, count in stands.items() if count == 2 and space in _START_SPACES[template.edition]
                   and _stacked(painted, space, camels)]
        if stacked:
            plural = "s" if len(stacked) > 1 else ""
            return "stacked", (f"the camels are stacked (on space{plural} {_listed(stacked)}), as for a game's "
                               f"start, not set out for calibration: one camel on each space; {put}")
        # Stacks the probe cannot count (a dark table): camels only where a game starts (on two spaces or more: one
        # may be a tile), and the layout explains the photo clearly worse than no camels.
        seen = sorted(space for space, count in stands.items() if count)
        starts = [space for space in seen if space in _START_SPACES[template.edition]]
        if len(starts) >= 2 and set(on_layout) <= set(starts) and told > EMPTY_TOLD and len(seen) - len(starts) <= 1:
            return "stacked", (f"the camels are seen only on spaces {_listed(starts)}, as for a game's start, not "
                               f"set out for calibration: one camel on each space; {put}")
    # Nothing stands on the layout's spaces (or on one or two: a tile, a stack's edge) and little anywhere (tiles,
    # shadows), and the layout in its paints explains the photo worse than an empty board (clearly, with one), and
    # the other edition's clearly worse (a dark photo of that layout shows little more than an empty board: 0.1).
    if len(on_layout) <= EMPTY_ON_LAYOUT and sum(1 for stack in stands.values() if stack) <= EMPTY_SPOTS \
            and told > (EMPTY_TOLD if on_layout else 0.0) and all(other > EMPTY_TOLD for other in others):
        plural = "s" if len(on_layout) > 1 else ""
        only = f" (only something on space{plural} {_listed(on_layout)})" if on_layout else ""
        return "empty", f"no camels are seen on the board{only}: {put}"
    swaps = sorted((cost, name) for name, cost in costs.items() if isinstance(name, tuple))
    for cost, (first, second) in swaps:
        if cost >= min(told - SWAP_MARGIN, SWAP_SEEN):
            break
        a, b = layout[first][0], layout[second][0]
        # Both camels must be there: a camel where the layout puts another, beside an empty space, is not a swap.
        there = all(stands.get(space) or (camel in measured and not board_like(measured[camel], board_colour)
                                          and not board_not_camel(camel, measured[camel], board_colour))
                    for space, camel in ((first, a), (second, b)))
        if there and all(cost < other for other in others) and _crossed(measured, a, b, board_colour):
            return "swapped", (f"the {a} and {b} camels look swapped ({a} on {second}, {b} on {first}): swap them back "
                    f"({a} on {first}, {b} on {second})")
    return None


def _listed(spaces: Sequence[int]) -> str:
    """Spaces in words: "5", "1 and 2", "1, 2 and 3"."""
    return " and ".join(filter(None, [", ".join(map(str, spaces[:-1])), str(spaces[-1])]))


def _put_them(edition: str, layout: Mapping[int, Sequence[str]]) -> str:
    """What the layout asks for, in words."""
    places = ", ".join(f"{stack[0]} on {space}" for space, stack in sorted(layout.items()))
    return f"put them as `camelup vision calibrate --board {edition}` says ({places})"


def _standing_spaces(
    observation: Observation, template: BoardTemplate, board_colour: tuple[float, float, float], fit: FitConfig
) -> dict[int, int]:
    """For each space in the picture, how many camels seem to stand there (0, 1, or 2 for two or more): whether
    a probe fitting whatever is unlike the board, then a second one on it, explains the space better (``STANDS``)."""
    probes = ("something?", "something more?")
    scorer = SilhouetteScorer(observation, dict.fromkeys(probes), template, fit=fit, board_bgr=board_colour)
    counts: dict[int, int] = {}
    for space in scorer.spaces:
        bare = scorer.stack_cost(space, [], {})
        one = scorer.stack_cost(space, probes[:1], {space: list(probes[:1])})
        two = scorer.stack_cost(space, probes, {space: list(probes)})
        # A stack needs a clear first camel: a probe on a space's print or a tile's edge finds a "second" one.
        counts[space] = 0 if one - bare > STANDS else 2 if one - bare < 2 * STANDS and two - one < STANDS else 1
    return counts


def _stacked(painted: SilhouetteScorer, space: int, camels: Sequence[str]) -> bool:
    """Whether two of ``camels`` stacked, in their paints' colours, explain ``space`` better than any one alone
    (by ``STACK_PAINTED``): what the probes take for a second camel may be a big one's hump or a neighbour's
    shadow."""
    alone = min(painted.stack_cost(space, [camel], {space: [camel]}) for camel in camels)
    two = min(painted.stack_cost(space, [low, high], {space: [low, high]})
              for low in camels for high in camels if low != high)
    return two - alone < STACK_PAINTED


def _layout_costs(
    painted: SilhouetteScorer, template: BoardTemplate, camels: Sequence[str], layout: Mapping[int, Sequence[str]]
) -> dict[object, float]:
    """How well each board a mistake would give explains the photo, the camels in their paint's colours:
    ``"layout"``, one space ``"after"`` and ``"before"`` it, each other edition's layout (``"other …"``), and the
    layout with two camels exchanged (keyed by their two spaces)."""
    last = max(template.spaces)
    boards: dict[object, dict[int, list[str]]] = {
        "layout": {space: list(stack) for space, stack in layout.items()},
        "after": {space + 1: list(stack) for space, stack in layout.items() if space + 1 <= last},
        "before": {space - 1: list(stack) for space, stack in layout.items() if space - 1 >= 1},
    }
    for edition, theirs in EDITION_CAMELS.items():
        if list(theirs) != list(camels):
            boards[f"other {edition}"] = {1 + 2 * index: [camel] for index, camel in enumerate(theirs)}
    spaces = sorted(layout)
    for index, first in enumerate(spaces):
        for second in spaces[index + 1 :]:
            boards[(first, second)] = {**{s: list(st) for s, st in layout.items()},
                                       first: list(layout[second]), second: list(layout[first])}
    return {name: painted.track_cost(board) for name, board in boards.items()}


def _crossed(
    measured: Mapping[str, tuple[float, float, float]], a: str, b: str, board_colour: tuple[float, float, float]
) -> bool:
    """Whether the colours measured for ``a`` and ``b`` fit their names crossed over clearly better than as told
    (``CROSSED``)."""
    if a not in measured or b not in measured:
        return False
    paints = [paint_colour(a, board_colour), paint_colour(b, board_colour)]
    if any(paint is None for paint in paints):
        return False
    try:
        check_distinct({a: measured[a], b: measured[b]})
    except CalibrationError:
        return False  # alike: neither is in the other's colour more than its own
    colours = np.array([measured[a], measured[b]], np.float32)
    distance = ray_distances(colours, np.array(paints, np.float32), FitConfig().camel_shading)
    if float(distance.min(axis=1).max()) > ELSEWHERE:
        return False  # one of them measured on something else: that it fits neither paint is no crossing
    return float(distance[0, 1] + distance[1, 0]) < CROSSED * float(distance[0, 0] + distance[1, 1])
