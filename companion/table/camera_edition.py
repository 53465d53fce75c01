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

CONFIG_ON_PI = "/etc/camelup/config.toml"


def other_board_remedy(camera_edition: str, game_edition: str) -> str:
    """What to change so the camera checks a ``game_edition`` game (it reads ``camera_edition``'s board)."""
    return (f"it reads the {camera_edition} board: to check this {game_edition} game, set board = "
            f"\"{game_edition}\" under [camera] in the companion's configuration, {CONFIG_ON_PI} on the Pi, and "
            f"restart the companion; the markers stay where they are, and a calibration file made for the "
            f"{camera_edition} camels must be made again or left out")


def other_board_refusal(camera_edition: str, game_edition: str) -> str:
    """A refused camera action on a ``game_edition`` game, with the remedy."""
    return (f"the camera is set up for the {camera_edition} board, not this game's: "
            f"{other_board_remedy(camera_edition, game_edition).split(': ', 1)[1]}")
