"""Flat things of the photo-like scenes, drawn as textures (sRGB, BGR, uint8) in millimetres: the board with its
spaces and art, table tops of wood, cloth or laminate, printed markers taped a little off, desert and
spectator tiles, cards, coins and phones."""

from __future__ import annotations

import random
from dataclasses import dataclass

import cv2
import numpy as np

from vision.board import BoardTemplate


@dataclass(frozen=True)
class Texture:
    image: np.ndarray
    origin: tuple[float, float]
    """World millimetres of the texture's pixel (0, 0)."""
    px_per_mm: float

    def px(self, x: float, y: float) -> tuple[float, float]:
        return ((x - self.origin[0]) * self.px_per_mm, (y - self.origin[1]) * self.px_per_mm)

    def to_world(self) -> np.ndarray:
        """3×3: texture pixels to world (x, y, 1)."""
        s = 1 / self.px_per_mm
        return np.array([[s, 0, self.origin[0]], [0, s, self.origin[1]], [0, 0, 1]])


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    """Noise in [−1, 1] varying over about ``cells`` blobs across."""
    small = rng.uniform(-1, 1, (max(2, cells * shape[0] // max(shape)), max(2, cells * shape[1] // max(shape))))
    return cv2.resize(small.astype(np.float32), (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def _jitter(colour, rng: random.Random, amount: float) -> tuple[int, int, int]:
    return tuple(int(np.clip(c * rng.uniform(1 - amount, 1 + amount), 0, 255)) for c in colour)


@dataclass(frozen=True)
class TableTop:
    """A table top's pattern as a function of world millimetres, so it can be drawn at any resolution: a far,
    coarse layer for the whole table and a fine one around the board (where markers may be taped)."""

    kind: str
    """"wood", "cloth" or "laminate"."""
    base: tuple[int, int, int]
    angle: float
    period_mm: float
    plank_mm: float
    seed: int

    @classmethod
    def sample(cls, rng: random.Random) -> TableTop:
        kind = rng.choice(["wood", "cloth", "laminate"])
        base = {
            "wood": [(60, 100, 150), (40, 70, 110), (90, 140, 190), (30, 45, 70)],
            "cloth": [(40, 90, 30), (120, 60, 30), (50, 50, 140), (150, 150, 150), (60, 60, 60)],
            "laminate": [(225, 225, 220), (200, 210, 215), (170, 180, 190), (90, 90, 90)],
        }[kind]
        return cls(kind, rng.choice(base), rng.uniform(0, np.pi), rng.uniform(4, 9), rng.uniform(100, 200),
                   rng.randrange(2**31))

    def _field(self, salt: int, cell_mm: float, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Smooth noise in [−1, 1] over the world, ``cell_mm`` between its random knots."""
        grid = np.random.default_rng(self.seed + salt).uniform(-1, 1, (int(4000 / cell_mm) + 4,) * 2).astype(np.float32)
        return cv2.remap(grid, ((xs + 2000) / cell_mm).astype(np.float32), ((ys + 2000) / cell_mm).astype(np.float32),
                         cv2.INTER_CUBIC, borderMode=cv2.BORDER_REFLECT)

    def texture(self, origin: tuple[float, float], size_mm: tuple[float, float], px_per_mm: float) -> Texture:
        shape = (int(size_mm[1] * px_per_mm), int(size_mm[0] * px_per_mm))
        ys, xs = np.mgrid[0 : shape[0], 0 : shape[1]].astype(np.float32)
        xs = xs / px_per_mm + origin[0]
        ys = ys / px_per_mm + origin[1]
        fine = np.random.default_rng(self.seed + int(px_per_mm * 100)).normal(0, 1, shape).astype(np.float32)
        if self.kind == "wood":
            along = np.cos(self.angle) * xs + np.sin(self.angle) * ys
            across = -np.sin(self.angle) * xs + np.cos(self.angle) * ys
            warp = self._field(1, 120, xs, ys) * 25
            grain = np.sin((along * 0.15 + warp) * 2 * np.pi / self.period_mm) * 0.5 + 0.5
            shade = 0.82 + 0.2 * grain + 0.1 * self._field(2, 80, xs, ys) + 0.02 * fine
            shade *= np.where(np.mod(across, self.plank_mm) < 1.5, 0.5, 1.0)
        elif self.kind == "cloth":
            shade = 0.9 + 0.13 * self._field(1, 150, xs, ys) + 0.05 * fine
        else:
            shade = 0.95 + 0.04 * self._field(1, 200, xs, ys) + 0.015 * fine
        image = np.clip(np.array(self.base, np.float32)[None, None, :] * shade[:, :, None], 0, 255).astype(np.uint8)
        # Blurred by about one texel, so the picture does not alias when it shrinks.
        return Texture(cv2.GaussianBlur(image, (0, 0), 0.8), origin, px_per_mm)


@dataclass(frozen=True)
class BoardStyle:
    sand: tuple[int, int, int]
    space: tuple[int, int, int]
    alternate: tuple[int, int, int]
    line: tuple[int, int, int]
    ink: tuple[int, int, int]
    margin_mm: float
    """How far the board reaches past the track's outside (past the markers, or not as far)."""
    thickness_mm: float
    gloss: float
    shininess: float

    @classmethod
    def sample(cls, rng: random.Random, edition: str) -> BoardStyle:
        if edition == "2014":
            sand, space, line = (120, 180, 215), (150, 205, 235), (40, 80, 120)
        else:
            sand, space, line = (110, 170, 220), (140, 200, 240), (60, 90, 150)
        return cls(
            sand=_jitter(sand, rng, 0.1), space=_jitter(space, rng, 0.08), alternate=_jitter(space, rng, 0.12),
            line=_jitter(line, rng, 0.2), ink=_jitter((40, 50, 70), rng, 0.3),
            margin_mm=rng.choice([rng.uniform(28, 42), rng.uniform(140, 165)]),
            thickness_mm=rng.uniform(2, 3.5), gloss=rng.uniform(0.0, 0.25), shininess=rng.uniform(25, 150),
        )


def board_rect(template: BoardTemplate, style: BoardStyle) -> tuple[float, float, float, float]:
    """x0, y0, x1, y1 of the board (the track's outline grown by the style's margin)."""
    xs = [x for corners in template.spaces.values() for x, _ in corners]
    ys = [y for corners in template.spaces.values() for _, y in corners]
    m = style.margin_mm
    return (min(xs) - m, min(ys) - m, max(xs) + m, max(ys) + m)


def board_texture(template: BoardTemplate, style: BoardStyle, rng: random.Random, px_per_mm: float = 2.5) -> Texture:
    """The printed board: sand with dunes and art in the middle, the 16 spaces with borders and numbers."""
    x0, y0, x1, y1 = board_rect(template, style)
    shape = (int((y1 - y0) * px_per_mm), int((x1 - x0) * px_per_mm))
    nprng = np.random.default_rng(rng.randrange(2**32))
    dunes = 1 + 0.12 * smooth_noise(nprng, shape, 5) + 0.05 * smooth_noise(nprng, shape, 25)
    image = np.clip(np.array(style.sand, np.float32) * dunes[:, :, None], 0, 255).astype(np.uint8)
    texture = Texture(image, (x0, y0), px_per_mm)

    def p(x: float, y: float) -> tuple[int, int]:
        u, v = texture.px(x, y)
        return (round(u * 4), round(v * 4))

    # Art in the middle of the ring: a few dunes, an oasis, a sun-baked rock.
    cx, cy = template.space_centre(3)[0], (template.space_centre(1)[1] + template.space_centre(11)[1]) / 2
    for _ in range(rng.randint(3, 7)):
        colour = _jitter(rng.choice([(60, 140, 90), (50, 110, 180), (90, 160, 200), (140, 120, 60)]), rng, 0.2)
        centre = p(cx + rng.uniform(-100, 100), cy + rng.uniform(-100, 100))
        axes = (round(rng.uniform(10, 45) * px_per_mm * 4), round(rng.uniform(6, 25) * px_per_mm * 4))
        cv2.ellipse(image, centre, axes, rng.uniform(0, 180), 0, 360, colour, -1, cv2.LINE_AA, 2)
    line = max(1, round(rng.uniform(0.8, 1.6) * px_per_mm))
    for space, corners in template.spaces.items():
        inset = rng.uniform(0, 2.5)
        cxs, cys = template.space_centre(space)
        poly = np.array([p(cxs + (x - cxs) * (1 - inset / 40), cys + (y - cys) * (1 - inset / 40)) for x, y in corners],
                        np.int32)
        fill = style.space if space % 2 else style.alternate
        cv2.fillConvexPoly(image, poly, _jitter(fill, rng, 0.04), cv2.LINE_AA, 2)
        cv2.polylines(image, [poly], True, style.line, line, cv2.LINE_AA, 2)
        if space == 1:  # the finish line: a checkered strip on the space's left edge
            left, top = texture.px(corners[0][0], corners[0][1])
            size = max(2, round(5 * px_per_mm))
            for k in range(int(80 * px_per_mm) // size):
                for col in range(2):
                    if (k + col) % 2:
                        image[int(top) + k * size : int(top) + (k + 1) * size,
                              int(left) + col * size : int(left) + (col + 1) * size] = style.ink
        u, v = texture.px(*corners[rng.choice([0, 1, 3])])
        u += (6 if u < texture.px(cxs, cys)[0] else -16) * px_per_mm
        v += (13 if v < texture.px(cxs, cys)[1] else -4) * px_per_mm
        cv2.putText(image, str(space), (int(u), int(v)), cv2.FONT_HERSHEY_DUPLEX, 0.2 * px_per_mm, style.ink,
                    max(1, round(0.5 * px_per_mm)), cv2.LINE_AA)
    return Texture(cv2.GaussianBlur(image, (0, 0), 0.6), (x0, y0), px_per_mm)


@dataclass(frozen=True)
class Tape:
    """Where one marker was actually taped: its centre's offset (mm) and turn (degrees) from the template's."""

    dx: float
    dy: float
    turn: float


def marker_corners(template: BoardTemplate, marker: int, tape: Tape) -> np.ndarray:
    """The taped marker's 4 corners (world mm, in OpenCV's order), ``tape`` off the template's place."""
    corners = np.array(template.marker_corners(marker), float)
    centre = corners.mean(axis=0)
    turn = np.radians(tape.turn)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    return (corners - centre) @ rotation.T + centre + (tape.dx, tape.dy)


def tape_marker(
    texture: Texture, template: BoardTemplate, marker: int, tape: Tape, paper: tuple[int, int, int]
) -> None:
    """Draw the printed marker, with its white paper border, onto ``texture`` where it was taped."""
    side_px = 200
    quiet = round(side_px * 8 / template.marker_size)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    sheet = np.full((side_px + 2 * quiet, side_px + 2 * quiet), 255, np.uint8)
    sheet[quiet : quiet + side_px, quiet : quiet + side_px] = cv2.aruco.generateImageMarker(dictionary, marker, side_px)
    sheet = cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR).astype(np.float32) / 255
    ink = np.array((25, 25, 28), np.float32) / 255
    sheet = ink + sheet * (np.array(paper, np.float32) / 255 - ink)
    corners = marker_corners(template, marker, tape)
    target = np.array([texture.px(x, y) for x, y in corners], np.float32)
    source = np.array([(quiet, quiet), (quiet + side_px, quiet), (quiet + side_px, quiet + side_px),
                       (quiet, quiet + side_px)], np.float32)
    # Only the patch around the marker is redrawn.
    pad = quiet * texture.px_per_mm * template.marker_size / side_px + 4
    x0, y0 = np.maximum(np.floor(target.min(axis=0) - pad), 0).astype(int)
    x1, y1 = np.ceil(target.max(axis=0) + pad).astype(int)
    x1, y1 = min(x1, texture.image.shape[1]), min(y1, texture.image.shape[0])
    warp = cv2.getPerspectiveTransform(source, target - np.array([x0, y0], np.float32))
    size = (x1 - x0, y1 - y0)
    drawn = cv2.warpPerspective((sheet * 255).astype(np.uint8), warp, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(sheet.shape[:2], 255, np.uint8), warp, size, flags=cv2.INTER_LINEAR)
    alpha = mask.astype(np.float32)[:, :, None] / 255
    patch = texture.image[y0:y1, x0:x1]
    patch[:] = (patch * (1 - alpha) + drawn * alpha).astype(np.uint8)


def draw_tile(texture: Texture, centre: tuple[float, float], side: float, turn: float, kind: str,
              rng: random.Random) -> None:
    """A desert (2014) or spectator (2018) tile lying on a space: a square with a coloured face and a motif."""
    colours = {"oasis": (60, 150, 70), "mirage": (60, 120, 200), "cheer": (70, 170, 220), "boo": (140, 90, 160)}
    corners = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], float) * side / 2
    c, s = np.cos(turn), np.sin(turn)
    corners = corners @ np.array([[c, -s], [s, c]]).T + centre
    poly = np.array([texture.px(x, y) for x, y in corners]) * 4
    face = _jitter(colours[kind], rng, 0.1)
    cv2.fillConvexPoly(texture.image, poly.round().astype(np.int32), face, cv2.LINE_AA, 2)
    cv2.polylines(texture.image, [poly.round().astype(np.int32)], True, (230, 235, 240), 4, cv2.LINE_AA, 2)
    u, v = texture.px(*centre)
    radius = round(side * 0.25 * texture.px_per_mm)
    cv2.circle(texture.image, (round(u), round(v)), radius, _jitter((200, 220, 235), rng, 0.1), -1, cv2.LINE_AA)
    cv2.putText(texture.image, "+1" if kind in ("oasis", "cheer") else "-1", (round(u - radius), round(v + radius / 3)),
                cv2.FONT_HERSHEY_SIMPLEX, radius / 25, (30, 30, 30), max(1, radius // 8), cv2.LINE_AA)


def draw_prop(texture: Texture, kind: str, centre: tuple[float, float], turn: float, rng: random.Random) -> None:
    """A card, a coin or a phone lying flat."""
    u, v = texture.px(*centre)
    s = texture.px_per_mm
    if kind == "coin":
        colour = rng.choice([(60, 170, 210), (180, 180, 185), (70, 120, 180)])
        cv2.circle(texture.image, (round(u), round(v)), round(rng.uniform(9, 13) * s), colour, -1, cv2.LINE_AA)
        cv2.circle(texture.image, (round(u), round(v)), round(7 * s), _jitter(colour, rng, 0.2), 2, cv2.LINE_AA)
        return
    size = (44, 68) if kind == "card" else (72, 150)
    box = cv2.boxPoints(((u, v), (size[0] * s, size[1] * s), np.degrees(turn))).astype(np.int32)
    if kind == "card":
        cv2.fillConvexPoly(texture.image, box, (235, 240, 245), cv2.LINE_AA)
        inner = cv2.boxPoints(((u, v), (size[0] * s * 0.85, size[1] * s * 0.88), np.degrees(turn))).astype(np.int32)
        colour = rng.choice([(200, 110, 40), (60, 160, 40), (40, 140, 240), (40, 210, 240), (50, 50, 210)])
        cv2.fillConvexPoly(texture.image, inner, colour, cv2.LINE_AA)
    else:
        cv2.fillConvexPoly(texture.image, box, (20, 20, 22), cv2.LINE_AA)
        inner = cv2.boxPoints(((u, v), (size[0] * s * 0.9, size[1] * s * 0.85), np.degrees(turn))).astype(np.int32)
        cv2.fillConvexPoly(texture.image, inner, _jitter((60, 45, 35), rng, 0.4), cv2.LINE_AA)
