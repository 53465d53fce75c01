"""A camera calibration as the reader uses it (the camels' and the board's colours as one camera sees them, the
board template, the camels' size, where the markers were) and as saved (JSON, ``camelup vision calibrate``);
what to read a board with when no calibration is given. Measuring one from a photo: :mod:`vision.calibrate`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from vision.board import MARKER_IDS, BoardTemplate, TemplateError, load_template, parse_template
from vision.camel_size import CamelSize, parse_camel_size
from vision.locate import BoardLocation, fit_location
from vision.read import BOARD_BGR
from vision.silhouette import FitConfig
from vision.synth import EDITION_CAMELS, camel_edition, camel_profiles

FORMAT = "camelup-camera-calibration/1"


class CalibrationError(ValueError):
    """The photo or the file cannot give a calibration; the message says what to change (``camels``: the camels
    it is about, where it names some)."""

    def __init__(self, message: str, camels: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.camels = tuple(camels)


@dataclass(frozen=True)
class Calibration:
    template: BoardTemplate
    profiles: dict[str, tuple[float, float, float]]
    """Each camel's colour (BGR) as this camera sees it, in the light the board colour was measured in."""
    board_bgr: tuple[float, float, float]
    warnings: tuple[str, ...] = ()
    """What the calibration photo showed poorly (it is still used): a camel hard to tell from the board."""
    markers: dict[int, np.ndarray] = field(default_factory=dict)
    """Where the calibration photo showed the markers (each one's 4 corners, pixels), and its size: a photo
    from the camera still standing there finds the board even with a marker or two covered."""
    image_size: tuple[int, int] | None = None
    camel_size: CamelSize = field(default_factory=CamelSize)
    """The camels' real size (:mod:`vision.camel_size`): the usual one unless corrected by hand in the file."""
    left_out: tuple[str, ...] = ()
    """Camels the photo did not show (hidden where the board puts them): their colours are the ones they had, or
    the ones their paint usually has (:attr:`warnings` says which)."""

    def fit(self) -> FitConfig:
        """The reader's camel model drawn to this table's camels (pass it to the scorer that reads)."""
        return self.camel_size.fit()

    def location(self, image_size: tuple[int, int]) -> BoardLocation | None:
        """Where the board was in the calibration photo, for a picture of the same view: the same size, or the
        same shape at another resolution (a camera's still and its video frames); else ``None``."""
        if not self.markers or self.image_size is None:
            return None
        scale = image_size[0] / self.image_size[0]
        if abs(image_size[1] / self.image_size[1] - scale) > 0.005 * scale:
            return None
        return fit_location(self.template, {marker: quad * scale for marker, quad in self.markers.items()})

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
            "camel_size": self.camel_size.as_json(),
            **({"camera": {"image_size": list(self.image_size),
                           "markers_px": {str(m): np.round(quad, 2).tolist() for m, quad in self.markers.items()}}}
               if self.markers and self.image_size else {}),
        }


def reading_colours(board: str, calibration: str | Path | None = None) -> Calibration:
    """What to read a board with: a saved calibration when there is one, otherwise the template ``board``
    names (an edition or a file) with the default colours (the synthetic scenes').

    Raises:
        TemplateError: no such edition or template file.
        CalibrationError: the calibration file cannot be used.
    """
    if calibration:
        return load_calibration(calibration)
    try:
        template = load_template(board)
    except TemplateError as error:
        if board.endswith(".json") and _is_calibration(board):
            raise TemplateError(
                f"{board} is a camera calibration, not a board template: give it as --calibration"
            ) from None
        raise error
    return Calibration(template, camel_profiles(camel_edition(template)), BOARD_BGR)


def _is_calibration(path: str) -> bool:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT


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
    except UnicodeDecodeError:
        raise CalibrationError(f"{path}: not a camera calibration (not text: an image or a binary file?)") from None
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
    edition_camels = EDITION_CAMELS.get(template.edition)
    if edition_camels is not None and sorted(profiles) != sorted(edition_camels):
        missing = [camel for camel in edition_camels if camel not in profiles]
        extra = [camel for camel in profiles if camel not in edition_camels]
        raise CalibrationError(
            f"{path}: 'profiles' must give the colour of each of the {template.edition} board's camels "
            f"({', '.join(edition_camels)})"
            + (f"; missing: {', '.join(missing)}" if missing else "")
            + (f"; not its: {', '.join(extra)}" if extra else "")
        )
    markers, size = _camera(data.get("camera"), f"{path}: camera")
    try:
        camel_size = parse_camel_size(data.get("camel_size"), f"{path}: camel_size")
    except ValueError as error:
        raise CalibrationError(str(error)) from None
    return Calibration(template, profiles, board, markers=markers, image_size=size, camel_size=camel_size)


def _camera(value: Any, where: str) -> tuple[dict[int, np.ndarray], tuple[int, int] | None]:
    """The optional ``camera`` key: the calibration photo's size and the markers' corners in it."""
    if value is None:
        return {}, None
    if not isinstance(value, dict):
        raise CalibrationError(f"{where}: must be an object with 'image_size' and 'markers_px'")
    size, corners = value.get("image_size"), value.get("markers_px")
    if (not isinstance(size, list) or len(size) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size)):
        raise CalibrationError(f"{where}.image_size: must be [width, height] in pixels")
    if not isinstance(corners, dict):
        raise CalibrationError(f"{where}.markers_px: must give each marker's 4 corners")
    markers = {}
    for key, quad in corners.items():
        try:
            array = np.array(quad, float)
            marker = int(key)
        except (TypeError, ValueError):
            array, marker = np.zeros(0), -1
        if marker not in MARKER_IDS or array.shape != (4, 2) or not np.isfinite(array).all():
            raise CalibrationError(f"{where}.markers_px.{key}: must be a marker number (0 to 3) with 4 corners [x, y]")
        if (array < 0).any() or (array >= np.array(size)).any():
            raise CalibrationError(f"{where}.markers_px.{key}: its corners must lie in the {size[0]}×{size[1]} photo")
        markers[marker] = array
    return markers, (size[0], size[1])


def _colour(value: Any, where: str) -> tuple[float, float, float]:
    if (
        not isinstance(value, list)
        or len(value) != 3
        or not all(isinstance(c, int | float) and not isinstance(c, bool) and 0 <= c <= 400 for c in value)
    ):
        raise CalibrationError(f"{where} must be three numbers (blue, green, red), 0 to 255")
    return (float(value[0]), float(value[1]), float(value[2]))

