"""Stage 1 of reading the board: find the ArUco markers (all four, or three when one is hidden) and map the
template's millimetres to pixels.

Like every stage, a typed function ``(config, image) -> result`` whose thresholds live in the config, so it
can be tuned on a real table. It never guesses: a marker not seen is a :class:`BoardNotFound` naming it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from vision.board import MARKER_IDS, BoardTemplate


class BoardNotFound(RuntimeError):
    """Too few of the markers that locate the board are visible; the message names the missing ones."""

    def __init__(self, missing: list[int], moved: dict[int, float] | None = None, disagree: bool = False) -> None:
        places = {0: "top left", 1: "top right", 2: "bottom right", 3: "bottom left"}
        names = ", ".join(f"{marker} ({places[marker]})" for marker in missing)
        message = f"board not found: marker{'s' if len(missing) > 1 else ''} {names} not seen"
        if disagree:
            # Three are enough when they agree: say why these were not (the reader would otherwise seem wrong).
            seen = ", ".join(str(marker) for marker in MARKER_IDS if marker not in missing)
            message += (f", and markers {seen}, seen, do not agree on where the board is (a marker taped off its "
                        "place, or its paper not flat): show the missing marker, or tape them as the README says")
        if moved:
            seen = ", ".join(str(marker) for marker in sorted(moved))
            many = len(moved) > 1
            message += (f"; marker{'s' if many else ''} {seen} seen {max(moved.values()):.0f} px from where "
                        f"{'they were' if many else 'it was'}: has the camera moved? (calibrate again where it "
                        "stands now)")
        super().__init__(message)
        self.missing = missing


@dataclass(frozen=True)
class LocateConfig:
    """Detector settings (OpenCV's ``DetectorParameters``): larger threshold windows than OpenCV's default
    keep big, blurred markers close to the camera detectable."""

    adaptive_window_min: int = 5
    adaptive_window_max: int = 35
    adaptive_window_step: int = 10
    polygon_accuracy: float = 0.05
    """How far a quadrilateral may stray from straight sides (small, far markers are rough)."""
    second_look_zoom: float = 3.0
    """A marker missed while the other three were found is looked for again, enlarged this much, where the
    three say it must be (it must still be seen: its place is never taken from the others alone)."""
    corner_refinement: bool = True
    max_width: int = 1600
    """Markers are looked for in a picture at most this wide (a full-resolution still is scaled down)."""
    min_markers: int = 3
    """Three markers' twelve corners fix the board's plane as well as four do (a homography has eight unknowns),
    so the pyramid, the palm tree or a hand over one marker does not stop the reading. Fewer is "board not
    found"."""
    max_reprojection_px: float = 2.5
    """With one marker missing, the other three must agree on the plane this closely (mean corner error)."""
    still_px: float = 3.0
    """Fewer than ``min_markers`` seen in a following frame: when each one seen is this close (mean corner
    distance) to where it was, the camera has not moved and the board stays where it was. Corners found on a
    shaken or defocused frame wander by up to 2.5 pixels; a camera bumped further would leave the board off by
    more than the reader allows for."""
    steady_px: float = 3.0
    """All four markers seen in the next frame of a live view (``locate_board(..., frames=True)``), each this close
    (mean corner distance) to where the previous frame's place has them: the camera has not moved. The corners found
    move by noise alone (0.1 to 2.2 pixels on the shaken, noisy frames of benchmarks/camera_frame_time.py): the place
    is then fitted to the mean of the last ``run_frames`` frames' corners, truer than any one frame's, and kept as it
    is while that mean stays within ``settle_px`` of it, so that the reader reuses every shape it drew for that place
    (see ``vision.silhouette_geometry``). A camera bumped or drifting a little is followed by the mean; further than
    this, it is placed afresh. Only a live view's place is kept so, never a photo's kept for reference (a calibration
    photo, taken in other light, perhaps long before)."""
    settle_px: float = 0.75
    """See ``steady_px``: about what a place fitted to one frame's corners is off by (0.7 pixels median against the
    renderer's truth on the frame bench's frames): a kept place is never further off the mean than that."""
    run_frames: int = 10
    """See ``steady_px``: how many frames the mean weighs (older ones fade), so that a camera nudged by a pixel or
    two is followed within a few frames however long it stood still before."""


@dataclass(frozen=True)
class BoardLocation:
    homography: np.ndarray
    """Template millimetres (x, y, 1) to image pixels."""
    markers: dict[int, np.ndarray]
    """Each marker's 4 corners in the image."""
    reprojection_px: float
    """Mean distance between the detected marker corners and where the homography puts them."""
    seen_now: dict[int, np.ndarray] | None = None
    """The corners found in this very picture when the place is kept from earlier frames (a camera that has not
    moved: see ``LocateConfig.steady_px``): what the picture itself is measured on (its focus, its noise)."""
    steady_run: tuple[dict[int, np.ndarray], float] | None = None
    """A live view's place: the sum of each marker's corners over the frames since the camera last moved (the older
    ones fading past ``LocateConfig.run_frames``), and how many frames they weigh (``None``: a photo's place, such as
    a calibration photo's, never kept for another picture)."""

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


def sharpened(gray: np.ndarray, sigma: float = 2.0, amount: float = 1.0) -> np.ndarray:
    """An unsharp mask: gives a defocused or shaken marker back the edges the detector needs."""
    return cv2.addWeighted(gray, 1.0 + amount, cv2.GaussianBlur(gray, (0, 0), sigma), -amount, 0)


def _detect(finder: cv2.aruco.ArucoDetector, gray: np.ndarray, scale: float = 1.0) -> dict[int, np.ndarray]:
    corners, ids, _ = finder.detectMarkers(gray)
    seen = {}
    if ids is not None:
        for quad, marker_id in zip(corners, ids.flatten(), strict=True):
            if int(marker_id) in MARKER_IDS:
                seen[int(marker_id)] = quad.reshape(4, 2).astype(np.float64) / scale
    return seen


def _second_look(
    finder: cv2.aruco.ArucoDetector,
    config: LocateConfig,
    template: BoardTemplate,
    image: np.ndarray,
    seen: dict[int, np.ndarray],
    marker: int,
) -> np.ndarray | None:
    """Look again for one marker, enlarged (and sharpened), where the markers found put it; its corners if
    it is there."""
    board = np.array([template.marker_corners(m) for m in seen], np.float64).reshape(-1, 2)
    pixels = np.array(list(seen.values()), np.float64).reshape(-1, 2)
    homography, _ = cv2.findHomography(board, pixels, 0)
    if homography is None:
        return None
    expected = cv2.perspectiveTransform(
        np.array(template.marker_corners(marker), np.float64).reshape(-1, 1, 2), homography
    ).reshape(-1, 2)
    if not np.isfinite(expected).all():
        return None
    pad = float(np.ptp(expected, axis=0).max())
    x0, y0 = np.maximum(expected.min(axis=0) - pad, 0).astype(int)
    x1, y1 = np.minimum(expected.max(axis=0) + pad, [image.shape[1] - 1, image.shape[0] - 1]).astype(int)
    if x1 - x0 < 4 or y1 - y0 < 4 or (x1 - x0) * (y1 - y0) > image.shape[0] * image.shape[1] / 4:
        return None
    # Enlarged, then sharpened harder and harder (a shaken or defocused marker), with the usual threshold
    # windows and wider ones (the enlarged marker's cells are large); last, all that again smoothed first: on a
    # dark, noisy photo sharpening only sharpens the noise, and the marker's cells stay specks.
    region, wide = image[y0:y1, x0:x1], _wide_detector(config)
    for source in (region, cv2.GaussianBlur(region, (0, 0), DENOISE_SIGMA)):
        for zoom in (config.second_look_zoom, config.second_look_zoom * 2 / 3):
            crop = cv2.resize(source, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
            # Candidates far smaller than the marker should be are left out (see _near: in a crop, specks count).
            outline = NEAR_PERIMETER_SHARE * 4 * pad * zoom / max(crop.shape)
            lookers = [_sized(finder, outline), _sized(wide, outline)]
            for amount in (0.0, 1.0, 2.0, 3.0):
                look = crop if amount == 0 else sharpened(crop, zoom * (1 + amount / 2), amount)
                for looking in lookers:
                    found = _detect(looking, look, zoom)
                    if marker in found:
                        return found[marker] + np.array([x0, y0], np.float64)
    return None


def _wide_detector(config: LocateConfig) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.adaptiveThreshWinSizeMin, params.adaptiveThreshWinSizeMax, params.adaptiveThreshWinSizeStep = 15, 75, 20
    params.polygonalApproxAccuracyRate = config.polygon_accuracy
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)


DENOISE_SIGMA = 1.0
"""The second look's last tries smooth the marker's surroundings this much first (pixels of the picture): on a
dark, noisy photo the sharpened tries only sharpen the noise."""
NEAR_PERIMETER_SHARE = 0.25
"""Looking for a marker where it was (or where the others put it), candidates shorter than this share of its
outline there are left out."""


def _sized(finder: cv2.aruco.ArucoDetector, perimeter_rate: float) -> cv2.aruco.ArucoDetector:
    """``finder`` with candidates shorter than ``perimeter_rate`` of the picture's larger side left out."""
    params = finder.getDetectorParameters()
    params.minMarkerPerimeterRate = perimeter_rate
    return cv2.aruco.ArucoDetector(finder.getDictionary(), params)


def _near(
    finder: cv2.aruco.ArucoDetector, gray: np.ndarray, previous: BoardLocation
) -> dict[int, np.ndarray]:
    """The markers looked for only around where they were in the previous frame (a camera on a stand does
    not move): a few small crops instead of the whole picture (``gray``: or the BGR picture, each crop then
    turned grey alone)."""
    seen = {}
    height, width = gray.shape[:2]
    for marker, quad in previous.markers.items():
        size = float(np.ptp(quad, axis=0).max())
        pad = size * 0.6 + 8
        x0, y0 = np.maximum(quad.min(axis=0) - pad, 0).astype(int)
        x1, y1 = np.minimum(quad.max(axis=0) + pad, [width, height]).astype(int)
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue
        # A large marker is looked for smaller (about 60 px: plenty for 4×4 cells), its corners refined after.
        scale = min(1.0, 60.0 / max(size, 1.0))
        crop = gray[y0:y1, x0:x1] if gray.ndim == 2 else cv2.cvtColor(gray[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
        small = crop if scale == 1.0 else cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        # OpenCV's smallest candidate is a share of the picture's size: in a small crop, every speck of noise
        # is one (6 ms a crop). The marker is about as large as it was: a quarter of its outline is plenty.
        found = _detect(_sized(finder, NEAR_PERIMETER_SHARE * 4 * size * scale / max(small.shape)), small, scale)
        if marker in found:
            corners = found[marker].astype(np.float32).reshape(-1, 1, 2)
            if scale < 1.0:
                criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
                corners = cv2.cornerSubPix(crop, corners, (max(2, round(1.5 / scale)),) * 2, (-1, -1), criteria)
            seen[marker] = corners.reshape(4, 2).astype(np.float64) + np.array([x0, y0], np.float64)
    return seen


def locate_board(
    config: LocateConfig,
    template: BoardTemplate,
    image: np.ndarray,
    near: BoardLocation | None = None,
    *,
    frames: bool = False,
) -> BoardLocation:
    """Where the board is in ``image`` (BGR or grey). A picture wider than ``config.max_width`` is searched
    at that width (the markers are large); corners are given in the full picture's pixels. ``near``: where
    the board was in the previous frame of the same camera (or in its calibration photo): the markers are looked
    for around there first, and when too few are seen to place the board but each of those is where it was
    (``config.still_px``), the camera has not moved and ``near`` is the answer. ``frames``: ``image`` is the next
    frame of a live view whose last frame's place is ``near``: all four seen where they were
    (``config.steady_px``), the camera has not moved and keeps its place.

    Raises:
        BoardNotFound: fewer than ``config.min_markers`` markers seen, or three that disagree, and not all of them
            where ``near`` had them (naming every marker that was not seen, and those seen that moved; no
            location is guessed otherwise).
    """
    size = (image.shape[1], image.shape[0])
    if near is not None:
        seen = _near(detector(config), image, near)  # (only the crops around the markers turned grey)
        location = _placed(config, template, seen, size, near, frames)
        if location is not None:
            return location
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    seen = find_markers(config, template, gray)
    location = _placed(config, template, seen, size, near, frames)
    if location is not None:
        return location
    missing = [marker for marker in MARKER_IDS if marker not in seen]
    moved = {} if near is None else {marker: _moved_by(quad, near, marker) for marker, quad in seen.items()}
    moved = {marker: far for marker, far in moved.items() if config.still_px < far < np.inf}
    raise BoardNotFound(missing, moved, disagree=len(seen) >= config.min_markers and not moved)


def _placed(
    config: LocateConfig,
    template: BoardTemplate,
    seen: dict[int, np.ndarray],
    size: tuple[int, int],
    near: BoardLocation | None,
    frames: bool = False,
) -> BoardLocation | None:
    """The board's place from the markers ``seen``: all four; with ``near``, the place it had when those seen
    are where they were (the camera has not moved: one to three covered by a hand or the 2018 pyramid, and the
    place all four gave beats what the ones left say, bent by the lens and the tape); else three that agree.
    ``None``: not placed."""
    if len(seen) == len(MARKER_IDS):
        if frames and near is not None and near.steady_run is not None and _where_they_were(
                seen, near, config.steady_px):
            return _steady(config, template, seen, near)  # the camera has not moved: its corners, by noise alone
        location = fit_location(template, seen)
        return replace(location, steady_run=(dict(seen), 1.0)) if frames else location
    if near is not None and seen and _where_they_were(seen, near, config.still_px):
        return near  # where all the markers placed it beats what the ones left would say
    if len(seen) >= config.min_markers:
        location = fit_location(template, seen)
        if _agree(config, template, location, size):
            return location
    return None


def _steady(
    config: LocateConfig, template: BoardTemplate, seen: dict[int, np.ndarray], near: BoardLocation
) -> BoardLocation:
    """The place of a camera that has not moved since ``near``'s frames, with this frame's corners ``seen`` too:
    ``near`` itself while the mean of the frames' corners stays within ``config.settle_px`` of it, else fitted
    to that mean (see ``LocateConfig.steady_px``)."""
    sums, count = near.steady_run
    # Past run_frames, the older frames fade: their sums scaled down to weigh that many less one (the same mean).
    weight = min(1.0, (config.run_frames - 1) / count)
    total = {marker: sums[marker] * weight + quad for marker, quad in seen.items()}
    count = count * weight + 1
    mean = {marker: quad / count for marker, quad in total.items()}
    run = (total, count)
    if _where_they_were(mean, near, config.settle_px):
        return replace(near, seen_now=seen, steady_run=run)
    return replace(fit_location(template, mean), seen_now=seen, steady_run=run)


def find_markers(config: LocateConfig, template: BoardTemplate, image: np.ndarray) -> dict[int, np.ndarray]:
    """Every marker found in the whole picture (BGR or grey): each one's 4 corners in its pixels. A missed one
    is looked for again, sharpened, and enlarged where the others say it must be (see :func:`_second_look`)."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    scale = min(1.0, config.max_width / gray.shape[1])
    small = gray if scale == 1.0 else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    finder = detector(config)
    seen = _detect(finder, small, scale)
    for attempt in ("second look", "sharpened", "second look"):
        missing = [marker for marker in MARKER_IDS if marker not in seen]
        if not missing:
            break
        if attempt == "sharpened":
            seen = {**_detect(finder, sharpened(small), scale), **seen}
        elif len(seen) >= 2 and config.second_look_zoom > 1:
            scaled = {marker: quad * scale for marker, quad in seen.items()}
            for marker in missing:
                found = _second_look(finder, config, template, small, scaled, marker)
                if found is not None:
                    seen[marker] = found / scale
    if seen and scale != 1.0 and config.corner_refinement:
        # Corners found on the smaller picture, refined on the full one.
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
        found = [m for m in MARKER_IDS if m in seen]
        points = np.array([seen[m] for m in found], np.float32).reshape(-1, 1, 2)
        refined = cv2.cornerSubPix(gray, points, (max(2, round(1.5 / scale)),) * 2, (-1, -1), criteria)
        seen = {m: refined[4 * i : 4 * i + 4].reshape(4, 2).astype(np.float64) for i, m in enumerate(found)}
    return seen


def _where_they_were(markers: dict[int, np.ndarray], previous: BoardLocation, within: float) -> bool:
    """Whether each of ``markers`` (its 4 corners) is within ``within`` pixels of where ``previous`` had it."""
    return all(_moved_by(quad, previous, marker) <= within for marker, quad in markers.items())


def _moved_by(quad: np.ndarray, previous: BoardLocation, marker: int) -> float:
    """How far a marker's corners are from where ``previous`` had them (mean, pixels; infinite if it had none)."""
    if marker not in previous.markers:
        return float("inf")
    return float(np.linalg.norm(quad - previous.markers[marker], axis=1).mean())


def fit_location(template: BoardTemplate, seen: dict[int, np.ndarray]) -> BoardLocation:
    """The board's place from the markers ``seen`` (each one's 4 corners): the homography through their
    corners, and how far they are from it."""
    found = [m for m in MARKER_IDS if m in seen]
    board = np.array([template.marker_corners(m) for m in found], np.float64).reshape(-1, 2)
    pixels = np.array([seen[m] for m in found], np.float64).reshape(-1, 2)
    homography, _ = cv2.findHomography(board, pixels, 0)
    if homography is None:
        raise BoardNotFound(list(MARKER_IDS))
    back = cv2.perspectiveTransform(board.reshape(-1, 1, 2), homography).reshape(-1, 2)
    return BoardLocation(homography, seen, float(np.linalg.norm(back - pixels, axis=1).mean()))


def _agree(config: LocateConfig, template: BoardTemplate, location: BoardLocation, size: tuple[int, int]) -> bool:
    """Three markers agree on the board's plane: their corners within ``config.max_reprojection_px`` of it,
    seen through a lens (a webcam's barrel distortion bends them off any one homography by a few pixels)."""
    if location.reprojection_px <= config.max_reprojection_px:
        return True
    lens = fit_lens(template, location.markers, size)
    return lens is not None and lens.error_px <= config.max_reprojection_px


@dataclass(frozen=True)
class LensFit:
    """The camera seen through the markers' corners: its matrix (principal point at the middle, square pixels),
    the first radial distortion term (OpenCV's k1), its pose, and how far the corners are from it."""

    matrix: np.ndarray
    radial: float
    rotation: np.ndarray
    translation: np.ndarray
    error_px: float
    """Mean distance between the corners seen and where the fit puts them."""


def fit_lens(
    template: BoardTemplate,
    markers: dict[int, np.ndarray],
    size: tuple[int, int],
    focal_px: float | None = None,
    radial: bool = True,
) -> LensFit | None:
    """The camera's focal length, k1 (unless not ``radial``: then 0) and pose from the markers' corners (OpenCV's
    calibration on this one view; ``focal_px``: where to start, else the picture's width); ``None`` when it does
    not converge. The same corners give the fit found for them last (a camera that has not moved, its markers
    where they were: the following frames of a board with a marker hidden keep the place all four gave)."""
    objects = np.array([(x, y, 0.0) for m in markers for x, y in template.marker_corners(m)], np.float32)
    pixels = np.concatenate([markers[m] for m in markers]).astype(np.float32)
    return _lens_of(objects.tobytes(), pixels.tobytes(), (int(size[0]), int(size[1])),
                    float(focal_px or size[0]), radial)


LENS_CONVERGED = 1e-9
"""The lens fit stops once an iteration changes its parameters by less than this share. OpenCV's default
(``DBL_EPSILON``) runs all 30 iterations, twice the time, for changes smaller than two calls on the same corners
differ by (k1 by up to 6e-8 of itself on the frames of benchmarks/camera_frame_time.py)."""


@lru_cache(maxsize=8)
def _lens_of(objects_bytes: bytes, pixels_bytes: bytes, size: tuple[int, int], focal: float,
             radial: bool) -> LensFit | None:
    """:func:`fit_lens` on its corners as bytes (float32: the board's x, y, z and the picture's x, y), kept for the
    same ones (its arrays are read-only: every caller shares them)."""
    objects = np.frombuffer(objects_bytes, np.float32).reshape(-1, 3)
    pixels = np.frombuffer(pixels_bytes, np.float32).reshape(-1, 2)
    width, height = size
    guess = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]], np.float64)
    flags = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT | cv2.CALIB_FIX_ASPECT_RATIO
             | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3 | (0 if radial else cv2.CALIB_FIX_K1))
    criteria = (cv2.TERM_CRITERIA_COUNT + cv2.TERM_CRITERIA_EPS, 30, LENS_CONVERGED)
    try:
        _, matrix, distortion, rvecs, tvecs = cv2.calibrateCamera([objects], [pixels], size, guess, np.zeros(5),
                                                                  flags=flags, criteria=criteria)
    except cv2.error:
        return None
    if not np.isfinite(matrix).all() or not np.isfinite(distortion).all():
        return None
    back, _ = cv2.projectPoints(objects, rvecs[0], tvecs[0], matrix, distortion)
    error = float(np.linalg.norm(back.reshape(-1, 2) - pixels, axis=1).mean())
    rotation, _ = cv2.Rodrigues(rvecs[0])
    arrays = np.asarray(matrix, float), rotation, tvecs[0].reshape(3).astype(float)
    for array in arrays:
        array.setflags(write=False)
    return LensFit(arrays[0], float(distortion.ravel()[0]), arrays[1], arrays[2], error)
