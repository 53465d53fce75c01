"""The placement assistant: from one frame, is the camera where the README says, and if not, what to change.

It finds the markers, estimates the camera's pose from them (OpenCV's own calibration arithmetic, on the markers'
corners), says where a missing marker should have been (outside the picture, too near its edge, or inside but
hidden), which spaces of the track cannot be seen (their printed outline is missing where the markers say it
is: the pyramid, the palm tree or a hand is in the way), how tall a camel looks where it looks smallest (and on
which space: from a camera looking down that is often the nearest one, seen most from above), and gives advice
in words against the numbers of :mod:`vision.guidance`, each limit checked on the figure it shows.

Before any of that, whether the picture can be read at all (:mod:`vision.focus`: the markers' edges for focus,
their paper and ink for exposure, the board's clipped share): a blurred or badly exposed picture is said first,
and the advice it would make wrong is held back (a marker blur hides is not "hidden by the pyramid", a blurred
outline is not a hidden space, and corners rounded by blur put the board farther than it is). Which spaces are
hidden, and whether the pyramid or the palm tree hides a marker, are judged only on a pose from three markers or
more (two leave the board's plane a few per cent off).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision import guidance
from vision.board import MARKER_IDS, BoardTemplate
from vision.focus import PictureQuality, WholePicture, measure_picture, measure_whole
from vision.locate import LocateConfig, find_markers, fit_lens

PLACES = {0: "top left", 1: "top right", 2: "bottom right", 3: "bottom left"}
HIDDEN_BELOW = 0.5
"""A space whose outline is seen along less than this share of its length is hidden."""
DISTANCE_TOLERANCE = 0.04
ANGLE_TOLERANCE_DEG = 2.0
"""How far the pose measured from the markers alone may be off (renders with a known camera: within about 3% and
1°); advice is given only beyond the guidance by more than this."""
SEARCH_MM = 5.0
"""How far from where the markers put it a space's printed edge is looked for (markers are taped a few mm off)."""
FIRM_POSE_MARKERS = 3
"""Markers a pose needs before the spaces are judged from it (two leave the board's plane a few per cent off: the
outlines land a third of a space away, and spaces in plain view would be called hidden), and before a missing
marker is blamed on the pyramid or the palm tree (which needs the spaces beside it judged seen)."""


@dataclass
class Placement:
    """What one frame says about the camera's placement (:meth:`as_json` for the page)."""

    size: tuple[int, int]
    markers: dict[int, dict[str, Any]] = field(default_factory=dict)
    pose: dict[str, float] | None = None
    spaces: dict[int, dict[str, Any]] = field(default_factory=dict)
    camel_px: dict[str, Any] | None = None
    advice: list[str] = field(default_factory=list)
    hidden_by: str | None = None
    """What hides the hidden spaces: ``"middle"`` (the pyramid or the palm tree) or ``"other"``."""
    picture: PictureQuality | None = None
    """Focus and exposure, measured on the markers found (:mod:`vision.focus`)."""
    pose_markers: int = 0
    """How many markers the pose comes from (below :data:`FIRM_POSE_MARKERS`: no space is judged hidden)."""
    whole: WholePicture | None = None
    """Focus and exposure of the whole picture, measured when too few markers are found to place the board (and
    those found, if any, say nothing wrong): a picture too blurred or too dark for any marker says so first."""

    @property
    def picture_ok(self) -> bool:
        return self.picture is None or self.picture.ok

    @property
    def ok(self) -> bool:
        return not self.advice

    @property
    def hidden_spaces(self) -> list[int]:
        return [space for space, facts in self.spaces.items() if facts["visible"] < HIDDEN_BELOW]

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "size": list(self.size),
            "markers": {str(m): facts for m, facts in self.markers.items()},
            "pose": self.pose,
            "spaces": {str(s): facts for s, facts in self.spaces.items()},
            "hidden_spaces": self.hidden_spaces,
            "hidden_by": self.hidden_by,
            "camel_px": self.camel_px,
            "picture": None if self.picture is None else self.picture.as_json(),
            "pose_markers": self.pose_markers,
            "whole_picture": None if self.whole is None else self.whole.as_json(),
            "advice": self.advice,
            "guidance": {
                "distance_mm": list(guidance.DISTANCE_MM), "elevation_deg": list(guidance.ELEVATION_DEG),
                "azimuth_deg": guidance.AZIMUTH_DEG, "margin_px": guidance.MARGIN_PX,
                "min_camel_px": guidance.MIN_CAMEL_PX,
            },
        }


