"""Which camera positions show the whole board with the guidance's margin, per kind of camera: the README's
placement table and vision.guidance.CAMERA_RANGES come from here.

The project's own camera model (vision.photo's lenses: horizontal field of view and mid-range radial distortion,
vision.raster's pinhole camera, 1280×720) is stood at each distance and angle of a grid, straight on and 25°
round (the guidance's limit), and aimed at points along the line from the board's middle towards the camera.
A position passes when, for some aim, all 16 marker corners have at least vision.guidance.MARGIN_PX of room
plus a safety for markers taped up to 4 mm off and a camera turned a little by hand (--slack, px) and every camel
is at least vision.guidance.MIN_CAMEL_PX tall. It prints per camera the grid (room in px at the best aim, "--"
where no aim fits) and the aims that work at each passing position (mm in front of the board's middle, towards
the camera).

Run: .venv/bin/python benchmarks/camera_placement_ranges.py [--slack PX] [--board 2018|2014]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import guidance
from vision.board import load_template
from vision.photo import LENSES
from vision.raster import PinholeCamera, look_at

SIZE = (1280, 720)
DISTANCES_CM = list(range(55, 105, 5))
ELEVATIONS = list(range(35, 65, 5))
AIMS_MM = np.arange(-100, 301, 10)


def geometry(edition: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    template = load_template(edition)
    corners = np.array([(x, y, 0.0) for m in template.markers for x, y in template.marker_corners(m)])
    track = np.array([c for cs in template.spaces.values() for c in cs])
    middle = np.array([*(track.min(axis=0) + track.max(axis=0)) / 2, 0.0])
    centres = np.array([(*template.space_centre(s), 0.0) for s in template.spaces])
    return corners, middle, centres


def room_and_camels(fov: float, k1: float, distance: float, elevation: float, azimuth: float, aim: float,
                    corners: np.ndarray, middle: np.ndarray, centres: np.ndarray) -> tuple[float, float]:
    """Room (px) around the markers and the smallest camel's height (px) from one position and aim."""
    el, az = np.radians(elevation), np.radians(azimuth)
    towards = np.array([np.sin(az), np.cos(az), 0.0])
    position = middle + distance * np.array([np.sin(az) * np.cos(el), np.cos(az) * np.cos(el), -np.sin(el)])
    rotation = look_at(position, middle + aim * towards)
    width, height = SIZE
    focal = width / 2 / np.tan(np.radians(fov) / 2)
    matrix = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1.0]])
    camera = PinholeCamera(matrix, np.array([k1, 0.0, 0, 0, 0]), rotation, -rotation @ position, SIZE)
    p = camera.project(corners)
    room = float(min(p[:, 0].min(), p[:, 1].min(), width - 1 - p[:, 0].max(), height - 1 - p[:, 1].max()))
    tops = centres + np.array([0, 0, -guidance.CAMEL_HEIGHT_MM])
    camel = float(np.linalg.norm(camera.project(tops) - camera.project(centres), axis=1).min())
    return room, camel


def fitting_aims(fov: float, k1: float, distance_cm: int, elevation: int, azimuth: float, need: float,
                 parts: tuple[np.ndarray, np.ndarray, np.ndarray]) -> tuple[list[int], float, float]:
    """The aims (mm in front of the middle) at which the position passes, the best room and the camels there."""
    fits, best = [], (-1e9, 0.0)
    for aim in AIMS_MM:
        room, camel = room_and_camels(fov, k1, distance_cm * 10, elevation, azimuth, float(aim), *parts)
        best = max(best, (room, camel))
        if room >= need and camel >= guidance.MIN_CAMEL_PX:
            fits.append(int(aim))
    return fits, best[0], best[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--slack", type=float, default=15.0, help="px of room beyond the margin (default 15)")
    parser.add_argument("--board", default="2018")
    args = parser.parse_args()
    parts = geometry(args.board)
    need = guidance.MARGIN_PX + args.slack
    print(f"{args.board} board, 1280x720, straight on; a position passes with >= {need:g} px of room "
          f"({guidance.MARGIN_PX} + {args.slack:g}) and every camel >= {guidance.MIN_CAMEL_PX:g} px tall. Each cell: "
          "room at the best aim / smallest camel px there, the aims that pass (mm in front of the board's middle), "
          "and how far round (deg) it still passes at an aim that passes straight on")
    for lens, (fov, k1_range) in LENSES.items():
        k1 = sum(k1_range) / 2
        print(f"\n{lens} ({fov:g} deg across, k1 {k1:+.2f})")
        print("dist cm " + "".join(f"{e:>24}" for e in ELEVATIONS))
        passing = []
        for distance_cm in DISTANCES_CM:
            cells = []
            for elevation in ELEVATIONS:
                fits, room, camel = fitting_aims(fov, k1, distance_cm, elevation, 0.0, need, parts)
                if not fits:
                    cells.append(f"{room:4.0f}/{camel:4.1f}  --")
                    continue
                passing.append((distance_cm, elevation, fits))
                round_by = 0
                for azimuth in range(5, 35, 5):
                    ok = [a for a in fits if all(
                        fitting_aims(fov, k1, distance_cm, elevation, side * azimuth, need, parts)[0].count(a)
                        for side in (1, -1))]
                    if not ok:
                        break
                    round_by = azimuth
                cells.append(f"{room:4.0f}/{camel:4.1f} {fits[0]}..{fits[-1]} {round_by:2d}")
            print(f"{distance_cm:>7} " + "".join(f"{c:>24}" for c in cells))
        if passing:
            common = set(passing[0][2]).intersection(*(set(f) for _, _, f in passing))
            print(f"passes at {len(passing)} positions: " + ", ".join(f"{d}/{e}" for d, e, _ in passing))
            print(f"aims that pass at every one of them: "
                  f"{f'{min(common)}..{max(common)} mm' if common else 'none (see each cell)'}")
        else:
            print("passes nowhere in this grid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
