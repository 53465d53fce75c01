"""The POV-Ray renderer (benchmarks/povray) makes photos the camera's command line can use, and tells the truth
about them: a clean board is found and read, a clean calibration photo is accepted, a camel behind the pyramid is
counted as hidden and one in plain view as seen. Needs povray (`make tools` installs it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from benchmarks.camera_independent import HIDDEN, calibration_board
from benchmarks.independent.table import BOARD_TOP, Table, make_table
from benchmarks.povray.compose import pyramid
from benchmarks.povray.render import povray_available, render

CAMELUP = str(Path(sys.executable).parent / "camelup")
TABLE_SEED = 708_000  # the POV-Ray bench's own development seeds are 700 to 709


@pytest.fixture(scope="module")
def table() -> Table:
    assert povray_available(), "povray is not installed: make tools (Debian: apt-get install povray)"
    names = [stack[0] for stack in calibration_board("2018").values()]
    return make_table(TABLE_SEED, "2018", names)


def test_a_clean_board_is_found_and_read(table: Table, tmp_path: Path) -> None:
    # a game's board: every camel of the edition on it (the reader looks for all of them)
    track = {2: ["blue"], 5: ["purple"], 7: ["red", "yellow"], 12: ["green"], 14: ["black", "white"]}
    photo = tmp_path / "board.png"
    done = render(table, "clean", track, 1, str(photo))
    assert all(v > 0.5 for v in done.truth.visible.values()), done.truth.visible
    assert done.truth.hidden_markers == []
    out = subprocess.run([CAMELUP, "vision", "read", str(photo), "--board", "2018"], capture_output=True, text=True)
    reading = json.loads(out.stdout)
    assert "error" not in reading, reading
    assert {int(s): v for s, v in reading["track"].items()} == track


def test_a_camel_behind_the_pyramid_is_hidden_and_one_in_view_is_seen(table: Table, tmp_path: Path) -> None:
    track = {3: ["green"], 11: ["yellow"]}
    camel = table.centre(3)
    towards_camera = (table.camera.centre - camel)[:2]
    towards_camera /= np.linalg.norm(towards_camera)
    centre = np.array([*(camel[:2] + towards_camera * 110), BOARD_TOP])
    done = render(table, "clean", track, 2, str(tmp_path / "pyramid.png"),
                  more=[pyramid(centre, 150.0, 200.0, 0.3, (212, 176, 116))])
    assert done.truth.visible["green"] < HIDDEN, done.truth.visible
    assert done.truth.visible["yellow"] > 0.9, done.truth.visible
    # without the pyramid the same camel is in plain view: the pyramid, not the pose, hides it
    plain = render(table, "clean", track, 2, str(tmp_path / "plain.png"))
    assert plain.truth.visible["green"] > 0.9, plain.truth.visible


def test_a_clean_calibration_photo_is_accepted(table: Table, tmp_path: Path) -> None:
    photo = tmp_path / "calibration.png"
    render(table, "clean", calibration_board("2018"), 0, str(photo), calibration=True)
    cal = tmp_path / "cal.json"
    done = subprocess.run([CAMELUP, "vision", "calibrate", str(photo), "--board", "2018", "--out", str(cal)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(cal.read_text())
