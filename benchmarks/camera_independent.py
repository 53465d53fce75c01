"""The camera measured as an outsider measures it: on photos from a renderer of its own (benchmarks/independent:
a numpy ray caster that shares no code, shapes or art with vision/), through the real command line.

Per table: a calibration photo taken as the README says (one camel on each odd space, as
`camelup vision calibrate --board E` prints), `camelup vision calibrate PHOTO --board E --out cal.json` (a
refused calibration counts as refused, and that table is then read with --board E), then random race boards
(5 or 7 camels, stacks up to 5 high) read with `camelup vision read IMAGE --calibration cal.json` and
compared with the truth: scenes fully right, camels placed wrongly (wrong space, or out of order against the
other camels the reader put in that stack), camels unseen (truly hidden: under a fifth of its pixels in view;
or in view), and "board not found".
Tiers: clean (neutral light, no camera errors), light (the table's lamp, colour casts, exposure and white
balance errors, noise, blur, JPEG, tiles on spaces), props (plus the pyramid, the palm tree, cards, coins, a
phone, and an arm over the board in 15% of scenes). The seed is fresh each run unless --seed is given.

With --expect K (default 1), per table and tier K random boards, one die drawn by the companion's rules engine:
a photo of the board the log leads to must be answered "matches": true (else a false alarm), and a photo of the
board a different entry (another value or another die) gives must be answered false (else a miss).

Run: .venv/bin/python benchmarks/camera_independent.py [--tables N] [--scenes-per-table K] [--seed S]
     [--tier clean|light|props|all] [--expect K] [--json] [--keep DIR]
     .venv/bin/python benchmarks/camera_independent.py --reread RESULT.json --keep DIR [--json]
     (the same photos read again by the code as it is now: before and after a change, on the very same scenes;
     add --recalibrate to calibrate its calibration photos again too)
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Protocol

import numpy as np
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.independent.logs import one_draw
from benchmarks.independent.scene import TIERS, Truth, render
from benchmarks.independent.table import Table, make_table

CAMELUP = str(Path(sys.executable).parent / "camelup")
HIDDEN = 0.2


def calibration_board(edition: str) -> dict[int, list[str]]:
    """Where `camelup vision calibrate --board E` tells the user to put each camel."""
    out = subprocess.run(
        [CAMELUP, "vision", "calibrate", "--board", edition], capture_output=True, text=True, check=True
    ).stdout
    return {int(space): [name] for name, space in re.findall(r"(\w+) on (\d+)", out.split("\n")[0])}


def random_board(rng: np.random.Generator, names: list[str]) -> dict[int, list[str]]:
    """A race board: the camels in random stacks (up to 5 high), often bunched as in a game, sometimes spread."""
    window = int(rng.integers(4, 17))
    start = int(rng.integers(0, 16))
    spaces = [int((start + k) % 16 + 1) for k in rng.permutation(window)]
    track: dict[int, list[str]] = {}
    for name in rng.permutation(names):
        open_stacks = [s for s, v in track.items() if len(v) < 5]
        if open_stacks and (rng.random() < 0.45 or len(track) == len(spaces)):
            track[int(rng.choice(open_stacks))].append(str(name))
        else:
            track[spaces[len(track)]] = [str(name)]
    return track


def judge(truth: Truth, reading: dict) -> dict:
    """One scene's verdict: per camel right / wrong / unseen (hidden or in view), by stack level."""
    if "error" in reading:
        kind = "board not found" if str(reading["error"]).startswith("board not found") else "error"
        return {"outcome": kind, "marker_hidden": bool(truth.hidden_markers), "message": reading["error"]}
    placed = {
        name: (int(space), k) for space, stack in reading.get("track", {}).items() for k, name in enumerate(stack)
    }
    true_place = {name: (space, k) for space, stack in truth.track.items() for k, name in enumerate(stack)}
    camels = {}
    for name, (space, k) in true_place.items():
        hidden = truth.visible.get(name, 0.0) < HIDDEN
        if name not in placed:
            verdict = "unseen hidden" if hidden else "unseen in view"
        elif placed[name][0] != space:
            verdict = "wrong"
        else:
            mine = placed[name][1]
            order_ok = all(
                (placed[o][1] < mine) == (ok_level < k)
                for o, (s2, ok_level) in true_place.items()
                if o != name and s2 == space and o in placed and placed[o][0] == space
            )
            verdict = "right" if order_ok else "wrong"
        camels[name] = {"verdict": verdict, "level": k, "visible": round(float(truth.visible.get(name, 0.0)), 3)}
    extra = [name for name in placed if name not in true_place]
    verdicts = [c["verdict"] for c in camels.values()]
    return {
        "outcome": "read",
        "fully_right": all(v == "right" for v in verdicts) and not extra,
        "right_but_hidden": all(v in ("right", "unseen hidden") for v in verdicts) and not extra,
        "camels": camels,
    }


