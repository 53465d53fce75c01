"""Calibrating from a board the game confirmed while the pyramid or the palm tree hides two camels: it should be
accepted with the two left out (keeping the colours they had, a note naming them and what may hide them), or
refused as "not seen" with where and what may hide them; never "swapped" (a host could swap two camels that were
right), "alike" or "cannot be told from the board", and never learn a hidden camel's colour from what hides it.

    .venv/bin/python benchmarks/calibration_hidden_camels.py --tables 304,307-322 [--boards 4]

Each table (vision.photo, 2018, props tier, no hand) whose pyramid and palm tree hide at least two spaces (the
renderer's truth, < 30% of the space in view) gets ``--boards`` boards: two random camels alone on two hidden
spaces, the others on spaces in clear view. Printed: how each calibration ended (accepted; refused as not seen
with the hiding named; not seen without a reason; swapped; other refusals), with examples; the accepted ones apart as
with both hidden camels left out or with one measured. ``--plausible``:
instead, every table gets ``--boards`` boards of a game in progress (vision.plausible), wherever the camels are.
"""

from __future__ import annotations

import argparse
import collections
import random
from collections.abc import Sequence
from typing import Any

from tqdm import tqdm

from vision.calibrate import CalibrationError, calibrate_from_board
from vision.locate import BoardNotFound
from vision.photo import make_table, render_scene
from vision.plausible import plausible_track
from vision.read import ReadConfig
from vision.synth import EDITION_CAMELS


def _seeds(text: str) -> list[int]:
    seeds: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        seeds.extend(range(int(low), int(high or low) + 1))
    return seeds


def _kind(message: str) -> str:
    if not message:
        return "accepted, the hidden camels left out"
    if message.startswith("measured hidden"):
        return "accepted, a hidden camel measured"
    if "swapped" in message:
        return "swapped"
    if "no camel is seen" in message:
        return "not seen, hiding named" if ("may hide" in message or "covers or shades" in message) else "not seen"
    return "other refusal"


def _calibrated(table: Any, camels: list[str], track: dict[int, list[str]], photo: Any,
                hidden: Sequence[str] = ()) -> str:
    """Why calibrating from ``photo`` told ``track`` was refused ("" when accepted with the ``hidden`` camels left
    out, "measured hidden" when accepted with one of them measured: learnt from what hides it)."""
    try:
        calibration = calibrate_from_board(ReadConfig(), table.template, camels, photo, track)
    except (CalibrationError, BoardNotFound) as error:
        return str(error)
    measured = [camel for camel in hidden if camel not in getattr(calibration, "left_out", ())]
    return f"measured hidden: {', '.join(measured)}" if measured else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="304,307-322")
    parser.add_argument("--boards", type=int, default=4)
    parser.add_argument("--plausible", action="store_true", help="boards of a game in progress instead")
    args = parser.parse_args()
    camels = list(EDITION_CAMELS["2018"])
    counts: collections.Counter[str] = collections.Counter()
    examples: dict[str, str] = {}
    for seed in tqdm(_seeds(args.tables), desc="tables"):
        table = make_table(seed, "2018")
        _, truth = render_scene(table, {16: ["red"]}, 0, "props", hand=False)
        seen = {int(space): share for space, share in truth["spaces_visible"].items()}
        hidden = sorted(space for space, share in seen.items() if share < 0.3)
        clear = sorted(space for space, share in seen.items() if share > 0.9)
        if not args.plausible and (len(hidden) < 2 or len(clear) < len(camels) - 2):
            continue
        rng = random.Random(f"b/{seed}")
        for board in range(args.boards):
            if args.plausible:
                track = plausible_track("2018", random.Random(f"plausible/{seed}/{board}"))
                photo, _ = render_scene(table, track, board + 1, "props", hand=False)
                counts[_kind(_calibrated(table, camels, track, photo))] += 1
                continue
            first, second = rng.sample(camels, 2)
            track = dict(zip(rng.sample(hidden, 2), [[first], [second]], strict=True))
            rest = [camel for camel in camels if camel not in (first, second)]
            for camel, space in zip(rest, rng.sample(clear, len(rest)), strict=True):
                track.setdefault(space, []).append(camel)
            photo, _ = render_scene(table, track, board + 1, "props", hand=False)
            message = _calibrated(table, camels, track, photo, (first, second))
            kind = _kind(message)
            counts[kind] += 1
            examples.setdefault(kind, f"table {seed} board {board}: {message}")
    total = sum(counts.values())
    print(f"{total} boards {'of games in progress' if args.plausible else 'with two hidden camels'}")
    for kind, count in counts.most_common():
        print(f"  {kind}: {count}")
    for kind, example in examples.items():
        print(f"e.g. {kind}: {example[:240]}")


if __name__ == "__main__":
    main()
