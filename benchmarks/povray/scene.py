"""A table written as a POV-Ray 3.7 scene: the board (its print as an image map), the markers taped on the table,
camels modelled in CSG (legs, belly, hump, neck, head, tail), tiles, the pyramid and palm tree, cards, coins, a
phone and an arm; real area lights with soft shadows, a second light of another colour temperature, radiosity.

World coordinates are the board template's (mm; x to the right along spaces 1 to 5, y towards the camera's side,
z up from the table); POV-Ray's are <x, z, y>. Every placement is written as an explicit matrix, so POV-Ray's own
handedness never decides where anything ends up.

One scene is written three ways: ``photo`` (the real textures and lights), ``ids`` (every camel and marker
flat in its own id colour, no light: what the camera sees of each) and ``alone`` (one camel per animation frame:
how much of it the camera would see with nothing in the way)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from benchmarks.independent.table import BOARD_TOP, MIDDLE, Marker, Table

BOARD_LO, BOARD_HI = 115.0, 555.0
"""The printed board's extent in mm (x and y alike), as benchmarks/independent/art.py prints it."""
REACH = 9.0
CALIBRATION_REACH = 18.0
CRAZY = ("black", "white")
MARKER_ID_BASE = 200
"""Id colours: camels 1..n, markers 200 + their id."""

PAINT_SRGB = {
    "blue": (28, 92, 196),
    "green": (42, 146, 66),
    "red": (204, 40, 38),
    "yellow": (242, 204, 46),
    "purple": (118, 60, 152),
    "black": (36, 35, 40),
    "white": (236, 234, 224),
    "orange": (242, 124, 34),
}
"""Our own reading of the game's paints (sRGB), jittered per table."""


def to_linear(srgb: np.ndarray | tuple) -> np.ndarray:
    x = np.asarray(srgb, float) / 255.0
    return np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4)


def kelvin(temperature: float) -> np.ndarray:
    """A black body's colour at ``temperature`` (linear RGB, green 1), from Planck's law sampled at three
    wavelengths and normalised to 6500 K: a warm lamp is orange, a north window blue."""
    wavelengths = np.array([610e-9, 550e-9, 465e-9])
    h, c, k = 6.626e-34, 2.998e8, 1.381e-23

    def planck(t: float) -> np.ndarray:
        return 1 / (wavelengths**5 * (np.exp(h * c / (wavelengths * k * t)) - 1))

    rgb = planck(temperature) / planck(6500.0)
    return rgb / rgb[1]


def pov(p: np.ndarray | list | tuple) -> str:
    """A world point or direction as a POV-Ray vector."""
    return f"<{p[0]:.3f},{p[2]:.3f},{p[1]:.3f}>"


def rgb(c: np.ndarray | tuple) -> str:
    return f"rgb <{c[0]:.4f},{c[1]:.4f},{c[2]:.4f}>"


def frame(origin: np.ndarray, forward: np.ndarray, up: np.ndarray = (0.0, 0.0, 1.0)) -> str:
    """A matrix that puts an object modelled with x forward, y up and z to its side at ``origin`` (world)."""
    f = np.asarray(forward, float)
    u = np.asarray(up, float)
    u = u - f * (f @ u) / (f @ f)
    f, u = f / np.linalg.norm(f), u / np.linalg.norm(u)
    s = np.cross(f, u)
    rows = [f, u, s]
    cells = [f"{r[0]:.5f},{r[2]:.5f},{r[1]:.5f}" for r in rows]
    o = np.asarray(origin, float)
    return f"matrix <{','.join(cells)},{o[0]:.3f},{o[2]:.3f},{o[1]:.3f}>"


def decal_matrix(origin: tuple[float, float], angle: float, length: float, z: float) -> str:
    """The matrix that lays an image map (unit square, row 0 at the top) on the table: its top left corner at
    ``origin`` (mm), turned by ``angle``, ``length`` mm a side; image rows run along the world's y, as the
    template's prints do."""
    c, s = np.cos(angle), np.sin(angle)
    ox, oy = origin
    # image u along (c, s); image v (up the picture) against (-s, c), so the top row lies at the origin
    tx, ty = ox - length * s, oy + length * c
    return (f"matrix <{length * c:.4f},0,{length * s:.4f}, {length * s:.4f},0,{-length * c:.4f}, 0,1,0, "
            f"{tx:.4f},{z:.4f},{ty:.4f}>")


