"""One table, set up as the README says: the board's edition and art, the camels' paint and size, the four
markers taped near their template places (up to 4 mm and 3 degrees off), the table top, the camera placed
within the README's numbers (side, distance, height, angle, margin, camel size) and each tier's light."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from benchmarks.independent.art import board_texture, jitter, to_linear
from benchmarks.independent.lighting import Light, kelvin_rgb
from benchmarks.independent.pieces import CAMEL_PAINT
from benchmarks.independent.rays import Camera

TEMPLATES = Path(__file__).resolve().parents[2] / "vision" / "templates"
BOARD_TOP = 2.0
MIDDLE = np.array([335.0, 335.0, 0.0])
WIDTH, HEIGHT = 1280, 720
MARGIN_PX = 40
CAMEL_PX = 15


@dataclass
class Marker:
    marker_id: int
    centre: np.ndarray
    """Where the middle of its black square really is (mm, on the table)."""
    angle: float
    size: float

    def square(self, steps: int = 2) -> np.ndarray:
        """Points across the black square (``steps`` a side; 2: its four corners), on the table."""
        s = np.linspace(-self.size / 2, self.size / 2, steps)
        c, n = np.cos(self.angle), np.sin(self.angle)
        pts = [(self.centre[0] + c * u - n * v, self.centre[1] + n * u + c * v, 0.0) for v in s for u in s]
        return np.array(pts)


@dataclass
class Table:
    seed: int
    edition: str
    spaces: dict[int, list[list[float]]]
    paint: dict[str, np.ndarray]
    """Each camel's linear RGB paint at this table."""
    scale: float
    """The camels' size against the usual 30 x 14 x 22 mm."""
    step: float
    """How much higher a stacked camel stands (18 to 20 mm)."""
    markers: list[Marker]
    surface: str
    board_art: np.ndarray
    camera: Camera
    lights: dict[str, Light]
    palm_at: np.ndarray
    skin: np.ndarray
    background: np.ndarray
    table_limits: tuple[float, float, float, float]
    pose: dict[str, float] = field(default_factory=dict)

    def centre(self, space: int) -> np.ndarray:
        corners = np.asarray(self.spaces[space], float)
        return np.array([*corners.mean(axis=0), 0.0])

    def heading(self, space: int) -> float:
        """The direction of the race (clockwise: 1 to 16) at a space, as an angle in the board's plane."""
        nxt = space % 16 + 1
        d = self.centre(nxt) - self.centre(space)
        return float(np.arctan2(d[1], d[0]))


def load_template(edition: str) -> dict:
    return json.loads((TEMPLATES / f"board-{edition}.json").read_text())


def place_camera(
    rng: np.random.Generator, spaces: dict[int, list[list[float]]], markers: list[Marker], lean: float = 0.0
) -> tuple[Camera, dict[str, float]]:
    """A camera on the side of spaces 9 to 13 within the README's numbers, tried until the markers have their
    40 px of room and every camel is at least 15 px tall (what the placement assistant asks a builder for). Most
    tables find one within a hundred tries, a few take more (seed 85's first table: 430, where 400 used to stop
    the bench); the tries come in the same order whatever their number, so a table found within fewer is
    unchanged."""
    for _ in range(4000):
        yaw = np.radians(rng.uniform(-25, 25))
        tilt = np.radians(rng.uniform(35, 60))
        distance = rng.uniform(650, 900)
        hfov = np.radians(rng.uniform(52, 95))  # webcams and the Camera Module 3 to its wide model
        f = WIDTH / 2 / np.tan(hfov / 2)
        eye = MIDDLE + distance * np.array([np.sin(yaw) * np.cos(tilt), np.cos(yaw) * np.cos(tilt), np.sin(tilt)])
        target = MIDDLE + np.array([*rng.uniform(-30, 30, 2), 0.0])
        k1 = rng.uniform(-0.25, 0.02)
        cam = Camera.looking_at(
            WIDTH,
            HEIGHT,
            f,
            eye,
            target,
            np.radians(rng.normal(0, 1.2) + lean),
            k1=k1,
            k2=rng.uniform(0, 0.06) if k1 < -0.1 else 0.0,
            principal=(WIDTH / 2 + rng.normal(0, 12), HEIGHT / 2 + rng.normal(0, 10)),
        )
        if not lens_unfolds(cam):
            continue
        corners = np.concatenate([m.square() for m in markers])
        px, depth = cam.project(corners)
        if np.any(depth <= 0):
            continue
        room = min(px[:, 0].min(), px[:, 1].min(), WIDTH - 1 - px[:, 0].max(), HEIGHT - 1 - px[:, 1].max())
        if room < MARGIN_PX:
            continue
        feet = np.array([[*np.mean(c, axis=0), BOARD_TOP] for c in spaces.values()])
        heads = feet + np.array([0, 0, 22.0])
        tall = np.linalg.norm(cam.project(feet)[0] - cam.project(heads)[0], axis=1)
        if tall.min() < CAMEL_PX:
            continue
        pose = {
            "distance_mm": float(distance),
            "height_mm": float(eye[2]),
            "angle_deg": float(np.degrees(tilt)),
            "yaw_deg": float(np.degrees(yaw)),
            "hfov_deg": float(np.degrees(hfov)),
            "k1": float(k1),
            "margin_px": float(room),
            "camel_px_min": float(tall.min()),
        }
        return cam, pose
    raise RuntimeError("no camera place within the README's numbers found")


