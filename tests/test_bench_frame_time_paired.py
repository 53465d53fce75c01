"""benchmarks/camera_frame_time.py --against: two versions of ``vision`` in one process, each picture read by both
in turn. Each version must run its own files (else the pair times one code twice), and the figure is the median of
the per-picture ratios (the load of the moment falls on both reads of a picture alike)."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.camera_frame_time import Pairs, Version, first_goes, load_version

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks" / "camera_frame_time.py"


def _copy_of_vision(folder: Path) -> Path:
    shutil.copytree(ROOT / "vision", folder / "vision", ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def test_the_ratio_is_the_median_of_each_pictures_ratio_not_of_the_medians() -> None:
    pairs = Pairs()
    for against, this in ((10.0, 30.0), (100.0, 110.0), (200.0, 100.0)):
        pairs.add(against, this)
    assert pairs.ratios() == [3.0, 1.1, 0.5]
    report = pairs.report("following frames", "main")
    assert report.startswith("following frames (3, each read by both in turn): main 100 ms median, this checkout 100"
                             " ms median; per-picture ratio 1.100 (median")


def test_the_two_versions_take_turns_going_first() -> None:
    versions = [Version("a", ROOT), Version("b", ROOT)]
    assert [[version.name for version in first_goes(count, versions)] for count in range(4)] == [
        ["a", "b"], ["b", "a"], ["a", "b"], ["b", "a"]]


def test_a_version_runs_its_own_files_even_those_imported_as_it_runs(tmp_path: Path) -> None:
    folder = _copy_of_vision(tmp_path)
    evidence = folder / "vision" / "silhouette_evidence.py"
    evidence.write_text(evidence.read_text() + "\nMARK = 'the copy'\n")
    ours = sys.modules.get("vision.silhouette_evidence")
    version = load_version("copy", folder)
    assert version.modules["vision.read"].__file__ == str(folder.resolve() / "vision" / "read.py")
    # vision.silhouette_evidence is imported by the reader's modules as they load: the copy's, not this checkout's.
    assert version.run(lambda: importlib.import_module("vision.silhouette_evidence").MARK) == "the copy"
    assert sys.modules.get("vision.silhouette_evidence") is ours  # this process's own put back
    assert not hasattr(importlib.import_module("vision.silhouette_evidence"), "MARK")


def test_a_module_from_elsewhere_is_caught(tmp_path: Path) -> None:
    version = load_version("copy", _copy_of_vision(tmp_path))
    version.modules["vision.board"] = importlib.import_module("vision.board")  # this checkout's file
    with pytest.raises(AssertionError, match=r"vision\.board is"):
        version.check()


@pytest.mark.parametrize("altered", [False, True])
def test_one_table_paired_counts_the_pictures_read_differently(tmp_path: Path, altered: bool) -> None:
    folder = _copy_of_vision(tmp_path)
    if altered:  # a version that reads every picture with one problem more than this checkout
        reader = folder / "vision" / "reader.py"
        text = reader.read_text()
        old = "    return read_with_scorer(config, template, profiles, image, board_bgr, observation)[0]\n"
        assert old in text
        reader.write_text(text.replace(old, "    reading = read_with_scorer(config, template, profiles, image, "
                                            "board_bgr, observation)[0]\n    reading.problems.append('altered')\n"
                                            "    return reading\n"))
    done = subprocess.run([sys.executable, str(BENCH), "--tables", "1", "--against", str(folder)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    package = folder.resolve() / "vision" / "__init__.py"
    assert lines[0] == f"against {folder} (its folder: {package}), this checkout {ROOT}"
    assert lines[1].startswith("following frames (3, each read by both in turn): ")
    assert lines[-1] == f"readings that differ: {5 if altered else 0} of 5 pictures (a speed-up must read the same)"
