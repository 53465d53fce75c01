"""A digest of what the camera reads on a fixed set of pictures: a speed-up of the reader must leave it unchanged.

The set: the frames of benchmarks/camera_frame_time.py (vision.photo, light tier; the same tables, boards and
4608x2592 stills as ``--tables 8 --seed 1``, each table calibrated from its calibration photo), and scenes of
the independent renderer (benchmarks/independent, as benchmarks/camera_independent.py makes them: per table a
calibration photo calibrated as `camelup vision calibrate PHOTO --board E` does, blind scenes per tier, and
`--expect` scenes of a log's board and of the board a different entry gives, read as `camelup vision read`
reads them, in this process). Per picture it keeps what the reading says (track, unseen, confidence, problems;
with a log, the command's verdict) and the costs :func:`vision.verify.judge_costs` gives a few boards (the truth,
the reading, a camel one space on, two camels swapped) against the picture, and each calibration's colours.

It prints two digests: ``readings`` (every answer, the floats rounded to 6 significant digits) and ``exact``
(the floats as they are, bit for bit). A speed-up keeps ``readings``; ``exact`` may move by float rounding only:
``--save FILE`` keeps every value, ``--compare FILE`` checks a run against it (answers equal, floats within
1e-9 relative) and says where they differ. Rendering takes most of the time: ``--folder DIR`` keeps the pictures
and the next run reads them from there (the digests then hold for those very pictures).

Run: .venv/bin/python benchmarks/camera_reading_digest.py [--folder DIR] [--save FILE | --compare FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
import tempfile
from functools import partial
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.board import load_template
from vision.calibrate import CalibrationError, calibrate, calibrate_from_board, calibration_layout
from vision.calibration_file import load_calibration, save_calibration
from vision.image_file import load_photo
from vision.locate import BoardNotFound
from vision.read import BOARD_BGR, ReadConfig, observe
from vision.reader import read_with_scorer
from vision.synth import EDITION_CAMELS, camel_profiles

FRAME_TABLES, FRAME_SEED, FRAMES_PER_TABLE = 8, 1, 4
"""As benchmarks/camera_frame_time.py --tables 8 --seed 1."""
INDEPENDENT_SEED, INDEPENDENT_TABLES, SCENES_PER_TIER, EXPECT_PER_TIER = 600, 4, 2, 1
TOLERANCE = 1e-9


def variants(track: dict[int, list[str]]) -> list[dict[int, list[str]]]:
    """Boards a slip would give: the top camel of the first stack one space on, two bottom camels swapped."""
    found = []
    spaces = sorted(track)
    if spaces:
        first = spaces[0]
        moved = {space: list(stack) for space, stack in track.items()}
        camel = moved[first].pop()
        moved.setdefault(first % 16 + 1, []).append(camel)
        found.append({space: stack for space, stack in moved.items() if stack})
    if len(spaces) >= 2:
        a, b = spaces[0], spaces[-1]
        swapped = {space: list(stack) for space, stack in track.items()}
        swapped[a][0], swapped[b][0] = swapped[b][0], swapped[a][0]
        found.append(swapped)
    return found


def verdict_costs(scorer: Any, boards: list[dict[int, list[str]]]) -> dict[str, Any]:
    from vision.verify import judge_costs

    verdict = judge_costs(scorer, boards)
    return {"answer": verdict.answer, "best": verdict.best, "undecided": list(verdict.undecided),
            "margin": verdict.margin, "costs": verdict.costs}


def reading_entry(reading: Any, scorer: Any, observation: Any, boards: list[dict[int, list[str]]]) -> dict[str, Any]:
    return {
        "track": {str(space): stack for space, stack in sorted(reading.track.items())},
        "unseen": list(reading.unseen),
        "confidence": reading.confidence,
        "problems": reading.problems,
        "homography": observation.location.homography.ravel().tolist(),
        "verdict": verdict_costs(scorer, boards),
    }


def read_one(config: ReadConfig, template: Any, profiles: Any, image: np.ndarray, board_bgr: Any,
             truth: dict[int, list[str]], near: Any = None, fit: Any = None,
             more: tuple[dict[int, list[str]], ...] = (), frames: bool = False) -> tuple[dict[str, Any], Any]:
    try:
        observation = observe(config, template, image, near=near, frames=frames)
        reading, scorer = read_with_scorer(config, template, profiles, image, board_bgr, observation, fit=fit)
    except BoardNotFound as error:
        return {"error": str(error)}, None
    boards = [truth, *variants(truth), *more]
    if reading.track and reading.track not in boards:
        boards.append(reading.track)
    return reading_entry(reading, scorer, observation, boards), observation.location


def cached(folder: Path, name: str, make: Any) -> np.ndarray:
    """The picture ``name`` from ``folder``, written by ``make(path)`` the first time."""
    path = folder / name
    if not path.exists():
        make(str(path))
    return load_photo(str(path))


def png_of(render: Any, *args: Any) -> Any:
    """``make`` for :func:`cached`: the picture ``render(*args)`` gives first, as a lossless PNG."""
    return lambda path: cv2.imwrite(path, render(*args)[0])


def frame_set(folder: Path) -> dict[str, Any]:
    """camera_frame_time.py's tables and frames, read as it reads them."""
    from vision.photo import make_table, render_calibration, render_scene
    from vision.plausible import random_board

    config = ReadConfig()
    found: dict[str, Any] = {}
    for index in range(FRAME_TABLES):
        edition = ("2014", "2018")[index % 2]
        table = make_table(FRAME_SEED * 10_007 + index + 900_000, edition)
        photo = cached(folder, f"frame-t{index}-calibration.png", png_of(render_calibration, table, 0, "light"))
        try:
            calibration = calibrate(config, table.template, list(EDITION_CAMELS[edition]), photo)
            profiles, board_bgr = calibration.profiles, calibration.board_bgr
            found[f"frame-t{index}-calibration"] = {"profiles": profiles, "board": board_bgr}
        except (CalibrationError, BoardNotFound) as error:
            profiles, board_bgr = camel_profiles(edition), BOARD_BGR
            found[f"frame-t{index}-calibration"] = {"error": str(error)}
        near = None
        for frame in range(FRAMES_PER_TABLE):
            seed = index * 100 + frame
            truth = random_board(edition, random.Random(seed))
            image = cached(folder, f"frame-t{index}-{frame}.png", png_of(render_scene, table, truth, seed, "light"))
            entry, near = read_one(config, table.template, profiles, image, board_bgr, truth, near, frames=True)
            found[f"frame-t{index}-{frame}"] = entry
            if frame == 0:
                still = cv2.resize(image, (4608, 2592), interpolation=cv2.INTER_CUBIC)
                found[f"frame-t{index}-still"] = read_one(config, table.template, profiles, still, board_bgr,
                                                          truth)[0]
    return found


