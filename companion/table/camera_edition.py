"""The camera follows the edition of the game it checks: what it reads each edition's board with.

Both editions' board templates put the four markers in the same places (``vision/board-*.json``), so the camera
needs no new markers for the other edition, only its template and its camels' colours. Those are kept per edition,
so that nothing measured on one edition's camels reads the other's board (the 2014 racing camels are blue, green,
orange, yellow and white; the 2018 ones green, yellow, red, blue, purple, with black and white crazy camels: a
2018 calibration has no colour for orange, and the colours the two share by name are another box's pieces):

- a calibration file configured for that edition (``[camera] calibration_2014`` / ``calibration_2018``, or the
  single ``calibration``, which stays valid for the edition it was made for);
- else what the camera learnt at this table for that edition (``camera-calibration-2014.json`` /
  ``camera-calibration-2018.json`` in the data directory; the single ``camera-calibration.json`` of earlier
  versions is read for the edition its template says);
- else the board's usual colours, until it calibrates itself from the next board a game of that edition confirms
  (saved to that edition's file only).

Which game the camera watches, when several are open: :meth:`companion.table.camera_watch.CameraWatch.follow`.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vision.calibrate import Calibration

EDITIONS = ("2014", "2018")
LEGACY_LEARNT = "camera-calibration.json"
"""The one file earlier versions kept what the camera learnt in, for whichever edition it read: read for the
edition its template says, never written again."""


def learnt_name(edition: str) -> str:
    """The file, in the data directory, where the camera keeps what it learnt for ``edition``'s camels."""
    return f"camera-calibration-{edition}.json"


def other_edition(edition: str) -> str:
    return "2014" if edition == "2018" else "2018"


@dataclass(frozen=True)
class EditionColours:
    """What the camera reads one edition's board with."""

    edition: str
    colours: Any
    """A ``vision.calibrate.Calibration``: the template, the camels' and the board's colours."""
    source: str
    """``"file"`` (a configured calibration), ``"learnt"`` (learnt at this table before) or ``"usual"``."""
    calibration_file: str | None = None
    learnt_path: Path | None = None
    """Where what it learns for this edition is saved (None: not saved)."""
    learnt_from: Path | None = None
    """With ``"learnt"``: the file it was read from (that edition's, or the single file of earlier versions)."""
    note: dict[str, Any] | None = None
    """Why a learnt file at hand is not used (catalog words, :mod:`companion.table.camera_words`), or None."""


@dataclass
class EditionState:
    """What the camera reads one edition's board with, and what it learnt for it (the calibration line's words,
    :mod:`companion.table.camera_words`), kept while it reads the other edition's."""

    template: Any
    profiles: dict[str, tuple[float, float, float]]
    board_bgr: tuple[float, float, float]
    calibration: Any
    calibration_file: str | None
    learnt_path: Path | None
    calibrated: bool
    state: dict[str, Any] | None
    settled: dict[str, Any] | None
    note: dict[str, Any] | None

    @classmethod
    def first(cls, found: EditionColours) -> EditionState:
        """As the camera starts reading an edition it has not read since the start."""
        from companion.table.camera_words import BEFORE, FROM_FILE, words

        colours, learnt = found.colours, found.source == "learnt"
        state = (words(BEFORE) if learnt else
                 words(FROM_FILE, file=found.calibration_file) if found.calibration_file else None)
        return cls(colours.template, dict(colours.profiles), colours.board_bgr, colours, found.calibration_file,
                   found.learnt_path, learnt, state, state, found.note)


def calibration_setting(edition: str) -> str:
    return f"calibration_{edition}"


