"""Issue 11's figures for `camelup vision read --expect`: does the camera confirm the game's board, and does it
catch a board that differs by one mis-entered die?

On the independent photo-like scenes (vision.photo), per tier: each table is calibrated from one calibration
photo as the README says (the default colours when refused), then random games are played with the rules
engine (a random setup, then random pyramid draws). Each game's board is photographed twice: as the game
expects it, and as it would stand had one of the latest draws come out differently (another die, value or
grey colour), by the camera still standing where it was calibrated (`vision read --calibration` looks for the
markers where the calibration photo had them). Reported, per tier:
- matching boards: confirmed ("matches": true), false alarms ("matches": false; target <= 1%), cannot tell
  (null);
  and how many of those "cannot tell" had a camel really hidden (less than half of it in view, by the
  renderer's truth: behind the pyramid, the palm tree, a hand or a taller stack) and how many were in plain view;
- boards that differ by one entry: caught (false), misses (true; target <= 1%), cannot tell (null), and how
  often the most likely explanation named is the entry that really differed;
- with --hand-slips, boards one hand's slip off too (a camel set one space off, two camels of a stack swapped):
  the same figures (the verdict weighs those slips, so they are measured as well);
- the median CPU time of one verification (locating, reading, judging; not rendering).
Run: .venv/bin/python benchmarks/camera_verify.py [--scenes N] [--seed S] [--tier light|props|clean|all]
     [--hand-slips]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from tqdm import tqdm

from companion.gamelog import action_from_json
from companion.rules import EDITIONS, GREY_DIE, apply, new_game
from companion.table.board_hypotheses import board_hypotheses
from companion.table.camera_read import Expectation, read_picture
from vision.calibrate import CalibrationError, calibrate
from vision.locate import BoardNotFound
from vision.photo import TIERS, make_table, render_calibration, render_scene
from vision.plausible import starting_track
from vision.read import BOARD_BGR, ReadConfig
from vision.synth import EDITION_CAMELS, camel_profiles
from vision.verify import VerifyConfig

PLAYERS = ("Ann", "Bob", "Cy")
SCENES_PER_TABLE = 4
HIDDEN = 0.5
"""A camel less than this share of whose pixels is in view (the renderer's truth) is really hidden."""


def random_draw(state: Any, rng: random.Random) -> dict[str, Any]:
    """The next player's pyramid ticket: a random die still in the pyramid, value and (grey) colour."""
    die = rng.choice(state.dice_in_pyramid())
    action: dict[str, Any] = {"player": state.current_player, "type": "pyramid", "die": die, "value": rng.randint(1, 3)}
    if die == GREY_DIE:
        action["crazy"] = rng.choice(state.edition.crazy_camels)
    return action


def random_game(edition: str, rng: random.Random) -> Expectation | None:
    """A game after random draws whose every camel is still on spaces 1 to 16 (None when the race ended)."""
    state = start = new_game(EDITIONS[edition], PLAYERS, starting_track(edition, rng))
    actions: list[dict[str, Any]] = []
    for _ in range(rng.randint(1, 12)):
        action = random_draw(state, rng)
        state = apply(state, action_from_json(action))
        actions.append(action)
        if state.game_over:
            return None
    if any(not 1 <= space <= 16 for space in state.track.as_dict()):
        return None
    return Expectation(edition, start, actions)


def _counts() -> dict[str, int]:
    return {"true": 0, "false": 0, "null": 0, "not found": 0, "named": 0, "hidden": 0, "null hidden": 0,
            "true hidden": 0}


def run(scenes: int, seed: int, tiers: tuple[str, ...], verify: VerifyConfig | None = None,
        hand_slips: bool = False) -> dict[str, Any]:
    config = ReadConfig()
    results: dict[str, dict[str, Any]] = {}
    jobs = [(tier, index) for tier in tiers for index in range(scenes)]
    colours: dict[tuple[int, str], tuple[Any, Any, dict[str, Any], Any, bool, Any]] = {}
    for tier, index in tqdm(jobs, unit="scene", leave=False):
        counts = results.setdefault(tier, {"matching": _counts(), "differing": _counts(), "slipped": _counts(),
                                           "times": [], "tables": 0, "calibrated": 0})
        table_index = index // SCENES_PER_TABLE
        light = "clean" if tier == "clean" else "light"
        if (table_index, light) not in colours:
            edition = ("2014", "2018")[table_index % 2]
            table = make_table(seed * 10_007 + table_index + 500_000, edition)
            photo, _ = render_calibration(table, 0, light)
            try:
                found = calibrate(config, table.template, list(EDITION_CAMELS[edition]), photo)
                # The camera stands where it was calibrated: the markers are looked for where the photo had them.
                near = found.location((photo.shape[1], photo.shape[0]))
                colours[(table_index, light)] = (table, found.template, found.profiles, found.board_bgr, True, near)
            except (CalibrationError, BoardNotFound):
                colours[(table_index, light)] = (table, table.template, camel_profiles(edition), BOARD_BGR, False,
                                                 None)
        table, template, profiles, board_bgr, calibrated, near = colours[(table_index, light)]
        if index % SCENES_PER_TABLE == 0:
            counts["tables"] += 1
            counts["calibrated"] += calibrated
        rng = random.Random(f"verify/{seed}/{tier}/{index}")
        game = None
        while game is None:
            game = random_game(table.edition, rng)
        hypotheses = board_hypotheses(game.start, game.actions)
        slips = [h for h in hypotheses[1:] if h.amendment is not None and all(1 <= s <= 16 for s in h.track)]
        cases = [("matching", hypotheses[0].track, None, rng)]
        if slips:
            slip = rng.choice(slips)
            cases.append(("differing", slip.track, slip.why, rng))
        hands = [h for h in hypotheses[1:] if h.amendment is None]
        if hand_slips and hands:
            # A generator of its own: the other boards and their scenes stay those of a run without.
            other = random.Random(f"verify/{seed}/{tier}/{index}/hand")
            slip = other.choice(hands)
            cases.append(("slipped", slip.track, slip.why, other))
        for kind, track, why, scene_rng in cases:
            image, truth = render_scene(table, track, scene_rng.randrange(2**31), tier)
            hidden = any(camel["visible"] < HIDDEN for camel in truth["camels"].values())
            started = time.process_time()
            try:
                verdict = read_picture(image, template, profiles, board_bgr, game, verify, near=near)
            except BoardNotFound:
                counts[kind]["not found"] += 1
                continue
            counts["times"].append((time.process_time() - started) * 1000)
            counts[kind][json.dumps(verdict["matches"])] += 1
            counts[kind]["hidden"] += hidden
            counts[kind]["null hidden"] += hidden and verdict["matches"] is None
            counts[kind]["true hidden"] += hidden and verdict["matches"] is True
            if kind != "matching" and verdict.get("most_likely") == why:
                counts[kind]["named"] += 1
    return results


def _total(counts: dict[str, int]) -> int:
    return sum(counts[key] for key in ("true", "false", "null", "not found"))


def describe(results: dict[str, Any]) -> list[str]:
    lines = []
    for tier, counts in results.items():
        same = counts["matching"]
        n_same = max(_total(same), 1)
        plain = same["null"] - same["null hidden"]
        in_view = _total(same) - same["not found"] - same["hidden"]
        lines.append(
            f"{tier:>6}: matching boards {_total(same)}: {100 * same['true'] / n_same:.1f}% confirmed, "
            f"{100 * same['false'] / n_same:.1f}% false alarms (target <= 1%), {100 * same['null'] / n_same:.1f}% "
            f"cannot tell, {100 * same['not found'] / n_same:.1f}% board not found"
        )
        lines.append(
            f"        {same['hidden']} of them with a camel really hidden (less than half in view); cannot tell: "
            f"{same['null hidden']} with a camel hidden, {plain} ({100 * plain / n_same:.1f}%) in plain view; "
            f"confirmed {same['true'] - same['true hidden']} of the {in_view} with every camel in view"
        )
        for kind, label in (("differing", "boards one entry off"), ("slipped", "boards one hand's slip off")):
            other = counts[kind]
            if kind == "slipped" and not _total(other):
                continue
            n_other = max(_total(other), 1)
            lines.append(
                f"        {label} {_total(other)}: {100 * other['false'] / n_other:.1f}% caught "
                f"({100 * other['named'] / n_other:.1f}% with the {'entry' if kind == 'differing' else 'slip'} "
                f"named), {100 * other['true'] / n_other:.1f}% misses (target <= 1%), "
                f"{100 * other['null'] / n_other:.1f}% cannot tell ({other['null hidden']} with a camel hidden), "
                f"{100 * other['not found'] / n_other:.1f}% board not found"
            )
        times = counts["times"]
        lines.append(
            f"        {statistics.median(times) if times else float('nan'):.0f} ms CPU per verification (median); "
            f"calibration accepted at the first photo on {counts['calibrated']} of {counts['tables']} tables"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", type=int, default=40, help="games per tier (each photographed twice)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tier", choices=(*TIERS, "all"), default="all")
    parser.add_argument("--hand-slips", action="store_true",
                        help="photograph each game a third time, as one hand's slip would leave the board")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--verify", metavar="JSON", help='VerifyConfig fields to try, e.g. {"slip_prior": 0.3}')
    args = parser.parse_args()
    tiers = TIERS if args.tier == "all" else (args.tier,)
    verify = VerifyConfig(**json.loads(args.verify)) if args.verify else None
    results = run(args.scenes, args.seed, tiers, verify, args.hand_slips)
    if args.json:
        print(json.dumps({tier: {k: v for k, v in c.items() if k != "times"} for tier, c in results.items()}))
    print("\n".join(describe(results)))


if __name__ == "__main__":
    main()