def _room(points: np.ndarray, size: tuple[int, int]) -> float:
    width, height = size
    return float(min(points[:, 0].min(), points[:, 1].min(), width - 1 - points[:, 0].max(),
                     height - 1 - points[:, 1].max()))


def _marker_points(template: BoardTemplate, marker: int) -> np.ndarray:
    return np.array([(x, y, 0.0) for x, y in template.marker_corners(marker)], np.float32)


def _pose(template: BoardTemplate, found: dict[int, np.ndarray], size: tuple[int, int],
          matrix: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Camera matrix, rotation and translation from the markers found (two at least, unless ``matrix`` is
    known); the focal length is estimated with the principal point at the centre and square pixels."""
    if len(found) < (1 if matrix is not None else 2):
        return None
    if matrix is None:
        # The first radial term too, when all four markers are seen: a wide lens's barrel distortion would
        # otherwise make the board look farther than it is.
        lens = fit_lens(template, found, size, radial=len(found) == 4)
        return None if lens is None else (lens.matrix, lens.rotation, lens.translation)
    objects = np.concatenate([_marker_points(template, m) for m in found])
    pixels = np.concatenate([found[m] for m in found]).astype(np.float32)
    ok, rvec, tvec = cv2.solvePnP(objects, pixels, matrix, np.zeros(5))
    if not ok:
        return None
    rotation, _ = cv2.Rodrigues(rvec)
    return np.asarray(matrix, np.float64), rotation, tvec.reshape(3)


def _project(pose: tuple[np.ndarray, np.ndarray, np.ndarray], points: np.ndarray) -> np.ndarray:
    matrix, rotation, translation = pose
    cam = np.asarray(points, float) @ rotation.T + translation
    return (cam @ matrix.T)[:, :2] / (cam @ matrix.T)[:, 2:3]


def _outline_visibility(gray: np.ndarray, template: BoardTemplate, homography: np.ndarray) -> dict[int, float]:
    """For each space, the share of its printed outline found where the homography puts it. The edges are
    measured in the picture itself (so a far space, smaller in the picture, has edges as sharp as a near one),
    across each side of each space, looked for a few millimetres either side."""
    blurred = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), 0.8)
    gx = cv2.Sobel(blurred, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(blurred, cv2.CV_32F, 0, 1, ksize=3)
    height, width = gray.shape
    steps = np.arange(-SEARCH_MM, SEARCH_MM + 0.01, 0.5)

    def to_image(points: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), homography).reshape(-1, 2)

    strengths: dict[int, np.ndarray] = {}
    for space, cs in template.spaces.items():
        values = []
        for a, b in zip(cs, cs[1:] + cs[:1], strict=True):
            a, b = np.array(a), np.array(b)
            direction = (b - a) / np.linalg.norm(b - a)
            normal = np.array([-direction[1], direction[0]])
            along = a + np.outer(np.linspace(0.1, 0.9, 16), b - a)
            here, beside = to_image(along), to_image(along + normal)
            across_img = beside - here
            across_img /= np.maximum(np.linalg.norm(across_img, axis=1, keepdims=True), 1e-9)
            probe = to_image((along[:, None, :] + steps[None, :, None] * normal).reshape(-1, 2))
            ix, iy = np.round(probe[:, 0]).astype(int), np.round(probe[:, 1]).astype(int)
            inside = ((ix >= 0) & (ix < width) & (iy >= 0) & (iy < height)).reshape(len(along), len(steps))
            ix, iy = np.clip(ix, 0, width - 1), np.clip(iy, 0, height - 1)
            nx = np.repeat(across_img[:, 0], len(steps))
            ny = np.repeat(across_img[:, 1], len(steps))
            across = np.abs(gx[iy, ix] * nx + gy[iy, ix] * ny).reshape(len(along), len(steps))
            values.append(np.where(inside.all(axis=1), across.max(axis=1), 0.0))
        strengths[space] = np.concatenate(values)
    everything = np.concatenate(list(strengths.values()))
    # A printed edge is as strong as most of the track's edges are; what hides one leaves a weak gradient there.
    threshold = max(8.0, 0.3 * float(np.percentile(everything, 75)))
    return {space: float((values > threshold).mean()) for space, values in strengths.items()}


def _towards(template: BoardTemplate, x: float) -> int:
    """The space of the camera's side (9 to 13, the bottom row) nearest to ``x``."""
    return min(range(9, 14), key=lambda space: abs(template.space_centre(space)[0] - x))


def _behind_middle(template: BoardTemplate, camera_at: np.ndarray, target: np.ndarray, inset: float = 80.0) -> bool:
    """Whether the sight line from the camera to ``target`` passes over the board's middle (the track's outline
    shrunk by ``inset`` mm: by a space for what stands on the track, the ring's inside; by nothing for a marker,
    which the palm tree's fronds hide from above the track too), where the pyramid and the palm tree stand."""
    corners = np.array([c for cs in template.spaces.values() for c in cs])
    inner_low, inner_high = corners.min(axis=0) + inset, corners.max(axis=0) - inset
    for t in np.linspace(0, 0.98, 60):
        point = camera_at[:2] + t * (target[:2] - camera_at[:2])
        if (inner_low <= point).all() and (point <= inner_high).all():
            return True
    return False


def _covered_beside(template: BoardTemplate, report: Placement, corner: np.ndarray) -> bool:
    """Whether a space beside a marker's corner is hidden too: then whatever covers it (a hand, a box, the
    picture blanked, or the pyramid) may cover the marker as well, and the pyramid or the palm tree is not named
    as a guess (the sight line passing over the middle only says they could be in the way; a crown that hides
    the far marker alone, above the track, still is)."""
    centres = {space: np.array(template.space_centre(space)) for space in report.spaces}
    if not centres:
        return False
    nearest = min(float(np.linalg.norm(centre - corner)) for centre in centres.values())
    beside = [space for space, centre in centres.items() if float(np.linalg.norm(centre - corner)) <= nearest * 1.5]
    return any(report.spaces[space]["visible"] < HIDDEN_BELOW for space in beside)


def assess_placement(
    template: BoardTemplate, image: np.ndarray, camera_matrix: np.ndarray | None = None
) -> Placement:
    """Check one frame (BGR) against the guidance; ``camera_matrix`` if the camera's is known."""
    size = (image.shape[1], image.shape[0])
    report = Placement(size)
    # The reader's own search (sharpened, enlarged second looks): a marker the reader finds is not "hidden".
    found = find_markers(LocateConfig(), template, image)
    report.picture = measure_picture(image, found) if found else None
    pose = _pose(template, found, size, camera_matrix)
    camera_at = None
    if pose is not None:
        report.pose_markers = len(found)
        matrix, rotation, translation = pose
        camera_at = -rotation.T @ translation
        corners_mm = np.array([c for cs in template.spaces.values() for c in cs])
        middle = np.array([*(corners_mm.min(axis=0) + corners_mm.max(axis=0)) / 2, 0.0])
        offset = camera_at - middle
        distance = float(np.linalg.norm(offset))
        report.pose = {
            "distance_mm": round(distance, 1),
            "height_mm": round(float(-offset[2]), 1),
            "elevation_deg": round(float(np.degrees(np.arcsin(np.clip(-offset[2] / distance, -1, 1)))), 1),
            "azimuth_deg": round(float(np.degrees(np.arctan2(offset[0], offset[1]))), 1),
            "focal_px": round(float(matrix[0, 0]), 1),
        }
    for marker in MARKER_IDS:
        facts: dict[str, Any] = {"place": PLACES[marker], "found": marker in found}
        if marker in found:
            facts["corners"] = found[marker].round(1).tolist()
            facts["edge_px"] = round(_room(found[marker], size), 1)
        elif pose is not None:
            expected = _project(pose, _marker_points(template, marker))
            facts["expected"] = expected.round(1).tolist()
            room = _room(expected, size)
            facts["edge_px"] = round(room, 1)
            shown = guidance.shown_margin_px(room)
            facts["why"] = "outside" if room < 0 else ("edge" if shown < guidance.MARGIN_PX else "hidden")
        report.markers[marker] = facts
    if pose is not None and len(found) >= FIRM_POSE_MARKERS:
        homography = pose[0] @ np.column_stack([pose[1][:, 0], pose[1][:, 1], pose[2]])
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        visible = _outline_visibility(gray, template, homography / homography[2, 2])
        for space, share in visible.items():
            outline = _project(pose, np.array([(x, y, 0.0) for x, y in template.spaces[space]]))
            report.spaces[space] = {"visible": round(share, 2), "outline": outline.round(1).tolist()}
        heights = {}
        for space in template.spaces:
            x, y = template.space_centre(space)
            foot, top = _project(pose, np.array([(x, y, 0.0), (x, y, -guidance.CAMEL_HEIGHT_MM)]))
            heights[space] = float(np.linalg.norm(top - foot))
        smallest = min(heights, key=heights.get)
        farthest = max(template.spaces, key=lambda space: float(np.linalg.norm(
            np.array([*template.space_centre(space), 0.0]) - camera_at)))
        report.camel_px = {"smallest": guidance.shown_px(heights[smallest]), "space": smallest,
                           "largest": guidance.shown_px(max(heights.values())), "farthest_space": farthest,
                           "on_farthest": guidance.shown_px(heights[farthest])}
    if pose is None and report.picture_ok:
        report.whole = measure_whole(image)
    report.advice = _advice(template, report, camera_at)
    return report


def _advice(template: BoardTemplate, report: Placement, camera_at: np.ndarray | None) -> list[str]:
    # The picture first: blur or a bad exposure would make most of what follows wrong.
    advice = [] if report.picture is None else report.picture.problems()
    if report.whole is not None:  # too few markers to measure it on: the whole picture, without them
        advice += report.whole.problems()
    missing = [m for m, facts in report.markers.items() if not facts["found"]]
    # The margins are counted in the frame's pixels against a limit in a 1280×720 frame's: on a smaller frame a
    # well placed camera would be told to move back.
    small = report.picture is not None and report.picture.too_small
    if report.pose is None:
        names = ", ".join(f"{m} ({PLACES[m]})" for m in missing)
        return [*advice, f"only {len(report.markers) - len(missing)} marker(s) found (missing: {names}): point the "
                "camera at the board so that all four markers are in the picture, and check that they are taped flat"]
    for marker in missing:
        facts = report.markers[marker]
        corner = np.array(template.marker_corners(marker)).mean(axis=0)
        towards = _towards(template, float(corner[0]))
        name = f"marker {marker} ({PLACES[marker]})"
        if facts["why"] == "outside":
            advice.append(f"{name} is outside the picture: turn the camera towards it, or move the camera back")
        elif facts["why"] == "edge" and not small:
            advice.append(f"{name} is too near the picture's edge: leave at least {guidance.MARGIN_PX} px around it "
                          "(turn the camera towards it or move it back)")
        elif not report.picture_ok:
            continue  # blur, the exposure or the frame's size may be all that keeps it from being recognised
        elif (camera_at is not None and report.pose_markers >= FIRM_POSE_MARKERS
              and _behind_middle(template, camera_at, np.array([*corner, 0.0]), inset=0.0)
              and not _covered_beside(template, report, corner)):
            facts["hidden_by"], facts["towards"] = "middle", towards
            advice.append(f"{name} is hidden, probably by the pyramid or the palm tree in the middle of the board: "
                          f"raise the camera or move it towards space {towards}")
        else:
            facts["hidden_by"] = "other"
            advice.append(f"{name} is hidden or not recognised: take away what covers it (a hand, a card, a box) "
                          "and check that it is flat and lit without glare")
    for marker, facts in report.markers.items():
        if facts["found"] and not small and guidance.shown_margin_px(facts["edge_px"]) < guidance.MARGIN_PX:
            advice.append(f"marker {marker} ({PLACES[marker]}) is only {guidance.shown_margin_px(facts['edge_px'])} "
                          "px from the picture's "
                          f"edge: leave at least {guidance.MARGIN_PX} px (turn the camera towards it or move it back)")
    if not report.picture_ok:
        return advice  # the rest needs a sharp, well exposed picture
    pose = report.pose
    low, high = guidance.DISTANCE_MM
    cm = guidance.shown_cm(pose["distance_mm"])
    if cm < low / 10 * (1 - DISTANCE_TOLERANCE):
        advice.append(f"the camera is {cm} cm from the middle of the board: move it back "
                      f"to {low / 10:.0f}–{high / 10:.0f} cm")
    elif cm > high / 10 * (1 + DISTANCE_TOLERANCE):
        advice.append(f"the camera is {cm} cm from the middle of the board: move it "
                      f"closer, to {low / 10:.0f}–{high / 10:.0f} cm")
    low, high = guidance.ELEVATION_DEG
    elevation = guidance.shown_deg(pose["elevation_deg"])
    if elevation < low - ANGLE_TOLERANCE_DEG:
        advice.append(f"the camera looks down at {elevation}°: raise it (to {low:.0f}–{high:.0f}°), "
                      "or stacks will hide the spaces behind them")
    elif elevation > high + ANGLE_TOLERANCE_DEG:
        advice.append(f"the camera looks down at {elevation}°: lower it (to {low:.0f}–{high:.0f}°), "
                      "so it sees the stacks from the side")
    azimuth = pose["azimuth_deg"]
    round_by = guidance.shown_deg(abs(azimuth))
    if round_by > 60:
        advice.append("put the camera on the side of spaces 9 to 13 (the bottom row, space 1 at the far left)")
    elif round_by > guidance.AZIMUTH_DEG + ANGLE_TOLERANCE_DEG:
        side = 9 if azimuth > 0 else 13
        advice.append(f"the camera is {round_by}° round towards space {side}'s corner: move it towards "
                      f"space 11 (within {guidance.AZIMUTH_DEG:.0f}° of straight on)")
    hidden = report.hidden_spaces
    if hidden:
        names = ", ".join(str(s) for s in hidden)
        behind = camera_at is not None and all(
            _behind_middle(template, camera_at, np.array([*template.space_centre(s), 0.0])) for s in hidden
        )
        report.hidden_by = "middle" if behind else "other"
        cause = "the pyramid or the palm tree in the middle" if behind else "something on or over the board"
        advice.append(f"space{'s' if len(hidden) > 1 else ''} {names} cannot be seen ({cause}): raise the camera, "
                      "move what is in the way, or take it away while the camera reads")
    if report.camel_px and report.camel_px["smallest"] < guidance.MIN_CAMEL_PX:
        advice.append(f"camels on space {report.camel_px['space']} are only {report.camel_px['smallest']:.1f} px tall "
                      f"(at least {guidance.MIN_CAMEL_PX:.0f}): move the camera closer or use a higher resolution")
    return advice


def draw_placement(image: np.ndarray, report: Placement) -> np.ndarray:
    """The frame with the assistant's findings drawn over it: markers (green found, red where missing), the
    track's spaces (green seen, red hidden); the figures and the advice are written in a band added below the
    frame, so they cover nothing of it (the far row and markers 0 and 1 are at its top, the near ones at its
    bottom)."""
    out = image.copy()
    scale = max(1.0, image.shape[1] / 1280)
    thick = max(1, round(2 * scale))
    for space, facts in report.spaces.items():
        colour = (60, 200, 60) if facts["visible"] >= HIDDEN_BELOW else (40, 40, 230)
        outline = np.round(np.array(facts["outline"])).astype(np.int32)
        cv2.polylines(out, [outline], True, colour, thick, cv2.LINE_AA)
        centre = outline.mean(axis=0).astype(int)
        cv2.putText(out, str(space), tuple(centre), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, colour, thick, cv2.LINE_AA)
    for facts in report.markers.values():
        quad = facts.get("corners") or facts.get("expected")
        if quad is None:
            continue
        colour = (60, 200, 60) if facts["found"] else (40, 40, 230)
        cv2.polylines(out, [np.round(np.array(quad)).astype(np.int32)], True, colour, thick + 1, cv2.LINE_AA)
    lines = ["camera placement: OK"] if report.ok else report.advice
    if report.pose:
        p = report.pose
        azimuth = guidance.shown_deg(abs(p["azimuth_deg"]))
        lines = [f"{guidance.shown_cm(p['distance_mm'])} cm, {guidance.shown_deg(p['elevation_deg'])} deg down, "
                 f"{'-' if p['azimuth_deg'] < 0 and azimuth else '+'}{azimuth} deg"
                 + (f", smallest camel {report.camel_px['smallest']:.1f} px (space {report.camel_px['space']})"
                    if report.camel_px else ""), *lines]
    if report.picture is not None and report.picture.edge_px is not None:
        q = report.picture
        lines = [f"marker edges {q.edge_px:.1f} px, paper {q.white:.0f}/255, contrast/noise {q.snr:.0f}, "
                 f"board clipped {100 * q.clipped:.0f}%", *lines]
    ascii_only = str.maketrans({"–": "-", "°": " deg", "×": "x", "≤": "<="})
    width = max(40, int((image.shape[1] - 20) / (11 * scale)))  # characters of the font that fit across
    pieces = [line[i : i + width] for line in (line.translate(ascii_only) for line in lines)
              for i in range(0, len(line), width)]
    step = round(22 * scale)
    band = np.full((step * len(pieces) + round(12 * scale), image.shape[1], 3), 32, np.uint8)
    y = round(18 * scale)
    for piece in pieces:
        cv2.putText(band, piece, (10, y), cv2.FONT_HERSHEY_SIMPLEX, 0.55 * scale, (255, 255, 255), thick, cv2.LINE_AA)
        y += step
    return np.vstack([out, band])
