"""Where blur and bad exposure stop the reader, and what vision.focus measures there: the limits it checks.

Tables of the photo-like renderer (vision.photo, ``light`` tier: the table's lamp, the camera's own small
defocus, shake, noise and JPEG), each with a calibration photo and a few random boards. Every picture, the
calibration photo too (the same camera takes both), is then made worse by one setting at a time:
- blur: a Gaussian of σ px (defocus) on the rendered picture;
- dark / bright: the exposure scaled in linear light (×0.5 is one stop under), clipped at white;
- noise: Gaussian noise of σ grey levels (the gain of a camera in a dim room).
The table is calibrated on its worse calibration photo (a refusal reads it with the default colours, as the
companion would), every board is read (vision.reader.read_board), and vision.focus measures the picture.

It prints per setting the measured figures (marker edge width, px at 1280 wide; the paper's white; contrast over
noise; share of the board clipped) beside the reading (scenes fully right, camels wrong, camels unseen though in
view, board not found), then the reading per band of the measured figure, pooled over every setting: the limit
is where the reading falls clearly below the unharmed pictures'.

Run: .venv/bin/python benchmarks/camera_focus_exposure.py [--tables N] [--scenes K] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import focus
from vision.calibrate import CalibrationError, calibrate
from vision.locate import BoardNotFound, LocateConfig, find_markers, locate_board
from vision.photo import make_table, render_calibration, render_scene
from vision.photo_bench import _new_counts, score_scene, summary
from vision.plausible import random_board
from vision.read import BOARD_BGR, ReadConfig, observe
from vision.reader import read_board
from vision.synth import EDITION_CAMELS, camel_profiles

SETTINGS: list[tuple[str, float]] = [
    ("none", 0.0),
    *(("blur", s) for s in (1.0, 1.25, 1.5, 1.75, 2.0, 3.0)),
    *(("exposure", g) for g in (0.3, 0.22, 0.15, 0.08, 0.04)),
    *(("exposure", g) for g in (2.5, 3.0, 3.5, 4.5)),
    *(("noise", s) for s in (5.0, 7.0, 9.0, 12.0)),
]
BANDS = {
    # figure: the settings it is judged on, and its bands
    "edge_px": ("blur", [0, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0, 99]),
    "white": ("dark", [0, 30, 40, 50, 60, 70, 80, 90, 256]),
    "clipped": ("bright", [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 1.01]),
    "snr": ("noise", [0, 12, 16, 18, 20, 22, 24, 28, 1e9]),
}


def worse(image: np.ndarray, kind: str, amount: float, seed: int) -> np.ndarray:
    """``image`` after one setting (see the module's docstring)."""
    if kind == "blur":
        return cv2.GaussianBlur(image, (0, 0), amount)
    if kind == "exposure":
        linear = (image.astype(np.float32) / 255.0) ** 2.2 * amount
        return (np.clip(linear, 0, 1) ** (1 / 2.2) * 255 + 0.5).astype(np.uint8)
    if kind == "noise":
        noise = np.random.default_rng(seed).normal(0, amount, image.shape)
        return np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    return image


def measured(image: np.ndarray, template: Any) -> dict[str, Any]:
    markers = find_markers(LocateConfig(), template, image)
    return focus.measure_picture(image, markers).as_json() if markers else {}


def run(tables: int, scenes: int, seed: int, progress: bool = True) -> dict[str, Any]:
    config = ReadConfig()
    rows: dict[str, dict[str, Any]] = {f"{k} {a:g}": {"counts": _new_counts(), "figures": []} for k, a in SETTINGS}
    pooled: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for index in range(tables):
        edition = ("2018", "2014")[index % 2]
        table = make_table(seed * 1009 + index, edition)
        camels = list(EDITION_CAMELS[edition])
        calibration_photo, _ = render_calibration(table, seed=0, tier="light")
        photos = []
        for k in range(scenes):
            track = random_board(edition, random.Random(seed * 7919 + index * 31 + k))
            photos.append(render_scene(table, track, seed * 104_729 + index * 31 + k, "light"))
        for kind, amount in SETTINGS:
            row = rows[f"{kind} {amount:g}"]
            cal = worse(calibration_photo, kind, amount, index)
            try:
                location = locate_board(config.locate, table.template, cal)
                colours = calibrate(config, table.template, camels, cal)
                profiles, board_bgr = colours.profiles, colours.board_bgr
                row["counts"]["calibrated"] += 1
            except (CalibrationError, BoardNotFound):
                location, profiles, board_bgr = None, camel_profiles(edition), BOARD_BGR
            row["counts"]["tables"] += 1
            for k, (photo, truth) in enumerate(photos):
                image = worse(photo, kind, amount, index * 100 + k + 1)
                try:
                    observation = observe(config, table.template, image, near=location)
                    reading = read_board(config, table.template, profiles, image, board_bgr, observation)
                    got: dict[str, list[str]] | None = {str(s): list(stack) for s, stack in reading.track.items()}
                except BoardNotFound:
                    got = None
                one = _new_counts()
                score_scene(row["counts"], truth, got)
                score_scene(one, truth, got)
                figures = measured(image, table.template)
                row["figures"].append(figures)
                family = {"exposure": "dark" if amount < 1 else "bright"}.get(kind, kind)
                pooled.append((figures, one, family))
        if progress:
            print(f"table {index + 1}/{tables} done", file=sys.stderr)
    return {"rows": rows, "pooled": pooled}


def _passes(figures: dict[str, Any]) -> bool:
    return bool(figures) and not any(figures[k] for k in ("blurred", "too_dark", "too_noisy", "overexposed"))


def _mean(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return float(np.mean(present)) if present else None


def _line(label: str, counts: dict[str, Any], extra: str) -> str:
    s = summary(counts)
    return (f"{label:<16}{extra} | {s['scene_accuracy']:6.0%} {s['camel_error']:7.1%} {s['unseen_in_view']:7.1%} "
            f"{s['board_not_found']:6.0%}  ({s['scenes']} scenes)")


def bands(pooled: list[tuple[dict[str, Any], dict[str, Any], str]], key: str) -> list[str]:
    """The reading per band of one figure, over the unharmed pictures and those of its own kind of setting."""
    family, edges = BANDS[key]
    lines = []
    for low, high in itertools.pairwise(edges):
        counts = _new_counts()
        for figures, one, kind in pooled:
            value = figures.get(key)
            if kind not in (family, "none"):
                continue
            if value is not None and low <= value < high:
                for name in ("scenes", "right", "camels", "wrong", "unseen_occluded", "unseen_in_view", "occluded",
                             "not_found"):
                    counts[name] += one[name]
        if counts["scenes"]:
            lines.append(_line(f"{key} {low:g}-{high:g}", counts, ""))
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--scenes", type=int, default=3, help="boards per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.tables, args.scenes, args.seed)
    if args.json:
        print(json.dumps({name: {"reading": summary(row["counts"]), "figures": row["figures"]}
                          for name, row in result["rows"].items()}))
        return 0
    print(f"{args.tables} tables x {args.scenes} boards, seed {args.seed}; limits now: edge <= {focus.MAX_EDGE_PX} px, "
          f"white >= {focus.MIN_WHITE:g}, contrast/noise >= {focus.MIN_SNR:g}, clipped <= {focus.MAX_CLIPPED:.0%}")
    print("setting          edge px  white   snr clipped cal | right   wrong  unseen  no board")
    for name, row in result["rows"].items():
        figures = row["figures"]
        edge, white = _mean([f.get("edge_px") for f in figures]), _mean([f.get("white") for f in figures])
        snr, clipped = _mean([f.get("snr") for f in figures]), _mean([f.get("clipped") for f in figures])
        text = (f"{'-' if edge is None else f'{edge:5.1f}':>7} {'-' if white is None else f'{white:4.0f}':>6} "
                f"{'-' if snr is None else f'{snr:5.0f}':>5} {'-' if clipped is None else f'{clipped:6.1%}':>7} "
                f"{row['counts']['calibrated']}/{row['counts']['tables']}")
        print(_line(name, row["counts"], text))
    unharmed = result["rows"]["none 0"]["figures"]
    edges = sorted(f["edge_px"] for f in unharmed if f.get("edge_px") is not None)
    snrs = sorted(f["snr"] for f in unharmed if f.get("snr") is not None)
    whites = sorted(f["white"] for f in unharmed if f.get("white") is not None)
    clipped = sorted(f["clipped"] for f in unharmed if f.get("clipped") is not None)
    print(f"\nunharmed pictures: edge px median {np.median(edges):.1f}, widest {edges[-1]:.1f}; white lowest "
          f"{whites[0]:.0f}; contrast/noise lowest {snrs[0]:.0f}; clipped highest {clipped[-1]:.1%}")
    flagged = sum(not _passes(f) for f in unharmed)
    print(f"unharmed pictures the limits call blurred or badly exposed: {flagged} of {len(unharmed)}")
    for verdict, passes in (("passed", True), ("called blurred or badly exposed", False)):
        counts = _new_counts()
        for figures, one, _kind in result["pooled"]:
            if _passes(figures) == passes:
                for name in ("scenes", "right", "camels", "wrong", "unseen_occluded", "unseen_in_view", "occluded",
                             "not_found"):
                    counts[name] += one[name]
        print(_line(f"all {verdict}", counts, "").replace(" |", ":", 1))
    print("reading per band of each figure (the unharmed pictures and its own kind of setting): right, wrong, "
          "unseen in view, no board")
    for key in BANDS:
        print("\n".join(bands(result["pooled"], key)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
