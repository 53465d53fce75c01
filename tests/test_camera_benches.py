"""The benches' shared loop (benchmarks/camera_independent.run, which the POV-Ray bench runs with its own photos):
per table its calibration, blind boards and --expect checks, each judged against the renderer's truth, and a
--reread of the kept photos judging them again the same way."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from benchmarks.camera_independent import report, reread, run
from benchmarks.independent.scene import render


def test_one_table_is_calibrated_read_blind_and_checked_against_a_log(tmp_path: Path) -> None:
    photos: list[tuple[str, bool]] = []

    def photograph(table, tier, track, seed, path, *, calibration=False, tiles=True):
        photos.append((Path(path).name, tiles))
        return render(table, tier, track, seed, path, calibration=calibration, tiles=tiles)

    result = run(1, 1, 609, ["clean"], tmp_path, progress=False, expect=1, photograph=photograph)
    clean = result["tiers"]["clean"]
    assert clean["calibration_accepted"] == 1.0
    assert clean["scenes"] == 1 and clean["camels"] == 5 + 2 * (result["setups"][0]["edition"] == "2018")
    assert clean["expect"]["matching"] == {"boards": 1, "right": 1}
    assert clean["expect"]["differing"] == {"boards": 1, "right": 1}
    # The calibration photo first, then the blind board, then the log's two boards with no stray tiles.
    assert photos == [("t0-clean-calibration.png", True), ("t0-clean-0.png", True),
                      ("t0-clean-x0-matching.png", False), ("t0-clean-x0-differing.png", False)]
    assert (tmp_path / "t0-clean-x0.log.json").exists()

    again = reread(result, tmp_path)
    assert again["tiers"] == result["tiers"]


BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "camera_independent.py"


def test_hand_without_the_props_tier_is_refused_before_anything_is_rendered(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(BENCH), "--hand", "--tier", "light", "--keep", str(tmp_path / "kept")],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2
    assert "--hand puts an arm in the props tier's scenes only" in done.stderr
    assert not (tmp_path / "kept").exists()


def test_hand_puts_an_arm_in_every_props_scene(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(BENCH), "--hand", "--tier", "props", "--tables", "1",
                           "--scenes-per-table", "2", "--expect", "0", "--seed", "611", "--json"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["hand"] is True
    assert [("hand" in scene["props"]) for scene in result["details"]["props"]["scenes"]] == [True, True]
    assert "an arm in every props scene" in report(result)
