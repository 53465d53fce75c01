"""The builder's drawings, generated from one set of dimensions (``hardware/mechanism.toml``) and the rig's
configuration: the mechanism (front and top views, with dimensions), the wiring, the OpenSCAD parameters of the
printable parts, the LED resistors and the power budget. :func:`check` says what does not fit.

``camelup pyramid drawings --out hardware`` writes them; a test checks the committed ones are up to date.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from firmware_py.config import RigConfig

E12 = (10, 12, 15, 18, 22, 27, 33, 39, 47, 56, 68, 82)
HUB_RADIUS = 3.5
"""A servo horn's hub around the shaft (mm)."""
HORN_HOLE = 8.0
"""The single-arm horn's hole the plate is screwed through, from the shaft (mm)."""
RIM = 0.8
"""The least wall the funnel may leave at the chutes' top: two lines of a 0.4 mm nozzle (mm)."""
BCM_TO_HEADER = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 5: 29, 6: 31, 13: 33, 19: 35, 26: 37,
    14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 12: 32, 16: 36, 20: 38, 21: 40,
}
"""BCM GPIO number to the physical pin of the 40-pin header."""


def load_mechanism(path: str | Path) -> dict[str, dict[str, float]]:
    return tomllib.loads(Path(path).read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Geometry:
    """Sizes derived from the dimensions (mm, degrees)."""

    inner: float
    outer: float
    top: float
    plate_radius: float
    open_distance: float
    clear_angle: float
    fall_fraction: float
    row_length: float
    plate_top: float


def plate_top(m: dict[str, dict[str, float]]) -> float:
    """Where the servo tab puts the plate's top face, from the chutes' bottom (mm; negative is below).

    The servo hangs shaft down with its ears' shaft-side face on the tab's top: the shaft's end is
    ``shaft_top - ear_bottom - ear_thickness`` under it, the horn's outer face ``horn_thickness`` lower, and
    the plate is screwed to that face."""
    servo = m["servo"]
    ear_face = servo["ear_bottom"] + servo["ear_thickness"]
    return m["frame"]["tab_top"] - (servo["shaft_top"] - ear_face) - servo["horn_thickness"]


def geometry(m: dict[str, dict[str, float]]) -> Geometry:
    die, chute, gate = m["die"]["size"], m["chute"], m["gate"]
    inner = die + 2 * chute["clearance"]
    plate = inner / 2 + gate["overlap"]
    # The plate's centre swings on a circle of radius ``arm``: after θ it is 2·arm·sin(θ/2) from the chute's.
    clear = plate + inner * math.sqrt(2) / 2  # the whole opening is uncovered from this distance on
    clear_angle = 2 * math.degrees(math.asin(min(1.0, clear / (2 * gate["arm"]))))
    return Geometry(
        inner=inner,
        outer=inner + 2 * chute["wall"],
        top=inner + 2 * chute["funnel"],
        plate_radius=plate,
        open_distance=2 * gate["arm"] * math.sin(math.radians(gate["swing"] / 2)),
        clear_angle=clear_angle,
        fall_fraction=clear_angle / gate["swing"],
        row_length=(chute["count"] - 1) * chute["pitch"] + inner + 2 * chute["wall"],
        plate_top=plate_top(m),
    )


def check(m: dict[str, dict[str, float]]) -> list[str]:
    """Every way the parts would not work together (empty when they fit)."""
    g, die, chute, gate, servo = geometry(m), m["die"]["size"], m["chute"], m["gate"], m["servo"]
    problems = []
    if g.inner < die + 1:
        problems.append(f"chute: {g.inner:g} mm inside leaves a {die:g} mm die no room to fall freely")
    if g.inner >= die * math.sqrt(2):
        problems.append(f"chute: {g.inner:g} mm inside lets a {die:g} mm die turn over and jam")
    if g.plate_radius < die / 2 + chute["clearance"]:
        problems.append("gate: the plate does not carry the die's middle wherever it lies in the chute")
    if g.plate_radius < g.inner * math.sqrt(2) / 2 + 0.5:
        problems.append(f"gate: a {2 * g.plate_radius:g} mm plate does not cover the chute's inside corners "
                        f"({g.inner * math.sqrt(2):.1f} mm apart): raise gate.overlap")
    if chute["funnel"] > chute["wall"] - RIM:
        problems.append(f"chute: a {chute['funnel']:g} mm funnel cuts through a {chute['wall']:g} mm wall (at most "
                        f"wall - {RIM:g}): the tops of the walls would be cut away")
    if abs(g.plate_top + gate["gap"]) > 0.3:
        wanted = m["frame"]["tab_top"] - g.plate_top - gate["gap"]
        problems.append(f"servo: a tab {m['frame']['tab_top']:g} mm up puts the plate's top {g.plate_top:+.1f} mm "
                        f"from the chutes' bottom, not {gate['gap']:g} mm under it: set frame.tab_top = {wanted:.1f}")
    if servo["ear_hole_spacing"] / 2 - servo["screw_pilot"] / 2 < servo["body_length"] / 2 + 0.5:
        problems.append("servo: the ear screw holes fall inside the servo's slot: check servo.ear_hole_spacing")
    if servo["ear_hole_spacing"] / 2 + servo["screw_pilot"] / 2 > servo["tab_span"] / 2:
        problems.append("servo: the ear screw holes fall outside the ears: check servo.ear_hole_spacing")
    if g.open_distance < g.plate_radius + g.inner * math.sqrt(2) / 2:
        problems.append(f"gate: a {gate['swing']:g}° swing does not uncover the chute (arm {gate['arm']:g} mm)")
    # The open plate against the next gate's shaft (its horn hub) and against the next closed plate.
    ahead = (gate["arm"] * math.sin(math.radians(gate["swing"])),
             gate["arm"] - gate["arm"] * math.cos(math.radians(gate["swing"])))
    to_hub = math.dist(ahead, (chute["pitch"], gate["arm"]))
    if to_hub - g.plate_radius - HUB_RADIUS < 2:
        problems.append(f"gate: the open plate passes {to_hub - g.plate_radius - HUB_RADIUS:.1f} mm from the next "
                        "gate's horn (2 mm needed): widen chute.pitch")
    if math.dist(ahead, (chute["pitch"], 0)) - 2 * g.plate_radius < 2:
        problems.append("gate: the open plate touches the next closed plate: widen chute.pitch")
    body_near = gate["arm"] - servo["shaft_offset"] - (servo["tab_span"] - servo["body_length"]) / 2
    if body_near < g.outer / 2 + m["frame"]["spine"] + 0.5:
        problems.append("servo: its mounting tabs reach the chute's wall or the spine behind it: lengthen gate.arm")
    if not 28 <= m["tray"]["ramp_angle"] <= 40:
        problems.append(f"tray: a {m['tray']['ramp_angle']:g}° ramp is near the friction angle of a die on "
                        "plastic or card (20-25°) or steeper than needed: use 30-35°")
    if m["tray"]["drop"] < die * math.sqrt(2):
        problems.append("tray: a tumbling die would still touch the plate: increase tray.drop")
    for colour, r in resistors(m).items():
        if r["max_ma"] > m["led"]["max_gpio_ma"]:
            problems.append(f"led: {colour} may draw {r['max_ma']:.1f} mA, more than a GPIO pin should give")
    p = power(m)
    if p["supply_amps"] < p["peak_amps"]:
        problems.append(f"power: {p['supply_amps']:g} A is less than the {p['peak_amps']:.2f} A a stalled gate takes")
    return problems


def e12_at_least(ohms: float) -> int:
    """The smallest E12 resistor of at least ``ohms`` (so the current stays at or under the target)."""
    decade = 10 ** math.floor(math.log10(ohms) - 1)
    for step in (*E12, 100):
        if step * decade >= ohms - 1e-9:
            return round(step * decade)
    raise AssertionError("unreachable")


def resistors(m: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """Per LED colour: the exact resistance for the target current, the E12 part, and the current it gives
    at the typical forward voltage and at both ends of the spread."""
    led = m["led"]
    out = {}
    for colour in ("red", "green", "blue"):
        vf = led[f"{colour}_vf"]
        exact = (led["gpio_volts"] - vf) / (led["target_ma"] / 1000)
        part = e12_at_least(exact)
        out[colour] = {
            "vf": vf,
            "exact": exact,
            "ohms": part,
            "ma": (led["gpio_volts"] - vf) / part * 1000,
            "min_ma": max(0.0, (led["gpio_volts"] - vf - led["vf_spread"]) / part * 1000),
            "max_ma": (led["gpio_volts"] - vf + led["vf_spread"]) / part * 1000,
        }
    return out


def power(m: dict[str, dict[str, float]]) -> dict[str, float]:
    """The servo supply: the rig moves one gate at a time, so the peak is one stalled servo plus the idle rest."""
    p, count = m["power"], int(m["chute"]["count"])
    peak = p["servo_stall_amps"] + (count - 1) * 0.01
    return {
        "peak_amps": peak,
        "supply_amps": p["supply_amps"],
        "fuse_amps": 2.0 if peak <= 1.6 else 3.15,
        "capacitor_uf": 1000 if count <= 8 else 2200,  # Adafruit's rule: about 100 µF per servo, rounded up
    }


# -- SVG ----------------------------------------------------------------------------------------------------


class Svg:
    def __init__(self, width: float, height: float, title: str) -> None:
        self.width, self.height = width, height
        self.parts = [f"<title>{escape(title)}</title>"]

    def add(self, element: str) -> None:
        self.parts.append(element)

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#000", width: float = 1.5,
             dash: str = "") -> None:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" '
                 f'stroke-width="{width}"{extra}/>')

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none", stroke: str = "#000",
             dash: str = "") -> None:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{fill}" '
                 f'stroke="{stroke}"{extra}/>')

    def circle(self, x: float, y: float, r: float, fill: str = "none", stroke: str = "#000", dash: str = "") -> None:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" stroke="{stroke}"{extra}/>')

    def text(self, x: float, y: float, words: str, anchor: str = "start", size: int = 12, bold: bool = False) -> None:
        weight = ' font-weight="bold"' if bold else ""
        self.add(f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}"{weight}>'
                 f"{escape(words)}</text>")

    def dimension(self, x1: float, y1: float, x2: float, y2: float, label: str) -> None:
        """A dimension line with end ticks and its value."""
        self.line(x1, y1, x2, y2, "#1565c0", 1)
        for x, y in ((x1, y1), (x2, y2)):
            if y1 == y2:
                self.line(x, y - 4, x, y + 4, "#1565c0", 1)
            else:
                self.line(x - 4, y, x + 4, y, "#1565c0", 1)
        if y1 == y2:
            self.text((x1 + x2) / 2, y1 - 4, label, "middle", 11)
        else:
            self.text(x1 + 6, (y1 + y2) / 2 + 4, label, "start", 11)

    def render(self) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:.0f}" height="{self.height:.0f}" '
                f'viewBox="0 0 {self.width:.0f} {self.height:.0f}" font-family="sans-serif">')
        return "\n".join([head, *(f"  {part}" for part in self.parts), "</svg>", ""])


