"""Calibrating the camera for one table: the camels' and the board's colours as this camera sees them,
measured from one photo of the board with every camel on its own space, and the board template, saved
together as JSON (``camelup vision calibrate``). The template's millimetres and the camels' size
(``camel_size``, :mod:`vision.camel_size`) can be corrected by hand in the saved file; the colours are only ever
measured.

Colours are kept relative to the board's own colour in the same photo, which is how the reader judges
them: a table's lamp or white balance shifts both alike. The calibration and its file: :mod:`vision.calibration_file`
(its names are importable from here too); telling colours apart: :mod:`vision.calibrate_colours`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence

import numpy as np

from vision.board import BoardTemplate
from vision.calibrate_colours import (
    RELIEF,
    SHADOW_DARKEST,
    board_in_shadow,
    board_like,
    board_not_camel,
    check_distinct,
    check_not_swapped,
    lit_colour,
    paint_colour,
    relief,
    unlike_its_paint,
)
from vision.calibrate_mistakes import layout_mistake
from vision.calibration_file import (
    FORMAT,
    Calibration,
    CalibrationError,
    load_calibration,
    reading_colours,
    save_calibration,
)
from vision.camel_size import CamelSize
from vision.hidden_camels import behind_middle, covered_spaces, left_out_note, not_seen_message
from vision.image_file import COLOURLESS, colourless
from vision.locate import BoardLocation
from vision.read import Observation, ReadConfig, observe
from vision.silhouette import FitConfig, SilhouetteScorer, ray_distances
from vision.synth import EDITION_CAMELS

__all__ = [
    "ANYWHERE", "FORMAT", "Calibration", "CalibrationError", "calibrate", "calibrate_from_board",
    "calibration_layout", "load_calibration", "reading_colours", "save_calibration",
]

OTHER_EDITION = 1.0
"""A calibration photo is of another edition's layout when the camels on the spaces both layouts fill are nearer
the colours that edition's camels there are painted than the told ones' (summed distances, see
:func:`vision.silhouette.ray_distances`; other's over told's below this). Measured on photo-bench calibration
photos (clean and light, 102 tables, seeds 1 to 17; chosen on seeds 1 to 10): told the right edition 1.48 or more,
told the wrong one 0.68 or less."""
STANDING = 0.4
"""A camel is said to stand on a space the calibration layout leaves empty where what is there is unlike the
board and in relief well above an empty space's: the whatever-fits body a search puts on an empty space catches
its printed edges, a tile behind it and the neighbours' shadows (measured on 115 photo-bench calibration photos:
0.42 at most; the 2018 layout's black camel on space 11, 0.46 to 0.99; its white one on 13 is often as pale and
flat as the sand). Alone it is too close a call to refuse on: it names the space when the colours
(``OTHER_EDITION``) already tell the edition."""


ANYWHERE = FitConfig(offset_mm=26.0, offset_steps=11, clutter_penalty=0.0, occluder_distance=math.inf,
                     tone_apart=False)
"""For a calibration photo, a camel may stand anywhere on its space (spaces are 80 mm across). Its colour is
being measured: what else shows that colour is not known yet, and a camel unlike the colour its paint usually
has is still that camel, not something over the board (with the reader's ``occluder_distance``, fresh seed 90's
table 8 learnt its blue camel from the board beside it: (74, 131, 219) for (164, 77, 50)). A bare space whitened by
the lamp's reflection is judged as the reader judges it (``FitConfig.glare``): judged against the board's colour
alone it looked covered, every place on it cost the same, and its camel was measured from a body box left in its
middle, half camel, half board (dev seed 99, table 2, light: white learnt as (114, 138, 197) for (106, 99, 131)).
Calibrating with it once refused dev seed 97's table 0 (red and yellow alike: both learnt from the board's border
behind them, no longer, see :func:`vision.silhouette._border_colour`)."""
CHECKED = dataclasses.replace(ANYWHERE, offset_steps=21)
"""Whether the colours measured show each camel where the board puts it is asked at offsets twice as fine."""


NEAR_HIDDEN = 1.4
"""``UNLIKE_PAINT`` on a photo where camels are hidden: on tables 304 and 307-322 (2018, props tier; chosen on
them), camels behind the middle but mostly hidden measured 1.45 to 2.29 times nearer another paint, in view up to
3.09 (those are then left out too, not learnt)."""


MEASURED_SHARE = 0.5
"""A calibration that leaves camels out (hidden) measures at least this share of them."""


CONTRADICTED = 0.1
"""A camel whose place on the known board explains the photo this much worse than without it contradicts the
board (in camels of evidence, see :mod:`vision.silhouette`)."""


def calibration_layout(camels: list[str]) -> dict[int, list[str]]:
    """Where the camels stand for the calibration photo: one each on spaces 1, 3, 5, ... in this order
    (a free space between two camels, so that none hides another)."""
    return {1 + 2 * index: [camel] for index, camel in enumerate(camels)}


def calibrate(config: ReadConfig, template: BoardTemplate, camels: list[str], image: np.ndarray) -> Calibration:
    """Measure the camels' and the board's colours in a photo of :func:`calibration_layout` (each camel
    anywhere on its space).

    Raises:
        vision.locate.BoardNotFound: the markers are not all visible.
        CalibrationError: a greyscale picture, the other edition's layout (named), a camel missing or two
            alike (the message names them).
    """
    return calibrate_from_board(config, template, camels, image, calibration_layout(camels), layout=True)


def calibrate_from_board(
    config: ReadConfig,
    template: BoardTemplate,
    camels: list[str],
    image: np.ndarray,
    track: Mapping[int, Sequence[str]],
    start: Mapping[str, tuple[float, float, float]] | None = None,
    location: BoardLocation | None = None,
    *,
    layout: bool = False,
    camel_size: CamelSize | None = None,
) -> Calibration:
    """Measure the colours in a photo of any board known to be ``track`` (space → camels, bottom first):
    each camel's colour from the pixels its fitted body covers (wherever on its space it stands), the
    board's from the empty spaces. ``start``: colours to begin from (a camel standing alone needs none;
    stacked ones are found by these, else by the colours their names say). A camel the photo shows only weakly is
    a warning (:attr:`Calibration.warnings`), not a refusal; one hidden (the pyramid, the palm tree or a hand in
    front of it) is left out with a note (:attr:`Calibration.left_out`), keeping its colour from ``start`` or the one
    its paint usually has, unless a camel stands on a space ``track`` leaves empty. ``layout``: ``track`` is
    :func:`calibration_layout`, so a photo of another edition's layout is recognised and named.
    ``camel_size``: the camels' size (an earlier calibration's, perhaps corrected by hand): the camels are
    fitted at that size, and the calibration keeps it (a photo cannot measure it, see :mod:`vision.camel_size`).

    Raises:
        vision.locate.BoardNotFound: fewer than three markers are visible.
        CalibrationError: a picture without colour, a calibration photo of the other edition's layout (with
            ``layout``; the message names the edition), a camel not seen where nothing seems to hide it, more
            than half of them hidden, two alike, or the photo contradicts
            ``track`` (a camel the board explains better without, or a stack better in another order; the message
            names them).
    """
    track = {int(space): list(stack) for space, stack in track.items() if stack}
    where = {camel: space for space, stack in track.items() for camel in stack}
    missing = [camel for camel in camels if camel not in where]
    if missing:
        raise CalibrationError(f"the board to calibrate from must show every camel ({', '.join(missing)} missing)")
    if colourless(image):
        raise CalibrationError(COLOURLESS)
    observation = observe(config, template, image, location)
    rims = observation.rims
    for camel in camels:
        if where[camel] not in rims:
            raise CalibrationError(f"space {where[camel]} (the {camel} camel's) is outside the picture")
    empty = [rims[space] for space in template.spaces if space in rims and space not in track]
    if len(empty) < 3:
        raise CalibrationError("the photo shows too little of the empty board to measure its colour")
    board = np.median(np.array(empty), axis=0)
    board_colour = (float(board[0]), float(board[1]), float(board[2]))
    camel_size = camel_size or CamelSize()
    try:
        return _calibrate(observation, template, camels, image, track, start, board_colour, camel_size, layout,
                          ANYWHERE)
    except _Contradicted:
        # A body box fitted a step aside catches the sand beside a dark camel, whose colour then explains nothing:
        # measured again at the offsets the check uses (twice as fine, twice as long), only when that refuses.
        return _calibrate(observation, template, camels, image, track, start, board_colour, camel_size, layout,
                          CHECKED)


class _Contradicted(CalibrationError):
    """The colours measured do not show each camel where the board puts it."""


def _calibrate(
    observation: Observation,
    template: BoardTemplate,
    camels: list[str],
    image: np.ndarray,
    track: dict[int, list[str]],
    start: Mapping[str, tuple[float, float, float]] | None,
    board_colour: tuple[float, float, float],
    camel_size: CamelSize,
    layout: bool,
    fit: FitConfig,
) -> Calibration:
    """:func:`calibrate_from_board` once the board is found, its camels fitted at ``fit``'s offsets."""
    where = {camel: space for space, stack in track.items() for camel in stack}
    anywhere = camel_size.fit(fit)
    # A camel alone on its space is whatever unlike the board fits a camel's body there; one in a stack is
    # told from the others by the colour we start from, else by the one its name says (white-balanced by the
    # board): with none, a stack's camels are told apart only by where the board puts them, and a fit a level
    # off crosses their colours (right boards of random games, benchmarks/calibration_wrong_board.py seeds 1-3:
    # 11 of 60 were refused so). Its colour is then measured from the pixels its body
    # covers. Fitting again with the colour measured would let a camel drift onto what is merely like it (the
    # board's sandy margin behind an orange camel on a far space): measured once, where it stands out.
    profiles: dict[str, tuple[float, float, float] | None] = {
        camel: ((start or {}).get(camel) or paint_colour(camel, board_colour)) if len(track[where[camel]]) > 1 else None
        for camel in camels
    }
    samples = _measure(observation, template, track, profiles, board_colour, anywhere)
    # A camel only a little unlike the board (a grey one on a pale space) is found by its own colour instead:
    # the one its name says, white-balanced by the board.
    faint = [camel for camel in camels if camel in samples and board_like(lit_colour(samples[camel]), board_colour)]
    nominal = {camel: paint_colour(camel, board_colour) for camel in faint}
    if any(nominal.values()):
        again = _measure(observation, template, track, {**profiles, **nominal}, board_colour, anywhere)
        samples.update({camel: again[camel] for camel in faint if camel in again})
    # One measured as the board in its own shadow (a lamp behind it): measured again with the shadow as the board.
    shadowed = [camel for camel in camels if camel in samples and camel not in faint and profiles[camel] is None
                and board_in_shadow(lit_colour(samples[camel]), board_colour)]
    if shadowed:
        shade = dataclasses.replace(anywhere, board_shading=(SHADOW_DARKEST, anywhere.board_shading[1]))
        again = _measure(observation, template, track, profiles, board_colour, shade)
        samples.update({camel: again[camel] for camel in shadowed if camel in again})
    measured = {camel: lit_colour(found) for camel, found in samples.items()}
    if layout:
        _check_edition(observation, template, camels, track, measured, board_colour, anywhere)
    # Still the board's colour: a camel as pale as its space has lit and shaded sides; an empty space is flat.
    unseen = [camel for camel in camels if camel not in measured
              or (board_like(measured[camel], board_colour) and relief(samples[camel]) < RELIEF)
              or board_not_camel(camel, measured[camel], board_colour)]
    # What covers a space (the pyramid, the palm tree, a hand) is measured as the camel there: its colour says
    # nothing about the camel, so such a camel is never "swapped" or "alike" (a host told two hidden camels were
    # swapped could swap two that were right): it is left out, keeping the colour it had (see ``_stand_ins``).
    covered = covered_spaces(observation, template, camels, track, board_colour, anywhere)
    hidden = [camel for camel in camels if where[camel] in covered]
    # The pyramid or the palm tree can hide a camel without covering its space's floor: one where the camera
    # looks over the board's middle, measured nearer another camel's paint or the board than its own, shows
    # whatever is in front of it.
    behind = [camel for camel in camels if camel not in hidden and camel not in unseen
              and behind_middle(observation, template, where[camel])]
    hidden += [camel for camel in behind if unlike_its_paint(camel, measured[camel], camels, board_colour)]
    # On a game's board (not the calibration layout, set out for the photo with nothing in the middle), one
    # measured as the board where the camera looks over the middle is as likely behind the pyramid's sandy face
    # as a camel as pale as its space: either way its colour is not learnt here. Left out, if the rest may be
    # learnt without it, rather than the whole board refused: the game's starting board hides one so.
    if not layout:
        hidden += [camel for camel in unseen if camel not in hidden
                   and behind_middle(observation, template, where[camel])]
    # Once the photo shows something hiding camels, one behind the middle only somewhat unlike its paint is
    # more likely half hidden than oddly painted: left out rather than learnt from what is in front of it.
    if hidden:
        hidden += [camel for camel in behind if camel not in hidden
                   and unlike_its_paint(camel, measured[camel], camels, board_colour, NEAR_HIDDEN)]
    left_out = list(hidden)
    if unseen:
        _check_stacks_not_swapped(observation, template, track, profiles, board_colour, anywhere,
                                  [camel for camel in unseen if camel not in hidden])
    if any(camel not in hidden for camel in unseen) or (
            hidden and not _may_leave_out(observation, template, camels, track, board_colour, hidden, start)):
        raise CalibrationError(not_seen_message(unseen or hidden, where, covered, observation, template),
                               unseen or hidden)
    while True:
        kept = {camel: colour for camel, colour in measured.items() if camel not in left_out}
        try:
            check_distinct(kept, edition=template.edition)
            check_not_swapped(kept, board_colour, track)
            break
        except CalibrationError as error:
            named = [camel for camel in error.camels if camel in hidden]
            if not named:
                raise
            if not _may_leave_out(observation, template, camels, track, board_colour, [*left_out, *named], start):
                raise CalibrationError(not_seen_message(named, where, covered, observation, template),
                                       named) from None
            left_out += named
    measured = {**kept, **_stand_ins(left_out, start, board_colour)}
    # The colours should show each camel where it stands: the board with it there explains the photo better
    # than without it, and each stack better than in any other order.
    scorer = SilhouetteScorer(observation, measured, template, fit=camel_size.fit(CHECKED), board_bgr=board_colour)
    cost = scorer.track_cost(track)
    # A camel the board explains better without, or a stack better in another order, contradicts the board:
    # the photo is of another board (or a camel was moved), and learning from it would teach wrong colours.
    # One only barely worth its place is unclear: a warning.
    gains: dict[str, float] = {
        camel: scorer.track_cost({space: [c for c in stack if c != camel] for space, stack in track.items()}) - cost
        for camel in camels
    }
    for space, stack in track.items():
        for level in range(len(stack) - 1):
            swapped = [*stack[:level], stack[level + 1], stack[level], *stack[level + 2 :]]
            gain = scorer.track_cost({**track, space: swapped}) - cost
            for camel in stack[level : level + 2]:
                gains[camel] = min(gains[camel], gain)
    contradicted = sorted(camel for camel, gain in gains.items() if gain < -CONTRADICTED and camel not in left_out)
    named = [camel for camel in contradicted if camel in hidden]
    if named:
        if not _may_leave_out(observation, template, camels, track, board_colour, [*left_out, *named], start):
            raise CalibrationError(not_seen_message(named, where, covered, observation, template), named)
        left_out += named
        measured.update(_stand_ins(named, start, board_colour))
        contradicted = [camel for camel in contradicted if camel not in named]
    unclear = sorted(camel for camel, gain in gains.items() if -CONTRADICTED <= gain <= 0 and camel not in left_out)
    check_distinct({camel: measured[camel] for camel in unclear}, loose=True, edition=template.edition)
    if contradicted:
        _check_stacks_not_swapped(observation, template, track, profiles, board_colour, anywhere, contradicted)
        raise _Contradicted(
            f"with the colours measured, {', '.join(contradicted)} cannot be told from the board or each other: "
            f"check that {'it stands' if len(contradicted) == 1 else 'they stand'} where the board says "
            f"({', '.join(f'{camel} on {where[camel]}' for camel in contradicted)}), in light without hard shadows"
        )
    # Not a refusal: these colours still read the board better than the defaults, and the reading reports a
    # camel it cannot place as unseen. The host is told what to improve.
    warnings = tuple(
        f"the {camel} camel on space {where[camel]} is hard to tell from the board or the camels near it in "
        "this light: softer, whiter light helps"
        for camel in unclear
    ) + tuple(
        left_out_note(camel, where[camel], covered, observation, template,
                      "its colour from before" if (start or {}).get(camel) else "the colour its paint usually has")
        for camel in sorted(left_out, key=camels.index)
    )
    size = (image.shape[1], image.shape[0])
    return Calibration(template, {camel: measured[camel] for camel in camels}, board_colour, warnings,
                       dict(observation.location.markers), size, camel_size, tuple(sorted(left_out, key=camels.index)))


