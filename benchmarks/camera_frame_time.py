"""Issue 11's frame budget: CPU time to read one 1280×720 frame as the companion does (target <= 60 ms, one
core), and to read a 4608×2592 still in the board's region.

On photo-like tables (vision.photo, light tier), each calibrated from its calibration photo: the first frame
of a table searches the whole picture for the markers; the following ones (the camera stands still) look for
them where they were and keep the board's place as the companion's camera watch does (``frames=True``: see
``vision.locate.LocateConfig.steady_px``). CPU time of this process (time.process_time), reading only, not
rendering; each time is also split into finding the board (markers, pose, cut-out: vision.read.observe) and
reading the camels on it.
Run: .venv/bin/python benchmarks/camera_frame_time.py [--tables N] [--seed S]
A speed-up must read the same: benchmarks/camera_reading_digest.py prints a digest of the readings of these frames
(and more) to compare before and after.

Paired (``--against DIR`` or ``--against REVISION``): on a loaded machine runs of the same code scatter more than a
change's effect (86 and 113 ms a following frame), so one process loads two versions of ``vision`` side by side
(DIR's, or the revision's ``git archive``d into a temporary folder, and this checkout's) and reads each picture
with both in turn, alternating which goes first: the load falls on both alike. The frames are rendered once, the
very frames of the plain mode; each version calibrates each table itself and keeps its own place for the
following frames. It prints each version's median, the median of the per-picture ratios (this checkout's time
over the other's) with its middle half, and on how many pictures the two read differently (a speed-up must read
none differently). ``--repeats N`` reads the whole set N times over (more pairs).
Run: .venv/bin/python benchmarks/camera_frame_time.py --against DIR_OR_REVISION [--tables N] [--seed S] [--repeats N]
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from types import ModuleType
from typing import Any

import cv2
import numpy as np
from tqdm import tqdm

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's vision, whatever PYTHONPATH says (the paired mode relies on it)

from vision.calibrate import CalibrationError, calibrate  # noqa: E402
from vision.locate import BoardNotFound  # noqa: E402
from vision.photo import make_table, render_calibration, render_scene  # noqa: E402
from vision.plausible import random_board  # noqa: E402
from vision.read import BOARD_BGR, ReadConfig, observe  # noqa: E402
from vision.reader import read_board  # noqa: E402
from vision.synth import EDITION_CAMELS, camel_profiles  # noqa: E402

FRAMES_PER_TABLE = 4
STILL_SIZE = (4608, 2592)


@dataclass
class BenchTable:
    """One table of the bench: its edition, :mod:`vision.photo` table, calibration photo and frames (in order)."""

    edition: str
    table: Any
    photo: np.ndarray
    frames: list[np.ndarray]


def bench_tables(tables: int, seed: int) -> Iterator[BenchTable]:
    """The bench's tables, each with its calibration photo and frames (rendered here, untimed)."""
    for index in range(tables):
        edition = ("2014", "2018")[index % 2]
        table = make_table(seed * 10_007 + index + 900_000, edition)
        photo, _ = render_calibration(table, 0, "light")
        frames = []
        for frame in range(FRAMES_PER_TABLE):
            board_seed = index * 100 + frame
            frames.append(render_scene(table, random_board(edition, random.Random(board_seed)), board_seed, "light")[0])
        yield BenchTable(edition, table, photo, frames)


def still_of(frame: np.ndarray) -> np.ndarray:
    """The 4608×2592 still the bench reads after a table's first frame (that frame enlarged)."""
    return cv2.resize(frame, STILL_SIZE, interpolation=cv2.INTER_CUBIC)


def figure(times: list[float]) -> str:
    if not times:
        return "none"
    ordered = sorted(times)
    ninetieth = ordered[math.ceil(0.9 * len(ordered)) - 1]  # nearest rank: never below the median
    return f"{statistics.median(ordered):.0f} ms median, {ninetieth:.0f} ms 90th pct"