# At most as many readings at once as the machine has cores: a --reread of 150 photos once started 150 processes
# together (a load of 73 on two cores) and slowed everything else on the machine.
READERS = ThreadPoolExecutor(max_workers=os.cpu_count() or 2)


def read(image: str, calibration: str | None, edition: str, expect: str | None = None) -> Future:
    """`camelup vision read IMAGE ...` started (queued behind the readings already running); :func:`collect` waits."""
    how = ["--calibration", calibration] if calibration else ["--board", edition]
    more = ["--expect", expect] if expect else []
    return READERS.submit(subprocess.run, [CAMELUP, "vision", "read", image, *how, *more], capture_output=True,
                          text=True)


def collect(reading: Future) -> dict:
    done = reading.result()
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"error": f"no JSON (exit {done.returncode}): {done.stderr.strip()[-300:]}"}


def light_of(tier: str) -> str:
    """The calibration photo a tier's scenes are read with: props scenes share the light tier's table light."""
    return "clean" if tier == "clean" else "light"


class Photographer(Protocol):
    """A renderer as the benches call it: the photo of board ``track`` at ``table`` in ``tier``'s conditions saved to
    ``path``, and the truth about it (the independent renderer's ``render``, or POV-Ray's through
    ``camera_povray.PovrayPhotographer``)."""

    def __call__(self, table: Table, tier: str, track: dict[int, list[str]], seed: int, path: str, *,
                 calibration: bool = False, tiles: bool = True) -> Truth: ...


def suffix(tier: str) -> str:
    """A clean tier's photos are lossless; every other tier's are JPEG, as a camera saves them."""
    return "png" if tier == "clean" else "jpg"


def calibrate(table: Table, board: dict[int, list[str]], light: str, folder: Path, i: int,
              photograph: Photographer = render) -> dict:
    photo = folder / f"t{i}-{light}-calibration.{suffix(light)}"
    photograph(table, light, board, 0, str(photo), calibration=True)
    return calibrate_photo(photo, table.edition, folder / f"t{i}-{light}-cal.json", i)


def calibrate_photo(photo: Path, edition: str, cal: Path, i: int) -> dict:
    """`camelup vision calibrate PHOTO --board E --out CAL`, as the README says, and what it answered."""
    done = subprocess.run(
        [CAMELUP, "vision", "calibrate", str(photo), "--board", edition, "--out", str(cal)],
        capture_output=True,
        text=True,
    )
    return {
        "table": i,
        "file": str(cal) if done.returncode == 0 else None,
        "accepted": done.returncode == 0,
        "message": (done.stdout + done.stderr).strip()[-300:],
    }