def mechanism_svg(m: dict[str, dict[str, float]], config: RigConfig) -> str:
    """Front view of the row of chutes, gates and tray, and a top view of one gate closed and open."""
    g, die, chute, gate, tray = geometry(m), m["die"]["size"], m["chute"], m["gate"], m["tray"]
    s = 2.2  # pixels per mm
    count = int(chute["count"])
    names = [d.name for d in config.dice]
    colours = {d.name: "#" + "".join(f"{round(c * 255):02x}" for c in d.led_colour) for d in config.dice}
    width = max(1300, 80 + g.row_length * s + 40)
    svg = Svg(width, 1060, "Dice pyramid release mechanism (generated from hardware/mechanism.toml)")
    svg.text(20, 24, "Front view: one chute and one gate per die (mm)", bold=True, size=14)
    x0, top = 110, 70
    plate_y = top + chute["height"] * s
    for i in range(count):
        cx = x0 + (g.outer / 2 + i * chute["pitch"]) * s
        half, outer_half, top_half = g.inner / 2 * s, g.outer / 2 * s, g.top / 2 * s
        # Chute walls, with the funnel at the top.
        for side in (-1, 1):
            svg.line(cx + side * top_half, top, cx + side * half, top + chute["funnel"] * s * 2)
            svg.line(cx + side * half, top + chute["funnel"] * s * 2, cx + side * half, plate_y)
            svg.line(cx + side * outer_half, top + chute["funnel"] * s * 2, cx + side * outer_half, plate_y)
        name = names[i] if i < len(names) else "spare"
        fill = colours.get(name, "#ffffff")
        svg.rect(cx - die / 2 * s, plate_y - gate["gap"] * s - die * s, die * s, die * s, fill, "#333")
        svg.text(cx, top - 8, f"{name} (ch {config.servo.channels.get(name, i)})", "middle", 11)
        svg.rect(cx - g.plate_radius * s, plate_y, 2 * g.plate_radius * s, gate["plate_thickness"] * s, "#9e9e9e")
    ramp_y = plate_y + tray["drop"] * s
    # The frame's legs stand clear of the first plate and of the last one's swing towards +x (2 mm to spare).
    left = min(0.0, g.outer / 2 - g.plate_radius - 2)
    right = max(g.row_length, (count - 1) * chute["pitch"] + g.outer / 2 + gate["arm"] + g.plate_radius + 2)
    leg = m["frame"]["leg"]
    for x in (left - leg, right):
        svg.rect(x0 + x * s, top, leg * s, ramp_y + 14 - top, "#f5deb3")
    svg.line(x0 + left * s, ramp_y, x0 + right * s, ramp_y, "#6d4c41", 3)
    svg.text(x0 + (right + leg) * s + 6, ramp_y + 4, f"ramp ({tray['ramp_angle']:g}° down to the tray) between the "
             "legs", size=11)
    svg.text(x0 + (right + leg) * s + 6, top + 12, f"frame {right - left + 2 * leg:.0f} mm wide: the right leg "
             f"holds the {m['frame']['button_hole']:g} mm button", size=11)
    svg.text(x0 + (right + leg) * s + 6, top + 28, f"and the {m['frame']['led_hole']:g} mm LED", size=11)
    first = x0 + g.outer / 2 * s
    svg.dimension(first, top + chute["height"] * s + 34, first + chute["pitch"] * s, top + chute["height"] * s + 34,
                  f"pitch {chute['pitch']:g}")
    svg.dimension(x0 - 80, top, x0 - 80, plate_y, f"{chute['height']:g}")
    svg.dimension(x0 - 80, plate_y, x0 - 80, ramp_y, f"drop {tray['drop']:g}")
    svg.dimension(first - g.inner / 2 * s, top + chute["height"] * s / 2, first + g.inner / 2 * s,
                  top + chute["height"] * s / 2, f"{g.inner:g}")
    svg.text(x0, ramp_y + 30, f"Inside {g.inner:g} mm square (a {die:g} mm die falls freely and cannot turn over: "
             f"its face diagonal is {die * math.sqrt(2):.1f} mm); walls {chute['wall']:g} mm; top opening "
             f"{g.top:g} mm; row {g.row_length:.0f} mm long.", size=11)

    # Top view of one gate: the servo behind the chute, its plate under the chute (closed) or swung (open).
    svg.text(20, 380, "Top view of one gate: closed (grey) and open (dashed)", bold=True, size=14)
    s2, cx, cy = 3.0, 200, 520
    ax, ay = cx, cy - gate["arm"] * s2  # the servo's shaft, behind the chute
    svg.rect(cx - g.outer / 2 * s2, cy - g.outer / 2 * s2, g.outer * s2, g.outer * s2)
    svg.rect(cx - g.inner / 2 * s2, cy - g.inner / 2 * s2, g.inner * s2, g.inner * s2, "#fff8e1")
    svg.circle(cx, cy, g.plate_radius * s2, "#9e9e9e66")
    angle = math.radians(gate["swing"])
    ox, oy = ax + gate["arm"] * s2 * math.sin(angle), ay + gate["arm"] * s2 * math.cos(angle)
    svg.circle(ox, oy, g.plate_radius * s2, dash="5 3")
    svg.line(ax, ay, cx, cy, "#555", 3)
    svg.line(ax, ay, ox, oy, "#555", 2, "5 3")
    servo = m["servo"]
    body_near = ay - servo["shaft_offset"] * s2
    svg.rect(ax - servo["body_width"] / 2 * s2, body_near - (servo["body_length"] - servo["shaft_offset"] * 2) * s2,
             servo["body_width"] * s2, servo["body_length"] * s2, "#1976d2aa")
    svg.circle(ax, ay, HUB_RADIUS * s2, "#fff")
    svg.dimension(ax - 60, ay, ax - 60, cy, f"arm {gate['arm']:g}")
    svg.text(ox + g.plate_radius * s2 + 8, oy, f"open: swung {gate['swing']:g}°", size=11)
    notes = [
        f"Plate: a disc {2 * g.plate_radius:g} mm across, {gate['plate_thickness']:g} mm thick, {gate['gap']:g} mm "
        "under the chute, screwed to the servo horn.",
        "The die's weight presses along the servo's shaft, not around it: an unpowered gate stays shut.",
        f"The chute is fully uncovered after {g.clear_angle:.0f}° of the {gate['swing']:g}° swing; "
        f"the open plate passes the next gate's horn with room to spare at a {chute['pitch']:g} mm pitch.",
        "Servo (SG90) behind the chute, hung shaft down in its tab (side view below).",
        "Opening swings the plate right, towards the button's leg (anticlockwise from above):",
        "the left leg leaves no room the other way. A servo that turns the other way: hardware/README.md, step 6.",
        "Label each chute with its die's colour; refill: drop each die into its own chute, then hold the button.",
    ]
    for i, note in enumerate(notes):
        svg.text(420, 430 + 22 * i, note, size=12)
    side_view(svg, m, 660)
    return svg.render()