def independent_set(folder: Path) -> dict[str, Any]:
    """benchmarks/independent scenes at a fixed seed, read as `camelup vision read` reads them."""
    from benchmarks.camera_independent import random_board
    from benchmarks.independent.logs import one_draw
    from benchmarks.independent.scene import TIERS, render
    from benchmarks.independent.table import make_table
    from companion.table.camera_read import load_expectation, read_picture

    config = ReadConfig()
    found: dict[str, Any] = {}
    for index in range(INDEPENDENT_TABLES):
        edition = "2018" if index % 2 == 0 else "2014"
        camels = list(EDITION_CAMELS[edition])
        layout = calibration_layout(camels)
        table = make_table(INDEPENDENT_SEED * 1000 + index, edition, camels)
        rng = np.random.default_rng([INDEPENDENT_SEED, index])
        colours: dict[str, Any] = {}
        for light in ("clean", "light"):
            name = f"ind-t{index}-{light}-calibration.{'png' if light == 'clean' else 'jpg'}"
            photo = cached(folder, name, partial(render, table, light, layout, 0, calibration=True))
            try:
                calibration = calibrate_from_board(config, load_template(edition), camels, photo, layout,
                                                   layout=True)
                with tempfile.TemporaryDirectory() as tmp:  # as the command saves and reads it back
                    colours[light] = load_calibration(save_calibration(calibration, Path(tmp) / "cal.json"))
                found[name] = {"profiles": colours[light].profiles, "board": colours[light].board_bgr}
            except (CalibrationError, BoardNotFound) as error:
                from vision.calibration_file import reading_colours

                colours[light] = reading_colours(edition)
                found[name] = {"error": str(error)}
        for tier in TIERS:
            cal = colours["clean" if tier == "clean" else "light"]
            suffix = "png" if tier == "clean" else "jpg"
            for k in range(SCENES_PER_TIER):
                truth = random_board(rng, camels)
                image = cached(folder, f"ind-t{index}-{tier}-{k}.{suffix}", partial(render, table, tier, truth, k + 1))
                near = cal.location((image.shape[1], image.shape[0]))
                found[f"ind-t{index}-{tier}-{k}"] = read_one(config, cal.template, cal.profiles, image,
                                                             cal.board_bgr, truth, near, cal.fit())[0]
            for k in range(EXPECT_PER_TIER):
                draw = one_draw(edition, random_board(rng, camels), rng)
                if draw is None:
                    continue
                log = folder / f"ind-t{index}-{tier}-x{k}.log.json"
                log.write_text(json.dumps(draw.log))
                expectation = load_expectation(str(log))
                for case, track, seed in (("matching", draw.expected, 100 + k), ("differing", draw.other, 200 + k)):
                    image = cached(folder, f"ind-t{index}-{tier}-x{k}-{case}.{suffix}",
                                   partial(render, table, tier, track, seed, tiles=False))
                    near = cal.location((image.shape[1], image.shape[0]))
                    try:
                        said = read_picture(image, cal.template, cal.profiles, cal.board_bgr, expectation, near=near,
                                            fit=cal.fit())
                    except BoardNotFound as error:
                        said = {"error": str(error)}
                    found[f"ind-t{index}-{tier}-x{k}-{case}"] = said
                    # The verdict's costs in full (the command rounds its margin): the log's board and the other.
                    found[f"ind-t{index}-{tier}-x{k}-{case}-costs"] = read_one(
                        config, cal.template, cal.profiles, image, cal.board_bgr, track, near, cal.fit(),
                        (draw.expected, draw.other))[0]
    return found


