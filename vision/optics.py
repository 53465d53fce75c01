"""Light and camera for the photo-like scenes: lamps with a colour temperature, then what a small camera does to
the light it gets (lens distortion, defocus, shake, vignetting, auto exposure, white balance, shot and read
noise, tone curve, sharpening, JPEG). Pictures are linear BGR float32 until :func:`develop`."""

from __future__ import annotations

import random
from dataclasses import dataclass

import cv2
import numpy as np

SRGB_TO_LINEAR = ((np.arange(256) / 255.0) ** 2.2).astype(np.float32)


def kelvin_bgr(kelvin: float) -> np.ndarray:
    """The colour of a black body (normalised to green = 1), BGR: warm below 5000 K, blue above 7000 K."""
    t = kelvin / 100
    red = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    green = 99.47 * np.log(t) - 161.12 if t <= 66 else 288.12 * (t - 60) ** -0.0755
    blue = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.52 * np.log(t - 10) - 305.04)
    rgb = (np.clip(np.array([blue, green, red]), 1, 255) / 255) ** 2.2
    return (rgb / rgb[1]).astype(np.float32)


@dataclass(frozen=True)
class Lighting:
    """A lamp (a point light with a size, so its shadows are soft), a second light without shadows (a window,
    the ceiling) and the room's ambient light, each with its own colour temperature."""

    lamp_position: np.ndarray
    lamp_colour: np.ndarray
    lamp_softness_px: float
    fill_direction: np.ndarray
    """Towards the fill light (world, unit)."""
    fill_colour: np.ndarray
    fill_strength: float
    ambient_colour: np.ndarray
    ambient: float

    @classmethod
    def sample(cls, rng: random.Random, centre: np.ndarray, neutral: bool = False) -> Lighting:
        if neutral:
            return cls(centre + np.array([0, 150.0, -1400]), kelvin_bgr(5500), 4.0,
                       np.array([0, 0, -1.0]), kelvin_bgr(5500), 0.2, kelvin_bgr(5500), 0.35)
        height = rng.uniform(700, 1900)
        offset = np.array([rng.uniform(-700, 700), rng.uniform(-700, 700)])
        lamp = centre + np.array([offset[0], offset[1], -height])
        direction = np.array([rng.uniform(-1, 1), rng.uniform(-1, 1), -rng.uniform(0.3, 1.0)])
        return cls(
            lamp, kelvin_bgr(rng.uniform(2600, 5200)), rng.uniform(2, 9),
            direction / np.linalg.norm(direction), kelvin_bgr(rng.uniform(5000, 8000)), rng.uniform(0.0, 0.55),
            kelvin_bgr(rng.uniform(3500, 7000)), rng.uniform(0.12, 0.35),
        )


