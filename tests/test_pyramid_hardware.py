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


def test_drawings_command_writes_and_reports(tmp_path, capsys):
    assert main(["pyramid", "drawings", "--out", str(tmp_path), "--mechanism", str(HARDWARE / "mechanism.toml")]) == 0
    assert {p.name for p in tmp_path.iterdir()} == {"mechanism.svg", "wiring.svg", "pyramid-params.scad"}
    assert "LED green: 68 Ω" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text((HARDWARE / "mechanism.toml").read_text().replace("clearance = 1.0", "clearance = 4.0"))
    assert main(["pyramid", "drawings", "--out", str(tmp_path), "--mechanism", str(bad)]) == 1
    assert "does not fit: chute" in capsys.readouterr().out


@pytest.mark.skipif(shutil.which("openscad") is None, reason="openscad is not installed (make tools installs it)")
@pytest.mark.parametrize("part", ["chutes", "plate"])
def test_the_openscad_parts_render_to_the_drawn_size(tmp_path, dimensions, part):
    out = tmp_path / f"{part}.stl"
    result = subprocess.run(
        ["openscad", "-D", f'part="{part}"', "-o", str(out), str(HARDWARE / "pyramid.scad")],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    points = [tuple(map(float, line.split()[1:])) for line in out.read_text().splitlines()
              if line.strip().startswith("vertex")]
    size = [max(p[i] for p in points) - min(p[i] for p in points) for i in range(3)]
    g = geometry(dimensions)
    if part == "chutes":  # the row as drawn, as tall as a chute
        assert size[0] == pytest.approx(g.row_length, abs=0.01)
        assert size[2] == pytest.approx(dimensions["chute"]["height"], abs=0.01)
    else:  # a disc on an arm reaching the horn
        assert size[0] == pytest.approx(2 * g.plate_radius, abs=0.1)
        assert size[1] == pytest.approx(g.plate_radius + dimensions["gate"]["arm"] + 5, abs=0.1)