def _stand_ins(
    camels: Sequence[str], start: Mapping[str, tuple[float, float, float]] | None,
    board_colour: tuple[float, float, float],
) -> dict[str, tuple[float, float, float]]:
    """The colours camels left out keep: the one they had (``start``), else the one their paint usually has in
    this light (white-balanced by the board)."""
    return {camel: (start or {}).get(camel) or paint_colour(camel, board_colour) for camel in camels}  # type: ignore[misc]


def _may_leave_out(
    observation: Observation,
    template: BoardTemplate,
    camels: Sequence[str],
    track: Mapping[int, Sequence[str]],
    board_colour: tuple[float, float, float],
    left_out: Sequence[str],
    start: Mapping[str, tuple[float, float, float]] | None,
) -> bool:
    """Whether a calibration may leave out these camels, hidden where the board puts them: each has a colour to
    keep, at least ``MEASURED_SHARE`` of the camels are measured, and no space the board leaves empty shows one of
    them standing (``_standing`` with ``could_be``, and ``_fits_elsewhere``): a board with a camel one space off
    onto a covered space is another board.
    (A looser test, anything unlike the board in relief 0.25 or more, refuses more such boards, 59 rather than 56
    of 60 on seeds 1-3 of benchmarks/calibration_wrong_board.py, but leaves out the hidden camels of 8 rather than
    19 of the 36 boards of benchmarks/calibration_hidden_camels.py, refusing the rest.)"""
    if any(not (start or {}).get(camel) and paint_colour(camel, board_colour) is None for camel in left_out):
        return False
    if len(camels) - len(set(left_out)) < MEASURED_SHARE * len(camels):
        return False
    empty = [space for space in template.spaces if space not in track]
    if _standing(observation, template, camels, track, board_colour, empty, could_be=left_out) is not None:
        return False
    return _fits_elsewhere(observation, template, camels, track, board_colour, left_out, start) is None