def plain(args: argparse.Namespace) -> None:
    """This checkout's times, as the bench has always measured them."""
    config = ReadConfig()
    first, following, stills = [], [], []
    parts: dict[str, list[float]] = {"frame: finding": [], "frame: reading": [], "still: finding": [],
                                     "still: reading": []}
    for bench in tqdm(bench_tables(args.tables, args.seed), total=args.tables, unit="table", leave=False):
        table, edition = bench.table, bench.edition
        try:
            found = calibrate(config, table.template, list(EDITION_CAMELS[edition]), bench.photo)
            profiles, board_bgr = found.profiles, found.board_bgr
        except (CalibrationError, BoardNotFound):
            profiles, board_bgr = camel_profiles(edition), BOARD_BGR
        near = None
        for frame, image in enumerate(bench.frames):
            started = time.process_time()
            try:
                observation = observe(config, table.template, image, near=near, frames=True)
                found = time.process_time()
                read_board(config, table.template, profiles, image, board_bgr, observation)
            except BoardNotFound:
                near = None
                continue
            finished = time.process_time()
            (following if near is not None else first).append((finished - started) * 1000)
            if near is not None:
                parts["frame: finding"].append((found - started) * 1000)
                parts["frame: reading"].append((finished - found) * 1000)
            near = observation.location
            if frame == 0:
                still = still_of(image)
                started = time.process_time()
                try:
                    observation = observe(config, table.template, still)
                    found = time.process_time()
                    read_board(config, table.template, profiles, still, board_bgr, observation)
                except BoardNotFound:
                    continue
                finished = time.process_time()
                stills.append((finished - started) * 1000)
                parts["still: finding"].append((found - started) * 1000)
                parts["still: reading"].append((finished - found) * 1000)

    print(f"following frames ({len(following)}): {figure(following)} (target <= 60 ms)")
    print(f"first frame of a table ({len(first)}): {figure(first)}")
    print(f"4608x2592 still, read in the board's region ({len(stills)}): {figure(stills)}")
    print("split: " + "; ".join(f"{name} {figure(times)}" for name, times in parts.items()))


def _is_vision(name: str) -> bool:
    return name == "vision" or name.startswith("vision.")


READER_MODULES = ("vision.board", "vision.calibrate", "vision.locate", "vision.read", "vision.reader", "vision.synth")
"""What a version's reading needs (the rest of its package is imported as its code asks)."""


