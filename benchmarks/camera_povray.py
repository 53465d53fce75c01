"""The camera measured on photos from a real ray tracer: POV-Ray 3.7 (benchmarks/povray/), a second renderer that
shares with benchmarks/independent/ only the physical facts (the board's geometry and print, the markers, the
camera's pose within the README's numbers) and none of its shapes, light, materials or camera faults.

Per table: the calibration photo as the README says (one camel on each odd space, as `camelup vision calibrate
--board E` prints), `camelup vision calibrate PHOTO --board E --out cal.json` (a refusal counts, and that table is
then read with --board E), then random race boards (camera_independent's `random_board`) read with
`camelup vision read IMAGE --calibration cal.json`, judged by camera_independent's `judge` and summarised by its
`summarise` and `report` (per tier and per stack level). With --expect K, per table and tier K logs of one draw
(camera_independent's): a photo of the board the log leads to must be answered "matches": true, one of the board
a different entry gives false (no tiles in those photos: the log lays none). Tiers: clean (neutral light, no
camera faults, no props), light (a lamp and a window of other colour temperatures, radiosity, faults, tiles),
props (plus the pyramid and palm tree, the shaker pyramid on most 2014 tables, cards, coins, a phone, an arm in
about 15% of scenes).
POV-Ray runs on one thread, one render at a time (the readers run beside the next render).

Run: .venv/bin/python benchmarks/camera_povray.py [--tables N] [--scenes-per-table K] [--seed S]
     [--tier clean|light|props|all] [--expect K] [--json] [--keep DIR]
     .venv/bin/python benchmarks/camera_povray.py --reread RESULT.json --keep DIR [--recalibrate] [--json]
     (the same photos read again by the reader as it is now: before and after a change, on the very same scenes)
Needs `povray` (Debian: apt-get install povray; `make tools` installs it).
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.camera_independent import bench_arguments, parse_bench, report
from benchmarks.camera_independent import run as run_tables
from benchmarks.independent.scene import Truth
from benchmarks.independent.table import Table
from benchmarks.povray.render import povray_available, render


class PovrayPhotographer:
    """POV-Ray as the benches' :class:`~benchmarks.camera_independent.Photographer`, timing each photo's render."""

    def __init__(self) -> None:
        self.seconds: list[float] = []

    def __call__(self, table: Table, tier: str, track: dict[int, list[str]], seed: int, path: str, *,
                 calibration: bool = False, tiles: bool = True) -> Truth:
        done = render(table, tier, track, seed, path, calibration=calibration, tiles=tiles)
        self.seconds.append(done.seconds["photo"])
        return done.truth


def run(tables: int, per_table: int, seed: int, tiers: list[str], keep: Path | None, progress: bool,
        expect: int = 0) -> dict:
    """camera_independent's loop with POV-Ray's photos (its boards drawn apart from the independent bench's, as they
    always were: ``salt`` 7). A photo renders on one thread; its reading runs beside the next render."""
    photograph = PovrayPhotographer()
    result = run_tables(tables, per_table, seed, tiers, keep, progress, expect, photograph, salt=(7,))
    seconds = photograph.seconds
    return {
        "renderer": "povray",
        **result,
        "render_seconds": {"median": float(np.median(seconds)), "max": float(np.max(seconds)),
                           "photos": len(seconds)},
    }


def titled(table: str) -> str:
    """camera_independent's report, its first line naming this renderer."""
    return table.replace("independent renderer", "POV-Ray", 1)


def main() -> None:
    parser = bench_arguments(__doc__, tables=2, per_table=3, expect=0)
    args, again = parse_bench(parser)
    if again is not None:
        print(json.dumps(again, indent=1) if args.json else titled(report(again)))
        return
    if not povray_available():
        parser.error("povray is not installed (Debian: apt-get install --no-install-recommends povray; or make tools)")
    if shutil.which("camelup", path=str(Path(sys.executable).parent)) is None:
        parser.error(f"camelup is not installed beside {sys.executable} (make setup)")
    started = time.monotonic()
    result = run(args.tables, args.scenes_per_table, args.seed, args.tiers, args.keep, progress=not args.json,
                 expect=args.expect)
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