STANDS_ELSEWHERE = 0.5
"""A camel left out (hidden where the board puts it) that explains the photo this much better on a space the
board leaves empty (in camels of evidence: one in plain view scores mostly 0.2 to 0.7) stands there: the board is
another one. ``decisive_margin`` of :class:`vision.verify.VerifyConfig`: a blue camel set down in plain view on the
near row while the board has it behind the pyramid gains 0.73 there (tests/test_calibrate_game_start.py); a white
camel's usual paint gains 0.38 on a pale empty space it does not stand on (tests/test_vision_calibrate_hidden.py;
0.3 refused that board)."""


def _fits_elsewhere(
    observation: Observation,
    template: BoardTemplate,
    camels: Sequence[str],
    track: Mapping[int, Sequence[str]],
    board_colour: tuple[float, float, float],
    left_out: Sequence[str],
    start: Mapping[str, tuple[float, float, float]] | None,
) -> tuple[str, int] | None:
    """A camel of ``left_out`` and an empty space where, in the colours the camels had (``start``, else their
    paint's), it explains the photo better by ``STANDS_ELSEWHERE`` than where the board puts it, if any. Found by
    its colour, even in less relief than ``STANDING`` asks (a blue camel in plain view on the near row: 0.33)."""
    colours = _stand_ins(camels, start, board_colour)
    scorer = SilhouetteScorer(observation, colours, template, board_bgr=board_colour)
    told = scorer.track_cost(track)
    empty = [space for space in scorer.spaces if space not in track]
    for camel in left_out:
        rest = {space: [other for other in stack if other != camel] for space, stack in track.items()}
        rest = {space: stack for space, stack in rest.items() if stack}
        for space in empty:
            if scorer.track_cost({**rest, space: [camel]}) < told - STANDS_ELSEWHERE:
                return camel, space
    return None


