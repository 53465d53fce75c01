"""hardware/ matches the configuration and the dimensions: the drawings are generated from them, the wiring
and resistor tables say what the firmware and the arithmetic say, and the parts fit together."""

import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.cli import main
from firmware_py.config import load_config, parse_config
from firmware_py.drawings import (
    BCM_TO_HEADER,
    HORN_HOLE,
    check,
    e12_at_least,
    geometry,
    load_mechanism,
    mechanism_svg,
    power,
    resistors,
    scad_parameters,
    wiring_svg,
)
from firmware_py.twin import UNCOVERED

ROOT = Path(__file__).resolve().parents[1]
HARDWARE = ROOT / "hardware"
README = (HARDWARE / "README.md").read_text()


@pytest.fixture
def dimensions():
    return load_mechanism(HARDWARE / "mechanism.toml")


def test_the_committed_drawings_are_generated_from_the_dimensions_and_configuration(dimensions):
    config = parse_config({})
    assert (HARDWARE / "mechanism.svg").read_text() == mechanism_svg(dimensions, config)
    assert (HARDWARE / "wiring.svg").read_text() == wiring_svg(dimensions, config)
    assert (HARDWARE / "pyramid-params.scad").read_text() == scad_parameters(dimensions)


def test_the_wiring_table_and_diagram_match_the_configuration():
    config = parse_config({})
    rows = re.findall(r"^\| `([a-z0-9_.]+)` \|[^|]*\| GPIO(\d+) \| (\d+) \|", README, flags=re.M)
    table = {key: (int(gpio), int(header)) for key, gpio, header in rows}
    expected = {key: (pin, BCM_TO_HEADER[pin]) for key, pin in config.pins().items()}
    expected |= {"i2c.sda": (2, 3), "i2c.scl": (3, 5)}
    assert table == expected
    svg = (HARDWARE / "wiring.svg").read_text()
    for key, (gpio, header) in expected.items():
        assert f"GPIO{gpio} [pin {header}]" in svg, key
    for die, channel in config.servo.channels.items():
        assert f"ch {channel} → {die} gate servo" in svg
    example = load_config(HARDWARE / "pyramid.example.toml")
    assert example.pins() == config.pins() and example.servo.channels == config.servo.channels


def test_the_channel_table_matches_each_editions_default_channels():
    rows = re.findall(r"^\| (\d+) \| (\w+) \| (\w+|—) \|$", README, flags=re.M)
    for column, edition in ((1, "2018"), (2, "2014")):
        channels = parse_config({"edition": edition}).servo.channels
        assert {row[column]: int(row[0]) for row in rows if row[column] != "—"} == channels


def test_the_led_resistors_are_computed_for_the_stated_forward_voltages(dimensions):
    computed = resistors(dimensions)
    for colour, r in computed.items():
        assert r["ohms"] == e12_at_least(r["exact"]) and r["ohms"] >= r["exact"]
        assert r["max_ma"] <= dimensions["led"]["max_gpio_ma"]
        cells = r"([\d.]+) V \| (\d+) Ω \| (\d+) Ω \| ([\d.]+) mA \| ([\d.]+) to ([\d.]+) mA"
        row = re.search(rf"^\| {colour} \| {cells} \|$", README, flags=re.M)
        assert row, colour
        assert float(row[1]) == r["vf"] and int(row[2]) == round(r["exact"]) and int(row[3]) == r["ohms"]
        assert float(row[4]) == round(r["ma"], 1)
        assert (float(row[5]), float(row[6])) == (round(r["min_ma"], 1), round(r["max_ma"], 1))
        assert f"{r['ohms']} Ω" in (HARDWARE / "wiring.svg").read_text()
    assert [e12_at_least(x) for x in (216.7, 66.7, 100, 101, 9.9)] == [220, 68, 100, 120, 10]


def test_the_bill_of_materials_is_complete(dimensions):
    bom = README.split("## Bill of materials")[1].split("## Building it")[0]
    p = power(dimensions)
    for needed in ("PCA9685", "SG90", f"5 V {p['supply_amps']:g} A", f"{p['fuse_amps']:g} A slow-blow fuse",
                   f"{p['capacitor_uf']} µF", "RGB LED", "220 Ω and 2 × 68 Ω", "push button", "20 AWG",
                   "jumper wires", "barrel"):
        assert needed in bom, needed
    assert f"| {int(dimensions['chute']['count'])} | one per die" in bom


