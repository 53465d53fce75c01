"""The README's numbers for placing the camera, in one place: the photo-like renderer places its cameras
within them and the placement assistant (:mod:`vision.placement`) checks a camera against them."""

from __future__ import annotations

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
"""The smallest a camel may look (its height in pixels, on the farthest space) to be read."""
CAMEL_HEIGHT_MM = 22.0
"""A game's camel, standing."""
