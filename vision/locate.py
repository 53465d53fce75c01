"""Stage 1 of reading the board: find the four ArUco markers and map the template's millimetres to pixels.

Like every stage, a typed function ``(config, image) -> result`` whose thresholds live in the config, so it
can be tuned on a real table. It never guesses: a marker not seen is a :class:`BoardNotFound` naming it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.board import MARKER_IDS, BoardTemplate


class BoardNotFound(RuntimeError):
    """The markers that locate the board are not all visible; the message names the missing ones."""

    def __init__(self, missing: list[int]) -> None:
        places = {0: "top left", 1: "top right", 2: "bottom right", 3: "bottom left"}
        names = ", ".join(f"{marker} ({places[marker]})" for marker in missing)
        super().__init__(f"board not found: marker{'s' if len(missing) > 1 else ''} {names} not seen")
        self.missing = missing


@dataclass(frozen=True)
class LocateConfig:
    """Detector settings (OpenCV's ``DetectorParameters``): larger threshold windows than OpenCV's default
    keep big, blurred markers close to the camera detectable."""

    adaptive_window_min: int = 3
    adaptive_window_max: int = 53
    adaptive_window_step: int = 6
    polygon_accuracy: float = 0.05
    """How far a quadrilateral may stray from straight sides (small, far markers are rough)."""
    second_look_zoom: float = 3.0
    """A marker missed while the other three were found is looked for again, enlarged this much, where the
    three say it must be (it must still be seen: its place is never taken from the others alone)."""
    corner_refinement: bool = True


@dataclass(frozen=True)
class BoardLocation:
    homography: np.ndarray
    """Template millimetres (x, y, 1) to image pixels."""
    markers: dict[int, np.ndarray]
    """Each marker's 4 corners in the image."""
    reprojection_px: float
    """Mean distance between the detected marker corners and where the homography puts them."""

    def to_image(self, points_mm: np.ndarray) -> np.ndarray:
        """Template points (N×2, mm) on the board plane to pixels (N×2)."""
        return cv2.perspectiveTransform(points_mm.reshape(-1, 1, 2).astype(np.float64), self.homography).reshape(-1, 2)


def detector(config: LocateConfig) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.adaptiveThreshWinSizeMin = config.adaptive_window_min
    params.adaptiveThreshWinSizeMax = config.adaptive_window_max
    params.adaptiveThreshWinSizeStep = config.adaptive_window_step
    params.polygonalApproxAccuracyRate = config.polygon_accuracy
    if config.corner_refinement:
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)


def _second_look(
    finder: cv2.aruco.ArucoDetector,
    config: LocateConfig,
    template: BoardTemplate,
    image: np.ndarray,
    seen: dict[int, np.ndarray],
    marker: int,
) -> np.ndarray | None:
    """Look again for one marker, enlarged, where the three others put it; its corners if it is there."""
    board = np.array([template.marker_corners(m) for m in seen], np.float64).reshape(-1, 2)
    pixels = np.array(list(seen.values()), np.float64).reshape(-1, 2)
    homography, _ = cv2.findHomography(board, pixels, 0)
    if homography is None:
        return None
    expected = cv2.perspectiveTransform(
        np.array(template.marker_corners(marker), np.float64).reshape(-1, 1, 2), homography
    ).reshape(-1, 2)
    pad = float(np.ptp(expected, axis=0).max())
    x0, y0 = np.maximum(expected.min(axis=0) - pad, 0).astype(int)
    x1, y1 = np.minimum(expected.max(axis=0) + pad, [image.shape[1] - 1, image.shape[0] - 1]).astype(int)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    zoom = config.second_look_zoom
    crop = cv2.resize(image[y0:y1, x0:x1], None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
    corners, ids, _ = finder.detectMarkers(crop)
    if ids is None:
        return None
    for quad, marker_id in zip(corners, ids.flatten(), strict=True):
        if int(marker_id) == marker:
            return quad.reshape(4, 2) / zoom + np.array([x0, y0], np.float32)
    return None


def locate_board(config: LocateConfig, template: BoardTemplate, image: np.ndarray) -> BoardLocation:
    """Where the board is in ``image`` (BGR).

    Raises:
        BoardNotFound: naming every marker that was not seen (no location is guessed from fewer).
    """
    finder = detector(config)
    corners, ids, _ = finder.detectMarkers(image)
    seen = {}
    if ids is not None:
        for quad, marker_id in zip(corners, ids.flatten(), strict=True):
            if int(marker_id) in MARKER_IDS:
                seen[int(marker_id)] = quad.reshape(4, 2)
    missing = [marker for marker in MARKER_IDS if marker not in seen]
    if len(missing) == 1 and config.second_look_zoom > 1:
        found = _second_look(finder, config, template, image, seen, missing[0])
        if found is not None:
            seen[missing[0]] = found
            missing = []
    if missing:
        raise BoardNotFound(missing)
    board = np.array([template.marker_corners(m) for m in MARKER_IDS], np.float64).reshape(-1, 2)
    pixels = np.array([seen[m] for m in MARKER_IDS], np.float64).reshape(-1, 2)
    homography, _ = cv2.findHomography(board, pixels, 0)
    if homography is None:
        raise BoardNotFound(list(MARKER_IDS))
    back = cv2.perspectiveTransform(board.reshape(-1, 1, 2), homography).reshape(-1, 2)
    error = float(np.linalg.norm(back - pixels, axis=1).mean())
    return BoardLocation(homography, seen, error)
