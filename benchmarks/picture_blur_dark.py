"""Where a whole picture is too blurred, too dark or too bright for any marker to be found: the limits of
vision.focus's whole-picture check (the words said first when the board is not found).

Tables of the photo-like renderer (vision.photo, ``light`` tier: the table's own lamp, the camera's small defocus,
shake, noise and JPEG), one board each, both editions. Every picture is made worse by one setting at a time:
- blur: a Gaussian of σ px (defocus) on the rendered 1280×720 picture;
- dark / bright: the exposure scaled in linear light (×0.5 is one stop under), clipped at white.
For each, the markers the reader's own search finds (vision.locate.find_markers), whether the board is located
(vision.locate.locate_board), and what vision.focus.measure_whole measures on the whole picture (no markers): the
steepest edges' width, the brightest level (99th percentile grey), the share at full white.

It prints per setting the share of pictures whose board is located and the figures' range, then per figure:
the unharmed pictures' worst value (the limit must pass them all, with room) and the value beyond which no board
was located (the limit must be within it, or a lost board would be blamed on where the camera points).

Run: .venv/bin/python benchmarks/picture_blur_dark.py [--tables N] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import focus
from vision.locate import BoardNotFound, LocateConfig, find_markers, locate_board
from vision.photo import make_table, render_scene
from vision.plausible import random_board

SETTINGS: list[tuple[str, float]] = [
    ("none", 0.0),
    *(("blur", s) for s in (2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0, 12.0, 16.0)),
    *(("exposure", g) for g in (0.1, 0.05, 0.03, 0.02, 0.015, 0.01, 0.007, 0.005)),
    *(("exposure", g) for g in (4.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0)),
]


def worse(image: np.ndarray, kind: str, amount: float) -> np.ndarray:
    """``image`` after one setting (see the module's docstring)."""
    if kind == "blur":
        return cv2.GaussianBlur(image, (0, 0), amount)
    if kind == "exposure":
        linear = (image.astype(np.float32) / 255.0) ** 2.2 * amount
        return (np.clip(linear, 0, 1) ** (1 / 2.2) * 255 + 0.5).astype(np.uint8)
    return image


def run(tables: int, seed: int, progress: bool = True) -> list[dict[str, Any]]:
    config = LocateConfig()
    rows = []
    for index in range(tables):
        edition = ("2018", "2014")[index % 2]
        table = make_table(seed * 1009 + index, edition)
        track = random_board(edition, random.Random(seed * 7919 + index))
        photo, _ = render_scene(table, track, seed * 104_729 + index, "light")
        for kind, amount in SETTINGS:
            image = worse(photo, kind, amount)
            markers = len(find_markers(config, table.template, image))
            try:
                locate_board(config, table.template, image)
                located = True
            except BoardNotFound:
                located = False
            family = {"exposure": "dark" if amount < 1 else "bright"}.get(kind, kind)
            rows.append({"table": index, "setting": f"{kind} {amount:g}", "family": family, "markers": markers,
                         "located": located, **focus.measure_whole(image).as_json()})
        if progress:
            print(f"table {index + 1}/{tables} done", file=sys.stderr)
    return rows


def _limits(rows: list[dict[str, Any]]) -> list[str]:
    """Per figure: the unharmed pictures' worst value, the worst value at which a board was still located, and
    the best value at which none was (the limit belongs between the first and the last)."""
    lines = []
    for figure, family, worst in (("edge_px", "blur", max), ("bright", "dark", min), ("clipped", "bright", max)):
        best = min if worst is max else max
        unharmed = [row[figure] for row in rows if row["family"] == "none"]
        own = [row for row in rows if row["family"] in (family, "none")]
        located = [row[figure] for row in own if row["located"]]
        lost = [row[figure] for row in own if not row["located"]]
        lines.append(f"{figure:<8} unharmed worst {worst(unharmed):g}; board located at worst {worst(located):g}; "
                     f"board lost at best {best(lost) if lost else 'never':}; "
                     f"with vision.focus's limit: {_beyond(own, figure)}")
    return lines


def _beyond(rows: list[dict[str, Any]], figure: str) -> str:
    """What the whole-picture check says where it is used (the board not found), with vision.focus's limits."""
    flag = {"edge_px": "blurred", "bright": "too_dark", "clipped": "overexposed"}[figure]
    lost = [row for row in rows if not row["located"] and row["family"] != "none"]
    named = sum(1 for row in lost if row[flag])
    unharmed = [row for row in rows if row["family"] == "none"]
    return (f"of {len(lost)} boards lost to it, {named} are called {flag.replace('_', ' ')}; "
            f"{sum(1 for row in unharmed if row[flag])} of {len(unharmed)} unharmed pictures would be")


def report(rows: list[dict[str, Any]]) -> str:
    lines = ["setting        located  markers  edge px (min-max)  bright (min-max)  clipped (min-max)"]
    for kind, amount in SETTINGS:
        these = [row for row in rows if row["setting"] == f"{kind} {amount:g}"]
        def span(key: str, these: list[dict[str, Any]] = these) -> str:
            values = [row[key] for row in these]
            return f"{min(values):g}-{max(values):g}"
        located = sum(row["located"] for row in these) / len(these)
        markers = float(np.mean([row["markers"] for row in these]))
        lines.append(f"{kind + ' ' + format(amount, 'g'):<14} {located:6.0%}  {markers:7.1f}  {span('edge_px'):>17}  "
                     f"{span('bright'):>16}  {span('clipped'):>17}")
    return "\n".join([*lines, "", *_limits(rows)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="every picture's figures as JSON")
    args = parser.parse_args()
    rows = run(args.tables, args.seed)
    print(json.dumps(rows) if args.json else report(rows))


if __name__ == "__main__":
    main()
