"""Photo-like scenes of a Camel Up table, independent of the reader: 3D camels shaped like the game's pieces,
the pyramid and the palm tree, hands and arms, tiles, cards, coins and phones, a lamp with soft shadows and
glare, a pinhole camera with radial distortion placed as the README says, and a small camera's processing.

A :class:`Table` holds what stays the same at one table (the camels' paint, the lamp, the table top, the board's
print, where the markers were taped, the camera and its lens); :func:`render_scene` photographs one board on
it. Everything is seeded: the same table seed, scene seed and tier give the same picture.

Tiers (:data:`TIERS`): ``clean`` (neutral light, a perfect exposure, no noise), ``light`` (the table's own lamp
and light, the camera's errors and noise, tiles on the board), ``props`` (as ``light``, plus the pyramid, the
palm tree, cards, coins and phones, and a hand over the board in about 15% of scenes).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision import guidance, shapes
from vision.board import BoardTemplate, load_template
from vision.optics import SRGB_TO_LINEAR, Exposure, Lighting, develop, shade
from vision.raster import Canvas, Mesh, PinholeCamera, look_at, make_canvas, rasterize
from vision.surfaces import (
    BoardStyle,
    TableTop,
    Tape,
    Texture,
    board_rect,
    board_texture,
    draw_prop,
    draw_tile,
    marker_corners,
    tape_marker,
)
from vision.synth import EDITION_CAMELS

TIERS = ("clean", "light", "props")
FRAME_SIZE = (1280, 720)
GUIDANCE_MARGIN_PX = guidance.MARGIN_PX
HAND_SHARE = 0.15
CRAZY = ("black", "white")
PAINT = {
    "blue": (190, 95, 30), "green": (60, 150, 40), "orange": (30, 120, 240), "yellow": (40, 205, 245),
    "white": (222, 232, 235), "red": (35, 35, 200), "purple": (140, 50, 120), "black": (35, 33, 35),
}
"""The camels' paint (sRGB, BGR) before each table's own variation."""
LENSES = {
    "Pi Camera Module 3": (66.0, (-0.06, 0.03)),
    "Pi Camera Module 2": (62.2, (-0.04, 0.04)),
    "USB webcam": (70.0, (-0.16, 0.02)),
    "Pi Camera Module 3 Wide": (102.0, (-0.30, -0.16)),
}
"""Horizontal field of view (degrees) and the range of k1 of each kind of camera."""
CAMEL_ID, PROP_ID = 1, 100


def camel_object(edition: str, camel: str) -> int:
    return CAMEL_ID + EDITION_CAMELS[edition].index(camel)


def _linear(bgr: tuple[int, int, int]) -> np.ndarray:
    return SRGB_TO_LINEAR[np.asarray(bgr, np.int64)]


def _paint(rng: random.Random, camel: str) -> np.ndarray:
    """This table's paint of one camel: hue, saturation and lightness a little off the usual."""
    hsv = cv2.cvtColor(np.uint8([[PAINT[camel]]]), cv2.COLOR_BGR2HSV)[0, 0].astype(float)
    hsv[0] = (hsv[0] + rng.uniform(-4, 4)) % 180
    hsv[1] = np.clip(hsv[1] * rng.uniform(0.8, 1.12), 0, 255)
    hsv[2] = np.clip(hsv[2] * rng.uniform(0.85, 1.08), 0, 255)
    bgr = cv2.cvtColor(np.uint8([[hsv]]), cv2.COLOR_HSV2BGR)[0, 0]
    return _linear(tuple(int(c) for c in bgr))


@dataclass
class Table:
    """What stays the same at one table."""

    seed: int
    edition: str
    template: BoardTemplate
    camera: PinholeCamera
    pose: dict[str, Any]
    canvas: Canvas
    paint: dict[str, np.ndarray]
    camel_gloss: float
    shape: shapes.CamelShape
    style: BoardStyle
    board: Texture
    table: Texture
    near: Texture
    """The table top around the board, finer (markers not on the board are taped here)."""
    surface: str
    tapes: dict[int, Tape]
    markers_on_board: bool
    lighting: Lighting
    pyramid: tuple[float, float, float] | None
    """x, y, turn of the pyramid (2018) or the shaker (2014) when this table has it on or by the board."""
    palm: tuple[float, float] | None
    extras: dict[str, Any] = field(default_factory=dict)


