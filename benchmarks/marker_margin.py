"""How much room a marker needs between it and the picture's edge to be found (the README's margin number).

Photo-like scenes (vision.photo, tier "light") are cut so that one marker's black square comes within d pixels
of the picture's edge (left markers on the left, right ones on the right, the far ones at the top, the near ones
at the bottom), and OpenCV's ArUco detector is asked for it, with its default parameters and with the reader's
(vision.locate). Prints, of the markers found with plenty of room, the share still found at each distance.
Run: .venv/bin/python benchmarks/marker_margin.py [--tables N] [--seed S]
"""

from __future__ import annotations

import argparse
import random

import cv2
import numpy as np
from tqdm import tqdm

from vision.locate import LocateConfig, detector
from vision.photo import make_table, render_scene
from vision.plausible import random_board

DISTANCES = (0, 2, 4, 6, 8, 10, 12, 15, 20, 25, 30, 35, 40, 50)
WIDE = 80


def cut(image: np.ndarray, corners: np.ndarray, marker: int, room: int) -> np.ndarray:
    """The picture cut ``room`` pixels beyond the marker's square on the side nearest its corner of the board."""
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    height, width = image.shape[:2]
    if marker in (0, 3):
        image = image[:, max(0, int(np.floor(x0)) - room) :]
    else:
        image = image[:, : min(width, int(np.ceil(x1)) + room + 1)]
    if marker in (0, 1):
        return image[max(0, int(np.floor(y0)) - room) :]
    return image[: min(height, int(np.ceil(y1)) + room + 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    finders = {
        "OpenCV defaults": cv2.aruco.ArucoDetector(
            cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters()
        ),
        "the reader's settings": detector(LocateConfig()),
    }
    found = {name: dict.fromkeys(DISTANCES, 0) for name in finders}
    tried = dict.fromkeys(finders, 0)
    for index in tqdm(range(args.tables), unit="table", leave=False):
        edition = ("2014", "2018")[index % 2]
        table = make_table(args.seed * 1000 + index, edition)
        image, truth = render_scene(table, random_board(edition, random.Random(index)), index, "light")
        for marker in range(4):
            corners = np.array(truth["markers"][str(marker)]["corners_px"])
            for name, finder in finders.items():
                # Only markers found with plenty of room count: the question is what the edge takes away.
                _, ids, _ = finder.detectMarkers(cut(image, corners, marker, WIDE))
                if ids is None or marker not in ids.ravel():
                    continue
                tried[name] += 1
                for room in DISTANCES:
                    _, ids, _ = finder.detectMarkers(cut(image, corners, marker, room))
                    found[name][room] += ids is not None and marker in ids.ravel()
    print(f"share of markers still found (of those found with {WIDE} px of room), by room between the marker's "
          f"square and the picture's edge ({args.tables} tables, 4 markers each):")
    print("room (px)              " + "".join(f"{room:>6}" for room in DISTANCES))
    for name, counts in found.items():
        print(f"{name:<23}" + "".join(f"{counts[room] / max(tried[name], 1):>6.0%}" for room in DISTANCES)
              + f"   ({tried[name]} markers)")


if __name__ == "__main__":
    main()
