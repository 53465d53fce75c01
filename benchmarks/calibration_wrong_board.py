"""`vision calibrate PHOTO --expect LOG` (and the companion calibrating itself from a confirmed board) must not
learn from a photo of another board than the one told: the figures behind ``NOT_CAMEL`` in vision/calibrate.py.

    .venv/bin/python benchmarks/calibration_wrong_board.py --seeds 1,2,3 [--tables 20]

Each seed gives ``--tables`` photo-like tables (vision.photo; editions alternating, the clean and light tiers
two tables each in turn). On each, a random game is played with the rules engine (a random setup, then 1 to 12
random pyramid draws), its board photographed, and the photo calibrated twice, with no colours to start from
(as the command does): told the game's board (it should be accepted), and told the board one mis-entered die
of the latest leg would give (another die, value or grey colour; it should be refused, not learnt). Printed:
how many of each, and why the right boards were refused. ``--without-not-camel``: the same with the check
``NOT_CAMEL`` sets off (what it adds).
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import sys
from typing import Any

from camera_verify import random_game
from tqdm import tqdm

from companion.table.board_hypotheses import board_hypotheses
from vision.calibrate import CalibrationError, calibrate_from_board
from vision.locate import BoardNotFound
from vision.photo import make_table, render_scene
from vision.read import ReadConfig
from vision.synth import EDITION_CAMELS


def _outcome(table: Any, image: Any, track: dict[int, list[str]]) -> str | None:
    """None when calibrating from ``image`` told ``track`` is accepted, else why not."""
    try:
        calibrate_from_board(ReadConfig(), table.template, list(EDITION_CAMELS[table.edition]), image, track)
    except (CalibrationError, BoardNotFound) as error:
        return str(error)
    return None


def _kind(reason: str) -> str:
    """A refusal's kind, without the camels and spaces it names."""
    return re.sub(r"\d+", "N", reason.split(":")[0].split(",")[0])[:70]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1,2,3", help="comma-separated table seeds")
    parser.add_argument("--tables", type=int, default=20, help="tables per seed")
    parser.add_argument("--without-not-camel", action="store_true", help="the board-not-camel check off")
    args = parser.parse_args(argv)
    if args.without_not_camel:
        import vision.calibrate

        vision.calibrate.NOT_CAMEL = 0.0
    jobs = [(int(seed), index) for seed in args.seeds.split(",") for index in range(args.tables)]
    counts: collections.Counter[str] = collections.Counter()
    reasons: collections.Counter[str] = collections.Counter()
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
        image, _ = render_scene(table, hypotheses[0].track, rng.randrange(2**31), tier)
        counts["right"] += 1
        refused = _outcome(table, image, hypotheses[0].track)
        if refused is None:
            counts["right accepted"] += 1
        else:
            reasons[_kind(refused)] += 1
            print(f"right board refused: seed {seed} table {index} ({edition}, {tier}): {refused}")
        if slips:
            slip = rng.choice(slips)
            counts["wrong"] += 1
            counts["wrong refused"] += _outcome(table, image, slip.track) is not None
    print(f"told the board in the photo: accepted {counts['right accepted']} of {counts['right']}")
    print(f"told a board one entry off: refused {counts['wrong refused']} of {counts['wrong']}")
    for reason, times in reasons.most_common():
        print(f"  right boards refused as '{reason}': {times}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
