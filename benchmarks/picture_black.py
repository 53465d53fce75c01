"""Where a picture is black (a lens cap, a hand over the lens, the light off) rather than a dim room: the limits of
vision.focus's black check (``WholePicture.black``: "is the lens cap on or the camera covered?", not "more light").

Black pictures: no light at all, only what a camera adds in the dark at its highest gain: read noise in linear light
(σ 0.0005 to 0.03 of full scale, each channel its own: at 0.03 a dark frame's mean grey is about 30), a pedestal
(a camera that leaves its black at 16), row banding, a faint glow in a corner (a sensor's amplifier), a hand
with a little light through it (the picture blurred beyond recognition, red, 11 stops down), JPEG 60 and 90.
Dim rooms: tables of the photo-like renderer (vision.photo, ``light`` and ``props`` tiers), the exposure scaled in
linear light (×0.01 is 6.6 stops under) with read noise added after it (0, 0.1% and 0.3% of full scale), JPEG.

It prints per setting the figures vision.focus.measure_whole gives (``structure``: how alike neighbouring 16×16
cells are, 0 for noise alone; ``level``: the brightest cells' grey) and how many pictures are called black and
too dark, then the margins: the black pictures' highest structure against the dim rooms' lowest (down to ×0.005
by default, where the board is still found at times; darker and noisier rooms show next to nothing beyond their
noise, and whichever they are called, the words name the light too).

Run: .venv/bin/python benchmarks/picture_black.py [--tables N] [--seed S] [--darkest G]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import focus
from vision.photo import make_table, render_scene
from vision.plausible import random_board

SIZE = (1280, 720)
READ_NOISE = (0.0, 0.001, 0.003)
"""A dim room's read noise (linear, share of full scale) added after its exposure."""
DARK_READ_NOISE = (0.0005, 0.002, 0.008, 0.015, 0.03)
GAINS = (0.01, 0.005, 0.003, 0.002, 0.001)


def to_linear(image: np.ndarray) -> np.ndarray:
    return (image.astype(np.float32) / 255.0) ** 2.2


def developed(linear: np.ndarray, rng: np.random.Generator, read: float, quality: int | None, pedestal: int = 0,
              banding: float = 0.0, glow: float = 0.0) -> np.ndarray:
    """The camera's picture of ``linear`` light (BGR, 0-1): its noise, banding, glow, tone curve, pedestal, JPEG."""
    height, width = linear.shape[:2]
    out = linear + rng.normal(0, read, linear.shape).astype(np.float32) if read else linear.copy()
    if banding:
        out += rng.normal(0, banding, (height, 1, 1)).astype(np.float32)
    if glow:
        yy, xx = np.mgrid[0:height, 0:width]
        out += (glow * np.exp(-((xx - width) ** 2 + yy**2) / (2 * (0.2 * width) ** 2)))[..., None].astype(np.float32)
    picture = np.clip(np.clip(out, 0, 1) ** (1 / 2.2) * 255 + 0.5 + pedestal, 0, 255).astype(np.uint8)
    if quality is None:
        return picture
    ok, data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("OpenCV could not encode a JPEG")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def row(family: str, setting: str, picture: np.ndarray) -> dict[str, Any]:
    whole = focus.measure_whole(picture)
    return {"family": family, "setting": setting, "structure": whole.structure, "level": whole.light_level,
            "black": whole.black, "too_dark": whole.too_dark, "bright": whole.bright}


def run(tables: int, seed: int, progress: bool = True) -> list[dict[str, Any]]:
    rng = np.random.default_rng(seed)
    rows = []
    photos = []
    for index in range(tables):
        edition = ("2018", "2014")[index % 2]
        table = make_table(seed * 1009 + index, edition)
        track = random_board(edition, random.Random(seed * 7919 + index))
        photos.append(render_scene(table, track, seed * 104_729 + index, ("light", "props")[index % 3 == 2])[0])
    for index, photo in enumerate(photos):
        linear = to_linear(photo)
        for gain in GAINS:
            for read in READ_NOISE:
                quality = (None, 60, 90)[(index + int(read * 1000)) % 3]
                rows.append(row("dim", f"×{gain:g} noise {read:g}", developed(linear * gain, rng, read, quality)))
        # A hand over the lens: its own skin, lit through, blurred past any shape, red.
        hand = cv2.GaussianBlur(linear, (0, 0), 80) * np.array([0.2, 0.35, 1.0], np.float32) * 0.0005
        rows.append(row("black", "hand over the lens", developed(hand, rng, 0.002, 60)))
        if progress:
            print(f"table {index + 1}/{tables} done", file=sys.stderr)
    dark = np.zeros((SIZE[1], SIZE[0], 3), np.float32)
    for read in DARK_READ_NOISE:
        for pedestal in (0, 16):
            for quality in (None, 60, 90):
                rows.append(row("black", f"noise {read:g}", developed(dark, rng, read, quality, pedestal)))
                rows.append(row("black", "banding", developed(dark, rng, read, quality, pedestal, banding=0.0005)))
                rows.append(row("black", "corner glow", developed(dark, rng, read, quality, pedestal, glow=0.0002)))
    return rows


def report(rows: list[dict[str, Any]], darkest: float) -> str:
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for found in rows:
        groups[(found["family"], found["setting"])].append(found)
    lines = [f"{'family':<6} {'setting':<24} {'n':>3}  {'structure':>11}  {'level':>11}  black  too dark"]
    for (family, setting), these in groups.items():
        structure = [r["structure"] for r in these]
        level = [r["level"] for r in these]
        lines.append(f"{family:<6} {setting:<24} {len(these):>3}  {min(structure):5.2f}-{max(structure):<5.2f}  "
                     f"{min(level):5.1f}-{max(level):<5.1f}  {sum(r['black'] for r in these):>5}  "
                     f"{sum(r['too_dark'] for r in these):>8}")
    black = [r for r in rows if r["family"] == "black" and r["setting"] != "corner glow"]
    rooms = [r for r in rows if r["family"] == "dim" and float(r["setting"][1:].split()[0]) >= darkest]
    lines += ["", f"black pictures (but a glowing corner): highest structure {max(r['structure'] for r in black):.2f}, "
              f"highest level {max(r['level'] for r in black):.1f}; {sum(r['black'] for r in black)} of {len(black)} "
              "called black",
              f"dim rooms down to ×{darkest:g}: lowest structure {min(r['structure'] for r in rooms):.2f}; "
              f"{sum(r['black'] for r in rooms)} of {len(rooms)} called black, "
              f"{sum(r['too_dark'] and not r['black'] for r in rooms)} too dark",
              f"limits: structure below {focus.WHOLE_MIN_STRUCTURE:g} and level at most {focus.WHOLE_BLACK_LEVEL:g}"]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--darkest", type=float, default=0.005, help="the darkest room that must not be black")
    args = parser.parse_args()
    print(report(run(args.tables, args.seed), args.darkest))


if __name__ == "__main__":
    main()
