"""The POV-Ray bench's command line refuses bad input with a clear message before rendering anything, and its
scene builder refuses an unknown tier."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.camera_independent import calibration_board
from benchmarks.independent.table import make_table
from benchmarks.povray.compose import compose

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "camera_povray.py"


def bench(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, cwd=cwd)


def test_no_tables_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    done = bench("--tables", "0", "--keep", str(tmp_path / "kept"), cwd=tmp_path)
    assert done.returncode == 2
    assert "--tables and --scenes-per-table must be at least 1" in done.stderr
    assert not (tmp_path / "kept").exists()


def test_reread_without_the_photos_folder_is_refused(tmp_path: Path) -> None:
    done = bench("--reread", str(tmp_path / "earlier.json"), cwd=tmp_path)
    assert done.returncode == 2
    assert "--reread needs --keep DIR" in done.stderr


def test_an_unknown_tier_is_refused() -> None:
    names = [stack[0] for stack in calibration_board("2014").values()]
    table = make_table(709_000, "2014", names)
    with pytest.raises(ValueError, match="tier 'dusk': choose one of clean, light, props"):
        compose(table, "dusk", {1: names}, 1, "board.png", {})


def test_a_board_a_log_leads_to_is_photographed_without_stray_tiles() -> None:
    """--expect photos show the log's board only: a tile the log never laid would be a difference."""
    names = [stack[0] for stack in calibration_board("2018").values()]
    table = make_table(709_001, "2018", names)
    track = {3: names[:2], 9: names[2:]}
    seed = next(seed for seed in range(1, 40) if compose(table, "light", track, seed, "board.png", {})[0].extras)
    with_tiles = compose(table, "light", track, seed, "board.png", {})[0]
    without = compose(table, "light", track, seed, "board.png", {}, tiles_on_free_spaces=False)[0]
    assert without.extras == []
    assert [piece.name for piece in without.camels] == [piece.name for piece in with_tiles.camels]
