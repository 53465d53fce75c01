"""The README's numbers for placing the camera, in one place: the photo-like renderer places its cameras
within them and the placement assistant (:mod:`vision.placement`) checks a camera against them."""

from __future__ import annotations

import math

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
"""Where to aim the camera: this far in front of the board's middle, towards the camera (two thirds of the way to
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
