"""The camera measured on photos from a real ray tracer: POV-Ray 3.7 (benchmarks/povray/), a second renderer that
shares with benchmarks/independent/ only the physical facts (the board's geometry and print, the markers, the
camera's pose within the README's numbers) and none of its shapes, light, materials or camera faults.

Per table: the calibration photo as the README says (one camel on each odd space, as `camelup vision calibrate
--board E` prints), `camelup vision calibrate PHOTO --board E --out cal.json` (a refusal counts, and that table is
then read with --board E), then random race boards (camera_independent's `random_board`) read with
`camelup vision read IMAGE --calibration cal.json`, judged by camera_independent's `judge` and summarised by its
`summarise` and `report` (per tier and per stack level). Tiers: clean (neutral light, no camera faults, no props),
light (a lamp and a window of other colour temperatures, radiosity, faults, tiles), props (plus the pyramid and
palm tree, the shaker pyramid on most 2014 tables, cards, coins, a phone, an arm in about 15% of scenes).
POV-Ray runs on one thread, one render at a time (the readers run beside the next render).

Run: .venv/bin/python benchmarks/camera_povray.py [--tables N] [--scenes-per-table K] [--seed S]
     [--tier clean|light|props|all] [--json] [--keep DIR]
     .venv/bin/python benchmarks/camera_povray.py --reread RESULT.json --keep DIR [--json]
     (the same photos read again by the reader as it is now: before and after a change, on the very same scenes)
Needs `povray` (Debian: apt-get install povray; `make tools` installs it).
"""

from __future__ import annotations

import argparse
import json
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.camera_independent import (
    bench_table,
    calibrate_photo,
    calibration_board,
    collect,
    judge,
    light_of,
    random_board,
    read,
    report,
    reread,
    summarise,
)
from benchmarks.independent.scene import Truth
from benchmarks.povray.compose import TIERS
from benchmarks.povray.render import povray_available, render


def suffix(tier: str) -> str:
    return "png" if tier == "clean" else "jpg"


def verdict_of(tier: str, truth: Truth, image: Path, proc: subprocess.Popen, table: int, edition: str) -> dict:
    """camera_independent's verdict on one reading, with what a later look at the scene needs."""
    reading = collect(proc)
    verdict = judge(truth, reading)
    verdict.update(
        table=table,
        edition=edition,
        image=image.name,
        props=truth.props,
        truth={str(s): v for s, v in truth.track.items()},
        visible={name: round(float(v), 3) for name, v in truth.visible.items()},
        hidden_markers=list(truth.hidden_markers),
        reading=reading,
    )
    return verdict


def run(tables: int, per_table: int, seed: int, tiers: list[str], keep: Path | None, progress: bool) -> dict:
    results: dict[str, dict] = {t: {"scenes": [], "calibrations": [], "expect": []} for t in tiers}
    placements = {e: calibration_board(e) for e in ("2014", "2018")}
    setups: list[dict] = []
    seconds: list[float] = []
    lights = sorted({light_of(t) for t in tiers})
    bar = tqdm(total=tables * (len(lights) + len(tiers) * per_table), disable=not progress, unit="photo",
               desc="povray")
    with tempfile.TemporaryDirectory() as tmp:
        folder = keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for i in range(tables):
            table, board = bench_table(seed, i, placements)
            edition, names = table.edition, [stack[0] for stack in board.values()]
            setups.append({"table": i, "edition": edition, "surface": table.surface, **table.pose})
            calibrations = {}
            for light in lights:
                photo = folder / f"t{i}-{light}-calibration.{suffix(light)}"
                done = render(table, light, board, 0, str(photo), calibration=True)
                seconds.append(done.seconds["photo"])
                calibrations[light] = calibrate_photo(photo, edition, folder / f"t{i}-{light}-cal.json", i)
                bar.update()
            rng = np.random.default_rng([seed, i, 7])
            waiting = None
            for tier in tiers:
                cal = calibrations[light_of(tier)]
                results[tier]["calibrations"].append(cal)
                for k in range(per_table):
                    track = random_board(rng, names)
                    image = folder / f"t{i}-{tier}-{k}.{suffix(tier)}"
                    done = render(table, tier, track, k + 1, str(image))
                    seconds.append(done.seconds["photo"])
                    if waiting is not None:
                        results[waiting[0]]["scenes"].append(verdict_of(*waiting))
                    # the reader runs while the next photo renders: two processes at most, one POV-Ray
                    waiting = (tier, done.truth, image, read(str(image), cal["file"], edition), i, edition)
                    bar.update()
            if waiting is not None:
                results[waiting[0]]["scenes"].append(verdict_of(*waiting))
    bar.close()
    return {
        "renderer": "povray",
        "seed": seed,
        "tables": tables,
        "scenes_per_table": per_table,
        "tiers": {t: summarise(r) for t, r in results.items()},
        "render_seconds": {"median": float(np.median(seconds)), "max": float(np.max(seconds)),
                           "photos": len(seconds)},
        "setups": setups,
        "details": results,
    }


def titled(table: str) -> str:
    """camera_independent's report, its first line naming this renderer."""
    return table.replace("independent renderer", "POV-Ray", 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--scenes-per-table", type=int, default=3)
    parser.add_argument("--seed", type=int, default=None, help="default: a fresh one (printed)")
    parser.add_argument("--tier", choices=("all", *TIERS), default="all")
    parser.add_argument("--json", action="store_true", help="print the figures and every scene's verdict as JSON")
    parser.add_argument("--keep", type=Path, default=None, help="keep the photos and calibrations in this folder")
    parser.add_argument("--reread", type=Path, default=None, metavar="RESULT.json",
                        help="read the photos of an earlier run again (its --json output; its photos in --keep) with "
                             "the code as it is now, instead of rendering")
    args = parser.parse_args()
    if args.reread is not None:
        if args.keep is None:
            parser.error("--reread needs --keep DIR: the folder that run kept its photos and calibrations in")
        try:
            earlier = json.loads(args.reread.read_text())
        except (OSError, json.JSONDecodeError) as error:
            parser.error(f"--reread {args.reread}: {error}")
        result = reread(earlier, args.keep)
        print(json.dumps(result, indent=1) if args.json else titled(report(result)))
        return
    if args.tables < 1 or args.scenes_per_table < 1:
        parser.error("--tables and --scenes-per-table must be at least 1")
    if not povray_available():
        parser.error("povray is not installed (Debian: apt-get install --no-install-recommends povray; or make tools)")
    if shutil.which("camelup", path=str(Path(sys.executable).parent)) is None:
        parser.error(f"camelup is not installed beside {sys.executable} (make setup)")
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    tiers = list(TIERS) if args.tier == "all" else [args.tier]
    started = time.monotonic()
    result = run(args.tables, args.scenes_per_table, seed, tiers, args.keep, progress=not args.json)
    result["wall_seconds"] = round(time.monotonic() - started, 1)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(titled(report(result)))
    r = result["render_seconds"]
    print(f"POV-Ray render (one thread) per photo: median {r['median']:.1f} s, slowest {r['max']:.1f} s over "
          f"{r['photos']} photos; whole run {result['wall_seconds']:.0f} s")


if __name__ == "__main__":
    main()