def make_table(
    seed: int, edition: str = "2018", template: BoardTemplate | None = None, margin_px: float = GUIDANCE_MARGIN_PX
) -> Table:
    """A table set up as the README says (camera placement within its guidance), everything else random."""
    rng = random.Random(f"table/{seed}/{edition}")
    template = template or load_template(edition)
    style = BoardStyle.sample(rng, edition)
    tapes = {m: Tape(rng.uniform(-4, 4), rng.uniform(-4, 4), rng.uniform(-3, 3)) for m in template.markers}
    x0, y0, x1, y1 = board_rect(template, style)
    markers_on_board = x0 < 0
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2, 0.0])
    camera, pose = sample_camera(template, tapes, rng, margin_px)
    board = board_texture(template, style, rng)
    top = TableTop.sample(rng)
    surface = top.kind
    table = top.texture((float(centre[0]) - 2000, float(centre[1]) - 1500), (4000, 3000), 0.5)
    reach = max(template.size) + 150
    near = top.texture((min(x0, 0.0) - 150, min(y0, 0.0) - 150), (max(x1, reach) - min(x0, 0.0) + 150,) * 2, 2.5)
    paper = tuple(int(c) for c in np.clip(np.array([240, 245, 248]) * rng.uniform(0.88, 1.0), 0, 255))
    for marker, tape in tapes.items():
        tape_marker(board if markers_on_board else near, template, marker, tape, paper)
    pyramid = None
    if edition == "2018" or rng.random() < 0.6:
        inside = edition == "2018" or rng.random() < 0.5
        if inside:
            pyramid = (float(centre[0] + rng.uniform(-25, 25)), float(centre[1] + rng.uniform(-25, 25)),
                       rng.uniform(0, np.pi / 2))
        else:
            pyramid = (float(rng.choice([x0 - 130, x1 + 130])), float(centre[1] + rng.uniform(-150, 150)),
                       rng.uniform(0, np.pi / 2))
    palm = None
    if edition == "2018" and rng.random() < 0.6:
        corner = rng.choice([(-1, -1), (1, -1), (-1, 1), (1, 1)])
        palm = (float(centre[0] + corner[0] * rng.uniform(85, 100)),
                float(centre[1] + corner[1] * rng.uniform(85, 100)))
    return Table(
        seed, edition, template, camera, pose, make_canvas(camera),
        {camel: _paint(rng, camel) for camel in EDITION_CAMELS[edition]}, rng.uniform(0.02, 0.15),
        shapes.CamelShape.sample(rng), style, board, table, near, surface, tapes, markers_on_board,
        Lighting.sample(rng, centre), pyramid, palm,
    )


