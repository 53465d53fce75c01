"""Calibrating the camera for one table: the camels' and the board's colours as this camera sees them,
measured from one photo of the board with every camel on its own space, and the board template, saved
together as JSON (``camelup vision calibrate``). The template's millimetres can be corrected by hand in the
saved file; the colours are only ever measured.

Colours are kept relative to the board's own colour in the same photo, which is how the reader judges
them: a table's lamp or white balance shifts both alike.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.board import BoardTemplate, TemplateError, load_template, parse_template
from vision.locate import locate_board
from vision.read import BOARD_BGR, ReadConfig, camera_pose, read_board, rim_colours, sample_colours, track_neighbours
from vision.synth import camel_edition, camel_profiles

FORMAT = "camelup-camera-calibration/1"
MIN_CHROMA_GAP = 0.02
"""Two camels whose colours (each channel's share) differ less than this cannot be told apart."""


class CalibrationError(ValueError):
    """The photo or the file cannot give a calibration; the message says what to change."""


@dataclass(frozen=True)
class Calibration:
    template: BoardTemplate
    profiles: dict[str, tuple[float, float, float]]
    """Each camel's colour (BGR) as this camera sees it, in the light the board colour was measured in."""
    board_bgr: tuple[float, float, float]

    def as_json(self) -> dict[str, Any]:
        template = self.template
        return {
            "format": FORMAT,
            "board_bgr": [round(c, 1) for c in self.board_bgr],
            "profiles": {camel: [round(c, 1) for c in bgr] for camel, bgr in self.profiles.items()},
            "template": {
                "edition": template.edition,
                "units": "mm",
                "marker_size": template.marker_size,
                "markers": {str(m): list(xy) for m, xy in template.markers.items()},
                "spaces": {str(s): [list(xy) for xy in corners] for s, corners in template.spaces.items()},
                "camel": dict(template.camel),
            },
        }


def calibration_layout(camels: list[str]) -> dict[int, list[str]]:
    """Where the camels stand for the calibration photo: one each on spaces 1, 3, 5, ... in this order
    (a free space between two camels, so that none hides another)."""
    return {1 + 2 * index: [camel] for index, camel in enumerate(camels)}


def calibrate(config: ReadConfig, template: BoardTemplate, camels: list[str], image: np.ndarray) -> Calibration:
    """Measure the camels' and the board's colours in a photo of :func:`calibration_layout`.

    Raises:
        vision.locate.BoardNotFound: the markers are not all visible.
        CalibrationError: a camel is missing or two look alike (the message names them).
    """
    pose = camera_pose(locate_board(config.locate, template, image), (image.shape[1], image.shape[0]))
    layout = calibration_layout(camels)
    rims = rim_colours(config, template, pose, image)
    empty = [rims[space] for space in template.spaces if space in rims and space not in layout]
    if len(empty) < 3:
        raise CalibrationError("the photo shows too little of the empty board to measure its colour")
    board = np.median(np.array(empty), axis=0)
    h = template.camel["height"]
    profiles: dict[str, tuple[float, float, float]] = {}
    for space, (camel,) in layout.items():
        if space not in rims:
            raise CalibrationError(f"space {space} (the {camel} camel's) is outside the picture")
        # The middle of the camel's top, as far in from its edges as it may be set off the middle of its space.
        cx, cy = template.space_centre(space)
        reach_x = max(template.camel["length"] / 2 - config.placement_slack_mm - 2, 1.0)
        reach_y = max(template.camel["width"] / 2 - config.placement_slack_mm - 2, 1.0)
        along, across = np.linspace(-reach_x, reach_x, 5), np.linspace(-reach_y, reach_y, 3)
        top = np.array([(cx + dx, cy + dy, -h) for dx in along for dy in across])
        samples = sample_colours(image, pose.project(top), config.sample_radius_px)
        samples = samples[~np.isnan(samples[:, 0])]
        if not len(samples):
            raise CalibrationError(f"the {camel} camel on space {space} is outside the picture")
        around = [rims[other] for other in track_neighbours(template, space) if other in rims]
        light = np.median(np.array(around) / board, axis=0)
        profiles[camel] = tuple(float(c) for c in np.median(samples, axis=0) / np.maximum(light, 0.05))
    board_colour = (float(board[0]), float(board[1]), float(board[2]))
    for space, (camel,) in layout.items():
        if _alike(profiles[camel], board_colour):
            raise CalibrationError(
                f"no camel is seen on space {space}, where the {camel} camel should stand for the calibration photo"
            )
    _check_distinct(profiles)
    calibration = Calibration(template, profiles, board_colour)
    reading = read_board(config, template, profiles, image, calibration.board_bgr)
    if reading.track != layout:
        wrong = sorted(camel for space, (camel,) in layout.items() if reading.track.get(space) != [camel])
        raise CalibrationError(
            f"with the colours measured, the photo reads {reading.as_json()['track']}: check that "
            f"{', '.join(wrong)} stand{'s' if len(wrong) == 1 else ''} alone on the right space "
            f"(spaces 1, 3, 5, ... in the order {', '.join(camels)})"
        )
    return calibration


def _alike(first: tuple[float, float, float], second: tuple[float, float, float]) -> bool:
    """Two colours the reader could not tell apart: nearly the same channel shares and brightness."""
    a, b = np.array(first), np.array(second)
    chroma = float(np.linalg.norm(a / (a.sum() + 1e-6) - b / (b.sum() + 1e-6)))
    contrast = abs(a.sum() - b.sum()) / max(a.sum(), b.sum(), 1.0)
    return chroma < MIN_CHROMA_GAP and contrast < 0.35


def _check_distinct(profiles: dict[str, tuple[float, float, float]]) -> None:
    names = list(profiles)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            if _alike(profiles[first], profiles[second]):
                raise CalibrationError(
                    f"the {first} and {second} camels look alike to this camera: use whiter light, or check "
                    "the camera's white balance"
                )


def reading_colours(board: str, calibration: str | Path | None = None) -> Calibration:
    """What to read a board with: a saved calibration when there is one, otherwise the template ``board``
    names (an edition or a file) with the default colours (the synthetic scenes').

    Raises:
        TemplateError: no such edition or template file.
        CalibrationError: the calibration file cannot be used.
    """
    if calibration:
        return load_calibration(calibration)
    template = load_template(board)
    return Calibration(template, camel_profiles(camel_edition(template)), BOARD_BGR)


def save_calibration(calibration: Calibration, path: str | Path) -> Path:
    path = Path(path)
    path.write_text(json.dumps(calibration.as_json(), indent=1) + "\n", encoding="utf-8")
    return path


def load_calibration(path: str | Path) -> Calibration:
    """A saved calibration (its template perhaps corrected by hand).

    Raises:
        CalibrationError: not readable, not JSON, or a bad key (named).
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise CalibrationError(f"{path}: cannot be read ({error.strerror})") from None
    except json.JSONDecodeError as error:
        raise CalibrationError(f"{path}: not JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CalibrationError(f"{path}: not a camera calibration ('format' must be {FORMAT!r})")
    try:
        template = parse_template(data.get("template"), f"{path}: template")
    except TemplateError as error:
        raise CalibrationError(str(error)) from None
    board = _colour(data.get("board_bgr"), f"{path}: board_bgr")
    profiles_in = data.get("profiles")
    if not isinstance(profiles_in, dict) or not profiles_in:
        raise CalibrationError(f"{path}: 'profiles' must give each camel's colour")
    profiles = {str(camel): _colour(bgr, f"{path}: profiles.{camel}") for camel, bgr in profiles_in.items()}
    return Calibration(template, profiles, board)


def _colour(value: Any, where: str) -> tuple[float, float, float]:
    if (
        not isinstance(value, list)
        or len(value) != 3
        or not all(isinstance(c, int | float) and not isinstance(c, bool) and 0 <= c <= 400 for c in value)
    ):
        raise CalibrationError(f"{where} must be three numbers (blue, green, red), 0 to 255")
    return (float(value[0]), float(value[1]), float(value[2]))
