"""Telling colours apart while calibrating: a camel from the board (its shades, its printed edges), a camel from
what its paint should look like in this light, two camels from each other (alike, or swapped). Colours are BGR,
judged relative to the board's colour in the same photo, as the reader judges them (:mod:`vision.calibrate`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from vision.calibration_file import CalibrationError
from vision.hidden_camels import in_the_middle
from vision.read import BOARD_BGR
from vision.silhouette import FitConfig, ray_distances
from vision.synth import CAMEL_BGR as NOMINAL_BGR

MIN_CHROMA_GAP = 0.02
"""Two camels whose colours (each channel's share) differ less than this cannot be told apart."""
SWAPPED = 0.5
"""Two camels' colours that fit their names crossed over at most this share as far off as told are swapped."""
RELIEF = 0.15
"""A camel's pixels vary in brightness (lit top, shaded sides) by more than this share of their mean; an empty
space's do not (measured: an empty space 0.09; camels 0.2 to 0.73, one as pale as its space 0.28)."""
BOARD_SHADE = 0.045
"""A colour nearer than this (a share of its brightness) to a shade of the board's is the board's (measured: an
empty space 0.031; the camels of 40 tables of the photo bench 0.064 and more, but an ochre camel on sand as
little): where the colour measured is the board's, only the relief (``RELIEF``) tells a camel from no camel."""
NOT_CAMEL = 1.5
"""A colour this many times ``BOARD_SHADE`` from the board's, and nearer it than the camel's named colour, is
the board's where a camel should stand (see :func:`board_not_camel`). Measured on photos of random games' boards
with no colours to start from (``benchmarks/calibration_wrong_board.py --seeds 1,2,3``, 60 tables, clean and
light; without the check -> with it, ``--without-not-camel``): boards told one entry off refused 48 -> 55 of 60,
right boards accepted 47 of 60 either way; seed 7: 15 -> 18 of 20 refused, 17 of 20 accepted either way. (The
figures first given here, 58 of 60, came from a script not kept, with other games and lights.)"""

SHADOW_DARKEST = 0.4
"""A camel's cast shadow leaves the board at least this share of its light (see :func:`board_in_shadow`). On POV-Ray
dev table 3 the white camel's shadow was measured as white: (49, 71, 127) on a board of (109, 168, 237), 0.49 of
its light; with the shadow counted as the board, the camel's body: (117, 132, 158)."""

UNLIKE_PAINT = 3.0
"""A camel on a space the pyramid or the palm tree may hide (the camera looks over the board's middle) whose
colour is this many times nearer the board's or another camel's paint than its own is hidden: what is measured
is what stands in front of it. Paint and light vary: camels in view on first calibration photos (seeds 1 and 2,
24 photos) measured up to 2.1 times nearer another's; the red camel the pyramid hides on table 322 (tests), 5.1."""




def check_not_swapped(
    measured: Mapping[str, tuple[float, float, float]],
    board_colour: tuple[float, float, float],
    track: Mapping[int, Sequence[str]],
) -> None:
    """Refuse two camels each measured in the colour the other's name says (set down on each other's spaces, or
    in each other's places in one stack: a stack's camels are measured where the board puts them, bottom to top):
    learnt that way, every reading would swap them. Paint and light vary, so only a clear swap counts: the colours
    fit the names crossed over at most ``SWAPPED`` as far off as they fit them as told."""
    where = {camel: (space, level) for space, stack in track.items() for level, camel in enumerate(stack)}
    nearest = _nearest_names(measured, board_colour)
    for pair in _swaps(measured, board_colour):
        if nearest.get(pair[0]) != pair[1] or nearest.get(pair[1]) != pair[0]:
            continue  # not each clearly in the other's colour: one of them at least is something else
        a, b = sorted(pair, key=lambda camel: where[camel])
        if where[a][0] == where[b][0]:  # in one stack: which stands on which, not where
            should = f"{a} should be under {b} on space {where[a][0]}"
        else:
            should = f"{a} should stand on {where[a][0]} and {b} on {where[b][0]}"
        raise CalibrationError(
            f"the {a} and {b} camels look swapped (the photo shows each in the other's colour): {should}", (a, b)
        )


def _swaps(
    measured: Mapping[str, tuple[float, float, float]], board_colour: tuple[float, float, float]
) -> list[tuple[str, str]]:
    """The pairs of camels whose colours fit their names crossed over (see :func:`check_not_swapped`)."""
    names = [camel for camel in measured if paint_colour(camel, board_colour) is not None]
    if len(names) < 2:
        return []
    colours = np.array([measured[camel] for camel in names], np.float32)
    nominal = np.array([paint_colour(camel, board_colour) for camel in names], np.float32)
    distance = ray_distances(colours, nominal, FitConfig().camel_shading)  # measured × named
    return [(names[first], names[second]) for first in range(len(names)) for second in range(first + 1, len(names))
            if distance[first, second] + distance[second, first]
            < SWAPPED * (distance[first, first] + distance[second, second])]


def _nearest_names(
    measured: Mapping[str, tuple[float, float, float]], board_colour: tuple[float, float, float]
) -> dict[str, str]:
    """For each camel measured, the camel whose painted colour its colour is nearest (of those measured)."""
    names = [camel for camel in measured if paint_colour(camel, board_colour) is not None]
    if not names:
        return {}
    colours = np.array([measured[camel] for camel in names], np.float32)
    nominal = np.array([paint_colour(camel, board_colour) for camel in names], np.float32)
    distance = ray_distances(colours, nominal, FitConfig().camel_shading)
    return {camel: names[int(np.argmin(distance[index]))] for index, camel in enumerate(names)}


def board_in_shadow(colour: tuple[float, float, float], board: tuple[float, float, float]) -> bool:
    """A colour measured for a camel that is only the board in a shadow darker than the reader's range of shading
    allows (down to ``SHADOW_DARKEST`` of its light): not unlike it by the margin a colour not known yet needs
    (``FitConfig.unknown_margin``). A lamp behind a camel casts its shadow where the body box, looking for anything
    unlike the board, may fit best; the camel is then measured again with that shadow counted as the board."""
    if board_like(colour, board):
        return False
    sample = np.array([colour], np.float32)
    darker = ray_distances(sample, np.array([board], np.float32), (SHADOW_DARKEST, FitConfig().board_shading[0]))
    return float(darker[0, 0]) < FitConfig().unknown_margin


def relief(samples: np.ndarray) -> float:
    """How much the brightness of a camel's pixels varies (standard deviation over the mean)."""
    brightness = samples.sum(axis=1)
    return float(np.std(brightness) / max(float(np.mean(brightness)), 1e-6))


def board_like(colour: tuple[float, float, float], board: tuple[float, float, float]) -> bool:
    return _alike(colour, board) or _board_shade(colour, board)


def paint_colour(camel: str, board_colour: tuple[float, float, float]) -> tuple[float, float, float] | None:
    """A camel's colour as the game paints it, in the photo's light (white-balanced by the board), for a camel
    the project knows by name."""
    nominal = NOMINAL_BGR.get(camel)
    if nominal is None:
        return None
    balance = np.array(board_colour) / np.array(BOARD_BGR)
    blue, green, red = (float(v) for v in np.array(nominal) * balance)
    return (blue, green, red)


def board_not_camel(camel: str, colour: tuple[float, float, float], board: tuple[float, float, float]) -> bool:
    """A colour measured where a camel should stand that is the board's rather than the camel's own: nearer a
    shade of the board than the colour its name says (white-balanced by the board), and within ``NOT_CAMEL``
    times ``BOARD_SHADE`` of the board. Nothing of the camel is there, whatever relief the space's print or a
    shadow gives it (a photo of another board than the one told, which would teach the board's colour)."""
    nominal = paint_colour(camel, board)
    if nominal is None:
        return False
    sample = np.array([colour], np.float32)
    to_name = float(ray_distances(sample, np.array([nominal], np.float32), FitConfig().camel_shading)[0, 0])
    to_board = _board_distance(colour, board)
    return to_board < to_name and to_board < NOT_CAMEL * BOARD_SHADE * _brightness(colour)


def _board_shade(colour: tuple[float, float, float], board: tuple[float, float, float]) -> bool:
    """A colour that is only the board in more or less light (an empty space's shade, its printed edges): how far
    it is from the board's colour lit anywhere the reader allows, as a share of its own brightness."""
    return _board_distance(colour, board) < BOARD_SHADE * _brightness(colour)


def _board_distance(colour: tuple[float, float, float], board: tuple[float, float, float]) -> float:
    """How far ``colour`` is from the board's colour lit anywhere the reader allows (a share of full white)."""
    sample = np.array([colour], np.float32)
    return float(ray_distances(sample, np.array([board], np.float32), FitConfig().board_shading)[0, 0])


def _brightness(colour: tuple[float, float, float]) -> float:
    """A colour's length as a share of full white's channel: the scale ``BOARD_SHADE`` is a share of."""
    return float(np.linalg.norm(np.array([colour], np.float32))) / 255


def lit_colour(samples: np.ndarray) -> tuple[float, float, float]:
    """A camel's colour from its pixels: the median of those near the overall median (not the board or an
    outline caught at the body's edges). Its lit and shaded faces are allowed for when reading
    (``FitConfig.camel_shading``)."""
    median = np.median(samples, axis=0)
    near = samples[ray_distances(samples, median[None, :], (0.5, 2.0))[:, 0] < 0.06]
    if len(near) >= 3:
        median = np.median(near, axis=0)
    return (float(median[0]), float(median[1]), float(median[2]))


def _alike(first: tuple[float, float, float], second: tuple[float, float, float], loose: bool = False) -> bool:
    """Two colours the reader could not tell apart: nearly the same channel shares and brightness
    (``loose``: twice as far apart still counts, for camels the photo already shows it cannot tell apart)."""
    a, b = np.array(first), np.array(second)
    chroma = float(np.linalg.norm(a / (a.sum() + 1e-6) - b / (b.sum() + 1e-6)))
    contrast = abs(a.sum() - b.sum()) / max(a.sum(), b.sum(), 1.0)
    return chroma < MIN_CHROMA_GAP * (2 if loose else 1) and contrast < 0.5


def check_distinct(
    profiles: Mapping[str, tuple[float, float, float]], loose: bool = False, edition: str | None = None
) -> None:
    """Refuse two camels that look alike (``loose``: see :func:`_alike`), naming them and what may hide them in
    this ``edition`` (the 2014 game has no palm tree; ``None``: the edition is not known here)."""
    middle = "something in the middle of the board" if edition is None else in_the_middle(edition)
    names = list(profiles)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            if _alike(profiles[first], profiles[second], loose):
                raise CalibrationError(
                    f"the {first} and {second} camels look alike to this camera: check that neither is hidden (a "
                    f"hand, {middle} in front of it: take the photo with every camel in view), then use whiter "
                    "light, or check the camera's white balance", (first, second)
                )


def unlike_its_paint(
    camel: str, colour: tuple[float, float, float], camels: Sequence[str], board_colour: tuple[float, float, float],
    factor: float | None = None,
) -> bool:
    """A colour ``factor`` (``UNLIKE_PAINT``) times nearer the board's or another camel's paint than the camel's
    own (all white-balanced by the board)."""
    to_own = paint_distance(camel, colour, board_colour)
    if math.isinf(to_own):
        return False
    others = [paint for other in camels if other != camel and (paint := paint_colour(other, board_colour)) is not None]
    sample = np.array([colour], np.float32)
    to_other = (float(ray_distances(sample, np.array(others, np.float32), FitConfig().camel_shading).min())
                if others else np.inf)
    return (factor or UNLIKE_PAINT) * min(to_other, _board_distance(colour, board_colour)) < to_own


def paint_distance(camel: str, colour: tuple[float, float, float], board_colour: tuple[float, float, float]) -> float:
    """How far ``colour`` is from the camel's paint (white-balanced by the board), lit anywhere a camel's shading
    allows; infinite for a camel the project does not know by name."""
    own = paint_colour(camel, board_colour)
    if own is None:
        return math.inf
    sample = np.array([colour], np.float32)
    return float(ray_distances(sample, np.array([own], np.float32), FitConfig().camel_shading)[0, 0])