def test_the_build_has_a_check_after_every_step():
    build = README.split("## Building it, step by step")[1].split("\n## ")[0]
    steps = re.split(r"^\d+\. ", build, flags=re.M)[1:]
    assert len(steps) >= 8
    assert all("*Check:*" in step for step in steps)


def test_the_parts_fit_and_the_twin_releases_no_sooner_than_the_real_gate(dimensions):
    assert check(dimensions) == []
    g = geometry(dimensions)
    assert g.inner == 18 and g.inner < 16 * math.sqrt(2)
    # The twin lets a die fall once the plate has swung UNCOVERED of the way: the real chute is clear by then.
    assert g.fall_fraction <= UNCOVERED


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (("chute", "clearance", 3.5), "turn over and jam"),
        (("chute", "clearance", 0.2), "no room to fall freely"),
        (("chute", "pitch", 34.0), "next gate's horn"),
        (("chute", "funnel", 4.0), "cuts through a 2 mm wall"),
        (("gate", "overlap", 3.0), "does not cover the chute's inside corners"),
        (("frame", "tab_top", 36.0), "set frame.tab_top = 12.4"),  # the first design's tab: plate mid-chute
        (("servo", "shaft_top", 27.0), "set frame.tab_top = 9.5"),  # a shorter servo: the tab must go down
        (("servo", "ear_hole_spacing", 22.0), "inside the servo's slot"),
        (("tray", "ramp_angle", 20.0), "friction angle"),
        (("frame", "spine", 5.0), "or the spine behind it"),
        (("gate", "swing", 40.0), "does not uncover the chute"),
        (("gate", "arm", 14.0), "mounting tabs reach the chute"),
        (("tray", "drop", 15.0), "tumbling die"),
        (("led", "green_vf", 2.0), None),  # a lower Vf gives a bigger resistor: still fine
        (("power", "supply_amps", 0.5), "stalled gate"),
    ],
)
def test_dimensions_that_do_not_fit_are_named(dimensions, change, problem):
    section, key, value = change
    dimensions[section][key] = value
    found = check(dimensions)
    if problem is None:
        assert found == []
    else:
        assert any(problem in p for p in found), found


def test_the_plate_hangs_the_gap_under_the_chutes_from_the_servos_published_sizes(dimensions):
    # SG90: ears' underside 15.9 mm and 2.5 mm thick, the shaft's end 29.9 mm up, a 1.5 mm horn.
    servo = dimensions["servo"]
    assert (servo["ear_bottom"], servo["ear_thickness"], servo["shaft_top"]) == (15.9, 2.5, 29.9)
    assert geometry(dimensions).plate_top == pytest.approx(12.4 - (29.9 - 18.4) - 1.5)
    assert geometry(dimensions).plate_top == pytest.approx(-dimensions["gate"]["gap"])
    assert dimensions["chute"]["funnel"] <= dimensions["chute"]["wall"] - 0.8


def test_drawings_command_writes_and_reports(tmp_path, capsys):
    target = tmp_path / "not" / "yet"
    assert main(["pyramid", "drawings", "--out", str(target), "--mechanism", str(HARDWARE / "mechanism.toml")]) == 0
    assert {p.name for p in target.iterdir()} == {"mechanism.svg", "wiring.svg", "pyramid-params.scad"}
    assert "LED green: 68 Ω" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text((HARDWARE / "mechanism.toml").read_text().replace("clearance = 1.0", "clearance = 4.0"))
    assert main(["pyramid", "drawings", "--out", str(tmp_path), "--mechanism", str(bad)]) == 1
    assert "does not fit: chute" in capsys.readouterr().out


def test_drawings_finds_the_projects_dimensions_from_any_folder_and_writes_beside_the_given_ones(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)  # as on the Pi, run from ~: no hardware/ here
    assert main(["pyramid", "drawings", "--out", "drawn"]) == 0
    assert {p.name for p in (tmp_path / "drawn").iterdir()} == {"mechanism.svg", "wiring.svg", "pyramid-params.scad"}
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "mechanism.toml").write_text((HARDWARE / "mechanism.toml").read_text())
    assert main(["pyramid", "drawings", "--mechanism", str(mine / "mechanism.toml")]) == 0
    assert (mine / "wiring.svg").exists(), "by default beside the dimensions they are drawn from"
    capsys.readouterr()
    assert main(["pyramid", "drawings", "--mechanism", str(mine / "mechanism.toml"), "--out", "/proc/camelup"]) == 2
    assert "cannot write the drawings into /proc/camelup" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("openscad") is None, reason="openscad is not installed (make tools installs it)")