def sample_camera(
    template: BoardTemplate, tapes: dict[int, Tape], rng: random.Random, margin_px: float
) -> tuple[PinholeCamera, dict[str, Any]]:
    """A camera placed as the README says: on the side of spaces 9 to 13, 65 to 90 cm from the board's middle,
    35° to 60° down, within 25° of straight on, the whole board and all four markers in the picture with
    ``margin_px`` of room, and the board filling most of the picture (a builder moves the camera until it does)."""
    width, height = FRAME_SIZE
    corners = np.array([(x, y, 0.0) for m, tape in tapes.items() for x, y in marker_corners(template, m, tape)])
    middle = corners.mean(axis=0)
    for _ in range(2000):
        lens = rng.choice(list(LENSES))
        fov, k1_range = LENSES[lens]
        distance = rng.uniform(*guidance.DISTANCE_MM)
        elevation = rng.uniform(*guidance.ELEVATION_DEG)
        azimuth = rng.uniform(-guidance.AZIMUTH_DEG, guidance.AZIMUTH_DEG)
        el, az = np.radians(elevation), np.radians(azimuth)
        position = middle + distance * np.array([np.sin(az) * np.cos(el), np.cos(az) * np.cos(el), -np.sin(el)])
        target = middle + np.array([rng.uniform(-40, 40), rng.uniform(-40, 40), 0])
        rotation = look_at(position, target, rng.uniform(-3, 3))
        focal = width / 2 / np.tan(np.radians(fov) / 2) * rng.uniform(0.97, 1.03)
        matrix = np.array([[focal, 0, width / 2 + rng.uniform(-12, 12)],
                           [0, focal * rng.uniform(0.997, 1.003), height / 2 + rng.uniform(-8, 8)], [0, 0, 1]])
        distortion = np.array([rng.uniform(*k1_range), rng.uniform(-0.02, 0.05), rng.uniform(-0.001, 0.001),
                               rng.uniform(-0.001, 0.001), 0.0])
        camera = PinholeCamera(matrix, distortion, rotation, -rotation @ position, FRAME_SIZE)
        pixels = camera.project(corners)
        room = _room(pixels, FRAME_SIZE)
        fills = np.ptp(pixels[:, 0]) / width
        if room >= margin_px and fills >= 0.6:
            pose = {"lens": lens, "distance_mm": round(distance, 1), "elevation_deg": round(elevation, 2),
                    "azimuth_deg": round(azimuth, 2), "margin_px": round(float(room), 1),
                    "fills": round(float(fills), 3)}
            return camera, pose
    raise RuntimeError("no camera placement within the guidance fits this board")


def _room(pixels: np.ndarray, size: tuple[int, int]) -> float:
    """How far the points are from the picture's nearest edge (negative: outside)."""
    width, height = size
    return float(min(pixels[:, 0].min(), pixels[:, 1].min(), width - 1 - pixels[:, 0].max(),
                     height - 1 - pixels[:, 1].max()))


@dataclass
class _Scene:
    mesh: Mesh = field(default_factory=Mesh)
    camels: dict[str, dict[str, Any]] = field(default_factory=dict)
    parts: dict[str, list[tuple[np.ndarray, np.ndarray]]] = field(default_factory=dict)


def _heading(template: BoardTemplate, space: int) -> float:
    """The direction the racing camels run from ``space``: towards the next space."""
    here = np.array(template.space_centre(space))
    ahead = np.array(template.space_centre(space % 16 + 1))
    return float(np.arctan2(*(ahead - here)[::-1]))


def _add_camels(scene: _Scene, table: Table, track: dict[int, list[str]], rng: random.Random, anywhere: bool) -> None:
    shape = table.shape
    for space, stack in track.items():
        cx, cy = table.template.space_centre(space)
        reach = 22.0 if anywhere else 7.0
        base = np.array([cx + rng.uniform(-reach, reach), cy + rng.uniform(-reach, reach)])
        heading = _heading(table.template, space) + np.radians(rng.uniform(-30, 30) if anywhere else rng.uniform(-6, 6))
        for level, camel in enumerate(stack):
            offset = base + (np.array([rng.uniform(-2.5, 2.5), rng.uniform(-2.5, 2.5)]) if level else 0)
            if not anywhere:
                offset = np.clip(offset, np.array([cx, cy]) - 9, np.array([cx, cy]) + 9)
            facing = heading + (np.pi if table.edition == "2018" and camel in CRAZY else 0) + np.radians(
                rng.uniform(-4, 4) * (level > 0))
            parts = [(shapes.place(p, offset[0], offset[1], facing, level * shape.stack_step), f)
                     for p, f in shapes.camel(shape)]
            obj = camel_object(table.edition, camel)
            for points, faces in parts:
                jitter = np.array([rng.uniform(0.96, 1.04) for _ in range(len(faces))], np.float32)[:, None]
                scene.mesh.add(points, faces, table.paint[camel] * jitter, obj, table.camel_gloss)
            scene.parts[camel] = parts
            scene.camels[camel] = {"space": space, "level": level, "at_mm": [round(float(v), 1) for v in offset],
                                   "heading_deg": round(float(np.degrees(facing)), 1)}


