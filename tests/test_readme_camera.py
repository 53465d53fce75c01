"""The README's camera set-up gives a builder numbers: each must be the code's. The per-camera table's height,
margin and camel columns are worked out from vision.guidance's start positions with the placement benchmark's own
geometry, and the limits the placement assistant checks are vision.guidance's and vision.focus's constants (the
distance and angle columns: tests/test_placement_start.py)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from benchmarks.camera_placement_ranges import geometry, room_and_camels
from vision import focus, guidance
from vision.photo import LENSES

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
SETUP = README.split("#### Setting up the camera")[1].split("#### ")[0]


def _row(start: str) -> list[str]:
    line = next(line for line in SETUP.splitlines() if line.startswith(f"| {start}"))
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _span(low: float, high: float, unit: str, digits: int = 0) -> str:
    return f"{low:.{digits}f}–{high:.{digits}f} {unit}"


@pytest.mark.parametrize(("name", "row"), [
    ("Pi Camera Module 3", "Raspberry Pi Camera Module 3"),
    ("Pi Camera Module 2", "Raspberry Pi Camera Module 2"),
    ("USB webcam", "a USB webcam"),
])
def test_each_cameras_height_margin_and_camels_are_those_of_its_start_positions(name, row):
    fov, k1_range = LENSES[name]
    parts = geometry("2018")
    positions = guidance.START_POSITIONS[name]
    heights = [cm * math.sin(math.radians(angle)) for cm, angle in positions]
    seen = [room_and_camels(fov, sum(k1_range) / 2, cm * 10, angle, 0.0, guidance.AIM_MM, *parts)
            for cm, angle in positions]
    rooms = [guidance.shown_margin_px(room) for room, _ in seen]  # whole pixels rounded down, as the page shows
    camels = [guidance.shown_px(camel) for _, camel in seen]
    cells = _row(row)
    assert cells[3] == _span(round(min(heights)), round(max(heights)), "cm")
    assert cells[4] == f"{min(rooms)}–{max(rooms)} px / {_span(min(camels), max(camels), 'px', 1)}"
    # Every start position leaves the margin, and the camels are tall enough (what "where to start" promises).
    assert min(rooms) >= guidance.MARGIN_PX and min(camels) >= guidance.MIN_CAMEL_PX


def test_the_wide_camera_is_not_recommended_for_the_camel_size_the_readme_says():
    fov, k1_range = LENSES["Pi Camera Module 3 Wide"]
    parts = geometry("2018")
    low, high = (round(x / 10) for x in guidance.DISTANCE_MM)
    seen = [room_and_camels(fov, sum(k1_range) / 2, cm * 10, angle, 0.0, guidance.AIM_MM, *parts)
            for cm in range(low, high + 1, 5)
            for angle in range(round(guidance.ELEVATION_DEG[0]), round(guidance.ELEVATION_DEG[1]) + 1, 5)]
    assert min(room for room, _ in seen) >= guidance.MARGIN_PX  # "all four markers fit from anywhere"
    smallest, largest = min(camel for _, camel in seen), max(camel for _, camel in seen)
    assert f"its camels are {round(smallest)} to {round(largest)} px tall" in " ".join(_row("Camera Module 3 Wide"))
    assert largest < guidance.MIN_CAMEL_PX
    words = " ".join(SETUP.split())
    assert f"Camera Module 3 Wide (its camels look {round(smallest)} to {round(largest)} px tall" in words


def test_the_limits_the_assistant_checks_are_the_codes():
    words = " ".join(SETUP.split())
    distance = tuple(round(mm / 10) for mm in guidance.DISTANCE_MM)
    angle = tuple(round(deg) for deg in guidance.ELEVATION_DEG)
    height = (round(distance[0] * math.sin(math.radians(angle[0]))),
              round(distance[1] * math.sin(math.radians(angle[1]))))
    for said in (f"within {guidance.AZIMUTH_DEG:g}° of straight on", f"**{distance[0]} to {distance[1]} cm**",
                 f"**{angle[0]}° to {angle[1]}°** (so {height[0]} to {height[1]} cm high",
                 f"at least **{guidance.MARGIN_PX} px**", f"at least **{guidance.MIN_CAMEL_PX:g} px** tall",
                 f"at least {focus.MIN_FRAME[0]}×{focus.MIN_FRAME[1]}",
                 f"edges at most {focus.MAX_EDGE_PX:g} px", f"at least {focus.MIN_WHITE:g} of 255",
                 f"at least {focus.MIN_SNR:g} times the noise", f"at most {focus.MAX_CLIPPED:.0%} of the board"):
        assert said in words, said
    # Where to aim.
    assert f"about {guidance.AIM_MM / 10:g} cm in front of the board's middle" in words


def test_the_heights_the_builder_needs_span_every_start_position():
    heights = [cm * math.sin(math.radians(angle)) for positions in guidance.START_POSITIONS.values()
               for cm, angle in positions]
    found = re.search(r"holding it (\d+) to (\d+) cm above the table", " ".join(SETUP.split()))
    assert found and (int(found[1]), int(found[2])) == (round(min(heights)), round(max(heights)))
