"""Issue 6's figures: how well and how fast the camera reads the board, over seeded synthetic scenes.

Targets (one core, 1280×720): at least 99% of scenes read fully right, at most 0.2% of camels on a wrong space
or stack position, at most 60 ms per frame (median, reading only). The same as `camelup vision bench`.
Run: .venv/bin/python benchmarks/camera_reading.py [--scenes N] [--seed S]
"""

from __future__ import annotations

import argparse

from tqdm import tqdm

from vision.bench import run_bench


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenes", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    result = run_bench(args.scenes, args.seed, progress=lambda scenes: tqdm(scenes, unit="scene", leave=False))
    print(
        f"{result['scenes']} synthetic scenes: {result['scene_accuracy']:.1%} read fully right (target >= 99%), "
        f"{result['camel_error']:.2%} of camels wrong (target <= 0.2%), board not found in "
        f"{result['board_not_found']:.1%}, {result['ms_per_frame']:.1f} ms a frame (target <= 60 ms)"
    )


if __name__ == "__main__":
    main()