def blind_scenes(
    table: Table,
    tier: str,
    names: list[str],
    count: int,
    calibration: str | None,
    folder: Path,
    i: int,
    rng: np.random.Generator,
    photograph: Photographer = render,
) -> list[dict]:
    pending = []
    for k in range(count):
        track = random_board(rng, names)
        image = folder / f"t{i}-{tier}-{k}.{suffix(tier)}"
        truth = photograph(table, tier, track, k + 1, str(image))
        pending.append((truth, image, read(str(image), calibration, table.edition)))
    return [scene_verdict(truth, collect(reading), i, table.edition, image) for truth, image, reading in pending]


def scene_verdict(truth: Truth, reading: dict, i: int, edition: str, image: Path) -> dict:
    """:func:`judge`'s verdict on one reading, with what a later look at the scene (or ``--reread``) needs."""
    verdict = judge(truth, reading)
    verdict.update(
        table=i,
        edition=edition,
        image=image.name,
        props=truth.props,
        truth={str(s): v for s, v in truth.track.items()},
        visible={name: round(float(v), 3) for name, v in truth.visible.items()},
        hidden_markers=list(truth.hidden_markers),
        reading=reading,
    )
    return verdict


def expect_scenes(
    table: Table,
    tier: str,
    names: list[str],
    count: int,
    calibration: str | None,
    folder: Path,
    i: int,
    rng: np.random.Generator,
    photograph: Photographer = render,
) -> list[dict]:
    """Photos of the board a log leads to, and of the board a different entry gives, verified with --expect."""
    pending = []
    for k in range(count):
        draw = one_draw(table.edition, random_board(rng, names), rng)
        if draw is None:
            continue
        log = folder / f"t{i}-{tier}-x{k}.log.json"
        log.write_text(json.dumps(draw.log))
        for case, track, seed in (("matching", draw.expected, 100 + k), ("differing", draw.other, 200 + k)):
            image = folder / f"t{i}-{tier}-x{k}-{case}.{suffix(tier)}"
            truth = photograph(table, tier, track, seed, str(image), tiles=False)
            proc = read(str(image), calibration, table.edition, str(log))
            pending.append((case, truth, image, draw.other_entry, proc))
    verdicts = []
    for case, truth, image, entry, proc in pending:
        reading = collect(proc)
        verdicts.append(
            {
                "case": case,
                "outcome": expect_outcome(case, reading),
                "table": i,
                "image": image.name,
                "entry": entry,
                "hidden": [c for c, v in truth.visible.items() if v < HIDDEN],
                "differences": reading.get("differences"),
                "error": reading.get("error"),
                **verdict_words(reading),
            }
        )
    return verdicts


def verdict_words(reading: dict) -> dict:
    """The command's answer in words and its margin, kept beside each outcome: how near a verdict came to
    another is what tells a lucky answer from a sure one."""
    return {"verdict": reading.get("verdict"), "margin": reading.get("margin")}


def expect_outcome(case: str, reading: dict) -> str:
    """An --expect reading's outcome: "right", "false alarm" (a matching board said to differ), "miss" (a board one
    entry off said to match), "cannot tell", "board not found" or "error"."""
    answer = reading.get("matches", "error") if "error" not in reading else "error"
    if answer is None:
        return "cannot tell"
    if answer == "error":
        return "board not found" if str(reading["error"]).startswith("board not found") else "error"
    if case == "matching":
        return "right" if answer is True else "false alarm"
    return "right" if answer is False else "miss"