@dataclass
class Piece:
    """One camel as placed: where its feet stand, its heading, its level."""

    name: str
    base: np.ndarray
    facing: float
    level: int
    tilt: tuple[float, float]


@dataclass
class Scene:
    """Everything a photo holds; ``write(mode)`` gives its POV-Ray text."""

    table: Table
    tier: str
    camels: list[Piece]
    lights: str
    paints: dict[str, str]
    surface: str
    board_middle: np.ndarray
    board_turn: float
    board_image: str
    marker_images: dict[int, str]
    extras: list[str] = field(default_factory=list)
    """Tiles and props: POV-Ray objects textured with :func:`tex`, left out of the ``alone`` passes."""
    labels: list[str] = field(default_factory=list)
    radiosity: bool = False
    room: np.ndarray = field(default_factory=lambda: np.array([0.2, 0.19, 0.17]))

    def write(self, mode: str, camera: str) -> str:
        if mode not in ("photo", "ids", "alone"):
            raise ValueError(f"mode {mode!r}")
        out = ["#version 3.7;", f"#declare IDPASS = {int(mode != 'photo')};"]
        if mode == "photo":
            rad = ("radiosity { pretrace_start 0.08 pretrace_end 0.02 count 40 nearest_count 5 error_bound 1.6 "
                   "recursion_limit 1 low_error_factor 0.6 gray_threshold 0.1 brightness 1 }" if self.radiosity else "")
            ambient = "0" if self.radiosity else "0.35"
            out.append(f"global_settings {{ assumed_gamma 1.0 max_trace_level 6 ambient_light {ambient} {rad} }}")
            out.append(f"sky_sphere {{ pigment {{ gradient y color_map {{ [0 {rgb(self.room * 0.6)}] "
                       f"[1 {rgb(self.room)}] }} }} }}")
        else:
            out.append("global_settings { assumed_gamma 1.0 ambient_light 1 }")
            out.append("background { rgb 0 }")
        out.append(camera)
        out.append(CAMEL_MACRO)
        if mode == "photo":
            out.append(self.lights)
        for k, piece in enumerate(self.camels):
            texture = id_texture(k + 1) if mode != "photo" else self.paints[piece.name]
            tilt = np.array([np.sin(piece.tilt[0]), np.sin(piece.tilt[1]), 1.0])
            forward = np.array([np.cos(piece.facing), np.sin(piece.facing), 0.0])
            body = (f"object {{ Camel({self.table.scale:.4f}) texture {{ {texture} }} "
                    f"{frame(piece.base, forward, tilt)} }}")
            out.append(f"#if (frame_number = {k + 1}) {body} #end" if mode == "alone" else body)
        if mode == "alone":
            return "\n".join(out) + "\n"
        out.append(self._table(mode))
        out.append(self._board(mode))
        out += [self._marker(m, mode) for m in self.table.markers]
        out += self.extras
        return "\n".join(out) + "\n"

    def _table(self, mode: str) -> str:
        x0, y0, x1, y1 = self.table.table_limits
        top = f"box {{ {pov((x0, y0, -30.0))}, {pov((x1, y1, 0.0))}"
        floor = "plane { y, -740 "
        if mode != "photo":
            return f"{top} texture {{ {id_texture(0)} }} }}\n{floor} texture {{ {id_texture(0)} }} }}"
        return f"{top} {self.surface} }}\n{floor} pigment {{ {rgb(self.room * 0.3)} }} finish {{ diffuse 0.6 }} }}"

    def _board(self, mode: str) -> str:
        lo, hi = BOARD_LO, BOARD_HI
        shape = f"box {{ {pov((lo, lo, 0.0))}, {pov((hi, hi, BOARD_TOP))}"
        place = turn_about(MIDDLE, self.board_turn, self.board_middle)
        if mode != "photo":
            return f"{shape} texture {{ {id_texture(0)} }} {place} }}"
        # the print on top (its image map laid with the board and moved with it), dark cardboard on the edges
        return (
            f"{shape} texture {{ pigment {{ rgb <0.06,0.035,0.02> }} }} "
            f"texture {{ pigment {{ image_map {{ png \"{self.board_image}\" once interpolate 2 }} "
            f"{decal_matrix((lo, lo), 0.0, hi - lo, BOARD_TOP)} }} normal {{ bumps 0.03 scale 0.6 }} "
            f"finish {{ diffuse 0.85 specular 0.12 roughness 0.04 }} }} {place} }}"
        )

    def _marker(self, m: Marker, mode: str) -> str:
        half = (m.size + 16.0) / 2
        x, y = float(m.centre[0]), float(m.centre[1])
        shape = f"box {{ {pov((x - half, y - half, 0.0))}, {pov((x + half, y + half, 0.12))}"
        place = turn_about(np.array([x, y, 0.0]), m.angle, np.array([x, y, 0.0]))
        if mode != "photo":
            return f"{shape} texture {{ {id_texture(MARKER_ID_BASE + m.marker_id)} }} {place} }}"
        return (f"{shape} texture {{ pigment {{ image_map {{ png \"{self.marker_images[m.marker_id]}\" "
                f"once interpolate 2 }} {decal_matrix((x - half, y - half), 0.0, 2 * half, 0.0)} }} "
                f"finish {{ diffuse 0.9 specular 0.05 roughness 0.1 }} }} {place} }}")