def _add_props(scene: _Scene, table: Table, rng: random.Random) -> None:
    if table.pyramid is not None:
        x, y, turn = table.pyramid
        if table.edition == "2018":
            parts, colour = shapes.pyramid_2018(rng.uniform(150, 170), rng.uniform(190, 210)), (90, 160, 215)
        else:
            parts, colour = shapes.shaker_2014(rng.uniform(150, 170), rng.uniform(120, 140)), (120, 150, 170)
        for points, faces in parts:
            scene.mesh.add(shapes.place(points, x, y, turn), faces, _linear(colour), PROP_ID, 0.1)
    if table.palm is not None:
        x, y = table.palm
        for pieces, name in shapes.palm_tree(random.Random(table.seed), 230):
            colour = (40, 75, 110) if name == "trunk" else (40, 120, 50)
            for points, faces in pieces:
                scene.mesh.add(shapes.place(points, x, y, 0.0), faces, _linear(colour), PROP_ID + 1, 0.05)


def _add_hand(scene: _Scene, table: Table, rng: random.Random) -> int:
    """An arm reaching over the board towards a space; which space."""
    template = table.template
    space = rng.randint(1, 16)
    cx, cy = template.space_centre(space)
    target = np.array([cx + rng.uniform(-30, 30), cy + rng.uniform(-30, 30), rng.uniform(35, 130)])
    middle = np.array([*np.mean([template.space_centre(s) for s in template.spaces], axis=0), 0.0])
    angle = rng.uniform(0, 2 * np.pi)
    shoulder = middle + np.array([np.cos(angle) * 600, np.sin(angle) * 600, 0]) + (0, 0, rng.uniform(220, 320))
    skin = _linear(rng.choice([(150, 180, 230), (110, 150, 205), (70, 110, 160), (45, 70, 110), (170, 195, 240)]))
    sleeve = _linear(rng.choice([(40, 40, 40), (160, 90, 40), (200, 200, 200), (60, 60, 150), (70, 120, 60)]))
    for pieces, name in shapes.arm(rng, target, shoulder):
        for points, faces in pieces:
            scene.mesh.add(shapes.place(points, 0, 0, 0), faces, skin if name == "skin" else sleeve, PROP_ID + 2, 0.03)
    return space


def _add_board_edges(scene: _Scene, table: Table) -> None:
    x0, y0, x1, y1 = board_rect(table.template, table.style)
    t = table.style.thickness_mm
    ring = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    colour = _linear((60, 80, 100))
    for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1], strict=True):
        for k in range(12):
            s0, s1 = k / 12, (k + 1) / 12
            p0 = (ax + (bx - ax) * s0, ay + (by - ay) * s0)
            p1 = (ax + (bx - ax) * s1, ay + (by - ay) * s1)
            quad = np.array([(*p0, 0), (*p1, 0), (*p1, t), (*p0, t)], float)
            scene.mesh.add(quad, np.array([(0, 1, 2), (0, 2, 3)]), colour, PROP_ID + 3)


def _on_track_or_marker(table: Table, x: float, y: float, radius: float) -> bool:
    template = table.template
    for corners in template.spaces.values():
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        if min(xs) - radius < x < max(xs) + radius and min(ys) - radius < y < max(ys) + radius:
            return True
    for marker, tape in table.tapes.items():
        centre = marker_corners(template, marker, tape).mean(axis=0)
        if np.hypot(x - centre[0], y - centre[1]) < radius + template.marker_size * 0.75 + 10:
            return True
    return False


