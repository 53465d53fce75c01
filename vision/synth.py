"""Synthetic scenes: the board from its template and the camels as stacked 3D blocks, seen by a camera
beside the table at an angle, with shadows, uneven light, a colour cast, noise, blur, JPEG compression and
sometimes a hand over the track (never over a marker). Seeded: the same seed gives the same picture.

World frame: the template's millimetres, x to the right, y down the board, z into the table (so "up" is
negative z and the frame stays right-handed). Camera frame: OpenCV's (x right, y down, z forward).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.board import BoardTemplate

CAMEL_BGR: dict[str, tuple[int, int, int]] = {
    "blue": (200, 110, 40),
    "green": (60, 160, 40),
    "orange": (40, 140, 240),
    "yellow": (40, 210, 240),
    "white": (235, 235, 235),
    "red": (50, 50, 210),
    "purple": (160, 60, 130),
    "black": (35, 35, 35),
}
EDITION_CAMELS = {
    "2014": ("blue", "green", "orange", "yellow", "white"),
    "2018": ("green", "yellow", "red", "blue", "purple", "black", "white"),
}
FRAME_SIZE = (1280, 720)


def camel_edition(template: BoardTemplate) -> str:
    """The edition whose camels a board template carries (a custom template naming none: 2018's)."""
    return template.edition if template.edition in EDITION_CAMELS else "2018"


def camel_profiles(edition: str) -> dict[str, tuple[int, int, int]]:
    """The camels of an edition with the colours the synthetic scenes paint them (a real table's camels
    need profiles calibrated from a photo)."""
    return {camel: CAMEL_BGR[camel] for camel in EDITION_CAMELS[edition]}


@dataclass(frozen=True)
class SceneVariation:
    """How far scenes may differ (each value is a range drawn from uniformly)."""

    distance_mm: tuple[float, float] = (650.0, 900.0)
    elevation_deg: tuple[float, float] = (35.0, 60.0)
    """Angle of the camera above the table: oblique, never overhead."""
    azimuth_deg: tuple[float, float] = (-25.0, 25.0)
    """Around the table from the side of spaces 9 to 13."""
    roll_deg: tuple[float, float] = (-4.0, 4.0)
    focal_px: tuple[float, float] = (850.0, 1050.0)
    light: tuple[float, float] = (0.65, 1.15)
    cast: tuple[float, float] = (0.88, 1.12)
    noise_sigma: tuple[float, float] = (0.0, 6.0)
    blur: tuple[int, ...] = (0, 0, 3, 5)
    jpeg_quality: tuple[int, int] = (60, 95)
    hand_chance: float = 0.3
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """A fixed colour shift of this table's camera (B, G, R multipliers), on top of the random cast."""


@dataclass
class Camera:
    matrix: np.ndarray
    rotation: np.ndarray
    """World to camera."""
    position: np.ndarray
    size: tuple[int, int] = FRAME_SIZE
    pose: dict[str, float] = field(default_factory=dict)

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N×3, mm) to pixels (N×2)."""
        in_camera = (self.rotation @ (points - self.position).T).T
        projected = (self.matrix @ in_camera.T).T
        return projected[:, :2] / projected[:, 2:3]

    def depth(self, point: np.ndarray) -> float:
        return float(np.linalg.norm(point - self.position))


def make_camera(template: BoardTemplate, rng: random.Random, variation: SceneVariation) -> Camera:
    """A camera beside the table, looking at the board's centre from above at an angle."""
    width, height = template.size
    centre = np.array([width / 2, height / 2, 0.0])
    distance = rng.uniform(*variation.distance_mm)
    elevation = np.radians(rng.uniform(*variation.elevation_deg))
    azimuth = np.radians(rng.uniform(*variation.azimuth_deg))
    position = centre + distance * np.array(
        [np.sin(azimuth) * np.cos(elevation), np.cos(azimuth) * np.cos(elevation), -np.sin(elevation)]
    )
    forward = (centre - position) / np.linalg.norm(centre - position)
    up = np.array([0.0, 0.0, -1.0])
    right = np.cross(forward, up)
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    roll = np.radians(rng.uniform(*variation.roll_deg))
    right, down = np.cos(roll) * right + np.sin(roll) * down, -np.sin(roll) * right + np.cos(roll) * down
    focal = rng.uniform(*variation.focal_px)
    matrix = np.array([[focal, 0, FRAME_SIZE[0] / 2], [0, focal, FRAME_SIZE[1] / 2], [0, 0, 1.0]])
    camera = Camera(matrix, np.stack([right, down, forward]), position, FRAME_SIZE)
    # Whoever sets the camera up frames the whole board, as large as fits: turn the camera until the board
    # is centred in the picture, then zoom until its widest side just fits inside the margin.
    outline = np.array(
        [(x, y, 0.0) for m in template.markers for x, y in template.marker_corners(m)]
        + [(x, y, 0.0) for corners in template.spaces.values() for x, y in corners]
    )
    margin = 0.04 * FRAME_SIZE[0]
    for _ in range(4):
        pixels = camera.project(outline)
        middle = (pixels.min(axis=0) + pixels.max(axis=0)) / 2
        towards = np.linalg.inv(camera.matrix) @ np.array([middle[0], middle[1], 1.0])
        camera.rotation = _look_along(camera.rotation.T @ towards, camera.rotation)
        pixels = camera.project(outline)
        spread = (pixels.max(axis=0) - pixels.min(axis=0)) / 2
        room = np.array(FRAME_SIZE) / 2 - margin
        zoom = float(np.min(room / spread))
        camera.matrix[0, 0] *= zoom
        camera.matrix[1, 1] *= zoom
    camera.pose = {
        "distance_mm": distance,
        "elevation_deg": float(np.degrees(elevation)),
        "azimuth_deg": float(np.degrees(azimuth)),
        "focal_px": float(camera.matrix[0, 0]),
    }
    return camera


