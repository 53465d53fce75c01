"""Board templates: where the 16 spaces lie, in millimetres, in the frame of the four ArUco markers.

The markers (OpenCV's ``DICT_4X4_50``, ids 0 to 3) are taped at the board's corners: 0 top left, 1 top right,
2 bottom right, 3 bottom left, as seen from the side where space 1 is top left. Coordinates are millimetres
from the top-left corner of the area they span, x towards marker 1, y towards marker 3. A template is JSON, so
a table whose board or marker placement differs can have its own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TEMPLATES = Path(__file__).with_name("templates")
MARKER_IDS = (0, 1, 2, 3)
Point = tuple[float, float]


class TemplateError(ValueError):
    """A board template that cannot be used; the message names the key."""


@dataclass(frozen=True)
class BoardTemplate:
    edition: str
    marker_size: float
    """Side of the black square of each marker, in millimetres."""
    markers: dict[int, Point]
    """Top-left corner of each marker, by id."""
    spaces: dict[int, tuple[Point, ...]]
    """Each space's outline (4 corners, clockwise from its top left), by space number 1 to 16."""
    camel: dict[str, float]
    """A camel's size in millimetres: length, width, height (a stack is ``height`` per camel)."""

    def marker_corners(self, marker_id: int) -> tuple[Point, ...]:
        """The marker's four corners in the order OpenCV's detector reports them (clockwise from top left)."""
        x, y = self.markers[marker_id]
        size = self.marker_size
        return ((x, y), (x + size, y), (x + size, y + size), (x, y + size))

    def space_centre(self, space: int) -> Point:
        corners = self.spaces[space]
        return (sum(x for x, _ in corners) / len(corners), sum(y for _, y in corners) / len(corners))

    @property
    def size(self) -> Point:
        """Width and height of everything: board and markers."""
        xs = [x for corners in self.spaces.values() for x, _ in corners] + [
            x + self.marker_size for x, _ in self.markers.values()
        ]
        ys = [y for corners in self.spaces.values() for _, y in corners] + [
            y + self.marker_size for _, y in self.markers.values()
        ]
        return (max(xs), max(ys))


def _point(value: Any, where: str) -> Point:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) and abs(v) < LIMIT_MM for v in value)
    ):
        raise TemplateError(f"{where}: must be [x, y] in millimetres, not {value!r}")
    return (float(value[0]), float(value[1]))


LIMIT_MM = 10_000.0
"""No table is 10 m across: a larger coordinate (or NaN, which Python's JSON reads) is a typo."""
MIN_SPACE_MM2 = 100.0
"""A space's outline encloses at least this (the game's are 80 × 80 mm): less is corners typed wrong."""


def _area(corners: tuple[Point, ...]) -> float:
    """The area a space's outline encloses (shoelace formula)."""
    following = corners[1:] + corners[:1]
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(corners, following, strict=True))) / 2


def parse_template(data: Any, source: str = "template") -> BoardTemplate:
    """Check a template's JSON.

    Raises:
        TemplateError: naming the key that is wrong.
    """
    if not isinstance(data, dict):
        raise TemplateError(f"{source}: must be a JSON object")
    for key in ("edition", "marker_size", "markers", "spaces", "camel"):
        if key not in data:
            raise TemplateError(f"{source}: '{key}' is missing")
    size = data["marker_size"]
    if isinstance(size, bool) or not isinstance(size, int | float) or not 0 < size < LIMIT_MM:
        raise TemplateError(f"{source}: marker_size must be a positive number of millimetres")
    markers_in = data["markers"]
    if not isinstance(markers_in, dict) or sorted(markers_in) != [str(i) for i in MARKER_IDS]:
        raise TemplateError(f"{source}: 'markers' must give ids 0, 1, 2 and 3")
    markers = {int(key): _point(value, f"{source}: markers.{key}") for key, value in markers_in.items()}
    for first in MARKER_IDS:
        for second in MARKER_IDS[first + 1 :]:
            (x0, y0), (x1, y1) = markers[first], markers[second]
            if max(abs(x1 - x0), abs(y1 - y0)) < size:
                raise TemplateError(f"{source}: markers.{second} overlaps markers.{first} (each is {size:g} mm across)")
    spaces_in = data["spaces"]
    if not isinstance(spaces_in, dict) or sorted(spaces_in, key=lambda k: int(k) if k.isdigit() else 0) != [
        str(i) for i in range(1, 17)
    ]:
        raise TemplateError(f'{source}: \'spaces\' must give the outline of every space, "1" to "16"')
    spaces = {}
    for key, corners in spaces_in.items():
        if not isinstance(corners, list) or len(corners) != 4:
            raise TemplateError(f"{source}: spaces.{key} must list 4 corners")
        spaces[int(key)] = tuple(_point(corner, f"{source}: spaces.{key}") for corner in corners)
        if _area(spaces[int(key)]) < MIN_SPACE_MM2:
            raise TemplateError(f"{source}: spaces.{key} encloses no space (its 4 corners must outline it)")
    camel = data["camel"]
    if not isinstance(camel, dict) or any(
        not isinstance(camel.get(k), int | float) or not 0 < camel.get(k, 0) < LIMIT_MM
        for k in ("length", "width", "height")
    ):
        raise TemplateError(f"{source}: 'camel' must give length, width and height in millimetres")
    return BoardTemplate(str(data["edition"]), float(size), markers, spaces, {k: float(camel[k]) for k in camel})


def load_template(edition_or_path: str) -> BoardTemplate:
    """The shipped template of an edition (``"2014"``, ``"2018"``) or a template file.

    Raises:
        TemplateError: no such edition or file, not JSON, or a bad key.
    """
    path = TEMPLATES / f"board-{edition_or_path}.json"
    if not path.exists():
        path = Path(edition_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        shipped = ", ".join(sorted(p.stem.removeprefix("board-") for p in TEMPLATES.glob("board-*.json")))
        raise TemplateError(f"{edition_or_path}: neither an edition ({shipped}) nor a template file") from None
    except UnicodeDecodeError:
        raise TemplateError(f"{path}: not a board template (not text: an image or a binary file?)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise TemplateError(f"{path}: not JSON ({error.msg} at line {error.lineno})") from None
    return parse_template(data, str(path))


def ring_template(
    edition: str, cell: float = 80.0, margin: float = 135.0, marker_size: float = 70.0, edge: float = 12.5
) -> dict[str, Any]:
    """The JSON of a square ring board like the game's: 1 to 5 along the top, 6 to 8 down the right, 9 to 13
    back along the bottom, 14 to 16 up the left; a marker in each corner, ``edge`` mm in from the outside
    and about 5 cm out from the track, where no stack of camels on a corner space hides it from the
    camera."""

    def cell_origin(space: int) -> Point:
        if space <= 5:
            col, row = space - 1, 0
        elif space <= 8:
            col, row = 4, space - 5
        elif space <= 13:
            col, row = 13 - space, 4
        else:
            col, row = 0, 17 - space
        return (margin + col * cell, margin + row * cell)

    spaces = {}
    for space in range(1, 17):
        x, y = cell_origin(space)
        spaces[str(space)] = [[x, y], [x + cell, y], [x + cell, y + cell], [x, y + cell]]
    far = margin + 5 * cell + margin - marker_size - edge
    return {
        "edition": edition,
        "units": "mm",
        "marker_size": marker_size,
        "markers": {"0": [edge, edge], "1": [far, edge], "2": [far, far], "3": [edge, far]},
        "spaces": spaces,
        "camel": {"length": 40.0, "width": 20.0, "height": 19.5},
    }