def configured_files(
    calibration: str | None, per_edition: dict[str, str | None], where: str
) -> tuple[Calibration | None, dict[str, tuple[str, Calibration]], dict[str, str]]:
    """Each configured calibration file, read once: the single ``calibration`` (None: not set), the file of each
    edition with what it says (``calibration_E``, ``per_edition``, and the single ``calibration`` for the edition it
    was made for), and per edition whose ``calibration_E`` cannot be used (unreadable, made for the other edition)
    why, its setting and file named, and ``where`` (the configuration file) to fix it.

    Raises:
        vision.calibrate.CalibrationError: the single ``calibration`` cannot be read, or two files for one edition
            (each named).
    """
    from vision.calibrate import CalibrationError, load_calibration

    files: dict[str, tuple[str, Calibration]] = {}
    unchecked: dict[str, str] = {}
    for edition, path in per_edition.items():
        if not path:
            continue
        try:
            colours = load_calibration(path)
        except CalibrationError as error:
            said = str(error).removeprefix(f"{path}: ")  # the setting's line names the file
            unchecked[edition] = (f"the {edition} calibration file ({setting_line(edition, path)}): {said}: fix or "
                                  f"empty {calibration_setting(edition)} in {where}")
            continue
        made_for = colours.template.edition
        if made_for != edition:
            unchecked[edition] = f"{wrong_edition_advice(edition, path, made_for)} (in {where})"
        else:
            files[edition] = (path, colours)
    if not calibration:
        return None, files, unchecked
    try:
        single = load_calibration(calibration)
    except CalibrationError as error:
        if not str(error).startswith(f"{calibration}: "):
            raise
        said = str(error).removeprefix(f"{calibration}: ")
        raise CalibrationError(f'the calibration file ([camera] calibration = "{calibration}"): {said}: fix or empty '
                               f"calibration in {where}") from None
    made_for = single.template.edition
    if made_for in files and files[made_for][0] != calibration:
        raise CalibrationError(f"camera.calibration ({calibration}) and camera.{calibration_setting(made_for)} "
                               f"({files[made_for][0]}) are both calibrations for the {made_for} edition: keep one")
    files[made_for] = (calibration, single)
    return single, files, unchecked


def setting_line(edition: str, path: str) -> str:
    """The configuration line that names ``path`` for ``edition``, as the user wrote it."""
    return f'[camera] {calibration_setting(edition)} = "{path}"'


def new_calibration_path(edition: str, path: str) -> str:
    """A file beside ``path`` (a good calibration of the other edition) for a new ``edition`` calibration: never
    ``path`` itself, nor another file that exists."""
    folder = Path(path).parent
    candidate = folder / f"calibration-{edition}.json"
    number = 2
    while candidate.exists() or str(candidate) == path:
        candidate, number = folder / f"calibration-{edition}-{number}.json", number + 1
    return str(candidate)


def wrong_edition_advice(edition: str, path: str, made_for: str) -> str:
    """Why ``path``, a calibration of the ``made_for`` edition set for ``edition``, is not used, and what to do:
    it stays good for its own edition, so the advice never overwrites it."""
    setting, own = calibration_setting(edition), calibration_setting(made_for)
    return (f"the {edition} calibration file ({setting_line(edition, path)}) is a calibration for the {made_for} "
            f"edition's camels, not the {edition} one's: move it to {own} (it stays good for {made_for} games); "
            f"for the {edition} camels calibrate into a new file: camelup vision calibrate PHOTO --board {edition} "
            f"--out {new_calibration_path(edition, path)}, and set {setting} to it (or empty {setting}: the camera "
            f"then learns the {edition} colours from a board a game confirms)")


@dataclass(frozen=True)
class CameraSetup:
    """What the camera reads each edition's board with, and why an edition is not checked."""

    first: str | None
    """The edition it starts on (None: no edition can be checked, the camera is off)."""
    editions: dict[str, EditionColours]
    unchecked: dict[str, str]
    """Per edition whose calibration setting cannot be used: why its games are not checked (the setting named)."""


