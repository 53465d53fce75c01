"""A small software renderer for the photo-like scenes (:mod:`vision.photo`): triangle meshes, a pinhole camera
with radial distortion, and a z-buffer rasterizer in numpy.

It shares no drawing code with :mod:`vision.synth` or the reader on purpose: the scenes it makes are for
measuring the reader on pictures it was not tuned on.

World frame: the board template's millimetres, x to the right, y down the board, z into the table (above the
board is negative z), the same right-handed frame as :class:`vision.read.Pose`. Camera frame: OpenCV's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np


@dataclass
class Mesh:
    """Triangles with a colour (linear BGR albedo), an object id and a glossiness each."""

    vertices: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    faces: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.int64))
    colours: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    objects: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    gloss: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))

    def add(self, vertices: np.ndarray, faces: np.ndarray, colour, obj: int, gloss: float = 0.0) -> None:
        """Append triangles; ``colour`` is one BGR triple or one per face."""
        colour = np.asarray(colour, np.float32)
        colours = np.broadcast_to(colour, (len(faces), 3)) if colour.ndim == 1 else colour
        self.faces = np.vstack([self.faces, np.asarray(faces, np.int64) + len(self.vertices)])
        self.vertices = np.vstack([self.vertices, np.asarray(vertices, float)])
        self.colours = np.vstack([self.colours, colours.astype(np.float32)])
        self.objects = np.concatenate([self.objects, np.full(len(faces), obj, np.int32)])
        self.gloss = np.concatenate([self.gloss, np.full(len(faces), gloss, np.float32)])

    def extend(self, other: Mesh) -> None:
        self.faces = np.vstack([self.faces, other.faces + len(self.vertices)])
        self.vertices = np.vstack([self.vertices, other.vertices])
        self.colours = np.vstack([self.colours, other.colours])
        self.objects = np.concatenate([self.objects, other.objects])
        self.gloss = np.concatenate([self.gloss, other.gloss])

    def normals(self) -> np.ndarray:
        """Each face's unit normal (its winding's; shading turns it towards the viewer)."""
        a, b, c = (self.vertices[self.faces[:, i]] for i in range(3))
        n = np.cross(b - a, c - a)
        return n / np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)


@dataclass(frozen=True)
class PinholeCamera:
    """OpenCV's camera model: ``matrix`` (3×3), ``distortion`` (k1, k2, p1, p2, k3), and the pose as world →
    camera ``rotation`` and ``translation`` (x_cam = R·x_world + t)."""

    matrix: np.ndarray
    distortion: np.ndarray
    rotation: np.ndarray
    translation: np.ndarray
    size: tuple[int, int]

    @property
    def position(self) -> np.ndarray:
        return -self.rotation.T @ self.translation

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        return np.asarray(points, float) @ self.rotation.T + self.translation

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N×3) to pixels of the real (distorted) picture, by OpenCV's own arithmetic."""
        rvec, _ = cv2.Rodrigues(self.rotation)
        pixels, _ = cv2.projectPoints(
            np.asarray(points, np.float64).reshape(-1, 1, 3), rvec, self.translation.astype(np.float64),
            self.matrix, self.distortion,
        )
        return pixels.reshape(-1, 2)

    def as_json(self) -> dict:
        rvec, _ = cv2.Rodrigues(self.rotation)
        return {
            "size": list(self.size),
            "matrix": self.matrix.round(3).tolist(),
            "distortion": self.distortion.round(5).tolist(),
            "rvec": rvec.ravel().round(6).tolist(),
            "tvec": self.translation.round(3).tolist(),
            "rotation": self.rotation.round(6).tolist(),
            "position_mm": self.position.round(2).tolist(),
        }


def look_at(position: np.ndarray, target: np.ndarray, roll_deg: float = 0.0) -> np.ndarray:
    """World → camera rotation of a camera at ``position`` looking at ``target``, its picture upright
    (world up is −z), turned ``roll_deg`` about the view."""
    forward = target - position
    forward = forward / np.linalg.norm(forward)
    up = np.array([0.0, 0.0, -1.0])
    right = np.cross(forward, up)
    if np.linalg.norm(right) < 1e-6:  # looking straight down: any upright will do
        right = np.cross(forward, np.array([0.0, -1.0, 0.0]))
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    roll = np.radians(roll_deg)
    right, down = np.cos(roll) * right + np.sin(roll) * down, -np.sin(roll) * right + np.cos(roll) * down
    return np.stack([right, down, forward])


