"""The usual mistakes in setting out the calibration photo, and whether `camelup vision calibrate PHOTO --board E`
tells each in the right words (vision/calibrate_mistakes.py) rather than as another edition, a hidden camel, or
not at all.

    .venv/bin/python benchmarks/calibration_mistakes.py --seeds 1,2 [--tables 4]

Each seed gives ``--tables`` photo-like tables (vision.photo; editions alternating), each photographed in the clean
and the light tier, as set out right and with each mistake: no camels on the board, every camel one space after
its place, the camels stacked for a game's start (the 2014 game: all on spaces 1 to 3; the 2018 one: the racing
camels on 1 to 3, the crazy ones on 14 to 16), and two camels swapped (a random pair). Printed: for each, how
often the right thing is said (the right photo accepted), and what was said otherwise.
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import sys
from typing import Any

from tqdm import tqdm

from vision.calibrate import CalibrationError, calibrate
from vision.locate import BoardNotFound
from vision.photo import calibration_track, make_table, render_scene
from vision.read import ReadConfig
from vision.synth import EDITION_CAMELS

CRAZY = ("black", "white")


def game_start(edition: str, rng: random.Random) -> dict[int, list[str]]:
    """A game's starting board: each racing camel on space 1 to 3 (a die each), stacked in the order drawn; in the
    2018 game the crazy camels likewise on 16 to 14."""
    track: dict[int, list[str]] = collections.defaultdict(list)
    racing = [camel for camel in EDITION_CAMELS[edition] if camel not in CRAZY]
    for camel in rng.sample(racing, len(racing)):
        track[rng.randint(1, 3)].append(camel)
    if edition == "2018":
        for camel in rng.sample(CRAZY, len(CRAZY)):
            track[17 - rng.randint(1, 3)].append(camel)
    return dict(track)


def mistakes(edition: str, rng: random.Random) -> dict[str, tuple[dict[int, list[str]], str | None]]:
    """Each board set out (the right one and each mistake), with a pattern of what should be said (``None``:
    accepted)."""
    layout = calibration_track(edition)
    first, second = sorted(rng.sample(sorted(layout), 2))
    a, b = layout[first][0], layout[second][0]
    swapped = {**layout, first: [b], second: [a]}
    return {
        "right": (layout, None),
        "empty": ({}, r"^no camels are seen on the board"),
        "one space after": ({space + 1: stack for space, stack in layout.items()},
                            r"^every camel stands one space after where it should"),
        "stacked for a start": (game_start(edition, rng), r"^the camels are (stacked|seen only on spaces)"),
        "two swapped": (swapped, rf"the ({a} and {b}|{b} and {a}) camels look swapped"),
    }


def _said(table: Any, photo: Any) -> str | None:
    try:
        calibrate(ReadConfig(), table.template, list(EDITION_CAMELS[table.edition]), photo)
        return None
    except (CalibrationError, BoardNotFound) as error:
        return str(error)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1,2", help="comma-separated table seeds")
    parser.add_argument("--tables", type=int, default=4, help="tables per seed")
    args = parser.parse_args(argv)
    seeds = [int(seed) for seed in args.seeds.split(",")]
    right: collections.Counter[tuple[str, str]] = collections.Counter()
    total: collections.Counter[tuple[str, str]] = collections.Counter()
    wrong_words: dict[tuple[str, str], collections.Counter[str]] = collections.defaultdict(collections.Counter)
    jobs = [(seed, table, tier) for seed in seeds for table in range(args.tables) for tier in ("clean", "light")]
    for seed, index, tier in tqdm(jobs, unit="table", file=sys.stderr, disable=None, leave=False):
        edition = ("2014", "2018")[index % 2]
        table = make_table(seed * 10_007 + index + 500, edition)
        rng = random.Random(f"{seed} {index} {tier}")
        for mistake, (track, expected) in mistakes(edition, rng).items():
            photo, _ = render_scene(table, track, 0, tier, anywhere=True)
            said = _said(table, photo)
            key = (mistake, edition)
            total[key] += 1
            ok = said is None if expected is None else said is not None and re.search(expected, said) is not None
            right[key] += ok
            if not ok:
                wrong_words[key][re.sub(r"\d+", "N", (said or "accepted").split(":")[0])[:90]] += 1
    print("mistake               edition  said right")
    for key in sorted(total, key=lambda key: (list(mistakes("2014", random.Random(0))).index(key[0]), key[1])):
        print(f"{key[0]:<21} {key[1]:<8} {right[key]:>3} of {total[key]:<3}"
              + "".join(f"\n    otherwise {count}x: {words}" for words, count in wrong_words[key].most_common()))
    mistaken = [key for key in total if key[0] != "right"]
    print(f"all mistakes: {sum(right[key] for key in mistaken)} of {sum(total[key] for key in mistaken)} told in the "
          f"right words; right photos accepted {sum(right[key] for key in total if key[0] == 'right')} of "
          f"{sum(total[key] for key in total if key[0] == 'right')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
