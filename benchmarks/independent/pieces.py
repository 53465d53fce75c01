"""The things on the table, as ellipsoids and convex solids: wooden camels (legs, belly, hump, neck, head,
tail), the 2018 pyramid and palm tree, the 2014 shaker pyramid, tiles, coins, a phone, and a player's arm and
hand reaching over the board."""

from __future__ import annotations

import numpy as np

from benchmarks.independent.art import texture_paint, tile_texture, to_linear
from benchmarks.independent.rays import (
    Ellipsoid,
    Paint,
    Shape,
    block,
    convex_from_vertices,
    flat,
    prism,
    rotation_x,
    rotation_y,
    rotation_z,
    unit,
)

CAMEL_PAINT = {
    "blue": (32, 88, 182),
    "green": (46, 138, 58),
    "red": (192, 36, 34),
    "yellow": (236, 196, 42),
    "purple": (112, 56, 144),
    "black": (32, 31, 33),
    "white": (232, 229, 218),
    "orange": (236, 116, 28),
}


def wood_paint(rgb_linear: np.ndarray, seed: int) -> Paint:
    """Painted wood: the colour with a faint grain along the camel's length."""
    phase = seed * 1.7

    def paint(p: np.ndarray, n: np.ndarray) -> np.ndarray:
        grain = 1 + 0.05 * np.sin(p[:, 0] * 1.3 + p[:, 1] * 0.4 + phase) + 0.03 * np.sin(p[:, 2] * 2.1 + phase)
        return (rgb_linear[None, :] * grain[:, None]).astype(np.float32)

    return paint


def align_x(direction: np.ndarray) -> np.ndarray:
    """A rotation taking the x axis onto ``direction``."""
    d = unit(np.asarray(direction, float))
    return rotation_z(np.arctan2(d[1], d[0])) @ rotation_y(-np.arcsin(np.clip(d[2], -1, 1)))


def camel(
    base: np.ndarray,
    heading: float,
    colour: np.ndarray,
    owner: int,
    scale: float = 1.0,
    seed: int = 0,
    tilt: tuple[float, float] = (0.0, 0.0),
) -> list[Shape]:
    """A camel about 30 x 14 x 22 mm standing with its feet at ``base``, its head towards ``heading``,
    rolled and pitched by ``tilt`` (radians: a stacked camel sits a little crooked)."""
    rot = rotation_z(heading) @ rotation_x(tilt[0]) @ rotation_y(tilt[1])
    paint = wood_paint(colour, seed)

    def at(local: tuple[float, float, float]) -> np.ndarray:
        return base + rot @ (np.asarray(local) * scale)

    def ell(centre: tuple[float, float, float], axes: tuple[float, float, float], tilt: float = 0.0) -> Ellipsoid:
        return Ellipsoid(at(centre), tuple(a * scale for a in axes), rot @ rotation_y(tilt), paint, owner, 0.15)

    parts: list[Shape] = [
        ell((-1.0, 0.0, 12.5), (11.0, 6.2, 4.6)),  # belly and back
        ell((-2.5, 0.0, 16.8), (6.8, 5.6, 5.2)),  # hump: its top 22 mm over the feet
        ell((8.6, 0.0, 15.5), (2.9, 3.0, 5.6), -0.5),  # neck, leaning forwards
        ell((12.6, 0.0, 19.6), (4.2, 2.7, 2.6), 0.15),  # head
        ell((-12.8, 0.0, 11.8), (1.6, 1.3, 3.2), 0.35),  # tail
    ]
    for lx in (-7.5, 7.0):
        for ly in (-3.6, 3.6):
            parts.append(block(at((lx, ly, 4.7)), (1.8 * scale, 1.6 * scale, 4.7 * scale), rot, paint, owner, 0.15))
    return parts