def _dress(table: Table, track: dict[int, list[str]], rng: random.Random, tier: str) -> tuple[Texture, Texture, dict]:
    """This scene's board and table tops: tiles on empty spaces; cards, coins and phones (``props`` tier)."""
    board = Texture(table.board.image.copy(), table.board.origin, table.board.px_per_mm)
    top = Texture(table.near.image.copy(), table.near.origin, table.near.px_per_mm)
    tiles: dict[int, str] = {}
    if tier != "clean":
        empty = [s for s in table.template.spaces if s not in track and s != 1]
        sides = ("oasis", "mirage") if table.edition == "2014" else ("cheer", "boo")
        for space in rng.sample(empty, min(len(empty), rng.choice([0, 0, 1, 2, 3]))):
            tiles[space] = rng.choice(sides)
            cx, cy = table.template.space_centre(space)
            draw_tile(board, (cx + rng.uniform(-5, 5), cy + rng.uniform(-5, 5)), rng.uniform(55, 68),
                      np.radians(rng.uniform(-8, 8)), tiles[space], rng)
    props = []
    if tier == "props":
        x0, y0, x1, y1 = board_rect(table.template, table.style)
        for kind in ["card"] * rng.randint(2, 8) + ["coin"] * rng.randint(2, 12) + ["phone"] * rng.randint(0, 2):
            radius = {"card": 41, "coin": 13, "phone": 84}[kind]
            for _ in range(20):
                x = rng.uniform(top.origin[0] + radius, top.origin[0] + top.image.shape[1] / top.px_per_mm - radius)
                y = rng.uniform(top.origin[1] + radius, top.origin[1] + top.image.shape[0] / top.px_per_mm - radius)
                if not _on_track_or_marker(table, x, y, radius):
                    on_board = x0 + radius < x < x1 - radius and y0 + radius < y < y1 - radius
                    crosses = not on_board and (x0 - radius < x < x1 + radius and y0 - radius < y < y1 + radius)
                    if not crosses:
                        draw_prop(board if on_board else top, kind, (x, y), rng.uniform(0, np.pi), rng)
                        props.append(kind)
                        break
    return board, top, {"tiles": {str(s): side for s, side in sorted(tiles.items())}, "props": props}


def _homography(matrix: np.ndarray, camera: PinholeCamera, z: float, texture: Texture) -> np.ndarray:
    """Texture pixels on the plane at world ``z`` to canvas pixels."""
    r, t = camera.rotation, camera.translation
    return matrix @ np.column_stack([r[:, 0], r[:, 1], r[:, 2] * z + t]) @ texture.to_world()


def _layer(texture: Texture, matrix: np.ndarray, camera: PinholeCamera, z: float, size: tuple[int, int],
           border: int = cv2.BORDER_CONSTANT) -> np.ndarray:
    """A flat texture at world ``z`` as the canvas sees it, linear BGR."""
    warped = cv2.warpPerspective(texture.image, _homography(matrix, camera, z, texture), size, flags=cv2.INTER_LINEAR,
                                 borderMode=border)
    return cv2.LUT(warped, SRGB_TO_LINEAR)


def _cover(texture: Texture, matrix: np.ndarray, camera: PinholeCamera, z: float, size: tuple[int, int]) -> np.ndarray:
    """Where the texture is in the canvas (0 to 1, smooth at its edges)."""
    ones = np.ones(texture.image.shape[:2], np.float32)
    ones[[0, -1], :] = 0
    ones[:, [0, -1]] = 0
    return cv2.warpPerspective(ones, _homography(matrix, camera, z, texture), size, flags=cv2.INTER_LINEAR)