@dataclass
class Version:
    """One checkout's ``vision`` package, its modules kept apart from any other version's: :meth:`run` puts them in
    ``sys.modules`` for a call, so that the imports its code makes as it runs find its own modules (a package's
    submodules are found along its own ``__path__``)."""

    name: str
    root: Path
    modules: dict[str, ModuleType] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        # A name of the reader's modules (ReadConfig, observe, ...), as this version defines it.
        for module in READER_MODULES:
            if module in self.__dict__.get("modules", {}) and hasattr(self.modules[module], name):
                return getattr(self.modules[module], name)
        raise AttributeError(name)

    def run(self, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``call(*args, **kwargs)`` with this version's modules in ``sys.modules`` (any it imports meanwhile kept
        as its own)."""
        others = {name: sys.modules.pop(name) for name in [name for name in sys.modules if _is_vision(name)]}
        sys.modules.update(self.modules)
        try:
            return call(*args, **kwargs)
        finally:
            for name in [name for name in sys.modules if _is_vision(name)]:
                self.modules[name] = sys.modules.pop(name)
            sys.modules.update(others)
            self.check()

    def check(self) -> None:
        """Every module of this version is a file of its own folder (the swap really swapped)."""
        folder = (self.root / "vision").resolve()
        for name, module in self.modules.items():
            where = Path(module.__file__ or "").resolve()
            assert where.is_relative_to(folder), f"{self.name}: {name} is {where}, not in {folder}"


def load_version(name: str, root: Path) -> Version:
    """The ``vision`` package of the checkout at ``root``, imported on its own (this process's own ``vision``
    modules, if any, are put back as they were)."""
    version = Version(name, root.resolve())
    path = list(sys.path)
    sys.path.insert(0, str(version.root))
    try:
        version.run(lambda: [importlib.import_module(module) for module in READER_MODULES])
    finally:
        sys.path[:] = path
    return version


def this_version() -> Version:
    """This checkout's ``vision``, as this script imported it (checked to be this checkout's files)."""
    for module in READER_MODULES:
        importlib.import_module(module)
    version = Version("this checkout", ROOT, {name: sys.modules[name] for name in sys.modules if _is_vision(name)})
    version.check()
    return version


def checkout(against: str, folder: Path) -> tuple[Path, str]:
    """The folder to load the other version from, and what it is: ``against`` itself if it holds a ``vision``
    package, else a git revision of this repository whose ``vision`` folder is extracted into ``folder``."""
    if (Path(against) / "vision" / "__init__.py").exists():
        return Path(against), "its folder"
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{against}^{{commit}}"],
                            capture_output=True, text=True, check=True).stdout.strip()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit, "vision"],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        # (The "data" filter came with Python 3.11.4; git's own archive of this repository needs none.)
        tar.extractall(folder, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    return folder, f"commit {commit[:12]}"


def reading_key(reading: Any) -> tuple[Any, ...]:
    """What a reading says, comparable across versions (their ``Reading`` classes differ): the track, the unseen
    camels, the problems and the confidence (exactly)."""
    track = tuple((space, tuple(stack)) for space, stack in sorted(reading.track.items()))
    return track, tuple(reading.unseen), tuple(reading.problems), float(reading.confidence)


@dataclass
class Pairs:
    """Times of the same pictures read by two versions in turn (ms, in the same order for both)."""

    against: list[float] = field(default_factory=list)
    this: list[float] = field(default_factory=list)

    def add(self, against: float, this: float) -> None:
        self.against.append(against)
        self.this.append(this)

    def ratios(self) -> list[float]:
        """Each picture's time with this checkout over its time with the other version."""
        return [this / against for against, this in zip(self.against, self.this, strict=True)]

    def report(self, what: str, against: str) -> str:
        if not self.this:
            return f"{what} (0): none"
        quartiles = statistics.quantiles(self.ratios(), n=4) if len(self.this) > 1 else [self.ratios()[0]] * 3
        return (f"{what} ({len(self.this)}, each read by both in turn): {against} {statistics.median(self.against):.0f}"
                f" ms median, this checkout {statistics.median(self.this):.0f} ms median; per-picture ratio "
                f"{statistics.median(self.ratios()):.3f} (median; middle half {quartiles[0]:.3f}-{quartiles[2]:.3f})")


def first_goes(count: int, versions: list[Version]) -> list[Version]:
    """The order the ``count``-th picture of a kind is read in: alternately one version first, then the other."""
    return versions if count % 2 == 0 else versions[::-1]