def reread(result: dict, folder: Path, recalibrate: bool = False) -> dict:
    """The photos a run with ``--keep folder`` left, read again by the code as it is now, with the calibrations that
    run made (as they were), or with ``recalibrate`` its calibration photos calibrated again by the code as it is
    now: the very same scenes before and after a change to the reader (or to the calibration)."""
    again: dict[tuple[int, str], dict] = {}
    for tier, found in result["details"].items():
        if recalibrate:
            light = light_of(tier)
            for cal in found["calibrations"]:
                i = cal["table"]
                if (i, light) not in again:
                    edition = next((s["edition"] for s in found["scenes"] if s["table"] == i), "2018")
                    photo = folder / f"t{i}-{light}-calibration.{suffix(light)}"
                    again[(i, light)] = calibrate_photo(photo, edition, folder / f"t{i}-{light}-cal.json", i)
            found["calibrations"] = [again[(cal["table"], light)] for cal in found["calibrations"]]
        calibrations = {c["table"]: folder / Path(c["file"]).name if c["file"] else None
                        for c in found["calibrations"]}
        edition = {s["table"]: s["edition"] for s in found["scenes"]}
        pending = []
        for scene in found["scenes"]:
            if "camels" not in scene and "visible" not in scene:
                continue  # "board not found" in a run that kept no truth for it: nothing to judge a reading by
            cal = calibrations.get(scene["table"])
            pending.append((scene, read(str(folder / scene["image"]), str(cal) if cal else None, scene["edition"])))
        for scene, proc in pending:
            visible = scene.get("visible") or {n: c["visible"] for n, c in scene["camels"].items()}
            truth = Truth({int(s): v for s, v in scene["truth"].items()}, visible, {},
                          scene.get("hidden_markers", []), scene.get("props", []))
            reading = collect(proc)
            scene.update(judge(truth, reading), reading=reading)
        checks = []
        for verdict in found.get("expect", []):
            stem = verdict["image"].rsplit("-", 1)[0]
            cal = calibrations.get(verdict["table"])
            checks.append((verdict, read(str(folder / verdict["image"]), str(cal) if cal else None,
                                         edition.get(verdict["table"], "2018"), str(folder / f"{stem}.log.json"))))
        for verdict, proc in checks:
            reading = collect(proc)
            verdict.update(outcome=expect_outcome(verdict["case"], reading), differences=reading.get("differences"),
                           error=reading.get("error"), **verdict_words(reading))
    return {**result, "tiers": {tier: summarise(found) for tier, found in result["details"].items()}}


def bench_table(seed: int, i: int, placements: dict[str, dict[int, list[str]]]) -> tuple[Table, dict[int, list[str]]]:
    """Table ``i`` of ``seed`` as every camera bench sets it up (editions alternating, 2018 first), with the
    calibration layout its edition asks for (``placements``: :func:`calibration_board` of each edition)."""
    edition = "2018" if i % 2 == 0 else "2014"
    board = placements[edition]
    return make_table(seed * 1000 + i, edition, [stack[0] for stack in board.values()]), board


def run(
    tables: int,
    per_table: int,
    seed: int,
    tiers: list[str],
    keep: Path | None,
    progress: bool,
    expect: int = 0,
    photograph: Photographer = render,
    salt: tuple[int, ...] = (),
) -> dict:
    """Every camera bench's loop: per table (:func:`bench_table`) its calibration photos, then per tier ``per_table``
    random boards read blind and ``expect`` logs checked with --expect, photographed by ``photograph``. ``salt``
    picks another sequence of boards for the same tables (POV-Ray's runs have always drawn theirs apart)."""
    results: dict[str, dict] = {t: {"scenes": [], "calibrations": [], "expect": []} for t in tiers}
    placements = {e: calibration_board(e) for e in ("2014", "2018")}
    setups: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for i in tqdm(range(tables), unit="table", file=sys.stderr, disable=not progress):
            table, board = bench_table(seed, i, placements)
            edition, names = table.edition, [stack[0] for stack in board.values()]
            setups.append({"table": i, "edition": edition, "surface": table.surface, **table.pose})
            calibrations = {light: calibrate(table, board, light, folder, i, photograph)
                            for light in sorted({light_of(t) for t in tiers})}
            rng = np.random.default_rng([seed, i, *salt])
            for tier in tiers:
                cal = calibrations[light_of(tier)]
                results[tier]["calibrations"].append(cal)
                results[tier]["scenes"] += blind_scenes(table, tier, names, per_table, cal["file"], folder, i, rng,
                                                        photograph)
                results[tier]["expect"] += expect_scenes(table, tier, names, expect, cal["file"], folder, i, rng,
                                                         photograph)
    return {
        "seed": seed,
        "tables": tables,
        "scenes_per_table": per_table,
        "tiers": {t: summarise(r) for t, r in results.items()},
        "setups": setups,
        "details": results,
    }


