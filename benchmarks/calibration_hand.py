"""A hand or an arm over the board in the calibration photo: is the photo refused (naming what covers which
spaces) rather than the hand's colour learnt as the camels' it hides? And photos of the same tables without a hand:
still accepted? The figures behind ``SPREAD`` in vision/calibrate_cover.py.

    .venv/bin/python benchmarks/calibration_hand.py --seeds 1,2 [--tables 20] [--without-check]

Each seed gives ``--tables`` photo-like tables (vision.photo, editions alternating), each photographed for its
calibration in the light tier twice: with an arm reaching over the board (``render_scene(..., hand=True)``) and
without. A camel the hand hides is one less than 70% of which is in view (the renderer's truth). Printed: how the
photos with a hand end (refused as covered; refused otherwise; accepted with a hidden camel's colour learnt
wrong, over 0.05 from its true one, see calibration_truth.py, or from the one the same table's photo without
the hand gave; accepted otherwise), how many without a hand are
accepted, and the largest spread (see vision/calibrate_cover.py) each kind of photo measured.
"""

from __future__ import annotations

import argparse
import collections
import sys

import numpy as np
from calibration_truth import colour_errors, render_with_colours
from tqdm import tqdm

import vision.calibrate
import vision.calibrate_cover
import vision.photo as photo
from vision.calibrate import CalibrationError, calibrate
from vision.locate import BoardNotFound
from vision.photo import calibration_track, make_table
from vision.read import ReadConfig
from vision.synth import EDITION_CAMELS

COVERED = "(a hand?)"


def _apart(calibration, plain, camel: str) -> float:
    """How far a camel's colour in ``calibration`` is from the one ``plain`` measured (channel shares, each relative
    to its board): a camel mostly hidden has no true colour of its own to compare with (calibration_truth.py)."""
    shares = []
    for measured in (calibration, plain):
        colour = np.array(measured.profiles[camel], float) / np.maximum(np.array(measured.board_bgr, float), 1.0)
        shares.append(colour / colour.sum())
    return float(np.linalg.norm(shares[0] - shares[1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1,2", help="comma-separated table seeds")
    parser.add_argument("--tables", type=int, default=20, help="tables per seed")
    parser.add_argument("--without-check", action="store_true", help="the check for something over the board off")
    args = parser.parse_args(argv)
    spreads: list[float] = []
    real = vision.calibrate.covering_something

    def recording(*call, **kwargs):  # the spreads the check measured on this photo
        from vision.calibrate_cover import cover_spreads

        spreads.extend(cover_spreads(*call, **kwargs).values())
        return [] if args.without_check else real(*call, **kwargs)

    vision.calibrate.covering_something = recording
    render = photo.render_scene
    counts: collections.Counter[str] = collections.Counter()
    largest = {True: 0.0, False: 0.0}
    jobs = [(int(seed), index) for seed in args.seeds.split(",") for index in range(args.tables)]
    for seed, index in tqdm(jobs, unit="table", file=sys.stderr, disable=None, leave=False):
        edition = ("2014", "2018")[index % 2]
        table = make_table(seed * 10_009 + index + 700, edition)
        plain = None  # the table's calibration without the hand: what its camels' colours are
        for hand in (False, True):
            photo.render_scene = lambda *a, hand=hand, **k: render(*a, **{**k, "hand": hand})
            try:
                image, truth, true_colours = render_with_colours(table, calibration_track(edition), seed, "light",
                                                                 anywhere=True)
            finally:
                photo.render_scene = render
            hidden = {camel for camel, seen in truth["camels"].items() if seen["visible"] < 0.7}
            kind = "hand" if hand else "no hand"
            spreads.clear()
            try:
                calibration = calibrate(ReadConfig(), table.template, list(EDITION_CAMELS[edition]), image)
                outcome = None
            except BoardNotFound:
                counts[f"{kind}: board not found"] += 1
                continue
            except CalibrationError as error:
                outcome = str(error)
            largest[hand] = max([largest[hand], *spreads])
            counts[kind] += 1
            if outcome is None and not hand:
                plain = calibration
            if outcome is None:
                wrong = {camel for camel, error in colour_errors(calibration, true_colours).items() if error > 0.05}
                if plain is not None and hand:
                    wrong |= {camel for camel in hidden if _apart(calibration, plain, camel) > 0.05}
                learnt = wrong & hidden - set(calibration.left_out)
                counts[f"{kind}: accepted" + (", a hidden camel learnt wrong" if learnt else "")] += 1
                if hand and learnt:
                    print(f"seed {seed} table {index} ({edition}): accepted, learnt {', '.join(sorted(learnt))} "
                          f"under the hand (hidden: {', '.join(sorted(hidden))})")
            else:
                counts[f"{kind}: refused" + (" as covered" if COVERED in outcome else "")] += 1
                if not hand or COVERED in outcome:
                    print(f"seed {seed} table {index} ({edition}, {kind}): {outcome} (hidden: "
                          f"{', '.join(sorted(hidden)) or 'none'})")
    for kind in ("hand", "no hand"):
        print(f"{kind}: {counts[kind]} photos (board not found: {counts[f'{kind}: board not found']})")
        for outcome in ("refused as covered", "refused", "accepted, a hidden camel learnt wrong", "accepted"):
            print(f"  {outcome}: {counts[f'{kind}: {outcome}']}")
    print(f"largest spread: with a hand {largest[True]:.2f}, without {largest[False]:.2f} "
          f"(refused over {vision.calibrate_cover.SPREAD})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