def lens_unfolds(cam: Camera) -> bool:
    """Whether the lens's distortion grows steadily out to the picture's corners (a strong barrel term with a
    wide view folds back on itself: no real lens does that, and the picture's edge would show a mirror)."""
    cx, cy = cam.pp
    corner = max(np.hypot(x - cx, y - cy) for x in (0, cam.width) for y in (0, cam.height)) / cam.f
    r = np.linspace(0, 3 * corner, 3000)
    bent = r * (1 + cam.k1 * r**2 + cam.k2 * r**4)
    slope = 1 + 3 * cam.k1 * r**2 + 5 * cam.k2 * r**4
    reach = np.nonzero(bent >= corner)[0]
    return reach.size > 0 and bool(np.all(slope[: reach[0] + 1] > 0.3))


def neutral_light() -> Light:
    white = kelvin_rgb(6500)
    return Light(MIDDLE + np.array([0, 120.0, 1500.0]), white, white, 0.45, 2.5, 0.0, 0.3)


def table_light(rng: np.random.Generator) -> Light:
    where = rng.uniform(0, 2 * np.pi)
    reach = rng.uniform(0, 700)
    lamp = MIDDLE + np.array([reach * np.cos(where), reach * np.sin(where), rng.uniform(700, 1700)])
    return Light(
        lamp,
        kelvin_rgb(rng.uniform(2700, 5500)),
        kelvin_rgb(rng.uniform(5000, 8000)),
        float(rng.uniform(0.12, 0.5)),
        float(rng.uniform(1.5, 6.0)),
        float(rng.uniform(0, 4)),
        float(rng.uniform(0.3, 1.2)),
    )


def make_table(seed: int, edition: str, camels: list[str]) -> Table:
    rng = np.random.default_rng([seed, 7919])
    template = load_template(edition)
    spaces = {int(k): v for k, v in template["spaces"].items()}
    size = float(template["marker_size"])
    markers = []
    for key, (x, y) in template["markers"].items():
        offset = rng.uniform(-1, 1, 2) * 4 / np.sqrt(2)
        markers.append(
            Marker(
                int(key),
                np.array([x + size / 2 + offset[0], y + size / 2 + offset[1], 0.0]),
                float(np.radians(rng.uniform(-3, 3))),
                size,
            )
        )
    brightness = rng.uniform(0.85, 1.1)
    paint = {name: to_linear(np.array(jitter(rng, CAMEL_PAINT[name], 10))) * brightness for name in camels}
    camera, pose = place_camera(rng, spaces, markers)
    near = MIDDLE[1] + rng.uniform(450, 800)
    limits = (
        float(MIDDLE[0] - rng.uniform(500, 900)),
        float(MIDDLE[1] - rng.uniform(500, 900)),
        float(MIDDLE[0] + rng.uniform(500, 900)),
        float(near),
    )
    corner = [(250.0, 250.0), (420.0, 250.0), (420.0, 420.0), (250.0, 420.0)][int(rng.integers(4))]
    skin = to_linear(np.array(jitter(rng, [(230, 190, 160), (190, 140, 100), (120, 80, 55)][int(rng.integers(3))], 10)))
    return Table(
        seed=seed,
        edition=edition,
        spaces=spaces,
        paint=paint,
        scale=float(rng.uniform(0.95, 1.05)),
        step=float(rng.uniform(18, 20)),
        markers=markers,
        surface=["wood", "cloth", "laminate"][int(rng.integers(3))],
        board_art=board_texture(spaces, rng),
        camera=camera,
        lights={"clean": neutral_light(), "light": table_light(rng)},
        palm_at=np.array([*corner, BOARD_TOP]),
        skin=skin,
        background=to_linear(np.array(jitter(rng, (120, 115, 105), 30))),
        table_limits=limits,
        pose=pose,
    )