def summarise(result: dict) -> dict:
    scenes = result["scenes"]
    read_scenes = [s for s in scenes if s["outcome"] == "read"]
    camels = [c for s in read_scenes for c in s["camels"].values()]
    n = max(len(camels), 1)

    def share(verdict: str, pool: list[dict] = camels) -> float:
        return sum(c["verdict"] == verdict for c in pool) / max(len(pool), 1)

    levels = {}
    for label, test in (
        ("0", lambda lv: lv == 0),
        ("1", lambda lv: lv == 1),
        ("2", lambda lv: lv == 2),
        ("3+", lambda lv: lv >= 3),
    ):
        pool = [c for c in camels if test(c["level"])]
        levels[label] = {
            "camels": len(pool),
            "wrong": share("wrong", pool),
            "unseen_in_view": share("unseen in view", pool),
        }
    cals = result["calibrations"]
    return {
        "scenes": len(scenes),
        "fully_right": sum(bool(s.get("fully_right")) for s in scenes) / max(len(scenes), 1),
        "right_but_hidden": sum(bool(s.get("right_but_hidden")) for s in scenes) / max(len(scenes), 1),
        "camels": len(camels),
        "wrong": share("wrong"),
        "unseen_hidden": share("unseen hidden"),
        "unseen_in_view": share("unseen in view"),
        "hidden_camels": sum(c["visible"] < HIDDEN for c in camels) / n,
        "board_not_found": sum(s["outcome"] == "board not found" for s in scenes) / max(len(scenes), 1),
        "board_not_found_marker_hidden": sum(s["outcome"] == "board not found" and s["marker_hidden"] for s in scenes)
        / max(len(scenes), 1),
        "errors": sum(s["outcome"] == "error" for s in scenes),
        "calibration_accepted": sum(c["accepted"] for c in cals) / max(len(cals), 1),
        "levels": levels,
        "expect": _expect_summary(result.get("expect", [])),
    }


def _expect_summary(verdicts: list[dict]) -> dict:
    out: dict[str, dict] = {}
    for case in ("matching", "differing"):
        pool = [v for v in verdicts if v["case"] == case]
        counts = {
            o: sum(v["outcome"] == o for v in pool)
            for o in ("right", "false alarm", "miss", "cannot tell", "board not found", "error")
        }
        out[case] = {"boards": len(pool), **{k: v for k, v in counts.items() if v or k == "right"}}
    return out