@pytest.mark.parametrize("part", ["chutes", "plate", "ramp"])
def test_the_openscad_parts_render_to_the_drawn_size(tmp_path, dimensions, part):
    out = tmp_path / f"{part}.stl"
    result = subprocess.run(
        ["openscad", "-D", f'part="{part}"', "-o", str(out), str(HARDWARE / "pyramid.scad")],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    points = [tuple(map(float, line.split()[1:])) for line in text.splitlines() if line.strip().startswith("vertex")]
    size = [max(p[i] for p in points) - min(p[i] for p in points) for i in range(3)]
    low = [min(p[i] for p in points) for i in range(3)]
    assert bodies(text) == 1  # one printable piece: nothing floats loose
    g, frame, tray = geometry(dimensions), dimensions["frame"], dimensions["tray"]
    slope = math.tan(math.radians(tray["ramp_angle"]))
    ramp_back = -(0.6 + 2 + tray["drop"]) + (g.outer / 2 + frame["spine"]) * slope
    table = ramp_back - (g.outer + frame["spine"] + 20) * slope - 2
    # The right leg stands clear of the last plate's swing (towards +x): 2 mm past the plate's farthest reach.
    last = (dimensions["chute"]["count"] - 1) * dimensions["chute"]["pitch"] + g.outer / 2
    span = max(g.row_length, last + dimensions["gate"]["arm"] + g.plate_radius + 2)
    span -= min(0, g.outer / 2 - g.plate_radius - 2)  # and the left leg clear of the first plate
    if part == "chutes":  # the row and the spine between the two legs, from the table to the chutes' top
        assert size[0] == pytest.approx(span + 2 * frame["leg"], abs=0.05)
        assert f"frame {size[0]:.0f} mm wide" in (HARDWARE / "mechanism.svg").read_text()  # the drawing agrees
        assert low[2] == pytest.approx(table, abs=0.05)
        assert size[2] == pytest.approx(dimensions["chute"]["height"] - table, abs=0.05)
        # The servo tabs reach back past the servo's far ear.
        shaft = g.outer / 2 + dimensions["gate"]["arm"]
        far_ear = shaft - dimensions["servo"]["shaft_offset"] + (dimensions["servo"]["body_length"]
                                                                 + dimensions["servo"]["tab_span"]) / 2
        assert size[1] > far_ear
    elif part == "plate":  # a disc on an arm past the horn's screw hole
        assert size[0] == pytest.approx(2 * g.plate_radius, abs=0.1)
        assert size[1] == pytest.approx(g.plate_radius + dimensions["gate"]["arm"] + HORN_HOLE + 2, abs=0.1)
    else:  # as wide as the space between the legs, standing on the table
        assert size[0] == pytest.approx(span, abs=0.05)
        assert low[2] == pytest.approx(table, abs=0.05)


def _render(tmp_path: Path, part: str) -> tuple[str, list[float], list[float]]:
    out = tmp_path / f"{part}.stl"
    result = subprocess.run(["openscad", "-D", f'part="{part}"', "-o", str(out), str(HARDWARE / "pyramid.scad")],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    points = [tuple(map(float, line.split()[1:])) for line in text.splitlines() if line.strip().startswith("vertex")]
    return text, [min(p[i] for p in points) for i in range(3)], [max(p[i] for p in points) for i in range(3)]


BED = 220.0
"""A common small printer bed (Ender-3 class): the split parts must each fit it."""


@pytest.mark.skipif(shutil.which("openscad") is None, reason="openscad is not installed (make tools installs it)")
@pytest.mark.parametrize("whole", ["chutes", "ramp"])
def test_the_long_parts_split_in_two_halves_that_fit_a_220_mm_bed_and_meet(tmp_path, dimensions, whole):
    _, low, high = _render(tmp_path, whole)
    assert high[0] - low[0] > BED + 50, "the whole part needs a large bed: that is why it is split"
    left, left_low, left_high = _render(tmp_path, f"{whole}_left")
    right, right_low, right_high = _render(tmp_path, f"{whole}_right")
    g, pitch, count = geometry(dimensions), dimensions["chute"]["pitch"], dimensions["chute"]["count"]
    cut = count // 2 * pitch - (pitch - g.outer) / 2  # in the gap between the middle two chutes
    assert left_low[0] == pytest.approx(low[0], abs=0.05) and right_high[0] == pytest.approx(high[0], abs=0.05)
    assert left_high[0] == pytest.approx(cut, abs=0.05) and right_low[0] == pytest.approx(cut, abs=0.05)
    for part_low, part_high in ((left_low, left_high), (right_low, right_high)):
        footprint = sorted(part_high[i] - part_low[i] for i in range(3))
        assert footprint[1] <= BED and footprint[2] <= BED, footprint  # it lies on the bed some way
    assert bodies(left) == bodies(right) == 1
    if whole == "chutes":  # the splice lies across the cut on the spine's back, between the two tabs there
        _, splice_low, splice_high = _render(tmp_path, "splice")
        tab_half = dimensions["servo"]["body_width"] / 2 + dimensions["chute"]["wall"] + 2
        left_tab = (count // 2 - 1) * pitch + g.outer / 2 + tab_half
        right_tab = count // 2 * pitch + g.outer / 2 - tab_half
        assert left_tab < splice_low[0] < cut < splice_high[0] < right_tab
        assert splice_low[1] == pytest.approx(g.outer + dimensions["frame"]["spine"], abs=0.05)


def bodies(stl: str) -> int:
    """How many separate solids an ASCII STL holds (triangles joined through shared corners)."""
    parent: dict[str, str] = {}

    def root(v: str) -> str:
        while parent.setdefault(v, v) != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    corners: list[str] = []
    for line in stl.splitlines():
        line = line.strip()
        if line.startswith("vertex"):
            corners.append(" ".join(line.split()[1:]))
            if len(corners) == 3:
                first = root(corners[0])
                for other in corners[1:]:
                    parent[root(other)] = first
                corners = []
    return len({root(v) for v in parent})


def test_the_build_stops_the_service_first_uses_one_config_and_hands_back_to_the_service():
    build = README.split("## Building it, step by step")[1].split("\n## ")[0]
    steps = re.split(r"^\d+\. ", build, flags=re.M)
    preamble, install, first, last = steps[0], steps[1], steps[2], steps[-1]
    assert "/opt/camelup/venv/bin/camelup" in preamble and "/etc/camelup/pyramid.toml" in preamble
    # The install comes first (the later steps use what it made), then the service is stopped.
    assert "Install the companion" in install and "do_i2c" in install
    assert "sudo systemctl stop camelup" in first and 'edition = "2014"' in first
    assert "The install copied" not in install and "The install copied" in first
    assert "sudo systemctl start camelup" in last and "/etc/camelup/pyramid.toml" in last
    commands = re.findall(r"`(sudo )?camelup pyramid (\w+)([^`]*)`", build)
    assert {name for _, name, _ in commands} >= {"selftest", "calibrate", "run"}
    for sudo, name, arguments in commands:
        assert "--config $RIG" in arguments, (name, arguments)
        if name == "calibrate":  # $RIG is root's: saving to it needs sudo
            assert "--save $RIG" in arguments and sudo
    assert "comments in it are not kept" in preamble


def test_the_dim_led_advice_is_the_same_arithmetic(dimensions):
    led = dimensions["led"]
    worst_low = led["green_vf"] - led["vf_spread"]
    assert e12_at_least((led["gpio_volts"] - worst_low) / (led["max_gpio_ma"] / 1000)) <= 47
    assert f"{(led['gpio_volts'] - 3.1) / 47 * 1000:.1f} mA at 3.1 V" in README
    assert f"worst {(led['gpio_volts'] - worst_low) / 47 * 1000:.1f} mA (an LED at {worst_low:.1f} V)" in README
    dim = [(led["gpio_volts"] - vf) / 68 * 1000 for vf in (3.2, 3.0)]
    assert f"68 Ω gives\nonly {dim[0]:.1f}–{dim[1]:.1f} mA" in README


def test_the_250_hz_step_is_one_figure_everywhere():
    from firmware_py.servos import tick_seconds

    step = f"{tick_seconds(parse_config({'servo': {'frequency': 250}}).servo) * 1e6:.2f} µs"
    assert step == "0.96 µs"
    for path in ("hardware/README.md", "hardware/pyramid.example.toml", "firmware_py/servos.py", "README.md"):
        text = (ROOT / path).read_text()
        assert step in text, path
        assert "0.98 µs" not in text and "(1 µs at 250 Hz" not in text, path