def _layout_edition(camels: Sequence[str]) -> str | None:
    """The edition whose camels these are (its calibration layout is theirs)."""
    return next((edition for edition, its in EDITION_CAMELS.items() if list(its) == list(camels)), None)


def _check_edition(
    observation: Observation,
    template: BoardTemplate,
    camels: Sequence[str],
    track: Mapping[int, Sequence[str]],
    measured: Mapping[str, tuple[float, float, float]],
    board_colour: tuple[float, float, float],
    fit: FitConfig = ANYWHERE,
) -> None:
    """Refuse a calibration photo set out wrong: one of the usual mistakes (:func:`vision.calibrate_mistakes.
    layout_mistake`), or another edition's layout (the 2018 one told the 2014 board, or the reverse), naming that
    edition: its camels would be learnt under the told edition's names (see ``OTHER_EDITION``)."""
    told = _layout_edition(camels)
    if told is None:
        return
    # The usual mistakes first (no camels, one space off, stacked, two swapped): each of them also gives colours
    # unlike the told layout's paints, and would be mistaken for another edition's layout or a hidden camel.
    mistake = layout_mistake(observation, template, camels, track, measured, board_colour, fit)
    if mistake:
        raise CalibrationError(mistake[1])
    where = {camel: space for space, stack in track.items() for camel in stack}
    shading = FitConfig().camel_shading
    for edition, others in EDITION_CAMELS.items():
        theirs = calibration_layout(list(others))
        # The camels on the spaces both layouts fill: named as told, and as the other layout names them.
        names = [camel for camel in camels if camel in measured and where[camel] in theirs
                 and paint_colour(camel, board_colour) is not None
                 and paint_colour(theirs[where[camel]][0], board_colour)]
        if edition == told or len(names) < 3:  # too few to tell paint from names
            continue
        colours = np.array([measured[camel] for camel in names], np.float32)
        as_told = np.array([paint_colour(camel, board_colour) for camel in names], np.float32)
        as_theirs = np.array([paint_colour(theirs[where[camel]][0], board_colour) for camel in names], np.float32)
        fits_told = float(np.trace(ray_distances(colours, as_told, shading)))
        if float(np.trace(ray_distances(colours, as_theirs, shading))) >= OTHER_EDITION * fits_told:
            continue
        spaces = sorted(where[camel] for camel in names)
        looks = (f"the camels on spaces {spaces[0]} to {spaces[-1]} have the colours of the {edition} layout's camels "
                 f"({', '.join(theirs[space][0] for space in spaces)})")
        standing = _standing(observation, template, camels, track, board_colour,
                             [space for space in theirs if space not in track], fit)
        empty = [where[camel] for camel in camels if where[camel] not in theirs]
        if standing:
            said = f"a camel stands on space {standing}, where the {told} layout has none, and {looks}"
        elif empty:
            said = f"{looks}, and the {edition} layout leaves space{'s' if len(empty) > 1 else ''} " + \
                f"{' and '.join(map(str, empty))} empty"
        else:
            said = looks
        raise CalibrationError(f"{said}: is this the {edition} edition? Then give --board {edition}")


