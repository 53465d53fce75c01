"""Printed and painted surfaces: the board's art (track in two alternating sand tones, numbers, a desert in
the middle), the ArUco marker sheets, desert and spectator tiles, betting cards, and the table's wood, cloth or
laminate. Textures are drawn in sRGB with OpenCV and returned as linear RGB float32."""

from __future__ import annotations

import cv2
import numpy as np

from benchmarks.independent.rays import Paint, sample

BOARD_EDGE = (115.0, 555.0)
"""The printed board's extent in mm (x and y alike): the track (135 to 535) and a 20 mm border."""
BOARD_PX_PER_MM = 2.0
QUIET_MM = 8.0


def to_linear(srgb: np.ndarray) -> np.ndarray:
    x = np.asarray(srgb, np.float32) / 255.0
    return np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4).astype(np.float32)


def to_srgb(linear: np.ndarray) -> np.ndarray:
    x = np.clip(linear, 0, 1)
    return np.where(x <= 0.0031308, 12.92 * x, 1.055 * x ** (1 / 2.4) - 0.055) * 255


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    """Noise in [-1, 1] with features about shape/cells pixels across."""
    grid = rng.uniform(-1, 1, (max(2, shape[0] // cells), max(2, shape[1] // cells))).astype(np.float32)
    return cv2.resize(grid, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC).clip(-1, 1)


def jitter(rng: np.random.Generator, rgb: tuple[int, int, int], spread: float) -> tuple[int, int, int]:
    return tuple(int(np.clip(c + rng.normal(0, spread), 0, 255)) for c in rgb)  # type: ignore[return-value]


def board_texture(spaces: dict[int, list[list[float]]], rng: np.random.Generator) -> np.ndarray:
    """The printed board seen from above (sRGB uint8, RGB), BOARD_PX_PER_MM pixels a millimetre."""
    lo, hi = BOARD_EDGE
    s = BOARD_PX_PER_MM
    size = int((hi - lo) * s)
    border = np.array(jitter(rng, (150, 82, 40), 12), np.float32)
    img = np.empty((size, size, 3), np.float32)
    img[:] = border
    dunes = smooth_noise(rng, (size, size), 60)[..., None]
    grain = smooth_noise(rng, (size, size), 4)[..., None]
    tone_a = np.array(jitter(rng, (226, 188, 122), 10), np.float32)
    tone_b = np.array(jitter(rng, (196, 148, 86), 10), np.float32)
    inner0, inner1 = int((215 - lo) * s), int((455 - lo) * s)
    desert = np.array(jitter(rng, (214, 166, 98), 10), np.float32)
    img[inner0:inner1, inner0:inner1] = desert * (1 + 0.12 * dunes[inner0:inner1, inner0:inner1])

    def px(x: float) -> int:
        return round((x - lo) * s)

    for number, corners in spaces.items():
        (x0, y0), (x1, y1) = corners[0], corners[2]
        tone = tone_a if number % 2 else tone_b
        img[px(y0) : px(y1), px(x0) : px(x1)] = tone * (1 + 0.06 * dunes[px(y0) : px(y1), px(x0) : px(x1)])
    img *= 1 + 0.05 * grain
    out = img.clip(0, 255).astype(np.uint8)
    ink = jitter(rng, (92, 52, 26), 8)
    for number, corners in spaces.items():
        (x0, y0), (x1, y1) = corners[0], corners[2]
        cv2.rectangle(out, (px(x0), px(y0)), (px(x1) - 1, px(y1) - 1), ink, 2)
        cv2.putText(out, str(number), (px(x0) + 6, px(y0) + 30), cv2.FONT_HERSHEY_DUPLEX, 0.9, ink, 2, cv2.LINE_AA)
        if number == 1:  # the start and finish line across the first space's left edge
            for k in range(8):
                colour = (240, 240, 230) if k % 2 else (40, 30, 25)
                cv2.rectangle(out, (px(x0), px(y0 + 10 * k)), (px(x0 + 6), px(y0 + 10 * k + 10)), colour, -1)
    for _ in range(int(rng.integers(2, 6))):  # little printed scenery in the middle: rocks, a caravan track
        cx, cy = rng.uniform(230, 440, 2)
        cv2.ellipse(
            out,
            (px(cx), px(cy)),
            (int(rng.uniform(8, 30)), int(rng.uniform(5, 16))),
            float(rng.uniform(0, 180)),
            0,
            360,
            jitter(rng, (150, 110, 70), 15),
            -1,
            cv2.LINE_AA,
        )
    return out


def marker_texture(marker_id: int, size_mm: float, rng: np.random.Generator, px_per_mm: float = 4.0) -> np.ndarray:
    """A cut-out marker: the black square of ``size_mm`` with its white border (sRGB uint8, RGB)."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    side = round(size_mm * px_per_mm)
    quiet = round(QUIET_MM * px_per_mm)
    code = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
    paper = int(rng.uniform(232, 252))
    img = np.full((side + 2 * quiet, side + 2 * quiet), paper, np.uint8)
    img[quiet : quiet + side, quiet : quiet + side] = np.where(code > 0, paper, int(rng.uniform(12, 30)))
    return cv2.cvtColor(img, cv2.COLOR_GRAY2RGB)


TILE_COLOURS = [
    (200, 40, 40),
    (40, 80, 190),
    (40, 150, 70),
    (230, 190, 40),
    (120, 60, 160),
    (230, 120, 30),
    (90, 90, 90),
    (220, 220, 220),
]


def tile_texture(edition: str, plus: bool, rng: np.random.Generator, px: int = 160) -> np.ndarray:
    """A desert tile (2014: oasis or mirage) or a spectator tile (2018: cheering or booing), seen from above."""
    owner = TILE_COLOURS[int(rng.integers(len(TILE_COLOURS)))]
    img = np.empty((px, px, 3), np.uint8)
    if edition == "2014":
        img[:] = (120, 170, 90) if plus else (200, 196, 170)
        motif = (30, 110, 40) if plus else (150, 160, 190)
        cv2.circle(img, (px // 2, px // 2), px // 3, motif, -1, cv2.LINE_AA)
        if plus:
            cv2.line(img, (px // 2, px // 2), (px // 2 + 8, px // 6), (110, 70, 30), 5, cv2.LINE_AA)
    else:
        img[:] = (236, 200, 120) if plus else (110, 96, 130)
        cv2.circle(img, (px // 2, px // 2 - 8), px // 4, jitter(rng, (200, 150, 110), 30), -1, cv2.LINE_AA)
        cv2.putText(img, "+1" if plus else "-1", (px // 3, px - 22), cv2.FONT_HERSHEY_DUPLEX, 1.2, (30, 20, 20), 2)
    cv2.rectangle(img, (0, 0), (px - 1, px - 1), owner, 12)
    return img


def card_texture(rng: np.random.Generator) -> np.ndarray:
    """A betting ticket or a finish card: a coloured card with a white number."""
    colour = TILE_COLOURS[int(rng.integers(6))]
    img = np.empty((136, 90, 3), np.uint8)
    img[:] = jitter(rng, colour, 15)
    cv2.rectangle(img, (5, 5), (84, 130), (245, 240, 225), 3)
    cv2.putText(img, str(int(rng.choice([5, 3, 2, 1]))), (28, 88), cv2.FONT_HERSHEY_DUPLEX, 1.8, (250, 250, 245), 3)
    return img


def texture_paint(
    texture_srgb: np.ndarray,
    origin: tuple[float, float],
    px_per_mm: float,
    angle: float = 0.0,
    side: Paint | None = None,
) -> Paint:
    """Paint a texture on upward faces, its top left at ``origin`` (mm) turned by ``angle``; ``side`` elsewhere."""
    tex = to_linear(texture_srgb)
    c, s = np.cos(angle), np.sin(angle)
    edge = tuple(float(v) for v in tex[0, 0])

    def paint(p: np.ndarray, n: np.ndarray) -> np.ndarray:
        dx, dy = p[:, 0] - origin[0], p[:, 1] - origin[1]
        u = (c * dx + s * dy) * px_per_mm
        v = (-s * dx + c * dy) * px_per_mm
        out = sample(tex, u, v, edge)
        if side is not None:
            up = n[:, 2] > 0.5
            out[~up] = side(p[~up], n[~up])
        return out

    return paint


def table_paint(
    kind: str, rng: np.random.Generator, decals: list[tuple[np.ndarray, tuple[float, float], float, float]]
) -> Paint:
    """The table top (wood grain, cloth weave or laminate speckle), with flat things lying on it (``decals``:
    texture in sRGB, top-left corner in mm, angle, pixels per mm) drawn over it."""
    noise = smooth_noise(rng, (512, 512), 16)
    fine = rng.uniform(-1, 1, (512, 512)).astype(np.float32)
    if kind == "wood":
        base = to_linear(np.array(jitter(rng, (150, 100, 60), 12)))
        ring = rng.uniform(0.08, 0.2)
        angle = rng.uniform(0, np.pi)
        plank = rng.uniform(90, 160)
    elif kind == "cloth":
        base = to_linear(
            np.array(
                jitter(rng, [(40, 90, 60), (60, 60, 110), (120, 120, 120), (140, 40, 40)][int(rng.integers(4))], 15)
            )
        )
    else:
        base = to_linear(
            np.array(jitter(rng, [(225, 225, 220), (200, 190, 170), (90, 90, 95)][int(rng.integers(3))], 10))
        )
    layers = [(to_linear(t), origin, a, ppm) for t, origin, a, ppm in decals]

    def paint(p: np.ndarray, n: np.ndarray) -> np.ndarray:
        x, y = p[:, 0], p[:, 1]
        low = sample(noise[..., None], (x / 8) % 511, (y / 8) % 511)[:, 0]
        if kind == "wood":
            along = np.cos(angle) * x + np.sin(angle) * y
            across = -np.sin(angle) * x + np.cos(angle) * y
            stripes = np.sin(across / 1.1 + 9 * low + 0.004 * along) * (0.5 + 0.5 * np.sin(across / 7.0 + 3 * low))
            seam = (np.abs(((across + 60) % plank) - plank / 2) > plank / 2 - 0.8).astype(np.float32)
            shade = (1 + ring * 0.5 * stripes + 0.1 * low) * (1 - 0.35 * seam)
        elif kind == "cloth":
            weave = sample(fine[..., None], (x * 1.5) % 511, (y * 1.5) % 511)[:, 0]
            shade = 1 + 0.05 * weave + 0.06 * low
        else:
            speck = sample(fine[..., None], (x * 0.7) % 511, (y * 0.7) % 511)[:, 0]
            shade = 1 + 0.02 * speck + 0.02 * low
        out = base[None, :] * shade[:, None]
        for tex, (ox, oy), a, ppm in layers:
            c, s = np.cos(a), np.sin(a)
            u = (c * (x - ox) + s * (y - oy)) * ppm
            v = (-s * (x - ox) + c * (y - oy)) * ppm
            inside = (u >= 0) & (v >= 0) & (u < tex.shape[1] - 1) & (v < tex.shape[0] - 1)
            if inside.any():
                out[inside] = sample(tex, u[inside], v[inside])
        return out.astype(np.float32)

    return paint
