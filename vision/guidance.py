"""The README's numbers for placing the camera, in one place: the photo-like renderer places its cameras
within them and the placement assistant (:mod:`vision.placement`) checks a camera against them."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

DISTANCE_MM = (650.0, 900.0)
"""From the camera to the middle of the board."""
ELEVATION_DEG = (35.0, 60.0)
"""How steeply the camera looks down at the board's middle (0: level with the table, 90: overhead)."""
AZIMUTH_DEG = 25.0
"""How far round from straight on to the side of spaces 9 to 13 (the bottom row) the camera may stand."""
MARGIN_PX = 40
"""Room between each marker's black square and the picture's edge, in pixels of a 1280×720 picture (the
detector needs a white border around a marker, and OpenCV ignores candidates within a few pixels of the edge;
benchmarks/marker_margin.py measures it)."""
MIN_CAMEL_PX = 15.0
"""The smallest a camel may look (its height in pixels, on whichever space it looks smallest: from a camera
looking down, that is often the nearest space, where a camel is seen most from above) to be read."""
CAMEL_HEIGHT_MM = 22.0
"""A game's camel, standing."""

AIM_MM = 90.0
"""Where to aim the camera: this far in front of the board's middle, towards the camera (three quarters of the way to
the near row's inner edge). Aimed at the middle itself, the near markers leave the picture first."""
START_POSITIONS: dict[str, tuple[tuple[int, int], ...]] = {
    "Pi Camera Module 3": ((80, 35), (80, 40), (85, 35), (85, 40), (85, 45), (90, 35), (90, 40), (90, 45)),
    "Pi Camera Module 2": ((85, 35), (85, 40), (90, 35), (90, 40), (90, 45)),
    "USB webcam": ((75, 35), (75, 40), (75, 45), (80, 35), (80, 40), (80, 45), (85, 35), (85, 40), (85, 45),
                   (90, 35), (90, 40), (90, 45)),
}
"""Per camera (vision.photo's lenses), the (distance cm, angle °) within the limits above from which, straight on
and aimed :data:`AIM_MM` in front of the middle, all four markers have the margin and 15 px to spare and every
camel is at least :data:`MIN_CAMEL_PX` tall in a 1280×720 frame (benchmarks/camera_placement_ranges.py; the
README's table). A Camera Module 3 Wide shows the markers from anywhere, but its camels are under 15 px."""
CAMERA_IDS = {"Pi Camera Module 3": "cm3", "Pi Camera Module 2": "cm2", "USB webcam": "webcam"}
"""Each camera of :data:`START_POSITIONS` as the pages' catalogs name it (``placement_camera.<id>``)."""
WIDE = "cm3_wide"
"""The Camera Module 3 Wide: no start position (its camels are under 15 px)."""
SENSORS = {"imx708": "cm3", "imx708_noir": "cm3", "imx708_wide": WIDE, "imx708_wide_noir": WIDE, "imx219": "cm2"}
"""The sensor model picamera2 reports (``camera_properties["Model"]``) for each camera it tells apart."""


def camera_id(sensor: str | None, webcam: bool = False) -> str | None:
    """Which camera of :data:`CAMERA_IDS` (or :data:`WIDE`) a source is: a Pi camera by its ``sensor`` model, a
    USB ``webcam`` as one of about 70° (the README's); ``None`` when not known (image files, another sensor)."""
    if sensor:
        return SENSORS.get(sensor.lower())
    return "webcam" if webcam else None


@dataclass(frozen=True)
class StartSummary:
    """One camera's :data:`START_POSITIONS` as the README's table says them."""

    distance_cm: tuple[int, int]
    """The distances (low, high) from which every angle of :attr:`angle_deg` works."""
    angle_deg: tuple[int, int]
    also: tuple[tuple[int, tuple[int, int]], ...]
    """Nearer distances that work at some angles only: (cm, (low, high angle))."""

    def as_json(self) -> dict[str, Any]:
        return {"distance_cm": list(self.distance_cm), "angle_deg": list(self.angle_deg),
                "also": [{"cm": cm, "angle_deg": list(angles)} for cm, angles in self.also]}

    def words(self) -> str:
        low, high = self.distance_cm
        also = "".join(f" ({cm} cm at {first}–{last}°)" for cm, (first, last) in self.also)
        span = f"{low}–{high} cm" if low != high else f"{low} cm"
        return f"{span}{also} away, looking down {self.angle_deg[0]}–{self.angle_deg[1]}°"


def start_summary(camera: str) -> StartSummary:
    """:data:`START_POSITIONS` of one camera (its name there) as the README's table says them."""
    positions = START_POSITIONS[camera]
    angles = sorted({angle for _, angle in positions})
    at = {cm: sorted(angle for d, angle in positions if d == cm) for cm in sorted({cm for cm, _ in positions})}
    full = [cm for cm, these in at.items() if these == angles]
    return StartSummary((full[0], full[-1]), (angles[0], angles[-1]),
                        tuple((cm, (these[0], these[-1])) for cm, these in at.items() if these != angles))


def start_hint(camera: str | None) -> dict[str, Any]:
    """Where to start the camera, for the placement page: ``camera`` (an id, or ``None`` when not known) and
    ``positions`` (id → :meth:`StartSummary.as_json`): this camera's only when known, else every camera's."""
    names = {ident: name for name, ident in CAMERA_IDS.items()}
    chosen = [names[camera]] if camera in names else [] if camera == WIDE else list(START_POSITIONS)
    return {"camera": camera, "positions": {CAMERA_IDS[name]: start_summary(name).as_json() for name in chosen}}


def start_words(camera: str | None) -> str:
    """:func:`start_hint` in English words (for ``camelup doctor``)."""
    if camera == WIDE:
        return ("where to start: a Camera Module 3 Wide is not recommended (its camels look under 15 px tall in a "
                "1280×720 frame): use a Camera Module 3 or 2")
    names = {ident: name for name, ident in CAMERA_IDS.items()}
    if camera in names:
        return (f"where to start with this camera ({names[camera]}): {start_summary(names[camera]).words()}, "
                "straight on (README)")
    return "where to start (README): " + "; ".join(f"{name}: {start_summary(name).words()}" for name in CAMERA_IDS)


# The figures as the assistant shows them. Each limit is checked on the figure shown, so a number on the page
# and its verdict never disagree (14.6 px shown as "15 px" and judged too small).


def shown_cm(mm: float) -> int:
    """A distance in whole centimetres, halves rounded up (as the page's ``Math.round``)."""
    return math.floor(mm / 10 + 0.5)


def shown_deg(degrees: float) -> int:
    """An angle in whole degrees, halves rounded up (as the page's ``Math.round``)."""
    return math.floor(degrees + 0.5)


def shown_px(pixels: float) -> float:
    """A camel's height in pixels, to one decimal (15 px is the limit: 14.6 must not read as 15)."""
    return round(pixels, 1)


def shown_margin_px(pixels: float) -> int:
    """Room in whole pixels, rounded down (39.9 px is not 40)."""
    return math.floor(pixels)
