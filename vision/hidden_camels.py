"""Camels a photo cannot show where the board puts them: the spaces the reader finds covered (the pyramid, the
palm tree, a hand, a card, or their deep shadow over the space), and the words for a camel not seen there, with
where and what may hide it. Calibration says "not seen" for such a camel, never "swapped" or "alike": what covers
it is measured as the camel, so its colour says nothing about it (:mod:`vision.calibrate`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from vision.board import BoardTemplate
from vision.read import Observation
from vision.silhouette import FitConfig, SilhouetteScorer


def covered_spaces(
    observation: Observation,
    template: BoardTemplate,
    camels: Sequence[str],
    track: Mapping[int, Sequence[str]],
    board_colour: tuple[float, float, float],
    fit: FitConfig,
) -> set[int]:
    """The spaces of ``track`` the reader finds covered (its floor around the camels unlike the board: the
    pyramid, the palm tree, a hand, a card over it; see :meth:`vision.silhouette.SilhouetteScorer.covered`)."""
    scorer = SilhouetteScorer(observation, dict.fromkeys(camels), template, fit=fit, board_bgr=board_colour)
    return {space for space in track if scorer.covered(dict(track), space)}


def behind_middle(observation: Observation, template: BoardTemplate, space: int, inset: float = 80.0) -> bool:
    """Whether the camera looks at ``space`` over the board's middle (the track's inside), where the pyramid and
    the palm tree stand."""
    corners = np.array([c for cs in template.spaces.values() for c in cs])
    low, high = corners.min(axis=0) + inset, corners.max(axis=0) - inset
    camera = np.asarray(observation.camera_at, float)[:2]
    target = np.array(template.space_centre(space), float)
    return any(((low <= point) & (point <= high)).all()
               for point in (camera + t * (target - camera) for t in np.linspace(0, 0.98, 60)))


def in_the_middle(edition: str) -> str:
    """What may stand in the board's middle in this edition: the 2018 pyramid and palm tree; the 2014 game has
    no palm tree, only its dice pyramid (the shaker), on or beside the board on many tables."""
    return "the pyramid or the palm tree" if edition == "2018" else "the dice pyramid"


def _why_hidden(spaces: Sequence[int], covered: set[int], observation: Observation, template: BoardTemplate) -> str:
    """What may hide these spaces and what to do, in words ("" when nothing seems to)."""
    behind = [space for space in spaces if behind_middle(observation, template, space)]
    hidden = [space for space in spaces if space in covered or space in behind]
    if not hidden:
        return ""
    names = " and ".join(map(str, hidden))
    plural = "s" if len(hidden) > 1 else ""
    if all(space in behind for space in hidden):
        # Only where the camera looks over the board's middle: whether the pyramid or the palm tree stands there
        # the picture does not say, and a camel as pale as its space is not seen either.
        return (f"{in_the_middle(template.edition)} in the middle of the board, if it stands there, may hide "
                f"space{plural} {names} from the camera: take it away, or raise the camera; if nothing is in the way, "
                "the camel looks too much like its space: softer, whiter light helps")
    return (f"something covers or shades space{plural} {names} (a hand, a card, {in_the_middle(template.edition)}, "
            "or their shadow): take away what is in the way, or raise the camera")


def not_seen_message(
    unseen: Sequence[str],
    where: Mapping[str, int],
    covered: set[int],
    observation: Observation,
    template: BoardTemplate,
) -> str:
    """The message for camels not seen where the board puts them, with where and why they may be hidden."""
    spaces: dict[int, list[str]] = {}
    for camel in unseen:  # a stack's camels named once with their space, not the space once per camel
        spaces.setdefault(where[camel], []).append(camel)
    said = ", nor ".join(
        f"on space {space}, where the {_names(camels)} camel{'s' if len(camels) > 1 else ''} should stand"
        for space, camels in spaces.items()
    )
    why = _why_hidden(sorted({where[camel] for camel in unseen}), covered, observation, template)
    if not why:
        return f"no camel is seen {said}"
    return f"no camel is seen {said}: {why}"


def _names(camels: Sequence[str]) -> str:
    """``["blue", "green", "white"]`` → ``"blue, green and white"``."""
    return camels[0] if len(camels) == 1 else f"{', '.join(camels[:-1])} and {camels[-1]}"


def left_out_note(
    camel: str, space: int, covered: set[int], observation: Observation, template: BoardTemplate, kept: str
) -> str:
    """The note for a camel a calibration left out (``kept``: whose colour it keeps instead)."""
    why = _why_hidden([space], covered, observation, template) or f"something covers or shades space {space}"
    return f"the {camel} camel on space {space} is not seen, so it keeps {kept}: {why}; calibrate again with it in view"
