"""How fast the photo-like renderer (vision.photo) makes a 1280×720 scene, per tier, and a table (its textures,
camera and lens maps), in CPU seconds of this process (the figure that does not depend on what else runs).
Target: at most 0.5 s a scene, so the camera bench renders hundreds of scenes in a few minutes.
Run: .venv/bin/python benchmarks/photo_render_speed.py [--scenes N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from vision.photo import TIERS, make_table, render_scene
from vision.plausible import random_board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=12, help="scenes per tier")
    args = parser.parse_args()
    tables, scenes = [], {tier: [] for tier in TIERS}
    for index in range(args.scenes):
        edition = ("2014", "2018")[index % 2]
        started = time.process_time()
        table = make_table(index, edition)
        tables.append(time.process_time() - started)
        for tier in TIERS:
            started = time.process_time()
            render_scene(table, random_board(edition, random.Random(index)), index, tier)
            scenes[tier].append(time.process_time() - started)
    print(f"a table: {statistics.median(tables):.2f} s (median of {len(tables)})")
    for tier, times in scenes.items():
        print(f"a {tier} scene: {statistics.median(times):.2f} s (median), {max(times):.2f} s at most "
              f"(target <= 0.5 s)")


if __name__ == "__main__":
    main()
