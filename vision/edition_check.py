"""Whether a board read with one edition's camels shows the other edition's: a 2014 board read with a 2018
calibration (or ``--board 2018``) gives a track that looks fine and is wrong (its orange camel read as the red
one, the purple and black ones "unseen"), and the reverse reads a 2018 board's red camel as the orange one.

Each camel the reading places is looked at where the fit puts it (its pixels, light-corrected as the reader sees
them): one whose colour is much nearer the paint of a camel only the other edition has (orange for 2014; red,
purple or black for 2018) than the paint of any camel of the edition told gives that edition away. It costs a few
milliseconds once the board is read (no second reading), so it runs on every reading.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.calibrate_colours import lit_colour, paint_colour
from vision.silhouette import FitConfig, ray_distances
from vision.synth import EDITION_CAMELS

LOOKS_OTHER = 2.0
"""A placed camel gives the other edition away when its colour is this many times nearer the paint of a camel
only that edition has than the paint of any camel of the edition told (white-balanced by the board, as
distances along colour rays, :func:`vision.silhouette.ray_distances`). Chosen on the independent renderer's
seeds 990 to 992 (benchmarks/camera_edition_check.py; 70 readings of each kind looked at): camels read on photos
of the right edition clear of the board's middle came to 1.98 at most; readings of the other edition's photos
had a camel at 2 or more in 34 of 70. On fresh seeds 993 to 995: 0 of 144 right readings warned, 62 of 144 wrong
ones caught."""
BEHIND = 4.0
"""``LOOKS_OTHER`` for a camel on a space the camera sees over the board's middle, where the pyramid and the palm
tree stand: a flank of the sandy pyramid read as a camel behind it looks orange (3.2 times nearer on seed 992's
2018 props scene 0; other editions' camels there, 4.4 and more)."""


@dataclass(frozen=True)
class OtherEdition:
    """The camels of a reading look like ``edition``'s, not ``told``'s."""

    edition: str
    told: str
    clues: tuple[tuple[str, int, str], ...]
    """Each camel that gives it away: the name it was read as, its space, the other edition's camel it looks like."""

    def sentence(self) -> str:
        """What was seen, in words (the remedy is the caller's: a command line, or the game's edition)."""
        read, space, looks = self.clues[0]
        return (f"the camels look like the {self.edition} edition's, not the {self.told} one's (the camel read as "
                f"{read} on space {space} is {looks}, which only the {self.edition} edition has)")

    def as_json(self) -> dict[str, Any]:
        return {"edition": self.edition, "told": self.told,
                "clues": [{"read_as": read, "space": space, "looks_like": looks} for read, space, looks in self.clues]}


def camels_edition(camels: Sequence[str]) -> str | None:
    """The edition whose camels these are (in any order), or None (a custom set)."""
    return next((edition for edition, its in EDITION_CAMELS.items() if sorted(its) == sorted(camels)), None)


def other_edition_seen(
    scorer: Any, track: Mapping[int, Sequence[str]], camels: Sequence[str], board_bgr: Sequence[float],
    ratio: float = LOOKS_OTHER, behind: float = BEHIND,
) -> OtherEdition | None:
    """The other edition, when some camel ``track`` places (a reading with ``camels``' colours, by ``scorer``:
    its :class:`vision.silhouette.SilhouetteScorer`) looks like a camel only that edition has (``ratio`` times
    nearer its paint, ``behind`` on a space seen over the board's middle); else None (also for a set of camels
    that is no edition's)."""
    told = camels_edition(camels)
    if told is None:
        return None
    from vision.hidden_camels import behind_middle

    board = tuple(float(value) for value in board_bgr)
    shading = FitConfig().camel_shading
    found: list[tuple[float, str, int, str, str]] = []
    for other, theirs in EDITION_CAMELS.items():
        only = [camel for camel in theirs if camel not in EDITION_CAMELS[told]]
        if other == told or not only:
            continue
        names = [*EDITION_CAMELS[told], *only]
        paints = np.array([paint_colour(name, board) for name in names], np.float32)  # type: ignore[misc]
        where = {camel: int(space) for space, stack in track.items() for camel in stack}
        for camel, pixels in scorer.camel_samples(dict(track)).items():
            if camel not in where or len(pixels) == 0:
                continue
            distances = ray_distances(np.array([lit_colour(pixels)], np.float32), paints, shading)[0]
            nearest_told = float(distances[: len(EDITION_CAMELS[told])].min())
            theirs_at = int(np.argmin(distances[len(EDITION_CAMELS[told]) :]))
            nearest_theirs = float(distances[len(EDITION_CAMELS[told]) + theirs_at])
            needed = behind if behind_middle(scorer.observation, scorer.template, where[camel]) else ratio
            if nearest_told >= needed * max(nearest_theirs, 1e-6):
                found.append((nearest_told / max(nearest_theirs, 1e-6), camel, where[camel], only[theirs_at], other))
    if not found:
        return None
    found.sort(reverse=True)
    edition = found[0][4]
    clues = tuple((camel, space, looks) for _, camel, space, looks, other in found if other == edition)
    return OtherEdition(edition, told, clues)