def _standing(
    observation: Observation,
    template: BoardTemplate,
    camels: Sequence[str],
    track: Mapping[int, Sequence[str]],
    board_colour: tuple[float, float, float],
    spaces: Sequence[int],
    fit: FitConfig = ANYWHERE,
    could_be: Sequence[str] = (),
) -> int | None:
    """The first of these empty spaces where a camel clearly stands (see ``STANDING``), if any; with
    ``could_be`` (the camels left out, hidden where the board puts them, which would stand there if the board were
    one of theirs off), only a space in view where what stands there looks like one of these camels' paint (see
    :func:`vision.calibrate_colours.unlike_its_paint`)."""
    spaces = [space for space in sorted(spaces) if space in observation.rims]
    probes = {space: f"space {space}?" for space in spaces}  # whatever stands there, unlike the board
    if not probes:
        return None
    scorer = SilhouetteScorer(observation, {**dict.fromkeys(camels), **dict.fromkeys(probes.values())}, template,
                              fit=fit, board_bgr=board_colour)
    for space in spaces:
        probed = {**track, space: [probes[space]]}
        if could_be and scorer.covered(probed, space):
            continue  # the pyramid's foot, a hand over it: a camel there would be as hidden as where the board has it
        found = scorer.camel_samples(probed).get(probes[space])
        if found is not None and len(found) >= 3 and relief(found) >= STANDING \
                and not board_like(lit_colour(found), board_colour):
            if could_be and all(unlike_its_paint(camel, lit_colour(found), camels, board_colour)
                                for camel in could_be):
                continue  # none of them: the palm tree's trunk, the pyramid's shaded foot
            return space
    return None


