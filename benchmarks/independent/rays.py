"""A small numpy ray caster: a pinhole camera with radial distortion, analytic shapes (ellipsoids and convex
polyhedra bounded by planes), a nearest-hit buffer per pixel and a shadow map seen from the lamp.

Every shape is intersected only with the rays of its own screen rectangle (its bounding box projected), so
a 30 mm camel costs a few thousand rays, not a million."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

Paint = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""(points (n, 3) in mm, normals (n, 3)) -> linear RGB albedo (n, 3)."""

MISS = np.float32(np.inf)


def unit(v: np.ndarray) -> np.ndarray:
    return v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-12)


def rotation_z(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def rotation_y(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def rotation_x(angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


@dataclass
class Camera:
    """World: x and y as the board template (mm, y towards the camera's side), z up from the table."""

    width: int
    height: int
    f: float
    centre: np.ndarray
    """Camera position in mm."""
    rotation: np.ndarray
    """Rows: the image's right, the image's down and the viewing direction, in world coordinates."""
    k1: float = 0.0
    k2: float = 0.0
    principal: tuple[float, float] | None = None
    _rays: np.ndarray | None = field(default=None, repr=False)

    @staticmethod
    def looking_at(
        width: int,
        height: int,
        f: float,
        eye: np.ndarray,
        target: np.ndarray,
        roll: float = 0.0,
        k1: float = 0.0,
        k2: float = 0.0,
        principal: tuple[float, float] | None = None,
    ) -> Camera:
        forward = unit(np.asarray(target, float) - eye)
        # the template's y runs towards the camera, so the world is left-handed: right = up x forward
        right = unit(np.cross([0.0, 0.0, 1.0], forward))
        down = unit(np.array([0.0, 0.0, -1.0]) + forward[2] * forward)
        c, s = np.cos(roll), np.sin(roll)
        right, down = c * right + s * down, -s * right + c * down
        return Camera(width, height, f, np.asarray(eye, float), np.stack([right, down, forward]), k1, k2, principal)

    @property
    def pp(self) -> tuple[float, float]:
        return self.principal or ((self.width - 1) / 2, (self.height - 1) / 2)

    def matrix(self) -> np.ndarray:
        cx, cy = self.pp
        return np.array([[self.f, 0, cx], [0, self.f, cy], [0, 0, 1.0]])

    def project(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Pixel positions (n, 2) through the lens, and depth along the view (n,)."""
        rel = np.asarray(points) - self.centre.astype(points.dtype)
        rot = self.rotation.astype(rel.dtype)
        px, py, pz = rel[:, 0], rel[:, 1], rel[:, 2]
        z = px * rot[2, 0] + py * rot[2, 1] + pz * rot[2, 2]
        safe = np.maximum(z, 1e-6)
        x = (px * rot[0, 0] + py * rot[0, 1] + pz * rot[0, 2]) / safe
        y = (px * rot[1, 0] + py * rot[1, 1] + pz * rot[1, 2]) / safe
        r2 = x * x + y * y
        g = 1 + self.k1 * r2 + self.k2 * r2 * r2
        cx, cy = self.pp
        return np.stack([self.f * x * g + cx, self.f * y * g + cy], axis=1), z

    def rays(self) -> np.ndarray:
        """A unit direction in world coordinates for every pixel's centre (height, width, 3), float32."""
        if self._rays is None:
            cx, cy = self.pp
            u, v = np.meshgrid(np.arange(self.width, dtype=np.float32), np.arange(self.height, dtype=np.float32))
            if self.k1 or self.k2:
                pts = np.stack([u.ravel(), v.ravel()], axis=1).reshape(-1, 1, 2)
                dist = np.array([self.k1, self.k2, 0.0, 0.0])
                criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-6)
                norm = cv2.undistortPointsIter(pts, self.matrix(), dist, None, None, criteria).reshape(-1, 2)
                x, y = norm[:, 0], norm[:, 1]
            else:
                x, y = ((u - cx) / self.f).ravel(), ((v - cy) / self.f).ravel()
            rot = self.rotation.astype(np.float32)
            d = x[:, None] * rot[0] + y[:, None] * rot[1] + rot[2]
            d /= np.sqrt(np.einsum("ij,ij->i", d, d))[:, None]
            self._rays = d.reshape(self.height, self.width, 3)
        return self._rays

    def rect(self, corners: np.ndarray, pad: int = 3) -> tuple[int, int, int, int] | None:
        """The pixel rectangle (x0, y0, x1, y1) holding these points, or None when it is off the picture."""
        px, depth = self.project(corners)
        if np.any(depth <= 1.0):
            return 0, 0, self.width, self.height
        x0, y0 = np.floor(px.min(axis=0)).astype(int) - pad
        x1, y1 = np.ceil(px.max(axis=0)).astype(int) + pad
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, self.width), min(y1, self.height)
        return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


class Shape:
    owner: int = -1
    """Which piece it belongs to (a camel's index; -1 for anything else)."""
    gloss: float = 0.0
    paint: Paint

    def corners(self) -> np.ndarray | None:
        """The 8 corners of a box around the shape, or None for one that spans the whole view."""
        raise NotImplementedError

    def hit(self, origin: np.ndarray, dirs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Distance to the first hit (inf for a miss) and the surface normal there, for each ray."""
        raise NotImplementedError


def flat(colour: tuple[float, float, float]) -> Paint:
    rgb = np.asarray(colour, np.float32)
    return lambda p, n: np.broadcast_to(rgb, p.shape).copy()


class Ellipsoid(Shape):
    def __init__(
        self,
        centre: np.ndarray,
        axes: tuple[float, float, float],
        rot: np.ndarray,
        paint: Paint,
        owner: int = -1,
        gloss: float = 0.0,
    ) -> None:
        self.centre = np.asarray(centre, float)
        self.axes = np.asarray(axes, float)
        self.rot = rot
        self.to_unit = np.diag(1 / self.axes) @ rot.T
        self.paint, self.owner, self.gloss = paint, owner, gloss

    def corners(self) -> np.ndarray:
        extent = np.abs(self.rot) @ self.axes
        signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
        return self.centre + signs * extent

    def hit(self, origin: np.ndarray, dirs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        o = self.to_unit @ (origin - self.centre)
        d = dirs @ self.to_unit.T
        a = np.einsum("ij,ij->i", d, d)
        b = d @ o
        c = o @ o - 1
        disc = b * b - a * c
        ok = disc >= 0
        root = np.sqrt(np.where(ok, disc, 0))
        t = (-b - root) / a
        t = np.where(t > 1e-3, t, (-b + root) / a)
        t = np.where(ok & (t > 1e-3), t, np.inf).astype(np.float32)
        local = o + t[:, None].clip(0, 1e9) * d
        normal = unit(local @ self.to_unit)
        return t, normal


class Convex(Shape):
    """The points inside every plane: n . x <= h (outward normals)."""

    def __init__(
        self,
        normals: np.ndarray,
        offsets: np.ndarray,
        box: np.ndarray,
        paint: Paint,
        owner: int = -1,
        gloss: float = 0.0,
    ) -> None:
        self.normals = np.asarray(normals, float)
        self.offsets = np.asarray(offsets, float)
        self.box = box
        self.paint, self.owner, self.gloss = paint, owner, gloss

    def corners(self) -> np.ndarray:
        return self.box

    def hit(self, origin: np.ndarray, dirs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        denom = dirs @ self.normals.T.astype(np.float32)
        num = (self.offsets - self.normals @ origin).astype(np.float32)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = num / denom
        enter = np.where(denom < 0, ratio, -np.inf)
        leave = np.where(denom > 0, ratio, np.inf)
        outside = np.any((denom == 0) & (num < 0), axis=1)
        which = np.argmax(enter, axis=1)
        t_in = enter[np.arange(len(which)), which]
        t_out = leave.min(axis=1)
        ok = (t_in <= t_out) & (t_in > 1e-3) & ~outside
        t = np.where(ok, t_in, np.inf).astype(np.float32)
        return t, self.normals[which]


def box_corners(points: np.ndarray) -> np.ndarray:
    lo, hi = points.min(axis=0), points.max(axis=0)
    return np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])


def convex_from_vertices(
    vertices: np.ndarray, faces: list[tuple[int, int, int]], paint: Paint, owner: int = -1, gloss: float = 0.0
) -> Convex:
    """A convex solid from its vertices and one triangle (three vertex indices) on each face."""
    inside = vertices.mean(axis=0)
    normals, offsets = [], []
    for a, b, c in faces:
        n = unit(np.cross(vertices[b] - vertices[a], vertices[c] - vertices[a]))
        if n @ (inside - vertices[a]) > 0:
            n = -n
        normals.append(n)
        offsets.append(n @ vertices[a])
    return Convex(np.array(normals), np.array(offsets), box_corners(vertices), paint, owner, gloss)


def block(
    centre: np.ndarray,
    half: tuple[float, float, float],
    rot: np.ndarray,
    paint: Paint,
    owner: int = -1,
    gloss: float = 0.0,
) -> Convex:
    axes = rot.T  # rows: the block's own axes in the world
    normals = np.concatenate([axes, -axes])
    half3 = np.asarray(half, float)
    offsets = np.concatenate([axes @ centre + half3, -(axes @ centre) + half3])
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    return Convex(normals, offsets, box_corners(centre + (signs * half3) @ rot.T), paint, owner, gloss)


def prism(
    base: np.ndarray, top: np.ndarray, radius: float, sides: int, paint: Paint, owner: int = -1, gloss: float = 0.0
) -> Convex:
    """A cylinder approximated by a prism of ``sides`` faces, from ``base`` to ``top`` (centres of its ends)."""
    axis = unit(np.asarray(top, float) - base)
    other = np.array([1.0, 0, 0]) if abs(axis[0]) < 0.9 else np.array([0, 1.0, 0])
    e1 = unit(np.cross(axis, other))
    e2 = np.cross(axis, e1)
    angles = np.arange(sides) * 2 * np.pi / sides
    sides_n = np.cos(angles)[:, None] * e1 + np.sin(angles)[:, None] * e2
    normals = np.concatenate([sides_n, [axis, -axis]])
    offsets = np.concatenate([sides_n @ base + radius, [axis @ top, -(axis @ base)]])
    ring = np.concatenate([base + radius * sides_n, top + radius * sides_n])
    return Convex(normals, offsets, box_corners(ring), paint, owner, gloss)


class Plane(Shape):
    """The horizontal plane z = height, only inside ``limits`` (x0, y0, x1, y1) when given."""

    def __init__(
        self, height: float, paint: Paint, limits: tuple[float, float, float, float] | None = None, gloss: float = 0.0
    ) -> None:
        self.height, self.paint, self.limits, self.gloss = height, paint, limits, gloss

    def corners(self) -> None:
        return None

    def hit(self, origin: np.ndarray, dirs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        dz = dirs[:, 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (self.height - origin[2]) / dz
        ok = (dz < 0) if origin[2] > self.height else (dz > 0)
        if self.limits is not None:
            x = origin[0] + t * dirs[:, 0]
            y = origin[1] + t * dirs[:, 1]
            x0, y0, x1, y1 = self.limits
            ok &= (x >= x0) & (x <= x1) & (y >= y0) & (y <= y1)
        t = np.where(ok & (t > 0), t, np.inf).astype(np.float32)
        normal = np.broadcast_to(np.array([0, 0, 1.0 if origin[2] > self.height else -1.0], np.float32), dirs.shape)
        return t, normal


@dataclass
class Hits:
    distance: np.ndarray
    """(h, w) distance to the nearest surface, inf where nothing is hit."""
    shape: np.ndarray
    """(h, w) index of that surface's shape, -1 where nothing."""
    normal: np.ndarray
    """(h, w, 3)."""
    coverage: dict[int, int]
    """For each owner >= 0: how many pixels its shapes would cover were nothing in front of them."""


def cast(camera: Camera, shapes: list[Shape]) -> Hits:
    rays = camera.rays()
    h, w = camera.height, camera.width
    dist = np.full((h, w), np.inf, np.float32)
    index = np.full((h, w), -1, np.int32)
    normal = np.zeros((h, w, 3), np.float32)
    owned: dict[int, np.ndarray] = {}
    for i, shape in enumerate(shapes):
        corners = shape.corners()
        rect = (0, 0, w, h) if corners is None else camera.rect(corners)
        if rect is None:
            continue
        x0, y0, x1, y1 = rect
        dirs = rays[y0:y1, x0:x1].reshape(-1, 3)
        t, n = shape.hit(camera.centre, dirs)
        t = t.reshape(y1 - y0, x1 - x0)
        if shape.owner >= 0:
            mask = owned.setdefault(shape.owner, np.zeros((h, w), bool))
            mask[y0:y1, x0:x1] |= np.isfinite(t)
        closer = t < dist[y0:y1, x0:x1]
        dist[y0:y1, x0:x1][closer] = t[closer]
        index[y0:y1, x0:x1][closer] = i
        normal[y0:y1, x0:x1][closer] = np.asarray(n, np.float32).reshape(y1 - y0, x1 - x0, 3)[closer]
    return Hits(dist, index, normal, {owner: int(mask.sum()) for owner, mask in owned.items()})


def sample(texture: np.ndarray, u: np.ndarray, v: np.ndarray, border: tuple[float, ...] = (0, 0, 0)) -> np.ndarray:
    """Bilinear look-up of ``texture`` at pixel positions (u, v) of any length (OpenCV's remap, in rows)."""
    n = u.shape[0]
    cols = 1024
    rows = max(1, -(-n // cols))
    pad = rows * cols - n
    mu = np.concatenate([u, np.zeros(pad)]).astype(np.float32).reshape(rows, cols)
    mv = np.concatenate([v, np.zeros(pad)]).astype(np.float32).reshape(rows, cols)
    out = cv2.remap(texture, mu, mv, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=border)
    return out.reshape(rows * cols, -1)[:n]