def turn_about(centre: np.ndarray, angle: float, to: np.ndarray) -> str:
    """A matrix turning the world by ``angle`` about ``centre`` (about the vertical) and moving ``centre`` to ``to``:
    world (x, y) -> (c x - s y, s x + c y), written for POV-Ray's <x, z, y>."""
    c, s = np.cos(angle), np.sin(angle)
    rot = np.array([[c, -s], [s, c]])
    t = np.asarray(to, float)[:2] - rot @ np.asarray(centre, float)[:2]
    return f"matrix <{c:.6f},0,{s:.6f}, 0,1,0, {-s:.6f},0,{c:.6f}, {t[0]:.4f},0,{t[1]:.4f}>"


def tex(body: str) -> str:
    """A prop's texture: ``body`` in the photo, black (no id) in the id passes."""
    return f"#if (IDPASS) texture {{ {id_texture(0)} }} #else texture {{ {body} }} #end"


def id_texture(number: int) -> str:
    return f"pigment {{ rgb <{number / 255:.6f},0,0> }} finish {{ ambient 1 diffuse 0 }}"


CAMEL_MACRO = """
#macro Camel(S)
union {
  cone { <-8,0,-3.6>, 1.6, <-7.6,9.5,-3.4>, 2.3 }
  cone { <-8,0,3.6>, 1.6, <-7.6,9.5,3.4>, 2.3 }
  cone { <7.5,0,-3.4>, 1.6, <7.2,9.5,-3.2>, 2.3 }
  cone { <7.5,0,3.4>, 1.6, <7.2,9.5,3.2>, 2.3 }
  sphere { 0, 1 scale <11.2,4.8,6.3> translate <0,12.8,0> }
  sphere { 0, 1 scale <6.6,5.4,5.4> translate <-1.6,16.2,0> }
  cone { <8.4,11.6,0>, 3.4, <13.0,19.0,0>, 2.2 }
  sphere { 0, 1 scale <4.6,2.6,2.6> translate <15.0,20.0,0> }
  sphere { 0, 1 scale <1.0,1.6,0.8> translate <12.8,22.0,-1.4> }
  sphere { 0, 1 scale <1.0,1.6,0.8> translate <12.8,22.0,1.4> }
  cylinder { <-10.6,14.4,0>, <-12.0,8.2,0>, 0.8 }
  scale S
}
#end
"""
