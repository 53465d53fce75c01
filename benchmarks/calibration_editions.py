"""Calibration photos told their own edition and the other one: how many are accepted (the first photo of
each table), and how many of the wrong ones are refused naming the photo's edition ("is this the 2018
edition? Then give --board 2018") rather than learnt under the wrong names.

    .venv/bin/python benchmarks/calibration_editions.py --seeds 1,2,3 [--tables 6]

Each seed gives ``--tables`` tables (editions alternating, as the photo bench's calibration does), each
photographed in the clean and the light tier (the light tier puts desert or spectator tiles on some empty spaces).
"""

from __future__ import annotations

import argparse
import collections
import sys

from calibration_truth import colour_errors, render_with_colours, summary
from tqdm import tqdm

from vision.board import load_template
from vision.calibrate import CalibrationError, calibrate
from vision.locate import BoardNotFound
from vision.photo import calibration_track, make_table
from vision.read import ReadConfig
from vision.synth import EDITION_CAMELS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1,2,3", help="comma-separated table seeds")
    parser.add_argument("--tables", type=int, default=6, help="tables per seed")
    args = parser.parse_args(argv)
    seeds = [int(seed) for seed in args.seeds.split(",")]
    counts: collections.Counter[str] = collections.Counter()
    errors: list[float] = []
    jobs = [(seed, table, tier) for seed in seeds for table in range(args.tables) for tier in ("clean", "light")]
    for seed, index, tier in tqdm(jobs, unit="photo", file=sys.stderr, disable=None, leave=False):
        edition = ("2014", "2018")[index % 2]
        table = make_table(seed * 10_007 + index, edition)
        photo, truth, true_colours = render_with_colours(table, calibration_track(edition), 0, tier, anywhere=True)
        for told in EDITION_CAMELS:
            try:
                calibration = calibrate(ReadConfig(), load_template(told), list(EDITION_CAMELS[told]), photo)
                outcome = None
            except BoardNotFound as error:  # the markers, not the camels: counted apart
                counts["board not found"] += 1
                print(f"seed {seed} table {index} ({edition}, {tier}), told {told}: {error}")
                continue
            except CalibrationError as error:
                outcome = str(error)
            if told == edition:
                counts["right"] += 1
                counts["right accepted"] += outcome is None
                counts["right with tiles"] += bool(truth["tiles"])
                counts["right with tiles accepted"] += bool(truth["tiles"]) and outcome is None
                if outcome is None:
                    errors += colour_errors(calibration, true_colours).values()
                    counts["left out"] += len(getattr(calibration, "left_out", ()))
                else:
                    print(f"refused: seed {seed} table {index} ({edition}, {tier}): {outcome}")
            else:
                counts["wrong"] += 1
                counts["wrong accepted"] += outcome is None
                counts["wrong named"] += outcome is not None and f"--board {edition}" in outcome
    print(f"told the photo's edition: accepted {counts['right accepted']} of {counts['right']} "
          f"({counts['right with tiles accepted']} of the {counts['right with tiles']} with tiles on the board)")
    print(f"  colours of those accepted: {summary(errors)}; camels left out (hidden): {counts['left out']}")
    print(f"told the other edition: refused naming the photo's edition {counts['wrong named']} of {counts['wrong']}, "
          f"accepted (learnt under the wrong names) {counts['wrong accepted']}")
    print(f"board not found (left out above): {counts['board not found']} calibrations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
