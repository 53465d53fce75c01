"""Light: one lamp (a point with a size, so its shadows are soft, through a shadow map with percentage-closer
filtering), a coloured ambient from the room, Blinn-Phong glare, and the lamp's fall-off across the table."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchmarks.independent.art import to_linear
from benchmarks.independent.rays import Camera, Hits, Shape, cast, sample, unit

SHADOW_PX = 1024


def kelvin_rgb(kelvin: float) -> np.ndarray:
    """A light's colour at a colour temperature (Tanner Helland's fit), linear RGB with unit luminance."""
    t = kelvin / 100
    r = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * np.log(t) - 161.12 if t <= 66 else 288.12 * (t - 60) ** -0.0755
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.52 * np.log(t - 10) - 305.04)
    rgb = to_linear(np.clip([r, g, b], 1, 255))
    return rgb / (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2])


@dataclass
class Light:
    lamp: np.ndarray
    """The lamp's position in mm."""
    lamp_colour: np.ndarray
    ambient_colour: np.ndarray
    ambient: float
    """The room's light relative to the lamp's at the board's middle."""
    softness: float
    """The shadow's blur radius in shadow-map pixels."""
    spot: float
    """How fast the lamp's beam falls off away from its axis (0: not at all)."""
    glare: float
    """Scales every surface's gloss."""


_SHADOW_CAMERAS: dict[tuple[float, ...], Camera] = {}


def shadow_camera(light: Light, centre: np.ndarray) -> Camera:
    key = (*light.lamp, *centre)
    if key not in _SHADOW_CAMERAS:
        if len(_SHADOW_CAMERAS) > 8:
            _SHADOW_CAMERAS.clear()
        _SHADOW_CAMERAS[key] = _shadow_camera(light, centre)
    return _SHADOW_CAMERAS[key]


def _shadow_camera(light: Light, centre: np.ndarray) -> Camera:
    reach = float(np.linalg.norm(light.lamp - centre))
    half_width = 700.0  # mm around the board's middle that can catch a shadow
    f = SHADOW_PX / 2 * reach / half_width
    return Camera.looking_at(SHADOW_PX, SHADOW_PX, f, light.lamp, centre)


def lit_fraction(
    points: np.ndarray, normals: np.ndarray, light: Light, cam: Camera, depth: Hits, rng: np.random.Generator
) -> np.ndarray:
    """How much of the lamp each point sees past the casters (0 to 1), by 12 jittered shadow-map taps."""
    px, _ = cam.project(points)
    dist = np.linalg.norm(points - light.lamp, axis=1)
    facing = np.clip(np.einsum("ij,ij->i", normals, unit(light.lamp - points)), 0.05, 1)
    texel = float(np.linalg.norm(light.lamp - points.mean(axis=0))) / cam.f
    bias = 1.2 + 1.5 * texel / facing
    lit = np.zeros(len(points), np.float32)
    taps = 12
    for k in range(taps):
        r = light.softness * np.sqrt((k + 0.5) / taps)
        a = k * 2.39996 + rng.uniform(0, 0.3)
        occluder = sample(depth.distance[..., None], px[:, 0] + r * np.cos(a), px[:, 1] + r * np.sin(a), (np.inf,))[
            :, 0
        ]
        lit += (dist <= occluder + bias).astype(np.float32)
    return lit / taps


def shade(
    camera: Camera,
    shapes: list[Shape],
    hits: Hits,
    light: Light,
    casters: list[Shape],
    centre: np.ndarray,
    background: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """The picture's linear radiance (h, w, 3) before the camera's own processing."""
    h, w = camera.height, camera.width
    image = np.empty((h, w, 3), np.float32)
    image[:] = background
    found = np.isfinite(hits.distance)
    rays = camera.rays()[found]
    points = camera.centre + rays * hits.distance[found][:, None]
    normals = hits.normal[found]
    index = hits.shape[found]
    albedo = np.empty((len(points), 3), np.float32)
    gloss = np.zeros(len(points), np.float32)
    for i in np.unique(index):
        sel = index == i
        albedo[sel] = shapes[i].paint(points[sel], normals[sel])
        gloss[sel] = shapes[i].gloss
    # normals face the camera (the inside of a thin shape seen edge-on)
    flip = np.einsum("ij,ij->i", normals, rays) > 0
    normals[flip] *= -1
    to_lamp = light.lamp - points
    reach = np.linalg.norm(to_lamp, axis=1)
    to_lamp /= reach[:, None]
    ref = float(np.linalg.norm(light.lamp - centre))
    axis = unit(centre - light.lamp)
    beam = np.clip(-(to_lamp @ axis), 0, 1) ** light.spot
    falloff = (ref / reach) ** 2 * beam
    cosine = np.clip(np.einsum("ij,ij->i", normals, to_lamp), 0, 1)
    shadow_cam = shadow_camera(light, centre)
    depth = cast(shadow_cam, casters)
    lit = lit_fraction(points, normals, light, shadow_cam, depth, rng)
    sky = light.ambient * (0.55 + 0.45 * np.clip(normals[:, 2], -1, 1))
    half = unit(to_lamp - rays)
    spec = light.glare * gloss * np.clip(np.einsum("ij,ij->i", normals, half), 0, 1) ** 40 * 4
    direct = (cosine * falloff * lit)[:, None] * light.lamp_colour[None, :]
    glint = (spec * falloff * lit)[:, None] * light.lamp_colour[None, :]
    image[found] = albedo * (direct + sky[:, None] * light.ambient_colour[None, :]) + glint
    return image
