"""Issue 11's frame budget: CPU time to read one 1280×720 frame as the companion does (target <= 60 ms, one
core), and to read a 4608×2592 still in the board's region.

On photo-like tables (vision.photo, light tier), each calibrated from its calibration photo: the first frame
of a table searches the whole picture for the markers; the following ones (the camera stands still) look for
them where they were and keep the board's place as the companion's camera watch does (``frames=True``: see
``vision.locate.LocateConfig.steady_px``). CPU time of this process (time.process_time), reading only, not
rendering; each time is also split into finding the board (markers, pose, cut-out: vision.read.observe) and
reading the camels on it.
Run: .venv/bin/python benchmarks/camera_frame_time.py [--tables N] [--seed S]
A speed-up must read the same: benchmarks/camera_reading_digest.py prints a digest of the readings of these frames
(and more) to compare before and after.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import cv2
from tqdm import tqdm

from vision.calibrate import CalibrationError, calibrate
from vision.locate import BoardNotFound
from vision.photo import make_table, render_calibration, render_scene
from vision.plausible import random_board
from vision.read import BOARD_BGR, ReadConfig, observe
from vision.reader import read_board
from vision.synth import EDITION_CAMELS, camel_profiles

FRAMES_PER_TABLE = 4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    config = ReadConfig()
    first, following, stills = [], [], []
    parts: dict[str, list[float]] = {"frame: finding": [], "frame: reading": [], "still: finding": [],
                                     "still: reading": []}
    for index in tqdm(range(args.tables), unit="table", leave=False):
        edition = ("2014", "2018")[index % 2]
        table = make_table(args.seed * 10_007 + index + 900_000, edition)
        photo, _ = render_calibration(table, 0, "light")
        try:
            found = calibrate(config, table.template, list(EDITION_CAMELS[edition]), photo)
            profiles, board_bgr = found.profiles, found.board_bgr
        except (CalibrationError, BoardNotFound):
            profiles, board_bgr = camel_profiles(edition), BOARD_BGR
        near = None
        for frame in range(FRAMES_PER_TABLE):
            seed = index * 100 + frame
            image, _ = render_scene(table, random_board(edition, random.Random(seed)), seed, "light")
            started = time.process_time()
            try:
                observation = observe(config, table.template, image, near=near, frames=True)
                found = time.process_time()
                read_board(config, table.template, profiles, image, board_bgr, observation)
            except BoardNotFound:
                near = None
                continue
            finished = time.process_time()
            (following if near is not None else first).append((finished - started) * 1000)
            if near is not None:
                parts["frame: finding"].append((found - started) * 1000)
                parts["frame: reading"].append((finished - found) * 1000)
            near = observation.location
            if frame == 0:
                still = cv2.resize(image, (4608, 2592), interpolation=cv2.INTER_CUBIC)
                started = time.process_time()
                try:
                    observation = observe(config, table.template, still)
                    found = time.process_time()
                    read_board(config, table.template, profiles, still, board_bgr, observation)
                except BoardNotFound:
                    continue
                finished = time.process_time()
                stills.append((finished - started) * 1000)
                parts["still: finding"].append((found - started) * 1000)
                parts["still: reading"].append((finished - found) * 1000)

    def figure(times: list[float]) -> str:
        if not times:
            return "none"
        ordered = sorted(times)
        ninetieth = ordered[math.ceil(0.9 * len(ordered)) - 1]  # nearest rank: never below the median
        return f"{statistics.median(ordered):.0f} ms median, {ninetieth:.0f} ms 90th pct"

    print(f"following frames ({len(following)}): {figure(following)} (target <= 60 ms)")
    print(f"first frame of a table ({len(first)}): {figure(first)}")
    print(f"4608x2592 still, read in the board's region ({len(stills)}): {figure(stills)}")
    print("split: " + "; ".join(f"{name} {figure(times)}" for name, times in parts.items()))


if __name__ == "__main__":
    main()
