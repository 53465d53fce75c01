"""`vision calibrate PHOTO --expect LOG` (and the companion calibrating itself from a confirmed board) must not
learn from a photo of another board than the one told: the figures behind ``NOT_CAMEL`` in vision/calibrate_colours.py.

    .venv/bin/python benchmarks/calibration_wrong_board.py --seeds 1,2,3 [--tables 20]

Each seed gives ``--tables`` photo-like tables (vision.photo; editions alternating, the clean and light tiers
two tables each in turn). On each, a random game is played with the rules engine (a random setup, then 1 to 12
random pyramid draws), its board photographed, and the photo calibrated twice, with no colours to start from
(as the command does): told the game's board (it should be accepted), and told the board one mis-entered die
of the latest leg would give (another die, value or grey colour; it should be refused, not learnt). Printed:
how many of each, why the right boards were refused and the wrong ones refused, and how far the colours of
the right boards accepted are from the camels' true colours (see calibration_truth.py). ``--without-not-camel``:
the same with the check ``NOT_CAMEL`` sets off (what it adds). ``--verdict``: each photo is first checked
against the log's board as ``vision calibrate --expect`` does (the game's verdict with the usual colours,
:func:`companion.table.camera_read.known_board_contradiction`), and refused when it says "differs".
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import sys
from dataclasses import replace
from typing import Any

from calibration_truth import colour_errors, render_with_colours, summary
from camera_verify import random_game
from tqdm import tqdm

from companion.table.board_hypotheses import board_hypotheses
from vision.calibrate import Calibration, CalibrationError, calibrate_from_board
from vision.locate import BoardNotFound
from vision.photo import make_table
from vision.read import ReadConfig
from vision.synth import EDITION_CAMELS


def _outcome(table: Any, image: Any, track: dict[int, list[str]],
             expectation: Any = None) -> tuple[str | None, Calibration | None]:
    """(None, the calibration) when calibrating from ``image`` told ``track`` is accepted, else (why not, None);
    with ``expectation`` (the log), the verdict is asked first, as the command does."""
    try:
        if expectation is not None:
            from companion.table.camera_read import known_board_contradiction
            from vision.calibrate import reading_colours

            refused = known_board_contradiction(image, reading_colours(table.edition), expectation)
            if refused:
                return "verdict: " + refused.split(":")[0], None
        return None, calibrate_from_board(ReadConfig(), table.template, list(EDITION_CAMELS[table.edition]), image,
                                          track)
    except (CalibrationError, BoardNotFound) as error:
        return str(error), None


def _kind(reason: str) -> str:
    """A refusal's kind, without the camels and spaces it names."""
    return re.sub(r"\d+", "N", reason.split(":")[0].split(",")[0])[:70]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1,2,3", help="comma-separated table seeds")
    parser.add_argument("--tables", type=int, default=20, help="tables per seed")
    parser.add_argument("--without-not-camel", action="store_true", help="the board-not-camel check off")
    parser.add_argument("--verdict", action="store_true", help="the verdict asked first, as calibrate --expect does")
    args = parser.parse_args(argv)
    if args.without_not_camel:
        import vision.calibrate_colours

        vision.calibrate_colours.NOT_CAMEL = 0.0
    jobs = [(int(seed), index) for seed in args.seeds.split(",") for index in range(args.tables)]
    counts: collections.Counter[str] = collections.Counter()
    reasons: collections.Counter[str] = collections.Counter()
    wrong_reasons: collections.Counter[str] = collections.Counter()
    errors: list[float] = []
    for seed, index in tqdm(jobs, unit="table", file=sys.stderr, disable=None, leave=False):
        edition = ("2014", "2018")[index % 2]
        tier = ("clean", "light")[index // 2 % 2]
        table = make_table(seed * 10_007 + index, edition)
        rng = random.Random(f"calibration-wrong-board/{seed}/{index}")
        game = None
        while game is None:
            game = random_game(edition, rng)
        hypotheses = board_hypotheses(game.start, game.actions)
        slips = [h for h in hypotheses[1:] if h.amendment is not None and all(1 <= s <= 16 for s in h.track)]
        image, _, true_colours = render_with_colours(table, hypotheses[0].track, rng.randrange(2**31), tier)
        counts["right"] += 1
        refused, calibration = _outcome(table, image, hypotheses[0].track, game if args.verdict else None)
        if calibration is not None:
            counts["right accepted"] += 1
            errors += colour_errors(calibration, true_colours).values()
            counts["left out"] += len(getattr(calibration, "left_out", ()))
        else:
            reasons[_kind(refused)] += 1
            print(f"right board refused: seed {seed} table {index} ({edition}, {tier}): {refused}")
        if slips:
            slip = rng.choice(slips)
            counts["wrong"] += 1
            told = None
            if args.verdict:
                actions = list(game.actions)
                actions[slip.amendment.index] = slip.amendment.becomes
                told = replace(game, actions=actions)
            wrong, _ = _outcome(table, image, slip.track, told)
            counts["wrong refused"] += wrong is not None
            wrong_reasons[_kind(wrong) if wrong is not None else "accepted"] += 1
    print(f"told the board in the photo: accepted {counts['right accepted']} of {counts['right']}")
    print(f"  colours of the right boards accepted: {summary(errors)}; camels left out (hidden): {counts['left out']}")
    print(f"told a board one entry off: refused {counts['wrong refused']} of {counts['wrong']}")
    for reason, times in reasons.most_common():
        print(f"  right boards refused as '{reason}': {times}")
    for reason, times in wrong_reasons.most_common():
        print(f"  boards one entry off {'accepted' if reason == 'accepted' else f'refused as {reason!r}'}: {times}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