def paired(args: argparse.Namespace) -> None:
    """Each picture read by the other version and this checkout in turn (see the module's description)."""
    with tempfile.TemporaryDirectory() as folder:
        root, what = checkout(args.against, Path(folder))
        against = load_version(args.against, root)
        this = this_version()
        print(f"against {args.against} ({what}: {against.modules['vision'].__file__}), this checkout {ROOT}")
        versions = [against, this]
        tables = list(tqdm(bench_tables(args.tables, args.seed), total=args.tables, unit="table", leave=False,
                           desc="rendering"))
        calibrations: dict[tuple[int, str], tuple[Any, Any]] = {}
        for index, bench in enumerate(tables):
            for version in versions:
                calibrations[index, version.name] = version.run(_calibrated, version, bench)
        kinds = {"following frames": Pairs(), "first frame of a table": Pairs(),
                 "4608x2592 still, read in the board's region": Pairs()}
        differ, pictures = 0, 0
        for _ in tqdm(range(args.repeats), unit="pass", leave=False):
            for index, bench in enumerate(tables):
                near: dict[str, Any] = {version.name: None for version in versions}
                for frame, image in enumerate(bench.frames):
                    # (each version keeps its own place: a frame is a following one to both, or to neither, unless
                    # they read differently, which is counted)
                    kind = "following frames" if near[this.name] is not None else "first frame of a table"
                    reads = {}
                    for version in first_goes(len(kinds[kind].this), versions):
                        reads[version.name] = version.run(_timed, version, bench, calibrations[index, version.name],
                                                          image, near[version.name], frames=True)
                    pictures += 1
                    differ += reads[against.name][1] != reads[this.name][1]
                    both = all(read[1] is not None for read in reads.values())
                    if both and (near[against.name] is None) == (near[this.name] is None):
                        kinds[kind].add(reads[against.name][0], reads[this.name][0])
                    for version in versions:
                        near[version.name] = reads[version.name][2]
                    if frame == 0 and both:  # the plain mode's still, after the table's first frame
                        still = still_of(image)
                        stills = kinds["4608x2592 still, read in the board's region"]
                        for version in first_goes(len(stills.this), versions):
                            reads[version.name] = version.run(_timed, version, bench, calibrations[index, version.name],
                                                              still, None, frames=False)
                        pictures += 1
                        differ += reads[against.name][1] != reads[this.name][1]
                        if all(read[1] is not None for read in reads.values()):
                            stills.add(reads[against.name][0], reads[this.name][0])
    for kind, pairs in kinds.items():
        print(pairs.report(kind, args.against))
    print(f"readings that differ: {differ} of {pictures} pictures (a speed-up must read the same)")


def _calibrated(version: Version, bench: BenchTable) -> tuple[Any, Any]:
    """The table's camel colours and board colour as ``version`` calibrates them (its defaults if it cannot)."""
    try:
        found = version.calibrate(version.ReadConfig(), _template(version, bench.edition),
                                  list(version.EDITION_CAMELS[bench.edition]), bench.photo)
        return found.profiles, found.board_bgr
    except (version.CalibrationError, version.BoardNotFound):
        return version.camel_profiles(bench.edition), version.BOARD_BGR


_TEMPLATES: dict[tuple[str, str], Any] = {}


def _template(version: Version, edition: str) -> Any:
    """The edition's board template as ``version`` loads it (its own class: a change to vision/board.py is timed as
    the version that has it), loaded once; called within ``version.run``."""
    key = (version.name, edition)
    if key not in _TEMPLATES:
        _TEMPLATES[key] = version.load_template(edition)
    return _TEMPLATES[key]


def _timed(
    version: Version, bench: BenchTable, calibration: tuple[Any, Any], image: np.ndarray, near: Any, frames: bool
) -> tuple[float, tuple[Any, ...] | None, Any]:
    """``image`` read by ``version`` as the plain mode reads it: its CPU time (ms), what it read (None: no board
    found) and the board's place for the next frame."""
    config = version.ReadConfig()
    template = _template(version, bench.edition)
    profiles, board_bgr = calibration
    started = time.process_time()
    try:
        observation = version.observe(config, template, image, near=near, frames=frames)
        reading = version.read_board(config, template, profiles, image, board_bgr, observation)
    except version.BoardNotFound:
        return (time.process_time() - started) * 1000, None, None
    return (time.process_time() - started) * 1000, reading_key(reading), observation.location


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", metavar="DIR_OR_REVISION",
                        help="time this checkout against another one's vision, picture by picture in turn")
    parser.add_argument("--repeats", type=int, default=1, help="with --against: read the whole set this many times")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.against:
        paired(args)
    else:
        plain(args)


if __name__ == "__main__":
    main()