def side_view(svg: Svg, m: dict[str, dict[str, float]], top: float) -> None:
    """A section through one chute's centre, from the side: the chute, the spine, the servo tab, the servo hung
    shaft down with its horn, the plate under the chute, and the ramp. Heights from the chutes' bottom."""
    g, chute, gate, servo, frame, tray = geometry(m), m["chute"], m["gate"], m["servo"], m["frame"], m["tray"]
    s = 3.5
    svg.text(20, top, "Side view through one chute (section, mm; heights from the chutes' bottom)", bold=True, size=14)
    x0, z0 = 200.0, top + 30 + 42 * s  # the chutes' front face, and their bottom, in pixels

    def px(y: float, z: float) -> tuple[float, float]:
        return x0 + y * s, z0 - z * s

    def box(y1: float, z1: float, y2: float, z2: float, fill: str, stroke: str = "#000") -> None:
        (a, b), (c, d) = px(min(y1, y2), max(z1, z2)), px(max(y1, y2), min(z1, z2))
        svg.rect(a, b, c - a, d - b, fill, stroke)

    wall, spine, height = chute["wall"], frame["spine"], chute["height"]
    box(0, 0, wall, height, "#f5deb3")  # front wall
    box(g.outer - wall, 0, g.outer + spine, height, "#f5deb3")  # back wall and spine
    die = m["die"]["size"]
    box(wall + chute["clearance"], 0.2, wall + chute["clearance"] + die, 0.2 + die, "#ffffff", "#999")
    shaft_y = g.outer / 2 + gate["arm"]
    body_y = shaft_y - servo["shaft_offset"]
    ear_face = servo["ear_bottom"] + servo["ear_thickness"]
    tab_top = frame["tab_top"]
    mid = body_y + servo["body_length"] / 2
    tab_end = mid + servo["tab_span"] / 2 + 2
    tab_bottom = tab_top - frame["tab_thickness"]
    box(g.outer + spine, tab_bottom, body_y - 0.2, tab_top, "#f5deb3")  # the tab, cut at the slot
    box(body_y + servo["body_length"] + 0.2, tab_bottom, tab_end, tab_top, "#f5deb3")
    # The servo, shaft down: its ears on the tab.
    box(body_y, tab_top - (servo["body_height"] - ear_face), body_y + servo["body_length"], tab_top + ear_face,
        "#90caf9")
    span_start = mid - servo["tab_span"] / 2
    box(span_start, tab_top, span_start + servo["tab_span"], tab_top + servo["ear_thickness"], "#64b5f6")
    shaft_end = tab_top - (servo["shaft_top"] - ear_face)
    box(shaft_y - 5.8, shaft_end, shaft_y + 5.8, tab_top - (servo["body_height"] - ear_face), "#90caf9")
    horn_face = shaft_end - servo["horn_thickness"]
    # The horn, pointing away from the chute.
    box(shaft_y - HUB_RADIUS, horn_face, shaft_y + HORN_HOLE + 3, shaft_end, "#ffffff")
    # The plate, screwed under the horn, reaching under the chute.
    box(g.outer / 2 - g.plate_radius, horn_face - gate["plate_thickness"], shaft_y + HORN_HOLE + 2, horn_face,
        "#9e9e9e")
    # The ramp, `drop` under the plate at the chute's centre, sloping down to the front.
    ramp_z = horn_face - gate["plate_thickness"] - tray["drop"]
    slope = math.tan(math.radians(tray["ramp_angle"]))
    y_back, y_front = g.outer + spine, -15.0
    front_z = ramp_z - (g.outer / 2 - y_front) * slope
    svg.line(*px(y_back, ramp_z + (y_back - g.outer / 2) * slope), *px(y_front, front_z), "#6d4c41", 3)
    svg.text(*px(y_front - 2, front_z), f"ramp {tray['ramp_angle']:g}° to the tray", "end", 11)
    # The legs at both ends of the row (dashed: behind the section), from the ramp's foot to behind the servos.
    ramp_back = ramp_z + (g.outer / 2 + spine) * slope
    table = ramp_back - (g.outer + spine + 20) * slope - 2
    (a, b), (c, d) = px(-20, height), px(tab_end, table)
    svg.rect(a, b, c - a, d - b, dash="6 4")
    svg.line(*px(-30, table), *px(tab_end + 5, table), "#555", 1)
    svg.text(*px(tab_end - 1, table + 2), "the legs (dashed), standing on the table", "end", 11)
    # Dimensions.
    right = tab_end + 8
    svg.dimension(*px(right, 0), *px(right, tab_top), f"tab top {tab_top:g}")
    svg.dimension(*px(right + 30, shaft_end), *px(right + 30, tab_top), f"ears to shaft end {tab_top - shaft_end:.1f}")
    svg.line(*px(-8, 0), *px(shaft_y + 12, 0), "#1565c0", 0.8, "4 3")
    svg.text(*px(-9, 0.5), "chutes' bottom (0)", "end", 11)
    svg.text(*px(-9, horn_face - gate["plate_thickness"]), f"plate {gate['gap']:g} under it", "end", 11)
    plate_bottom = horn_face - gate["plate_thickness"]
    svg.dimension(*px(g.outer / 2, plate_bottom), *px(g.outer / 2, ramp_z), f"drop {tray['drop']:g}")
    notes = [
        "The servo hangs shaft down through a closed slot in its tab; its ears",
        f"rest on the tab's top, {tab_top:g} mm above the chutes' bottom, fixed by the SG90's",
        f"own two screws (holes {servo['ear_hole_spacing']:g} mm apart). The shaft's end is "
        f"{tab_top - shaft_end:.1f} mm under the ears,",
        f"the horn {servo['horn_thickness']:g} mm thick: the plate's top is {-g.plate_top:.1f} mm under the chutes.",
        "The horn points away from the chute, over the plate's tail, so it never",
        "touches the chute's wall. The spine behind the chutes joins them and carries",
        "every tab: the print sets each gap, nothing to adjust.",
    ]
    for i, note in enumerate(notes):
        svg.text(760, top + 60 + 18 * i, note, size=12)


