"""What the camera does to the light: auto exposure (metered, then off by up to 0.35 EV), a white balance that
corrects the lamp's colour only partly, vignetting, defocus and shake, shot and read noise, the tone curve,
sharpening and JPEG."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from benchmarks.independent.art import to_srgb


@dataclass
class Sensor:
    exposure_error: float = 0.0
    """EV."""
    balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """Gains on red, green and blue after the picture's own balance."""
    vignette: float = 0.0
    defocus: float = 0.0
    """Gaussian sigma in pixels."""
    shake: float = 0.0
    """Length of the motion streak in pixels."""
    shake_angle: float = 0.0
    shot: float = 0.0
    read: float = 0.0
    sharpen: float = 0.0
    illuminant: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """The light's colour as the camera's auto white balance estimates it (linear RGB)."""
    quality: int | None = None
    """JPEG quality; None keeps a PNG."""


def expose(linear: np.ndarray, sensor: Sensor, rng: np.random.Generator) -> np.ndarray:
    """sRGB uint8 RGB picture from the scene's linear radiance."""
    h, w = linear.shape[:2]
    img = linear.copy()
    # metering: a centre-weighted mean of the luminance to middle grey, then the exposure's error
    lum = img @ np.array([0.2126, 0.7152, 0.0722], np.float32)
    yy, xx = np.mgrid[0:h, 0:w]
    weight = np.exp(-(((xx - w / 2) / (0.4 * w)) ** 2 + ((yy - h / 2) / (0.4 * h)) ** 2))
    metered = float((lum * weight).sum() / weight.sum())
    img *= 0.2 / max(metered, 1e-6) * 2**sensor.exposure_error
    # the camera's white balance: the light it believes in, then its error
    white = np.asarray(sensor.illuminant, np.float32)
    img *= (white.mean() / white * np.asarray(sensor.balance, np.float32))[None, None, :]
    if sensor.vignette:
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
        img *= (1 - sensor.vignette * r2)[..., None].astype(np.float32)
    if sensor.defocus > 0.05:
        img = cv2.GaussianBlur(img, (0, 0), sensor.defocus)
    if sensor.shake >= 1:
        n = int(np.ceil(sensor.shake)) | 1
        kernel = np.zeros((n, n), np.float32)
        c = n // 2
        dx, dy = np.cos(sensor.shake_angle) * sensor.shake / 2, np.sin(sensor.shake_angle) * sensor.shake / 2
        cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1)
        img = cv2.filter2D(img, -1, kernel / kernel.sum())
    if sensor.shot or sensor.read:
        sigma = np.sqrt(np.clip(img, 0, None) * sensor.shot + sensor.read**2)
        img = img + rng.normal(0, 1, img.shape).astype(np.float32) * sigma
    out = to_srgb(img).astype(np.float32)
    if sensor.sharpen:
        soft = cv2.GaussianBlur(out, (0, 0), 1.2)
        out = out + sensor.sharpen * (out - soft)
    return np.clip(out, 0, 255).astype(np.uint8)


def save(rgb: np.ndarray, path: str, quality: int | None) -> None:
    bgr = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
    params = [cv2.IMWRITE_JPEG_QUALITY, int(quality)] if quality is not None else []
    if not cv2.imwrite(path, bgr, params):
        raise OSError(f"could not write {path}")