def plain(value: Any) -> Any:
    """JSON-ready (tuples as lists, numpy numbers as Python's)."""
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def rounded(value: Any) -> Any:
    if isinstance(value, float):
        return float(f"{value:.6g}") if math.isfinite(value) else str(value)
    if isinstance(value, dict):
        return {key: rounded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [rounded(item) for item in value]
    return value


def digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:16]


def differences(old: Any, new: Any, where: str = "") -> list[str]:
    """Where ``new`` differs from ``old``: any answer, or a float beyond ``TOLERANCE`` (relative)."""
    if isinstance(old, float) and isinstance(new, float):
        if old == new or (math.isfinite(old) and math.isfinite(new)
                          and abs(new - old) <= TOLERANCE * max(abs(old), abs(new), 1e-12)):
            return []
        return [f"{where}: {old!r} -> {new!r}"]
    if isinstance(old, dict) and isinstance(new, dict):
        if set(old) != set(new):
            return [f"{where}: keys {sorted(set(old) ^ set(new))}"]
        return [line for key in old for line in differences(old[key], new[key], f"{where}/{key}")]
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return [f"{where}: {old!r} -> {new!r}"]
        return [line for index, (a, b) in enumerate(zip(old, new, strict=True))
                for line in differences(a, b, f"{where}[{index}]")]
    return [] if old == new else [f"{where}: {old!r} -> {new!r}"]


def largest_float_change(old: Any, new: Any) -> float:
    if isinstance(old, float) and isinstance(new, float):
        if old == new or not (math.isfinite(old) and math.isfinite(new)):
            return 0.0
        return abs(new - old) / max(abs(old), abs(new), 1e-12)
    if isinstance(old, dict) and isinstance(new, dict):
        return max((largest_float_change(old[key], new[key]) for key in old if key in new), default=0.0)
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return max((largest_float_change(a, b) for a, b in zip(old, new, strict=True)), default=0.0)
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folder", help="keep the pictures here (and read them from here next time)")
    parser.add_argument("--save", help="write every value to this JSON file")
    parser.add_argument("--compare", help="check against a file written by --save")
    parser.add_argument("--part", choices=("all", "frames", "independent"), default="all")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.folder or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        found: dict[str, Any] = {}
        if args.part in ("all", "frames"):
            found.update(frame_set(folder))
        if args.part in ("all", "independent"):
            found.update(independent_set(folder))
    found = plain(found)
    errors = sum(1 for entry in found.values() if isinstance(entry, dict) and "error" in entry)
    print(f"{len(found)} readings and calibrations ({errors} refused or board not found)")
    print(f"readings digest: {digest(rounded(found))}")
    print(f"exact digest:    {digest(found)}")
    if args.save:
        Path(args.save).write_text(json.dumps(found, indent=1, sort_keys=True, default=str) + "\n")
    if args.compare:
        old = json.loads(Path(args.compare).read_text())
        new = json.loads(json.dumps(found, sort_keys=True, default=str))
        lines = differences(old, new)
        print(f"largest relative change of a float: {largest_float_change(old, new):.2e}")
        if lines:
            print(f"DIFFERS from {args.compare} in {len(lines)} places:")
            print("\n".join(lines[:40]))
            sys.exit(1)
        print(f"same as {args.compare} (answers equal, floats within {TOLERANCE:g} relative)")


if __name__ == "__main__":
    main()