def pyramid(
    centre: np.ndarray, side: float, height: float, turn: float, rgb: tuple[int, int, int], bands: float
) -> list[Shape]:
    """A square pyramid of stone-coloured card with courses of blocks every ``bands`` mm."""
    rot = rotation_z(turn)
    h = side / 2
    base = [centre + rot @ np.array([sx * h, sy * h, 0.0]) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    apex = centre + np.array([0, 0, height])
    vertices = np.array([*base, apex])
    colour = to_linear(np.array(rgb))

    def paint(p: np.ndarray, n: np.ndarray) -> np.ndarray:
        course = (p[:, 2] % bands) < 1.2
        shade = np.where(course, 0.7, 1.0) * (1 + 0.05 * np.sin(p[:, 0] * 0.3 + p[:, 1] * 0.2))
        return (colour[None, :] * shade[:, None]).astype(np.float32)

    faces = [(0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 0, 4), (0, 2, 1)]
    return [convex_from_vertices(vertices, faces, paint, gloss=0.05)]


def palm_tree(foot: np.ndarray, height: float, rng: np.random.Generator) -> list[Shape]:
    """A cardboard palm: a round foot, a leaning trunk of five segments and a crown of drooping fronds."""
    bark = flat(tuple(to_linear(np.array((120, 84, 50)))))
    leaf = to_linear(np.array((50 + rng.integers(-10, 10), 130 + rng.integers(-20, 20), 50)))
    shapes: list[Shape] = [
        prism(foot, foot + np.array([0, 0, 4.0]), 32, 12, flat(tuple(to_linear(np.array((160, 120, 70))))))
    ]
    lean = rng.uniform(-0.15, 0.15, 2)
    point = foot + np.array([0, 0, 4.0])
    for k in range(5):
        top = point + np.array([lean[0], lean[1], 1.0]) * height / 5
        shapes.append(prism(point, top, 9 - k, 8, bark))
        point = top
    for k in range(7):
        phi = 2 * np.pi * k / 7 + rng.uniform(-0.3, 0.3)
        droop = rng.uniform(0.15, 0.6)
        length = rng.uniform(55, 80)
        direction = np.array([np.cos(phi) * np.cos(droop), np.sin(phi) * np.cos(droop), -np.sin(droop)])
        rot = align_x(direction)
        centre = point + direction * length * 0.5
        shapes.append(Ellipsoid(centre, (length / 2, 13.0, 2.2), rot, flat(tuple(leaf * rng.uniform(0.8, 1.1)))))
    return shapes


def tile(edition: str, centre: np.ndarray, turn: float, plus: bool, rng: np.random.Generator) -> Shape:
    side = rng.uniform(64, 72)
    tex = tile_texture(edition, plus, rng)
    rot = rotation_z(turn)
    corner = centre + rot @ np.array([-side / 2, -side / 2, 0])
    paint = texture_paint(tex, (corner[0], corner[1]), tex.shape[1] / side, turn, side=flat((0.5, 0.45, 0.35)))
    return block(centre + np.array([0, 0, 1.0]), (side / 2, side / 2, 1.0), rot, paint, gloss=0.05)


def coin(centre: np.ndarray, rng: np.random.Generator) -> Shape:
    rgb = (212, 170, 60) if rng.random() < 0.6 else (190, 190, 196)
    return prism(
        centre,
        centre + np.array([0, 0, 2.2]),
        rng.uniform(10, 13),
        16,
        flat(tuple(to_linear(np.array(rgb)))),
        gloss=0.5,
    )


def phone(centre: np.ndarray, turn: float) -> Shape:
    return block(
        centre + np.array([0, 0, 4.0]), (37.0, 76.0, 4.0), rotation_z(turn), flat((0.01, 0.01, 0.012)), gloss=0.9
    )


def arm(
    shoulder: np.ndarray, hand_at: np.ndarray, skin: np.ndarray, sleeve: np.ndarray, rng: np.random.Generator
) -> list[Shape]:
    """A forearm from ``shoulder`` (off the board, high) to a flat hand over ``hand_at``, fingers stretched."""
    along = unit(hand_at - shoulder)
    wrist = hand_at - along * 55
    length = float(np.linalg.norm(wrist - shoulder))
    rot = align_x(along)
    flat_rot = rot @ rotation_y(0.0)
    skin_paint = flat(tuple(skin))
    shapes: list[Shape] = [
        Ellipsoid((shoulder + wrist) / 2, (length / 2 + 10, 36.0, 32.0), rot, flat(tuple(sleeve))),
        Ellipsoid(wrist + along * 10, (22.0, 24.0, 18.0), rot, skin_paint),
        Ellipsoid(hand_at, (42.0, 40.0, 13.0), flat_rot, skin_paint),
    ]
    side = unit(np.cross(along, [0, 0, 1.0]))
    spread = rng.uniform(0.0, 0.25)
    for k, offset in enumerate((-25.0, -9.0, 7.0, 23.0)):
        direction = unit(along + side * spread * (k - 1.5) / 1.5 - np.array([0, 0, rng.uniform(0.0, 0.5)]))
        start = hand_at + along * 30 + side * offset * 0.8
        shapes.append(Ellipsoid(start + direction * 22, (24.0, 8.5, 7.5), align_x(direction), skin_paint))
    thumb = unit(-side + along * 0.6)
    shapes.append(Ellipsoid(hand_at - side * 35 + thumb * 12, (20.0, 9.0, 8.0), align_x(thumb), skin_paint))
    return shapes