@dataclass(frozen=True)
class Canvas:
    """Where the ideal (undistorted) picture is drawn: big enough that every pixel of the real picture has its
    source in it. ``matrix`` is the camera matrix shifted to the canvas; ``map_x``/``map_y`` take the real
    picture's pixels to the canvas's (for :func:`cv2.remap`); ``in_frame`` marks the canvas pixels seen."""

    matrix: np.ndarray
    size: tuple[int, int]
    map_x: np.ndarray
    map_y: np.ndarray
    in_frame: np.ndarray


def make_canvas(camera: PinholeCamera) -> Canvas:
    width, height = camera.size
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    pixels = np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2)
    ideal = cv2.undistortPointsIter(
        pixels, camera.matrix, camera.distortion, None, camera.matrix,
        (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-4),
    ).reshape(height, width, 2)
    low = np.floor(ideal.reshape(-1, 2).min(axis=0)) - 2
    high = np.ceil(ideal.reshape(-1, 2).max(axis=0)) + 2
    pad_x, pad_y = int(max(0, -low[0])), int(max(0, -low[1]))
    size = (int(max(high[0] + 1, width)) + pad_x, int(max(high[1] + 1, height)) + pad_y)
    matrix = camera.matrix.copy()
    matrix[0, 2] += pad_x
    matrix[1, 2] += pad_y
    map_x = (ideal[:, :, 0] + pad_x).astype(np.float32)
    map_y = (ideal[:, :, 1] + pad_y).astype(np.float32)
    in_frame = np.zeros((size[1], size[0]), np.uint8)
    in_frame[np.clip(map_y.round().astype(int), 0, size[1] - 1), np.clip(map_x.round().astype(int), 0, size[0] - 1)] = 1
    in_frame = cv2.dilate(in_frame, np.ones((3, 3), np.uint8))
    return Canvas(matrix, size, map_x, map_y, in_frame.astype(bool))


@dataclass
class Raster:
    """A z-buffer: inverse depth (0 where nothing is drawn) and which face each pixel shows (−1: none)."""

    inverse_depth: np.ndarray
    face: np.ndarray