def wiring_svg(m: dict[str, dict[str, float]], config: RigConfig) -> str:
    """The Pi, the button, the LED with its resistors, the PCA9685 board and its servos, and the servo supply."""
    r, p = resistors(m), power(m)
    svg = Svg(980, 560, "Dice pyramid wiring (default configuration, generated)")
    svg.text(20, 26, "Wiring (BCM GPIO numbers, header pins in brackets)", bold=True, size=14)
    svg.rect(20, 50, 230, 330, "#c8e6c9", "#1b5e20")
    svg.text(135, 70, "Raspberry Pi", "middle", bold=True)
    rows = [
        (config.button.pin, "button"),
        (config.led.red, "LED red"),
        (config.led.green, "LED green"),
        (config.led.blue, "LED blue"),
        (2, "I2C SDA"),
        (3, "I2C SCL"),
    ]
    ys = {}
    for i, (gpio, what) in enumerate(rows):
        y = 100 + 34 * i
        ys[what] = y
        svg.text(32, y + 4, f"GPIO{gpio} [pin {BCM_TO_HEADER[gpio]}]  {what}", size=12)
    svg.text(32, 320, "3.3 V [pin 1]   GND [pins 6, 9, 14]", size=12)
    # Button and LED.
    svg.line(250, ys["button"], 420, ys["button"])
    svg.rect(420, ys["button"] - 12, 80, 24, "#eee")
    svg.text(460, ys["button"] + 4, "button", "middle")
    svg.text(510, ys["button"] + 4, "other leg to GND (internal pull-up)", size=11)
    for colour, stroke in (("red", "#d32f2f"), ("green", "#388e3c"), ("blue", "#1976d2")):
        y = ys[f"LED {colour}"]
        svg.line(250, y, 330, y, stroke, 2)
        svg.rect(330, y - 8, 60, 16, "#fff", stroke)
        svg.text(360, y + 4, f"{r[colour]['ohms']} Ω", "middle", 11)
        svg.line(390, y, 440, y, stroke, 2)
    svg.circle(470, ys["LED green"], 26, "#fff")
    svg.text(470, ys["LED green"] + 4, "RGB LED", "middle", 11)
    svg.text(505, ys["LED green"] + 4, "common cathode to GND", size=11)
    # The PCA9685 and the servos.
    svg.line(250, ys["I2C SDA"], 560, ys["I2C SDA"], "#6a1b9a", 2)
    svg.line(250, ys["I2C SCL"], 560, ys["I2C SCL"], "#6a1b9a", 2)
    svg.rect(560, 215, 200, 185, "#bbdefb", "#0d47a1")
    svg.text(660, 320, "PCA9685 16-channel board", "middle", bold=True, size=12)
    svg.text(570, ys["I2C SDA"] + 4, "SDA", size=11)
    svg.text(570, ys["I2C SCL"] + 4, "SCL", size=11)
    svg.text(570, 360, "VCC ← Pi 3.3 V [pin 1]", size=11)
    svg.text(570, 376, "GND ← Pi GND [pin 6]", size=11)
    svg.text(570, 392, f"address 0x{config.servo.i2c_address:02x}", size=11)
    for i, (die, channel) in enumerate(config.servo.channels.items()):
        y = 420 + 20 * i
        svg.line(760, 300 + 10 * i, 800, y, "#ef6c00", 1.5)
        svg.text(806, y + 4, f"ch {channel} → {die} gate servo", size=11)
    # Servo supply.
    svg.rect(560, 470, 200, 60, "#fff3e0", "#e65100")
    svg.text(660, 490, f"5 V {p['supply_amps']:g} A supply (barrel jack)", "middle", size=11)
    svg.text(660, 508, f"→ {p['fuse_amps']:g} A slow fuse → V+ terminal", "middle", size=11)
    svg.text(660, 524, f"{p['capacitor_uf']} µF 10 V across V+ and GND", "middle", size=11)
    svg.line(660, 470, 660, 400, "#e65100", 2.5)
    svg.text(20, 420, "Never power the servos from the Pi's 5 V pin.", size=12, bold=True)
    svg.text(20, 440, "The servo supply's GND, the PCA9685's GND and a Pi GND are one ground.", size=12)
    return svg.render()