def shade(
    lighting: Lighting,
    points: np.ndarray,
    normals: np.ndarray,
    lit: np.ndarray,
    shininess: float,
    camera_at: np.ndarray,
    lamp_scale: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Light falling on surface points (linear BGR, to multiply by the albedo: Lambert for every light, the
    lamp's part times ``lit``, 1 in light, 0 in shadow, soft between) and the lamp's Blinn-Phong glint (to
    multiply by the glossiness). ``normals`` face the camera."""
    to_lamp = lighting.lamp_position - points
    distance = np.linalg.norm(to_lamp, axis=1, keepdims=True)
    to_lamp /= distance
    falloff = lamp_scale / (distance[:, 0] / 1000) ** 2
    lambert = np.clip(np.sum(normals * to_lamp, axis=1), 0, None)
    fill = np.clip(normals @ lighting.fill_direction, 0, None) * lighting.fill_strength
    to_eye = camera_at - points
    to_eye /= np.linalg.norm(to_eye, axis=1, keepdims=True)
    half = to_lamp + to_eye
    half /= np.linalg.norm(half, axis=1, keepdims=True)
    glint = np.clip(np.sum(normals * half, axis=1), 0, None) ** shininess * (lambert > 0) * falloff * lit * 6
    irradiance = (
        (lambert * falloff * lit)[:, None] * lighting.lamp_colour
        + fill[:, None] * lighting.fill_colour
        + lighting.ambient * lighting.ambient_colour
    )
    return irradiance.astype(np.float32), (glint[:, None] * lighting.lamp_colour).astype(np.float32)


@dataclass(frozen=True)
class Exposure:
    """What the camera does to one picture."""

    defocus_px: float = 0.0
    shake_px: float = 0.0
    shake_angle: float = 0.0
    vignetting: float = 0.0
    exposure_error_ev: float = 0.0
    white_balance_error: tuple[float, float, float] = (1.0, 1.0, 1.0)
    white_balance_strength: float = 0.0
    """How much of the light's colour the camera's auto white balance takes out (1: all of it)."""
    shot_noise: float = 0.0
    read_noise: float = 0.0
    sharpen: float = 0.0
    jpeg_quality: int = 95

    @classmethod
    def sample(cls, rng: random.Random) -> Exposure:
        return cls(
            defocus_px=rng.choice([0.0, rng.uniform(0.3, 1.2)]),
            shake_px=rng.choice([0.0, 0.0, rng.uniform(1, 3)]),
            shake_angle=rng.uniform(0, np.pi),
            vignetting=rng.uniform(0.0, 0.45),
            exposure_error_ev=rng.uniform(-0.35, 0.35),
            white_balance_error=tuple(float(np.exp(rng.gauss(0, 0.06))) for _ in range(3)),
            white_balance_strength=rng.uniform(0.4, 0.95),
            shot_noise=rng.uniform(0.0005, 0.006),
            read_noise=rng.uniform(0.001, 0.008),
            sharpen=rng.choice([0.0, rng.uniform(0.2, 1.0)]),
            jpeg_quality=rng.randint(60, 95),
        )


def develop(linear: np.ndarray, exposure: Exposure, rng: np.random.Generator) -> np.ndarray:
    """The camera's processing of the light it got (already through the lens): BGR uint8 after JPEG."""
    image = linear
    if exposure.defocus_px > 0.2:
        image = cv2.GaussianBlur(image, (0, 0), exposure.defocus_px)
    if exposure.shake_px >= 1:
        length = int(np.ceil(exposure.shake_px)) * 2 + 1
        kernel = np.zeros((length, length), np.float32)
        c = length // 2
        dx, dy = np.cos(exposure.shake_angle) * exposure.shake_px, np.sin(exposure.shake_angle) * exposure.shake_px
        cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1, cv2.LINE_AA)
        image = cv2.filter2D(image, -1, kernel / kernel.sum())
    height, width = image.shape[:2]
    if exposure.vignetting > 0:
        ys, xs = np.ogrid[0:height, 0:width]
        r2 = ((xs - width / 2) ** 2 + (ys - height / 2) ** 2) / ((width / 2) ** 2 + (height / 2) ** 2)
        image = image * (1 - exposure.vignetting * r2.astype(np.float32))[:, :, None]
    # Auto exposure: the middle of the picture to mid grey, give or take the metering's error; auto white
    # balance: grey world, partly.
    centre = image[height // 4 : 3 * height // 4, width // 4 : 3 * width // 4]
    means = centre.reshape(-1, 3).mean(axis=0) + 1e-6
    balance = (means[1] / means) ** exposure.white_balance_strength * np.array(exposure.white_balance_error)
    luminance = float(means @ np.array([0.11, 0.59, 0.3]))
    gain = 0.2 / luminance * 2**exposure.exposure_error_ev
    image = image * (gain * balance).astype(np.float32)
    if exposure.shot_noise or exposure.read_noise:
        sigma = np.sqrt(np.clip(image, 0, None) * exposure.shot_noise + exposure.read_noise**2)
        image = image + rng.standard_normal(image.shape, np.float32) * sigma.astype(np.float32)
    image = np.clip(image, 0, 1)
    # Tone curve: sRGB-like gamma with a gentle shoulder.
    image = (image ** (1 / 2.2)) * 1.04 - 0.04 * image**2
    out = np.clip(image * 255 + 0.5, 0, 255).astype(np.uint8)
    if exposure.sharpen > 0:
        soft = cv2.GaussianBlur(out, (0, 0), 1.0)
        out = cv2.addWeighted(out, 1 + exposure.sharpen, soft, -exposure.sharpen, 0)
    ok, encoded = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, exposure.jpeg_quality])
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR) if ok else out
