"""Can a calibration photo measure the camels' real size? The figures behind :mod:`vision.camel_size`.

    .venv/bin/python benchmarks/calibration_camel_size.py [--tune-seed 1] [--seed 2] [--tables 24] [--reading 0]

On photo-like tables (:mod:`vision.photo`: each table's camels 28-32 mm long, 12.5-15 wide, stacked 18-20 mm
apart), calibrated from one calibration photo as the README says, in the clean and the light tier:

- length: the reader's camel model fitted to the photo's camels over a grid of lengths. The mean score of a
  body box favours the smallest box (a small box inside a camel is all camel), so the measure is the evidence
  the box gathers (its mean score times its area in pixels), which grows until the box reaches past the camel;
  its peak (parabola through the best three) is scaled to millimetres by the median ratio to the true length on
  the ``--tune-seed`` tables, then judged on the fresh ``--seed`` tables;
- stack step: the calibration layout has no stacks, so it is fitted on a photo of a random game's board with
  stacks (as the companion calibrates itself from confirmed boards), over a grid of steps that moves each level
  up without changing the body box (only the spacing is asked);
- for each: the mean absolute error (mm) of the measure and of the usual size (30 mm; 19.5 mm), and the time;
- with ``--reading N``: N random boards per table read with the usual size and with the table's true size (the
  best any measure could give), scenes fully right and camels wrong/unseen for each.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time
from typing import Any

import cv2
import numpy as np
from tqdm import tqdm

from vision.calibrate import ANYWHERE, CalibrationError, calibrate, calibrate_from_board
from vision.locate import BoardNotFound
from vision.photo import calibration_track, make_table, render_calibration, render_scene
from vision.plausible import plausible_track, random_board
from vision.read import ReadConfig, observe
from vision.reader import read_with_scorer
from vision.silhouette import FitConfig, SilhouetteScorer
from vision.synth import EDITION_CAMELS

LENGTHS = np.arange(30.0, 48.1, 2.0)
"""Body-model lengths tried (mm): the evidence peaks near 40 for the usual 30 mm camel (the body box is a share
of the camel's length and reaches its head and tail only when longer)."""
STEPS = np.arange(16.5, 23.01, 0.5)


def _box_area(observation: Any, template: Any, space: int, fit: FitConfig) -> float:
    """A body box's area (pixels) in the middle of ``space``: what a camel there would cover in plain view."""
    cx, cy = template.space_centre(space)
    half_length, half_width = fit.body[0] * fit.length_mm / 2, fit.body[1] * fit.width_mm / 2
    corners = np.array([(cx + a * half_length, cy + b * half_width, -share * fit.step_mm)
                        for a in (-1, 1) for b in (-1, 1) for share in fit.body[2:]])
    return float(cv2.contourArea(cv2.convexHull(observation.pose.project(corners).astype(np.float32))))


def length_peak(observation: Any, template: Any, track: dict[int, list[str]], calibration: Any) -> float:
    """The body-model length (mm) at which the lone camels of ``track`` gather the most evidence."""
    gathered = []
    for length in LENGTHS:
        fit = dataclasses.replace(ANYWHERE, length_mm=float(length))
        scorer = SilhouetteScorer(observation, calibration.profiles, template, fit=fit,
                                  board_bgr=calibration.board_bgr)
        gathered.append(sum(scorer.camel_score(track, stack[0]) * _box_area(observation, template, space, fit)
                            for space, stack in track.items() if len(stack) == 1))
    values = np.array(gathered)
    best = int(np.argmax(values))
    if 0 < best < len(values) - 1:
        before, peak, after = values[best - 1 : best + 2]
        bend = before - 2 * peak + after
        if bend < 0:
            return float(LENGTHS[best] + (before - after) / (2 * bend) * (LENGTHS[1] - LENGTHS[0]))
    return float(LENGTHS[best])


def step_fit(observation: Any, template: Any, track: dict[int, list[str]], calibration: Any) -> float:
    """The stack step (mm) at which ``track``'s stacks explain the photo best, the body box kept as it is."""
    usual, body = ANYWHERE.step_mm, ANYWHERE.body
    costs = []
    for step in STEPS:
        fit = dataclasses.replace(ANYWHERE, step_mm=float(step),
                                  body=(body[0], body[1], body[2] * usual / step, body[3] * usual / step))
        scorer = SilhouetteScorer(observation, calibration.profiles, template, fit=fit,
                                  board_bgr=calibration.board_bgr)
        costs.append(scorer.track_cost(track))
    return float(STEPS[int(np.argmin(costs))])


def measure(seed: int, tables: int, reading: int) -> list[dict[str, Any]]:
    config = ReadConfig()
    rows = []
    jobs = [(index, tier) for index in range(tables) for tier in ("clean", "light")]
    for index, tier in tqdm(jobs, unit="table", file=sys.stderr, disable=None, leave=False):
        edition = ("2014", "2018")[index % 2]
        table = make_table(seed * 10_007 + index + 700_000, edition)
        camels = list(EDITION_CAMELS[edition])
        row: dict[str, Any] = {"tier": tier, "length": table.shape.length, "step": table.shape.stack_step}
        photo, _ = render_calibration(table, 0, tier)
        try:
            calibration = calibrate(config, table.template, camels, photo)
        except (CalibrationError, BoardNotFound):
            rows.append(row)
            continue
        started = time.process_time()
        observation = observe(config, table.template, photo)
        row["peak"] = length_peak(observation, table.template, calibration_track(edition), calibration)
        row["length_s"] = time.process_time() - started
        rng = random.Random(f"camel-size/{seed}/{index}/{tier}")
        track = plausible_track(edition, rng)
        while all(len(stack) == 1 for stack in track.values()):
            track = plausible_track(edition, rng)
        image, _ = render_scene(table, track, rng.randrange(2**31), tier)
        try:
            board = calibrate_from_board(config, table.template, camels, image, track, start=calibration.profiles)
        except (CalibrationError, BoardNotFound):
            board = calibration
        started = time.process_time()
        row["stacked"] = sum(len(stack) - 1 for stack in track.values())
        row["fitted_step"] = step_fit(observe(config, table.template, image), table.template, track, board)
        row["step_s"] = time.process_time() - started
        if reading:
            row["reads"] = _reads(config, table, calibration, tier, rng, reading)
        rows.append(row)
    return rows


def _reads(config: ReadConfig, table: Any, calibration: Any, tier: str, rng: random.Random,
           scenes: int) -> dict[str, list[int]]:
    """Per model (the usual size; the table's true size): scenes right, camels wrong, camels unseen."""
    shape = table.shape
    models = {"usual": FitConfig(), "true": dataclasses.replace(FitConfig(), length_mm=shape.length,
                                                                width_mm=shape.width, step_mm=shape.stack_step)}
    counts = {name: [0, 0, 0, 0] for name in models}
    for _ in range(scenes):
        track = random_board(table.edition, rng)
        image, truth = render_scene(table, track, rng.randrange(2**31), tier)
        try:
            observation = observe(config, table.template, image)
        except BoardNotFound:
            continue
        for name, fit in models.items():
            got, _ = read_with_scorer(config, table.template, calibration.profiles, image, calibration.board_bgr,
                                      observation, fit=fit)
            seen = {str(space): stack for space, stack in got.track.items()}
            where = {camel: (space, level) for space, stack in seen.items() for level, camel in enumerate(stack)}
            true = {camel: (str(f["space"]), f["level"]) for camel, f in truth["camels"].items()}
            counts[name][0] += 1
            counts[name][1] += seen == truth["track"]
            counts[name][2] += sum(1 for camel in where if where[camel][0] != true[camel][0])
            counts[name][3] += sum(1 for camel in true if camel not in where)
    return counts


def _mae(values: list[float]) -> float:
    return float(np.mean(np.abs(values))) if values else float("nan")


def report(tuned: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[str]:
    lines = []
    for tier in ("clean", "light"):
        tune = [row for row in tuned if row["tier"] == tier and "peak" in row]
        scale = statistics.median(row["peak"] / row["length"] for row in tune)
        test = [row for row in rows if row["tier"] == tier and "peak" in row]
        length, peak = np.array([row["length"] for row in test]), np.array([row["peak"] for row in test])
        step, fitted = np.array([row["step"] for row in test]), np.array([row["fitted_step"] for row in test])
        length_r, step_r = np.corrcoef(peak, length)[0, 1], np.corrcoef(fitted, step)[0, 1]
        length_s = statistics.median(row["length_s"] for row in test)
        step_s = statistics.median(row["step_s"] for row in test)
        stacked = statistics.median(row["stacked"] for row in test)
        lines.append(
            f"{tier:>5}: {len(test)} tables calibrated (of {sum(row['tier'] == tier for row in rows)}); length: "
            f"measured off by {_mae(list(peak / scale - length)):.2f} mm (mean absolute), the usual 30 mm by "
            f"{_mae(list(length - 30)):.2f} (correlation of the measure with the truth {length_r:.2f}; scale "
            f"{scale:.3f} from {len(tune)} tuning tables), {length_s:.2f} s CPU"
        )
        lines.append(
            f"       stack step (boards with {stacked:.0f} camels stacked, median): fitted off by "
            f"{_mae(list(fitted - step)):.2f} mm, the usual 19.5 mm by {_mae(list(step - 19.5)):.2f} "
            f"(correlation {step_r:.2f}), {step_s:.2f} s CPU"
        )
        reads = [row["reads"] for row in test if "reads" in row]
        if reads:
            for name in ("usual", "true"):
                scenes, right, wrong, unseen = (sum(r[name][k] for r in reads) for k in range(4))
                lines.append(f"       read with the {name} size: {right} of {scenes} scenes fully right, "
                             f"{wrong} camels on a wrong space, {unseen} unseen")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tune-seed", type=int, default=1, help="tables the length's scale is taken from")
    parser.add_argument("--seed", type=int, default=2, help="fresh tables the measures are judged on")
    parser.add_argument("--tables", type=int, default=24, help="tables per seed (each in the clean and light tier)")
    parser.add_argument("--reading", type=int, default=0, help="boards per judged table read with each size")
    args = parser.parse_args(argv)
    tuned = measure(args.tune_seed, args.tables, 0)
    rows = measure(args.seed, args.tables, args.reading)
    print("\n".join(report(tuned, rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
