"""What to do when a game is of the other edition than the board the camera is set up to read.

Both editions' board templates put the four markers in the same places (``vision/board-*.json``), so the camera
needs no new markers, only the other template, which the companion loads at start from its configuration's
``[camera] board``. A calibration file is made for one edition's camels. Switching the running camera to the
game's edition by itself would also change its colours and what it learnt under a game in progress (and the
other games on the same companion), so the host is told what to change instead.

Checking the other edition's game with the colours at hand does not work either: the 2014 racing camels are blue,
green, orange, yellow and white, so a 2018 calibration (green, yellow, red, blue, purple, black, white) has no
colour for orange, and a 2014 one none for red, purple or black. The colours the two share by name were measured
on another box's pieces (2018's white is a crazy camel), and what the camera learns at a table is one file for
the board it is set up for.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

CONFIG_ON_PI = "/etc/camelup/config.toml"



def configuration(config_file: str | None) -> str:
    """Where the companion's settings are: the file it runs with when known, else where the Pi keeps it."""
    return config_file if config_file else f"the companion's configuration, {CONFIG_ON_PI} on the Pi"


def other_board_remedy(
    camera_edition: str, game_edition: str, calibration_file: str | None = None, config_file: str | None = None
) -> str:
    """What to change so the camera checks a ``game_edition`` game (it reads ``camera_edition``'s board;
    ``calibration_file``: the configured calibration it reads with, which sets the board; ``config_file``: the
    configuration the companion runs with, when known)."""
    if calibration_file:
        return other_edition_calibration(calibration_file, camera_edition, game_edition, config_file=config_file)
    return (f"it reads the {camera_edition} board: to check this {game_edition} game, set board = "
            f"\"{game_edition}\" under [camera] in {configuration(config_file)}, and "
            f"restart the companion; the markers stay where they are, and a calibration file made for the "
            f"{camera_edition} camels must be made again or left out")


def other_board_refusal(
    camera_edition: str, game_edition: str, calibration_file: str | None = None, config_file: str | None = None
) -> str:
    """A refused camera action on a ``game_edition`` game, with the remedy."""
    if calibration_file:
        return f"the camera is set up for the {camera_edition} board, not this game's: " + \
            other_edition_calibration(calibration_file, camera_edition, game_edition, config_file=config_file)
    return (f"the camera is set up for the {camera_edition} board, not this game's: "
            f"{other_board_remedy(camera_edition, game_edition, config_file=config_file).split(': ', 1)[1]}")


def other_edition_calibration(
    path: str, calibrated: str, edition: str, whose: str = "this game", config_file: str | None = None
) -> str:
    """Why the calibration file ``path``, made for the ``calibrated`` edition's board (a calibration sets the board
    the camera reads), cannot read ``whose`` board of the ``edition`` edition, and what to change in the companion
    (``config_file``: the configuration it runs with, when known)."""
    return (f"{calibration_for_other_edition(path, calibrated, edition, whose)} --out {path}, and restart the "
            f"companion (or empty calibration and set board = \"{edition}\" under [camera] in "
            f"{configuration(config_file)}: it then calibrates itself)")


def calibration_for_other_edition(path: str, calibrated: str, edition: str, whose: str) -> str:
    """Why the calibration file ``path`` of the ``calibrated`` edition cannot read ``whose`` board (of ``edition``),
    and the command that makes one for it."""
    return (f"the camera was calibrated for the {calibrated} edition ({path}); {whose} is the {edition} edition, "
            f"whose camels it has no colours for: calibrate again with: camelup vision calibrate PHOTO --board "
            f"{edition}")


def learnt_for_other_edition(path: str, learnt: str, edition: str) -> str:
    """Why what the camera learnt at this table for the ``learnt`` edition's board is not used for ``edition``."""
    return (f"what the camera learnt at this table before ({path}) is for the {learnt} edition, and it reads the "
            f"{edition} board: not used; it calibrates itself again from the next {edition} board a game confirms")


def camera_colours(board: str, calibration: str | None, learnt: Path) -> tuple[Any, bool, str]:
    """What the companion's camera reads with (a ``vision.calibrate.Calibration``): the configured calibration file
    (its board overrides ``board``), else what the camera learnt at this table before if it is for ``board``'s
    edition, else the board's usual colours; whether it is what was learnt; and why what was learnt is not used
    ("" when it is, or there is none): colours learnt for the other edition's camels would read a board silently
    wrong.

    Raises:
        vision.board.TemplateError: ``board`` is no edition or template.
        vision.calibrate.CalibrationError: the configured calibration file cannot be used.
    """
    from vision.calibrate import CalibrationError, reading_colours

    colours = reading_colours(board, calibration)
    if calibration or not learnt.exists():
        return colours, False, ""
    edition = colours.template.edition
    with contextlib.suppress(CalibrationError):
        known = reading_colours(board, str(learnt))
        if known.template.edition == edition:
            return known, True, ""
        return colours, False, learnt_for_other_edition(str(learnt), known.template.edition, edition)
    return colours, False, ""