def _look_along(forward: np.ndarray, rotation: np.ndarray) -> np.ndarray:
    """The camera turned to look along ``forward`` (world), keeping its roll about the view."""
    forward = forward / np.linalg.norm(forward)
    right = rotation[0] - np.dot(rotation[0], forward) * forward
    right /= np.linalg.norm(right)
    return np.stack([right, np.cross(forward, right), forward])


def board_texture(template: BoardTemplate, px_per_mm: float) -> np.ndarray:
    """The board seen from straight above: sand, the 16 spaces with their numbers, the markers."""
    width, height = template.size
    # The board reaches as far past the right and bottom markers as it does before the left and top ones,
    # so every marker has its white margin.
    border_x = min(x for x, _ in template.markers.values())
    border_y = min(y for _, y in template.markers.values())
    texture = np.full(
        (round((height + border_y) * px_per_mm), round((width + border_x) * px_per_mm), 3), (150, 200, 225), np.uint8
    )

    def px(point: tuple[float, float]) -> tuple[int, int]:
        return (round(point[0] * px_per_mm), round(point[1] * px_per_mm))

    for space, corners in template.spaces.items():
        polygon = np.array([px(c) for c in corners], np.int32)
        cv2.fillConvexPoly(texture, polygon, (175, 222, 240) if space != 1 else (195, 235, 248))
        cv2.polylines(texture, [polygon], True, (70, 120, 160), max(1, round(1.5 * px_per_mm)))
        x, y = px(corners[0])
        cv2.putText(
            texture,
            str(space),
            (x + round(4 * px_per_mm), y + round(14 * px_per_mm)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.35 * px_per_mm,
            (60, 100, 140),
            max(1, round(px_per_mm)),
        )
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for marker_id in template.markers:
        x0, y0 = px(template.marker_corners(marker_id)[0])
        side = round(template.marker_size * px_per_mm)
        quiet = round(6 * px_per_mm)
        texture[y0 - quiet : y0 + side + quiet, x0 - quiet : x0 + side + quiet] = 255
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        texture[y0 : y0 + side, x0 : x0 + side] = marker[:, :, None]
    return texture


def _box_corners(centre: tuple[float, float], level: int, camel: dict[str, float], angle: float) -> np.ndarray:
    """The 8 corners of a camel's block: bottom 4 then top 4 (z up is negative)."""
    half_l, half_w, h = camel["length"] / 2, camel["width"] / 2, camel["height"]
    c, s = np.cos(angle), np.sin(angle)
    footprint = [(-half_l, -half_w), (half_l, -half_w), (half_l, half_w), (-half_l, half_w)]
    ring = [(centre[0] + c * dx - s * dy, centre[1] + s * dx + c * dy) for dx, dy in footprint]
    bottom, top = -level * h, -(level + 1) * h
    return np.array([(x, y, bottom) for x, y in ring] + [(x, y, top) for x, y in ring], float)


FACES = ((4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7))
"""Top, then the four sides (indices into :func:`_box_corners`)."""


def random_track(edition: str, rng: random.Random) -> dict[int, list[str]]:
    """Every camel of the edition on a random space, stacks in a random order (bottom first)."""
    camels = list(EDITION_CAMELS[edition])
    rng.shuffle(camels)
    track: dict[int, list[str]] = {}
    for camel in camels:
        track.setdefault(rng.randint(1, 16), []).append(camel)
    return track


def render_scene(
    template: BoardTemplate,
    track: dict[int, list[str]],
    seed: int,
    variation: SceneVariation | None = None,
    colours: dict[str, tuple[int, int, int]] | None = None,
) -> tuple[np.ndarray, dict[str, Any]]:
    """A 1280×720 BGR frame of the board with ``track`` on it, and the truth about it. ``colours`` paints
    the camels (BGR) other than :data:`CAMEL_BGR`, as a real table's camels are."""
    colours = {**CAMEL_BGR, **(colours or {})}
    variation = variation or SceneVariation()
    rng = random.Random(seed)
    camera = make_camera(template, rng, variation)
    px_per_mm = 2.0
    texture = board_texture(template, px_per_mm)
    plane = camera.matrix @ np.column_stack(
        [camera.rotation[:, 0], camera.rotation[:, 1], -camera.rotation @ camera.position]
    )
    homography = plane @ np.diag([1 / px_per_mm, 1 / px_per_mm, 1.0])
    table = (90, 110, 130)
    frame = cv2.warpPerspective(texture, homography, camera.size, flags=cv2.INTER_AREA, borderValue=table)

    # Shadows: each stack's footprint pushed away from the light, darkened and softened. ``light`` points
    # from the table towards the lamp (up is negative z).
    light = np.array([rng.uniform(-0.5, 0.5), rng.uniform(-0.8, -0.2), -1.0])
    shadow = np.zeros(frame.shape[:2], np.float32)
    blocks = []
    for space, stack in track.items():
        cx, cy = template.space_centre(space)
        centre = (cx + rng.uniform(-6, 6), cy + rng.uniform(-6, 6))
        angle = rng.uniform(-0.25, 0.25)
        for level, camel in enumerate(stack):
            corners = _box_corners(centre, level, template.camel, angle + rng.uniform(-0.05, 0.05))
            blocks.append((camel, corners))
        height = len(stack) * template.camel["height"]
        ground = _box_corners(centre, 0, template.camel, angle)[:4]
        offset = -light[:2] / light[2] * height * 0.6
        cast = np.vstack([ground, ground + np.array([offset[0], offset[1], 0])])
        hull = cv2.convexHull(camera.project(cast).astype(np.float32))
        cv2.fillConvexPoly(shadow, hull.astype(np.int32), 1.0)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 6)
    frame = (frame * (1 - 0.35 * shadow[:, :, None])).astype(np.uint8)

    # The blocks, far ones first, each face shaded by how it faces the light.
    blocks.sort(key=lambda block: -camera.depth(block[1].mean(axis=0)))
    for camel, corners in blocks:
        pixels = camera.project(corners)
        middle = corners.mean(axis=0)
        for face in FACES:
            points = corners[list(face)]
            centre = points.mean(axis=0)
            normal = centre - middle  # outward: a solid block shows only the faces turned to the camera
            if np.dot(normal, camera.position - centre) <= 0:
                continue
            shade = 0.55 + 0.45 * max(
                0.0, float(np.dot(normal / np.linalg.norm(normal), light / np.linalg.norm(light)))
            )
            colour = tuple(int(min(255, c * shade)) for c in colours[camel])
            cv2.fillConvexPoly(frame, pixels[list(face)].round().astype(np.int32), colour, cv2.LINE_AA)
            cv2.polylines(
                frame,
                [pixels[list(face)].round().astype(np.int32)],
                True,
                tuple(int(c * 0.6) for c in colour),
                1,
                cv2.LINE_AA,
            )

    hand = None
    if rng.random() < variation.hand_chance:
        hand = _hand(frame, template, camera, rng)
    frame = _photograph(frame, rng, variation)
    truth = {
        "track": {str(space): list(stack) for space, stack in sorted(track.items())},
        "camera": camera.pose,
        "board_to_image": (plane / plane[2, 2]).tolist(),
        "hand_over_space": hand,
        "seed": seed,
    }
    return frame, truth