@dataclass(frozen=True)
class _ShadowMap:
    matrix: np.ndarray
    rotation: np.ndarray
    translation: np.ndarray
    inverse_depth: np.ndarray

    def lit(self, points: np.ndarray, bias: float = 2.5) -> np.ndarray:
        """1 where the lamp sees a point, 0 where something is between them (averaged over 5 taps)."""
        cam = points @ self.rotation.T + self.translation
        z = cam[:, 2]
        u = self.matrix[0, 0] * cam[:, 0] / z + self.matrix[0, 2]
        v = self.matrix[1, 1] * cam[:, 1] / z + self.matrix[1, 2]
        size = self.inverse_depth.shape[0]
        total = np.zeros(len(points), np.float32)
        for du, dv in ((0, 0), (1.2, 0), (-1.2, 0), (0, 1.2), (0, -1.2)):
            iu = np.clip(np.round(u + du).astype(np.int64), 0, size - 1)
            iv = np.clip(np.round(v + dv).astype(np.int64), 0, size - 1)
            occluder = self.inverse_depth[iv, iu]
            total += occluder * (z - bias) <= 1.0
        return total / 5


def _shadow_map(lighting: Lighting, mesh: Mesh, centre: np.ndarray, size: int = 1024) -> _ShadowMap:
    position = lighting.lamp_position
    rotation = look_at(position, centre)
    translation = -rotation @ position
    distance = float(np.linalg.norm(centre - position))
    focal = size / 2 / (650 / distance)
    matrix = np.array([[focal, 0, size / 2], [0, focal, size / 2], [0, 0, 1]])
    raster = rasterize(matrix, rotation, translation, (size, size), mesh)
    return _ShadowMap(matrix, rotation, translation, raster.inverse_depth)


