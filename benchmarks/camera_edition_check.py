"""The other edition's camels told apart from the edition the camera reads (vision/edition_check.py): photos of
both editions' boards from the independent renderer (benchmarks/independent, which shares no code with vision/),
each read as `camelup vision read` reads it (companion.table.camera_read.read_picture) four ways: with its own
table's calibration and with --board of its own edition (right: the warning must never come), and with the
calibration of a table of the other edition and --board of the other edition (wrong: the warning should come).

Each pair of tables shares a seed (one 2018 table, one 2014 table); each table is calibrated from the
calibration photo the README asks for (as `camelup vision calibrate --board E`; refused: read with --board E).
Prints the warnings on right-edition readings (target 0), the wrong-edition readings caught, and what the check
costs once the board is read.

Run: .venv/bin/python benchmarks/camera_edition_check.py [--seeds 990,991,992] [--pairs 2] [--scenes 2]
     [--tiers clean,light,props]
(seeds 77, 78, 80 and 81-90 are kept for the camera report: not used here.)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.camera_independent import light_of, random_board
from benchmarks.independent.scene import render
from benchmarks.independent.table import make_table
from companion.table.camera_read import read_picture
from vision.board import load_template
from vision.calibrate import CalibrationError, calibrate, calibration_layout, reading_colours
from vision.edition_check import other_edition_seen
from vision.image_file import load_photo
from vision.locate import BoardNotFound
from vision.read import ReadConfig, observe
from vision.reader import read_with_scorer
from vision.synth import EDITION_CAMELS

WARNING = "the camels look like the "
OTHER = {"2014": "2018", "2018": "2014"}


def calibrated(table, light: str, folder: Path) -> tuple[object, bool]:
    """The table's calibration from its calibration photo, or its board's usual colours when refused."""
    camels = list(EDITION_CAMELS[table.edition])
    photo = folder / f"{table.seed}-{table.edition}-{light}-calibration.png"
    render(table, light, calibration_layout(camels), 0, str(photo), calibration=True)
    try:
        return calibrate(ReadConfig(), load_template(table.edition), camels, load_photo(str(photo))), True
    except (CalibrationError, BoardNotFound):
        return reading_colours(table.edition), False


def warned(image: np.ndarray, colours) -> tuple[bool | None, float]:
    """Whether the reading lists the other edition's warning (None: board not found), and the check's CPU time
    (ms)."""
    try:
        result = read_picture(image, colours.template, colours.profiles, colours.board_bgr, fit=colours.fit())
        config = ReadConfig()
        observation = observe(config, colours.template, image)
        reading, scorer = read_with_scorer(config, colours.template, colours.profiles, image, colours.board_bgr,
                                           observation, fit=colours.fit())
    except BoardNotFound:
        return None, 0.0
    start = time.process_time()  # CPU time: the machine may be shared, wall time then says little
    other_edition_seen(scorer, reading.track, list(colours.profiles), colours.board_bgr)
    cost = (time.process_time() - start) * 1000
    return any(problem.startswith(WARNING) for problem in result["problems"]), cost


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="990,991,992")
    parser.add_argument("--pairs", type=int, default=2, help="pairs of tables (one per edition) per seed")
    parser.add_argument("--scenes", type=int, default=2, help="race boards per table and tier")
    parser.add_argument("--tiers", default="clean,light,props")
    args = parser.parse_args(argv)
    tiers = args.tiers.split(",")
    counts = {key: [0, 0] for key in ("right calibration", "right --board", "wrong calibration", "wrong --board")}
    costs: list[float] = []
    not_found = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for seed in (int(s) for s in args.seeds.split(",")):
            for pair in range(args.pairs):
                tables = {e: make_table(seed * 1000 + pair, e, list(EDITION_CAMELS[e])) for e in ("2018", "2014")}
                lights = {light_of(tier) for tier in tiers}
                calibrations = {(e, light): calibrated(tables[e], light, folder) for e in tables for light in lights}
                rng = np.random.default_rng([seed, pair])
                for edition, table in tables.items():
                    for tier in tiers:
                        for k in range(args.scenes):
                            path = folder / f"{seed}-{pair}-{edition}-{tier}-{k}.jpg"
                            render(table, tier, random_board(rng, list(EDITION_CAMELS[edition])), k + 1, str(path))
                            image = load_photo(str(path))
                            ways = {
                                "right calibration": calibrations[edition, light_of(tier)][0],
                                "right --board": reading_colours(edition),
                                "wrong calibration": calibrations[OTHER[edition], light_of(tier)][0],
                                "wrong --board": reading_colours(OTHER[edition]),
                            }
                            for way, colours in ways.items():
                                said, cost = warned(image, colours)
                                if said is None:
                                    not_found += 1
                                    continue
                                counts[way][0] += said
                                counts[way][1] += 1
                                costs.append(cost)
                                if said and way.startswith("right"):
                                    print(f"  false warning: {path.name} read with {way}", file=sys.stderr)
                print(f"seed {seed} pair {pair} done", file=sys.stderr, flush=True)
    print(f"seeds {args.seeds}, {args.pairs} pair(s) of tables each, {args.scenes} board(s) per table and tier "
          f"({', '.join(tiers)})")
    for way, (said, total) in counts.items():
        kind = "warned (target 0)" if way.startswith("right") else "caught"
        print(f"  {way:18s} {said:3d} / {total:3d} {kind}")
    print(f"  board not found: {not_found} readings")
    if costs:
        print(f"  the check's CPU time once the board is read: median {np.median(costs):.1f} ms, "
              f"95th percentile {np.percentile(costs, 95):.1f} ms, max {max(costs):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