def rasterize(
    matrix: np.ndarray,
    rotation: np.ndarray,
    translation: np.ndarray,
    size: tuple[int, int],
    mesh: Mesh,
    near: float = 10.0,
) -> Raster:
    """Draw every face nearest-first per pixel (exact z-buffer: inverse depth is linear on the screen)."""
    width, height = size
    inverse_depth = np.zeros((height, width), np.float32)
    face_buffer = np.full((height, width), -1, np.int32)
    if not len(mesh.faces):
        return Raster(inverse_depth, face_buffer)
    cam = mesh.vertices @ rotation.T + translation
    z = cam[:, 2]
    safe = np.maximum(z, 1e-6)
    u = matrix[0, 0] * cam[:, 0] / safe + matrix[0, 2]
    v = matrix[1, 1] * cam[:, 1] / safe + matrix[1, 2]
    f = mesh.faces
    x0, x1, x2 = u[f[:, 0]], u[f[:, 1]], u[f[:, 2]]
    y0, y1, y2 = v[f[:, 0]], v[f[:, 1]], v[f[:, 2]]
    iz0, iz1, iz2 = 1 / safe[f[:, 0]], 1 / safe[f[:, 1]], 1 / safe[f[:, 2]]
    area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)
    ok = (np.abs(area) > 1e-9) & (z[f].min(axis=1) > near)
    xmin = np.maximum(np.ceil(np.minimum(np.minimum(x0, x1), x2)), 0).astype(np.int64)
    xmax = np.minimum(np.floor(np.maximum(np.maximum(x0, x1), x2)), width - 1).astype(np.int64)
    ymin = np.maximum(np.ceil(np.minimum(np.minimum(y0, y1), y2)), 0).astype(np.int64)
    ymax = np.minimum(np.floor(np.maximum(np.maximum(y0, y1), y2)), height - 1).astype(np.int64)
    ok &= (xmax >= xmin) & (ymax >= ymin)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1 / np.where(ok, area, 1.0)
    # Barycentric weights and inverse depth as planes over the screen: w = A·x + B·y + C.
    a0, b0 = (y1 - y2) * inv, (x2 - x1) * inv
    c0 = -(a0 * x1 + b0 * y1)
    a1, b1 = (y2 - y0) * inv, (x0 - x2) * inv
    c1 = -(a1 * x2 + b1 * y2)
    az = a0 * (iz0 - iz2) + a1 * (iz1 - iz2)
    bz = b0 * (iz0 - iz2) + b1 * (iz1 - iz2)
    cz = c0 * (iz0 - iz2) + c1 * (iz1 - iz2) + iz2
    eps = -1e-7
    planes = (a0, b0, c0, a1, b1, c1, az, bz, cz)
    spans = np.maximum(xmax - xmin, ymax - ymin) + 1
    left = ok.copy()
    # Small triangles, many at once: each one's bounding square of ``side`` pixels, then per pixel the nearest.
    for side in (4, 8, 16, 32):
        batch = np.flatnonzero(left & (spans <= side))
        left[batch] = False
        for start in range(0, len(batch), max(1, 400_000 // (side * side))):
            _draw_batch(batch[start : start + 400_000 // (side * side)], side, planes, xmin, ymin, xmax, ymax,
                        inverse_depth, face_buffer, eps)
    for index in np.flatnonzero(left):
        ys = np.arange(ymin[index], ymax[index] + 1, dtype=np.float64)[:, None]
        xs = np.arange(xmin[index], xmax[index] + 1, dtype=np.float64)[None, :]
        w0 = a0[index] * xs + b0[index] * ys + c0[index]
        w1 = a1[index] * xs + b1[index] * ys + c1[index]
        inside = (w0 >= eps) & (w1 >= eps) & (w0 + w1 <= 1 - eps)
        if not inside.any():
            continue
        depth = (az[index] * xs + bz[index] * ys + cz[index]).astype(np.float32)
        rows = slice(ymin[index], ymax[index] + 1)
        cols = slice(xmin[index], xmax[index] + 1)
        closer = inside & (depth > inverse_depth[rows, cols])
        inverse_depth[rows, cols][closer] = depth[closer]
        face_buffer[rows, cols][closer] = index
    return Raster(inverse_depth, face_buffer)


def _draw_batch(faces, side, planes, xmin, ymin, xmax, ymax, inverse_depth, face_buffer, eps) -> None:
    """Draw the ``faces`` whose bounding boxes fit in ``side`` pixels, nearest first per pixel."""
    if not len(faces):
        return
    a0, b0, c0, a1, b1, c1, az, bz, cz = (p[faces][:, None, None] for p in planes)
    offsets = np.arange(side, dtype=np.float64)
    xs = xmin[faces][:, None, None] + offsets[None, None, :]
    ys = ymin[faces][:, None, None] + offsets[None, :, None]
    w0 = a0 * xs + b0 * ys + c0
    w1 = a1 * xs + b1 * ys + c1
    inside = (w0 >= eps) & (w1 >= eps) & (w0 + w1 <= 1 - eps)
    inside &= (xs <= xmax[faces][:, None, None]) & (ys <= ymax[faces][:, None, None])
    which, row, col = np.nonzero(inside)
    if not len(which):
        return
    px = (xmin[faces][which] + col).astype(np.int64)
    py = (ymin[faces][which] + row).astype(np.int64)
    depth = (az * xs + bz * ys + cz)[which, row, col].astype(np.float32)
    width = inverse_depth.shape[1]
    pixel = py * width + px
    order = np.lexsort((-depth, pixel))
    pixel, depth, face = pixel[order], depth[order], faces[which[order]]
    first = np.ones(len(pixel), bool)
    first[1:] = pixel[1:] != pixel[:-1]
    pixel, depth, face = pixel[first], depth[first], face[first]
    flat_depth = inverse_depth.reshape(-1)
    closer = depth > flat_depth[pixel]
    flat_depth[pixel[closer]] = depth[closer]
    face_buffer.reshape(-1)[pixel[closer]] = face[closer]


def silhouette(matrix: np.ndarray, rotation: np.ndarray, translation: np.ndarray, size: tuple[int, int],
               vertices: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """The pixels a mesh would cover alone (its faces filled, no depth test)."""
    mask = np.zeros((size[1], size[0]), np.uint8)
    cam = vertices @ rotation.T + translation
    if (cam[:, 2] <= 1).any():
        return mask.astype(bool)
    u = matrix[0, 0] * cam[:, 0] / cam[:, 2] + matrix[0, 2]
    v = matrix[1, 1] * cam[:, 1] / cam[:, 2] + matrix[1, 2]
    points = np.round(np.stack([u, v], axis=1) * 16).astype(np.int32)
    for face in faces:
        cv2.fillConvexPoly(mask, points[face], 1, cv2.LINE_8, 4)
    return mask.astype(bool)