def camera_setup(
    board: str, calibration: str | None, per_edition: dict[str, str | None], data: Path | None,
    config_file: str | None = None, in_play: str | None = None,
) -> CameraSetup:
    """What the camera reads each edition's board with (see the module's docstring), each calibration file read
    once. ``board``: the configured board (an edition or a template file: its template serves its own edition);
    ``calibration``: the single calibration file (its edition overrides ``board``'s, as it always did);
    ``per_edition``: the calibration file set for each edition; ``data``: the data directory (None: nothing is
    learnt). A calibration setting of one edition that cannot be used (unreadable, made for the other edition)
    leaves the other edition checked: that edition's games are told why they are not (``config_file`` named).
    ``in_play``: the edition of the game played last whose race is not over (a restart mid-evening): the camera
    starts on it where it checks that edition, as it would once that game's page asks.

    Raises:
        vision.board.TemplateError, vision.calibrate.CalibrationError: what concerns every edition (no such
            board; the single ``calibration`` unusable; two files for one edition).
    """
    from vision.calibrate import reading_colours

    single, files, unchecked = configured_files(calibration, per_edition, config_file or "the configuration file")
    first: str | None = str((single or reading_colours(board)).template.edition)
    editions = [edition for edition in (EDITIONS if first in EDITIONS else (first,)) if edition not in unchecked]
    if in_play in editions:
        first = in_play
    elif first in unchecked:
        first = editions[0] if editions else None
    return CameraSetup(first, {edition: edition_colours(edition, board, files, data) for edition in editions},
                       unchecked)


def edition_colours(
    edition: str, board: str, files: dict[str, tuple[str, Calibration]], data: Path | None
) -> EditionColours:
    """What the camera reads ``edition``'s board with (see the module's docstring): ``board`` is the configured
    board (an edition or a template file: its template serves its own edition), ``files`` the calibration file of
    each edition and what it says (:func:`configured_files`), ``data`` the data directory (None: nothing is learnt).

    Raises:
        vision.board.TemplateError: ``board`` is no edition or template.
    """
    from vision.calibrate import CalibrationError, reading_colours

    learnt_path = Path(data) / learnt_name(edition) if data is not None else None
    if edition in files:
        path, colours = files[edition]
        return EditionColours(edition, colours, "file", path, learnt_path)
    own = reading_colours(board)
    usual = own if own.template.edition == edition else reading_colours(edition)
    note = None
    if data is not None:
        for path in (Path(data) / learnt_name(edition), Path(data) / LEGACY_LEARNT):
            if not path.exists():
                continue
            with contextlib.suppress(CalibrationError):
                known = reading_colours(edition, str(path))
                if known.template.edition == edition:
                    return EditionColours(edition, known, "learnt", None, learnt_path, path)
                if path.name != LEGACY_LEARNT:  # the old single file of the other edition serves that edition
                    note = learnt_for_other_edition(str(path), known.template.edition, edition)
    return EditionColours(edition, usual, "usual", None, learnt_path, note=note)


def camera_editions(
    board: str, calibration: str | None, per_edition: dict[str, str | None], data: Path | None
) -> tuple[str, dict[str, EditionColours]]:
    """The edition the camera starts on, and what it reads each edition's board with (:func:`camera_setup`, where
    any calibration setting that cannot be used is an error).

    Raises:
        vision.board.TemplateError, vision.calibrate.CalibrationError: the configuration cannot be used (no such
            board; a calibration file that cannot be used, made for another edition than its setting, or two
            files for one edition), named.
    """
    from vision.calibrate import CalibrationError

    found = camera_setup(board, calibration, per_edition, data)
    if found.unchecked or found.first is None:
        raise CalibrationError("; ".join(found.unchecked[edition] for edition in sorted(found.unchecked)))
    return found.first, found.editions


def learnt_for_other_edition(path: str, learnt: str, edition: str) -> dict[str, Any]:
    """Why the file ``path``, named for ``edition`` but learnt from the ``learnt`` edition's camels, is not used
    (catalog words)."""
    from companion.table.camera_words import words

    return words("camera_learnt.other_edition", path=path, learnt=learnt, edition=edition)


def calibration_for_other_edition(path: str, calibrated: str, edition: str, whose: str) -> str:
    """Why the calibration file ``path`` of the ``calibrated`` edition cannot read ``whose`` board (of ``edition``),
    and the command that makes one for it (``vision read --calibration F --expect LOG``: a command line reads with
    the calibration it is given)."""
    return (f"the camera was calibrated for the {calibrated} edition ({path}); {whose} is the {edition} edition, "
            f"whose camels it has no colours for: calibrate again with: camelup vision calibrate PHOTO --board "
            f"{edition}")
