"""How far the camera's pose puts the track from where the real camera sees it, with and without the lens's
first radial term (docs/camera.md's figure for `vision.read.camera_pose`).

Photo-like tables (vision.photo: cameras with radial distortion, markers taped up to 4 mm and 3 degrees off),
one calibration photo each: the markers are found, the pose is fitted from their corners, and each space's
middle and the air above it (20 and 60 mm, where stacks stand) are projected with it and with the renderer's own
camera (OpenCV's projection, with every distortion term). Prints the mean distance in pixels and the 90th
percentile of each table's worst point, for the pose with the lens term and for a straight projection.
Run: .venv/bin/python benchmarks/camera_pose.py [--tables N] [--seed S]
"""

from __future__ import annotations

import argparse

import numpy as np
from tqdm import tqdm

from vision.locate import LocateConfig, locate_board
from vision.photo import make_table, render_calibration
from vision.read import _homography_pose, camera_pose


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    bent, straight = [], []
    for index in tqdm(range(args.tables), unit="table", leave=False):
        table = make_table(args.seed * 10_007 + index, ("2014", "2018")[index % 2])
        image, _ = render_calibration(table, 0, "clean")
        location = locate_board(LocateConfig(), table.template, image)
        size = (image.shape[1], image.shape[0])
        points = np.array([(*table.template.space_centre(space), -height) for space in table.template.spaces
                           for height in (0.0, 20.0, 60.0)])
        truth = table.camera.project(points)
        bent.append(np.linalg.norm(camera_pose(location, size, table.template).project(points) - truth, axis=1))
        straight.append(np.linalg.norm(_homography_pose(location, size).project(points) - truth, axis=1))
    for name, errors in (("with the lens term", bent), ("straight projection", straight)):
        print(f"{name:>20}: {np.mean([e.mean() for e in errors]):.1f} px mean, "
              f"{np.percentile([e.max() for e in errors], 90):.1f} px worst point (90th percentile of tables)")


if __name__ == "__main__":
    main()
