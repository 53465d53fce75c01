"""3,000 legs of each edition on the digital twin, with bounces, holds, presses during moves, second presses,
undos, refused draws, refills and power cuts injected. Every die that falls is checked against the game, and
after every step the tray must hold exactly the dice the game has out once people did what the rig asked.

Goal (issue 12): zero wrong releases, zero unreconciled disagreements, zero phantom draws.
Run: .venv/bin/python benchmarks/pyramid_twin.py [--legs 3000] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time

from firmware_py.config import parse_config
from firmware_py.twinsim import run_legs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--legs", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    failed = False
    for index, edition in enumerate(("2014", "2018")):
        started = time.perf_counter()
        report = run_legs(parse_config({"edition": edition}), args.legs, seed=args.seed * 10 + index)
        seconds = time.perf_counter() - started
        print(f"{edition}: {report.legs} legs, {report.draws} draws, {report.releases} dice released, "
              f"{report.bounces} bouncy presses, {report.holds} holds, {report.presses_during_moves} presses "
              f"during a move, {report.undos} undos, {report.refusals} refused, {report.refills} refills, "
              f"{report.power_cuts} power cuts ({seconds:.1f} s)")
        print(f"{edition}: wrong releases {report.wrong_releases}, unreconciled disagreements "
              f"{report.unreconciled}, phantom draws {report.phantom_draws} (goal: all 0)")
        for problem in report.problems:
            print(f"  {problem}")
        failed |= bool(report.wrong_releases or report.unreconciled or report.phantom_draws)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