def scad_parameters(m: dict[str, dict[str, float]]) -> str:
    """The OpenSCAD source's parameters (``include <pyramid-params.scad>``)."""
    g = geometry(m)
    values: dict[str, Any] = {
        "die": m["die"]["size"],
        "inner": g.inner,
        "wall": m["chute"]["wall"],
        "height": m["chute"]["height"],
        "funnel": m["chute"]["funnel"],
        "pitch": m["chute"]["pitch"],
        "count": int(m["chute"]["count"]),
        "plate_r": g.plate_radius,
        "plate_t": m["gate"]["plate_thickness"],
        "arm": m["gate"]["arm"],
        "servo_l": m["servo"]["body_length"],
        "servo_w": m["servo"]["body_width"],
        "servo_shaft": m["servo"]["shaft_offset"],
        "servo_span": m["servo"]["tab_span"],
        "body_h": m["servo"]["body_height"],
        "servo_shaft_top": m["servo"]["shaft_top"],
        "servo_horn_t": m["servo"]["horn_thickness"],
        "servo_ear_bottom": m["servo"]["ear_bottom"],
        "servo_ear_t": m["servo"]["ear_thickness"],
        "ear_holes": m["servo"]["ear_hole_spacing"],
        "screw_pilot": m["servo"]["screw_pilot"],
        "horn_hole": HORN_HOLE,
        "gap": m["gate"]["gap"],
        "tab_top": m["frame"]["tab_top"],
        "tab_t": m["frame"]["tab_thickness"],
        "spine": m["frame"]["spine"],
        "leg": m["frame"]["leg"],
        "button_hole": m["frame"]["button_hole"],
        "led_hole": m["frame"]["led_hole"],
        "drop": m["tray"]["drop"],
        "ramp_angle": m["tray"]["ramp_angle"],
        "depth": m["tray"]["depth"],
    }
    lines = ["// Generated from hardware/mechanism.toml by `camelup pyramid drawings`: do not edit by hand."]
    lines += [f"{key} = {value:g};" for key, value in values.items()]
    return "\n".join(lines) + "\n"


def write_all(out: str | Path, mechanism: str | Path, config: RigConfig) -> list[Path]:
    """Write mechanism.svg, wiring.svg and pyramid-params.scad into ``out``; returns the paths."""
    m = load_mechanism(mechanism)
    target = Path(out)
    target.mkdir(parents=True, exist_ok=True)
    files = {
        "mechanism.svg": mechanism_svg(m, config),
        "wiring.svg": wiring_svg(m, config),
        "pyramid-params.scad": scad_parameters(m),
    }
    written = []
    for name, text in files.items():
        path = target / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written