def report(result: dict) -> str:
    lines = [
        f"independent renderer, seed {result['seed']}: {result['tables']} tables x {result['scenes_per_table']} "
        f"scenes a tier{', an arm in every props scene' if result.get('hand') else ''}",
        "| tier | scenes | fully right | right but for hidden camels | camels wrong | unseen (hidden / in view) "
        "| board not found (a marker hidden) | calibration accepted |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for tier, s in result["tiers"].items():
        lines.append(
            f"| {tier} | {s['scenes']} | {s['fully_right']:.0%} | {s['right_but_hidden']:.0%} | {s['wrong']:.1%} "
            f"| {s['unseen_hidden']:.1%} / {s['unseen_in_view']:.1%} | {s['board_not_found']:.0%} "
            f"({s['board_not_found_marker_hidden']:.0%}) | {s['calibration_accepted']:.0%} |"
        )
    lines.append("camels wrong / unseen in view by stack level (0 = bottom):")
    for tier, s in result["tiers"].items():
        cells = ", ".join(
            f"{lv}: {v['wrong']:.0%} / {v['unseen_in_view']:.0%} of {v['camels']}" for lv, v in s["levels"].items()
        )
        lines.append(f"  {tier}: {cells}")
    if any(s["expect"]["matching"]["boards"] for s in result["tiers"].values()):
        lines.append("--expect (a log of one draw): boards that match it / boards one entry off")
        for tier, s in result["tiers"].items():
            m, d = s["expect"]["matching"], s["expect"]["differing"]
            rest = lambda c, skip: ", ".join(f"{k} {v}" for k, v in c.items() if k not in ("boards", "right", skip))  # noqa: E731
            lines.append(
                f"  {tier}: matching {m['right']}/{m['boards']} said to match ({rest(m, '')}); "
                f"differing {d['right']}/{d['boards']} said to differ ({rest(d, '')})"
            )
    return "\n".join(lines)


def bench_arguments(description: str, tables: int, per_table: int, expect: int) -> argparse.ArgumentParser:
    """The command line every camera bench takes (its defaults given), as :func:`parse_bench` checks it."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=tables)
    parser.add_argument("--scenes-per-table", type=int, default=per_table)
    parser.add_argument("--seed", type=int, default=None, help="default: a fresh one (printed)")
    parser.add_argument("--tier", choices=("all", *TIERS), default="all")
    parser.add_argument("--expect", type=int, default=expect, metavar="K",
                        help="per table and tier, K logs of one draw checked with --expect (0: none; each costs two "
                             "more photos)")
    parser.add_argument("--json", action="store_true", help="print the figures and every scene's verdict as JSON")
    parser.add_argument("--keep", type=Path, default=None, help="keep the photos and calibrations in this folder")
    parser.add_argument("--reread", type=Path, default=None, metavar="RESULT.json",
                        help="read the photos of an earlier run again (its --json output; its photos in --keep) with "
                             "the code as it is now, instead of rendering")
    parser.add_argument("--recalibrate", action="store_true",
                        help="with --reread: calibrate that run's calibration photos again with the code as it is now "
                             "(else its calibrations are used as they were)")
    return parser


def parse_bench(parser: argparse.ArgumentParser) -> tuple[argparse.Namespace, dict | None]:
    """The arguments, refused with a clear message before anything is rendered, and with --reread the earlier run's
    result read again with the code as it is now (else None: render a new run)."""
    args = parser.parse_args()
    if args.recalibrate and args.reread is None:
        parser.error("--recalibrate goes with --reread")
    if args.reread is not None:
        if args.keep is None:
            parser.error("--reread needs --keep DIR: the folder that run kept its photos and calibrations in")
        try:
            earlier = json.loads(args.reread.read_text())
        except (OSError, json.JSONDecodeError) as error:
            parser.error(f"--reread {args.reread}: {error}")
        return args, reread(earlier, args.keep, args.recalibrate)
    if args.tables < 1 or args.scenes_per_table < 1:
        parser.error("--tables and --scenes-per-table must be at least 1")
    if args.expect < 0:
        parser.error("--expect must be 0 or more")
    if args.seed is None:
        args.seed = secrets.randbelow(1_000_000)
    args.tiers = list(TIERS) if args.tier == "all" else [args.tier]
    return args, None


def main() -> None:
    parser = bench_arguments(__doc__, tables=6, per_table=5, expect=1)
    parser.add_argument("--hand", action="store_true",
                        help="an arm over the board in every props scene (else in 15%% of them, as at a table)")
    args, again = parse_bench(parser)
    if args.hand and again is None and "props" not in args.tiers:
        parser.error("--hand puts an arm in the props tier's scenes only: add --tier props (or all)")
    photograph = functools.partial(render, hand=True) if args.hand else render
    result = again or {**run(args.tables, args.scenes_per_table, args.seed, args.tiers, args.keep,
                             progress=not args.json, expect=args.expect, photograph=photograph),
                       "hand": args.hand}
    print(json.dumps(result, indent=1) if args.json else report(result))

if __name__ == "__main__":
    main()