def _measure(
    observation: Observation,
    template: BoardTemplate,
    track: Mapping[int, Sequence[str]],
    profiles: Mapping[str, tuple[float, float, float] | None],
    board_colour: tuple[float, float, float],
    fit: FitConfig = ANYWHERE,
) -> dict[str, np.ndarray]:
    """The pixels each camel's body covers where it fits best on its space (``profiles``: the colours to look
    for, ``None``: whatever is unlike the board); camels not seen at all are left out."""
    samples = SilhouetteScorer(observation, profiles, template, fit=fit, board_bgr=board_colour).camel_samples(
        track
    )
    return {camel: found for camel, found in samples.items() if len(found) >= 3}


def _check_stacks_not_swapped(
    observation: Observation,
    template: BoardTemplate,
    track: Mapping[int, Sequence[str]],
    profiles: Mapping[str, tuple[float, float, float] | None],
    board_colour: tuple[float, float, float],
    fit: FitConfig,
    camels: Sequence[str],
) -> None:
    """Refuse as swapped (:func:`check_not_swapped`) the stacks of ``camels`` (not seen, or contradicting the
    board) whose camels, measured with no colours to start from, show each in the colour of the other's name: a
    stack told the wrong way up is looked for by its names' colours level by level and is not seen there, but the
    host should hear which camel stands on which."""
    where = {camel: space for space, stack in track.items() for camel in stack}
    spaces = {where[camel] for camel in camels if len(track[where[camel]]) > 1}
    if not spaces:
        return
    blind = {camel: None if where.get(camel) in spaces else profile for camel, profile in profiles.items()}
    samples = _measure(observation, template, track, blind, board_colour, fit)
    colours = {camel: lit_colour(samples[camel]) for space in spaces for camel in track[space] if camel in samples}
    check_not_swapped(colours, board_colour, {space: track[space] for space in spaces})