def _light_picture(
    table: Table, mesh: Mesh, board: Texture, top: Texture, lighting: Lighting
) -> tuple[np.ndarray, np.ndarray]:
    """The canvas's light (linear BGR) and which object each pixel shows (0: board or table)."""
    camera, canvas = table.camera, table.canvas
    matrix, (width, height) = canvas.matrix, canvas.size
    raster = rasterize(matrix, camera.rotation, camera.translation, canvas.size, mesh)
    centre = np.array([*np.mean([table.template.space_centre(s) for s in table.template.spaces], axis=0), 0.0])
    shadows = _shadow_map(lighting, mesh, centre)
    camera_at = camera.position
    to_centre = np.linalg.norm(lighting.lamp_position - centre) / 1000
    lamp_scale = to_centre**2 / max(0.2, (centre - lighting.lamp_position)[2] / (to_centre * 1000))

    # Board and table: albedo at full resolution, light at a third (it varies slowly; shadows are soft anyway).
    size = (width, height)
    ground = _layer(table.table, matrix, camera, table.style.thickness_mm, size, cv2.BORDER_REFLECT)
    z = table.style.thickness_mm
    near, cover = _layer(top, matrix, camera, z, size), _cover(top, matrix, camera, z, size)
    ground += (near - ground) * cover[:, :, None]
    printed, cover = _layer(board, matrix, camera, 0.0, size), _cover(board, matrix, camera, 0.0, size)
    ground += (printed - ground) * cover[:, :, None]
    step = 3
    half = (width // step, height // step)
    vs, us = np.mgrid[0 : half[1], 0 : half[0]].astype(np.float64) * step + (step - 1) / 2
    rays = np.stack([(us.ravel() - matrix[0, 2]) / matrix[0, 0], (vs.ravel() - matrix[1, 2]) / matrix[1, 1],
                     np.ones(us.size)], axis=1) @ camera.rotation
    reach = -camera_at[2] / rays[:, 2]
    points = camera_at + rays * np.where(reach > 0, reach, 1e4)[:, None]
    up = np.broadcast_to(np.array([0.0, 0.0, -1.0]), points.shape)
    lit = shadows.lit(points + up).reshape(half[1], half[0])
    lit = cv2.GaussianBlur(lit, (0, 0), max(0.5, lighting.lamp_softness_px / step))
    irradiance, glint = shade(lighting, points, up, lit.ravel(), table.style.shininess, camera_at, lamp_scale)
    irradiance = cv2.resize(irradiance.reshape(half[1], half[0], 3), size, interpolation=cv2.INTER_LINEAR)
    glint = cv2.resize(glint.reshape(half[1], half[0], 3), size, interpolation=cv2.INTER_LINEAR)
    gloss = {"wood": 0.06, "cloth": 0.0, "laminate": 0.15}[table.surface]
    gloss_map = (gloss + (table.style.gloss - gloss) * cover)[:, :, None]
    picture = ground * irradiance + glint * gloss_map

    objects = np.zeros((height, width), np.int32)
    ys, xs = np.nonzero(raster.face >= 0)
    if len(ys):
        faces = raster.face[ys, xs]
        z = 1 / raster.inverse_depth[ys, xs].astype(np.float64)
        cam = np.stack([(xs - matrix[0, 2]) / matrix[0, 0] * z, (ys - matrix[1, 2]) / matrix[1, 1] * z, z], axis=1)
        world = (cam - camera.translation) @ camera.rotation
        normals = mesh.normals()[faces]
        normals *= np.where(np.sum(normals * (camera_at - world), axis=1) < 0, -1.0, 1.0)[:, None]
        lit_objects = shadows.lit(world + normals * 1.5, bias=3.0)
        irradiance, glint = shade(lighting, world, normals, lit_objects, 18.0, camera_at, lamp_scale)
        picture[ys, xs] = mesh.colours[faces] * irradiance + glint * mesh.gloss[faces][:, None]
        objects[ys, xs] = mesh.objects[faces]
    return picture, objects


def render_scene(
    table: Table,
    track: dict[int, list[str]],
    seed: int,
    tier: str = "light",
    *,
    anywhere: bool = False,
    hand: bool | None = None,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Photograph ``track`` (space → camels bottom first) on ``table``: the picture (BGR uint8, the table's
    frame size) and the truth about it. ``anywhere``: each camel anywhere on its space, turned up to 30°
    (as for a calibration photo), not within 9 mm of the middle. ``hand``: an arm over the board (True), none
    (False), or in :data:`HAND_SHARE` of the ``props`` tier's scenes (None)."""
    if tier not in TIERS:
        raise ValueError(f"tier {tier!r}: choose one of {', '.join(TIERS)}")
    track = {int(space): list(stack) for space, stack in track.items() if stack}
    rng = random.Random(f"scene/{table.seed}/{table.edition}/{seed}/{tier}")
    scene = _Scene()
    _add_camels(scene, table, track, rng, anywhere)
    if tier == "props":
        _add_props(scene, table, rng)
    chance = rng.random()
    over = _add_hand(scene, table, rng) if (hand is None and tier == "props" and chance < HAND_SHARE) or hand else None
    _add_board_edges(scene, table)
    board, top, dressing = _dress(table, track, rng, tier)
    centre = np.array([*np.mean([table.template.space_centre(s) for s in table.template.spaces], axis=0), 0.0])
    lighting = Lighting.sample(rng, centre, neutral=True) if tier == "clean" else table.lighting
    picture, objects = _light_picture(table, scene.mesh, board, top, lighting)
    canvas = table.canvas
    frame = cv2.remap(picture, canvas.map_x, canvas.map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    exposure = Exposure(jpeg_quality=95) if tier == "clean" else Exposure.sample(rng)
    image = develop(frame, exposure, np.random.default_rng(rng.randrange(2**32)))
    truth = _truth(table, scene, track, objects, seed, tier)
    truth.update(dressing)
    truth["hand_over_space"] = over
    truth["exposure"] = {"defocus_px": round(exposure.defocus_px, 2), "shake_px": round(exposure.shake_px, 2),
                         "exposure_error_ev": round(exposure.exposure_error_ev, 3),
                         "jpeg_quality": exposure.jpeg_quality}
    return image, truth


def calibration_track(edition: str) -> dict[int, list[str]]:
    """One camel on each odd space, in the edition's order (the calibration photo's layout)."""
    return {1 + 2 * index: [camel] for index, camel in enumerate(EDITION_CAMELS[edition])}


def render_calibration(table: Table, seed: int, tier: str = "light") -> tuple[np.ndarray, dict[str, Any]]:
    """A calibration photo: one camel per odd space, each anywhere on its space."""
    return render_scene(table, calibration_track(table.edition), seed, "light" if tier == "props" else tier,
                        anywhere=True)


def _truth(table: Table, scene: _Scene, track: dict[int, list[str]], objects: np.ndarray, seed: int,
           tier: str) -> dict[str, Any]:
    canvas, camera = table.canvas, table.camera
    seen = np.where(canvas.in_frame, objects, -1)
    counts = np.bincount(seen[seen > 0].ravel(), minlength=PROP_ID + 4)
    camels = {}
    for camel, where in scene.camels.items():
        parts = scene.parts[camel]
        vertices = np.vstack([p for p, _ in parts])
        faces = np.vstack([f + sum(len(p) for p, _ in parts[:i]) for i, (_, f) in enumerate(parts)])
        single = Mesh()
        single.add(vertices, faces, (0, 0, 0), 1)
        alone_raster = rasterize(canvas.matrix, camera.rotation, camera.translation, canvas.size, single)
        alone = int((alone_raster.face >= 0).sum())
        visible = int(counts[camel_object(table.edition, camel)])
        pixels = camera.project(vertices)
        camels[camel] = {**where, "visible": round(visible / max(alone, 1), 3), "pixels": alone,
                         "height_px": round(float(np.ptp(pixels[:, 1])), 1)}
    markers = {}
    for marker, tape in table.tapes.items():
        corners = marker_corners(table.template, marker, tape)
        z = 0.0 if table.markers_on_board else table.style.thickness_mm
        world = np.column_stack([corners, np.full(4, z)])
        cam = world @ camera.rotation.T + camera.translation
        ideal = cam[:, :2] / cam[:, 2:3] * np.diag(canvas.matrix)[:2] + canvas.matrix[:2, 2]
        mask = np.zeros(objects.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(ideal * 16).astype(np.int32), 1, cv2.LINE_8, 4)
        inside = mask.astype(bool)
        clear = inside & canvas.in_frame & (objects == 0)
        pixels = camera.project(world)
        room = _room(pixels, camera.size)
        markers[str(marker)] = {"visible": round(float(clear.sum()) / max(int(inside.sum()), 1), 3),
                                "edge_px": round(float(room), 1), "corners_px": pixels.round(2).tolist(),
                                "tape": {"dx_mm": round(tape.dx, 2), "dy_mm": round(tape.dy, 2),
                                         "turn_deg": round(tape.turn, 2)}}
    spaces = {}
    for space, corners in table.template.spaces.items():
        cam = np.column_stack([np.array(corners), np.zeros(4)]) @ camera.rotation.T + camera.translation
        ideal = cam[:, :2] / cam[:, 2:3] * np.diag(canvas.matrix)[:2] + canvas.matrix[:2, 2]
        mask = np.zeros(objects.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(ideal * 16).astype(np.int32), 1, cv2.LINE_8, 4)
        inside = mask.astype(bool)
        # What hides a space is anything but the camels on the board (the pyramid, the palm tree, a hand).
        clear = inside & canvas.in_frame & ((objects < PROP_ID) | (objects == PROP_ID + 3))
        spaces[str(space)] = round(float(clear.sum()) / max(int(inside.sum()), 1), 3)
    occluders = {name: int(counts[PROP_ID + k]) if len(counts) > PROP_ID + k else 0
                 for k, name in enumerate(("pyramid", "palm_tree", "hand"))}
    return {
        "renderer": "photo",
        "occluders_px": occluders,
        "seed": seed,
        "table_seed": table.seed,
        "tier": tier,
        "edition": table.edition,
        "track": {str(space): list(stack) for space, stack in sorted(track.items())},
        "camels": camels,
        "markers": markers,
        "spaces_visible": spaces,
        "camera": {**camera.as_json(), **table.pose},
        "table": {"surface": table.surface, "markers_on_board": table.markers_on_board,
                  "pyramid": table.pyramid is not None and tier == "props",
                  "palm_tree": table.palm is not None and tier == "props"},
    }