def _hand(frame: np.ndarray, template: BoardTemplate, camera: Camera, rng: random.Random) -> int | None:
    """A skin-coloured hand reaching in beside one space, over part of it: at most about half of a camel's
    side is covered (a stack hidden entirely cannot be read, only reported unseen), and never a marker."""
    markers = [camera.project(np.array([[x, y, 0.0] for x, y in template.marker_corners(m)])) for m in template.markers]
    for _ in range(10):
        space = rng.randint(1, 16)
        cx, cy = template.space_centre(space)
        side = rng.choice((-1, 1))
        # Reaching in from the camera's side of the board, beside the stack as the camera sees it: its edge
        # comes at most 14 mm from the middle of the space.
        toward = camera.position[:2] - np.array([cx, cy])
        toward /= np.linalg.norm(toward)
        across = np.array([-toward[1], toward[0]])
        width = rng.uniform(14, 20)
        reach = np.array([cx, cy]) + side * (width + rng.uniform(8, 14)) * across + rng.uniform(30, 50) * toward
        middle = np.array([reach[0], reach[1], -rng.uniform(25, 45)])
        centre, beside = camera.project(np.array([middle, middle + np.array([*across * 10.0, 0.0])]))
        px_per_mm = float(np.linalg.norm(beside - centre)) / 10
        axes = (round(rng.uniform(40, 55) * px_per_mm), round(width * px_per_mm))
        if all(np.min(np.linalg.norm(quad - centre, axis=1)) > max(axes) + 30 for quad in markers):
            colour = (rng.randint(120, 150), rng.randint(150, 180), rng.randint(200, 230))
            angle = 90 + rng.uniform(-20, 20)
            cv2.ellipse(frame, (int(centre[0]), int(centre[1])), axes, angle, 0, 360, colour, -1, cv2.LINE_AA)
            return space
    return None


def _photograph(frame: np.ndarray, rng: random.Random, variation: SceneVariation) -> np.ndarray:
    """Uneven light, a colour cast, sensor noise, blur and JPEG compression."""
    height, width = frame.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(angle) * xs / width + np.sin(angle) * ys / height + 1) / 2
    low, high = sorted((rng.uniform(*variation.light), rng.uniform(*variation.light)))
    light = low + (high - low) * ramp
    cast = np.array([rng.uniform(*variation.cast) for _ in range(3)], np.float32) * np.array(variation.white_balance)
    image = frame.astype(np.float32) * light[:, :, None] * cast
    np_rng = np.random.default_rng(rng.randrange(2**32))
    image += np_rng.normal(0, rng.uniform(*variation.noise_sigma), image.shape).astype(np.float32)
    image = np.clip(image, 0, 255).astype(np.uint8)
    blur = rng.choice(variation.blur)
    if blur:
        image = cv2.GaussianBlur(image, (blur, blur), 0)
    quality = rng.randint(*variation.jpeg_quality)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR) if ok else image
