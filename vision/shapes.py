"""Meshes of what stands on a Camel Up table, for :mod:`vision.photo`: camels shaped like the game's wooden
pieces (legs, belly, hump, neck, head), the 2018 cardboard pyramid, the 2014 shaker pyramid, the palm tree,
hands and arms. Built in local millimetres (forward, side, up) and placed in the world frame of
:mod:`vision.raster` (z into the table)."""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np


def ellipsoid(centre, radii, lon: int = 10, lat: int = 6, tilt_deg: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A closed ellipsoid (local forward/side/up), tilted about the side axis by ``tilt_deg`` (nose up)."""
    theta = np.linspace(0, np.pi, lat + 1)[1:-1]
    phi = np.linspace(0, 2 * np.pi, lon, endpoint=False)
    rings = np.array([[np.sin(t) * np.cos(p), np.sin(t) * np.sin(p), np.cos(t)] for t in theta for p in phi])
    points = np.vstack([[0, 0, 1.0], rings, [0, 0, -1.0]]) * np.asarray(radii, float)
    tilt = np.radians(tilt_deg)
    c, s = np.cos(tilt), np.sin(tilt)
    points = points @ np.array([[c, 0, -s], [0, 1, 0], [s, 0, c]]).T
    points += np.asarray(centre, float)
    faces = []
    last = len(points) - 1
    for j in range(lon):
        faces.append((0, 1 + j, 1 + (j + 1) % lon))
    for i in range(lat - 2):
        for j in range(lon):
            a, b = 1 + i * lon + j, 1 + i * lon + (j + 1) % lon
            faces += [(a, a + lon, b), (b, a + lon, b + lon)]
    base = 1 + (lat - 2) * lon
    for j in range(lon):
        faces.append((last, base + (j + 1) % lon, base + j))
    return points, np.array(faces)


def prism(bottom: np.ndarray, top: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A closed solid between two rings of the same number of points (a box, a tapered leg, a pyramid)."""
    n = len(bottom)
    points = np.vstack([bottom, top])
    faces = [(0, i + 1, i) for i in range(1, n - 1)] + [(n, n + i, n + i + 1) for i in range(1, n - 1)]
    for i in range(n):
        j = (i + 1) % n
        faces += [(i, j, n + j), (i, n + j, n + i)]
    return points, np.array(faces)


def box(centre, size, turn: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    cf, cs, cu = centre
    lf, ls, lu = (v / 2 for v in size)
    ring = np.array([(-lf, -ls), (lf, -ls), (lf, ls), (-lf, ls)])
    c, s = np.cos(turn), np.sin(turn)
    ring = ring @ np.array([[c, -s], [s, c]]).T + (cf, cs)
    return prism(np.column_stack([ring, np.full(4, cu - lu)]), np.column_stack([ring, np.full(4, cu + lu)]))


def cylinder(radius_bottom: float, radius_top: float, height: float, sides: int = 10, lean=(0.0, 0.0)):
    phi = np.linspace(0, 2 * np.pi, sides, endpoint=False)
    ring = np.column_stack([np.cos(phi), np.sin(phi)])
    bottom = np.column_stack([ring * radius_bottom, np.zeros(sides)])
    top = np.column_stack([ring * radius_top + lean, np.full(sides, height)])
    return prism(bottom, top)


def place(points: np.ndarray, x: float, y: float, heading: float, base: float = 0.0) -> np.ndarray:
    """Local (forward, side, up) to world: forward turned ``heading`` radians from +x, standing ``base`` mm
    above the board (world z is into the table)."""
    c, s = np.cos(heading), np.sin(heading)
    return np.column_stack(
        [x + c * points[:, 0] - s * points[:, 1], y + s * points[:, 0] + c * points[:, 1], -(base + points[:, 2])]
    )


@dataclass(frozen=True)
class CamelShape:
    """One table's camel pieces: the game's wooden camels are about 30 × 14 × 22 mm; a camel on another stands
    ``stack_step`` mm higher (on the lower one's back)."""

    length: float = 30.0
    width: float = 14.0
    height: float = 22.0
    stack_step: float = 19.0
    leg_height: float = 9.0
    hump: float = 1.0
    """Hump size relative to the usual."""

    @classmethod
    def sample(cls, rng: random.Random) -> CamelShape:
        return cls(
            length=rng.uniform(28, 32), width=rng.uniform(12.5, 15), height=rng.uniform(20.5, 23),
            stack_step=rng.uniform(18, 20), leg_height=rng.uniform(7.5, 10), hump=rng.uniform(0.85, 1.15),
        )


def camel(shape: CamelShape) -> list[tuple[np.ndarray, np.ndarray]]:
    """The parts of a camel facing +forward, feet at up = 0: four legs, belly, hump, neck, head, tail."""
    sl, sw, sh = shape.length / 30, shape.width / 14, shape.height / 22
    parts = []
    leg = shape.leg_height
    for df in (-8.5 * sl, 8.0 * sl):
        for ds in (-3.8 * sw, 3.8 * sw):
            bottom = np.array([(df - 1.5, ds - 1.4, 0), (df + 1.5, ds - 1.4, 0), (df + 1.5, ds + 1.4, 0),
                               (df - 1.5, ds + 1.4, 0)])
            top = bottom * (1.25, 1.0, 0) + (0, 0, leg + 2)
            top[:, 0] = df + (top[:, 0] - df) * 1.3
            parts.append(prism(bottom, top))
    body_h = leg + 4.0 * sh
    parts.append(ellipsoid((0, 0, body_h), (12.5 * sl, 6.8 * sw, 4.8 * sh), lon=12, lat=7))
    parts.append(ellipsoid((-1.5 * sl, 0, body_h + 4.5 * sh), (7.5 * sl * shape.hump, 5.6 * sw, 5.2 * sh * shape.hump),
                           lon=10, lat=6))
    parts.append(ellipsoid((11.5 * sl, 0, body_h + 4.0 * sh), (3.0 * sl, 2.8 * sw, 6.5 * sh), lon=8, lat=5,
                           tilt_deg=-25))
    parts.append(ellipsoid((14.0 * sl, 0, body_h + 9.0 * sh), (4.2 * sl, 2.9 * sw, 2.6 * sh), lon=8, lat=5,
                           tilt_deg=10))
    parts.append(ellipsoid((-12.5 * sl, 0, body_h + 0.5), (2.0, 1.2, 4.0), lon=6, lat=4, tilt_deg=20))
    return parts


def pyramid_2018(size: float, height: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """The 2018 edition's cardboard pyramid: a square pyramid on a low plinth."""
    half = size / 2
    ring = np.array([(-half, -half), (half, -half), (half, half), (-half, half)])
    plinth = prism(np.column_stack([ring, np.zeros(4)]), np.column_stack([ring, np.full(4, 12.0)]))
    tip = np.array([[0, 0, height]] * 4) + np.array([(-0.5, -0.5, 0), (0.5, -0.5, 0), (0.5, 0.5, 0), (-0.5, 0.5, 0)])
    body = prism(np.column_stack([ring * 0.97, np.full(4, 12.0)]), tip)
    return [plinth, body]


def shaker_2014(size: float, height: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """The 2014 edition's plastic shaker pyramid: steeper, with a cut top."""
    half = size / 2
    ring = np.array([(-half, -half), (half, -half), (half, half), (-half, half)])
    return [prism(np.column_stack([ring, np.zeros(4)]), np.column_stack([ring * 0.22, np.full(4, height)]))]


def palm_tree(rng: random.Random, height: float) -> list[tuple[list[tuple[np.ndarray, np.ndarray]], str]]:
    """A trunk and drooping fronds; parts named "trunk" and "frond"."""
    lean = (rng.uniform(-20, 20), rng.uniform(-20, 20))
    parts = [([cylinder(12, 7, height, 10, lean)], "trunk")]
    crown = np.array([lean[0], lean[1], height])
    fronds = []
    for k in range(rng.randint(6, 9)):
        angle = 2 * np.pi * k / 8 + rng.uniform(-0.3, 0.3)
        length = rng.uniform(90, 140)
        direction = np.array([np.cos(angle), np.sin(angle), 0.0])
        side = np.array([-np.sin(angle), np.cos(angle), 0.0])
        spine = [crown + direction * length * t + np.array([0, 0, 25 * t - 70 * t * t]) for t in np.linspace(0, 1, 5)]
        widths = [4, 16, 18, 12, 2]
        points = []
        for point, w in zip(spine, widths, strict=True):
            points += [point - side * w, point + side * w]
        points = np.array(points)
        faces = []
        for i in range(4):
            a = 2 * i
            faces += [(a, a + 2, a + 1), (a + 1, a + 2, a + 3)]
        fronds.append((points, np.array(faces)))
    parts.append((fronds, "frond"))
    return parts


def arm(rng: random.Random, hand_at: np.ndarray, shoulder: np.ndarray) -> list[tuple[list, str]]:
    """A forearm from ``shoulder`` side towards ``hand_at`` (world-free local points with up positive), a hand and
    fingers; parts named "sleeve", "skin"."""
    hand_at, shoulder = np.asarray(hand_at, float), np.asarray(shoulder, float)
    along = hand_at - shoulder
    length = float(np.linalg.norm(along))
    direction = along / length
    heading = np.arctan2(direction[1], direction[0])
    pitch = np.degrees(np.arcsin(np.clip(direction[2], -1, 1)))

    def segment(start: np.ndarray, end: np.ndarray, radius: float, lon: int = 10, flat: float = 0.85):
        middle = (start + end) / 2
        half = float(np.linalg.norm(end - start)) / 2
        points, faces = ellipsoid((0, 0, 0), (half, radius, radius * flat), lon=lon, lat=6, tilt_deg=pitch)
        c, s = np.cos(heading), np.sin(heading)
        points = points @ np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]]).T + middle
        return points, faces

    wrist = hand_at - direction * 45
    elbow = wrist - direction * min(length - 45, 260)
    skin = [segment(elbow + direction * 60, wrist + direction * 5, rng.uniform(26, 33))]
    sleeve = [segment(shoulder, elbow + direction * 90, rng.uniform(38, 48))]
    palm_centre = hand_at
    skin.append(segment(palm_centre - direction * 50, palm_centre + direction * 45, rng.uniform(38, 44), flat=0.35))
    side = np.array([-direction[1], direction[0], 0.0])
    spread = rng.uniform(0.8, 1.1)
    for k, offset in enumerate((-27, -9, 9, 27)):
        base = palm_centre + direction * 35 + side * offset * spread
        tip = base + direction * rng.uniform(55, 75) + np.array([0, 0, -rng.uniform(0, 15)])
        skin.append(segment(base, tip, 8.5 if k in (1, 2) else 7.5, lon=6, flat=0.8))
    thumb = palm_centre + side * 38 * rng.choice((-1, 1))
    skin.append(segment(thumb - direction * 20, thumb + direction * 35 + side * 0.0, 10, lon=6, flat=0.8))
    return [(skin, "skin"), (sleeve, "sleeve")]
