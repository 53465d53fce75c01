"""The reader: the camels on every space of the board, bottom first, from one picture (stage 5 of
:mod:`vision.read`: the first board the scorer builds, made sure by :func:`vision.verify.refine`).

Its own module, above both :mod:`vision.read` (the board's place and light in the picture) and
:mod:`vision.silhouette` (the scorer, built on :mod:`vision.read`), so that neither imports the other back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from vision.board import BoardTemplate
from vision.focus import picture_problems
from vision.read import BOARD_BGR, Observation, ReadConfig, Reading, observe
from vision.silhouette import SilhouetteScorer, first_track
from vision.verify import refine, without

UNSHOWN_GAIN = -0.2
"""A camel the blind reading puts where the board fits the picture worse with it than without, by more than this (in
camels of evidence; 0.2 of what a camel plainly seen brings), is not seen there: every camel must stand somewhere,
and where the picture shows it nowhere (the pyramid, a hand over its stack), its least bad place is a look-alike (a
sleeve on top of a stack, a tile's print), cheaper only than a covered space. It is reported unseen, not guessed.
On the independent renderer's seeds 95, 97 and 99 (the limit chosen there) and 93, 98 and 102 (arms over the
board), 3706 camels read: 16 of the 181 placed wrongly gained -0.2 or less, and 4 of the 3525 placed rightly
(at 0: 35 and 49)."""


def read_board(
    config: ReadConfig,
    template: BoardTemplate,
    profiles: dict[str, tuple[float, float, float]],
    image: np.ndarray,
    board_bgr: tuple[float, float, float] = BOARD_BGR,
    observation: Observation | None = None,
) -> Reading:
    """The camels on every space, bottom first, as sure as the picture allows. ``profiles`` are the camels'
    colours and ``board_bgr`` the board's, both as seen in the same light (a calibration measures them for a
    table).

    Raises:
        vision.locate.BoardNotFound: the markers are not all visible (nothing is guessed).
    """
    return read_with_scorer(config, template, profiles, image, board_bgr, observation)[0]


def read_with_scorer(
    config: ReadConfig,
    template: BoardTemplate,
    profiles: Mapping[str, Sequence[float]],
    image: np.ndarray,
    board_bgr: Sequence[float] = BOARD_BGR,
    observation: Observation | None = None,
    verify: Any = None,
    fit: Any = None,
) -> tuple[Reading, Any]:
    """:func:`read_board`, and the :class:`vision.silhouette.SilhouetteScorer` it used (to judge other
    boards against the same picture; ``verify``: its :class:`vision.verify.VerifyConfig`, ``fit``: its
    :class:`vision.silhouette.FitConfig`, when not the defaults).

    Raises:
        vision.locate.BoardNotFound: the markers are not all visible (nothing is guessed).
    """
    seen = observation or observe(config, template, image)
    scorer = SilhouetteScorer(seen, profiles, template, verify, fit, board_bgr=board_bgr)
    camels = list(profiles)
    if not scorer.spaces:
        problems = [*seen.problems, "no space of the board is in the picture"]
        return Reading({}, 0.0, problems, tuple(camels)), scorer
    with scorer.reading_blind():
        track, unseen = refine(scorer, first_track(scorer), camels)
        # A camel best placed on a covered space (a hand, the pyramid over it) is not seen there: not guessed.
        covered = {space for space in track if scorer.covered(track, space)}
        unseen = (*unseen, *(camel for space in sorted(covered) for camel in track[space]))
        track = {space: stack for space, stack in track.items() if space not in covered}
        unshown = not_shown(scorer, track)
        unseen = (*unseen, *unshown)
        track = without(track, unshown)
    placed = [camel for camel in camels if camel not in unseen]
    confidence = float(np.mean([scorer.camel_score(track, camel) for camel in placed])) if placed else 0.0
    problems = [*picture_problems(image, seen.location.seen_now or seen.location.markers), *seen.problems,
                *(f"the {camel} camel is not seen" for camel in unseen)]
    if confidence < config.min_confidence:
        problems.append(f"low confidence ({max(confidence, 0.0):.2f}): the camels' colours do not fit this "
                        "picture; calibrate the camera (camelup vision calibrate) in the table's light")
    return Reading(track, max(0.0, min(1.0, confidence)), problems, tuple(unseen)), scorer


def not_shown(scorer: Any, track: Mapping[int, Sequence[str]]) -> tuple[str, ...]:
    """The camels of ``track`` without which the board fits the picture better by more than ``-UNSHOWN_GAIN``
    (each weighed alone against the rest of ``track``; ``scorer``: a :class:`vision.silhouette.SilhouetteScorer`)."""
    cost = scorer.track_cost(track)
    return tuple(camel for stack in track.values() for camel in stack
                 if scorer.track_cost(without(track, (camel,))) - cost <= UNSHOWN_GAIN)

