"""The camera's faults on POV-Ray's linear picture, in our own order and models (not benchmarks/independent's):
the lens bends the picture (with a little lateral chromatic aberration), the corners darken (cos^4-like), auto
exposure meters a centre-weighted mean and misses by up to half a stop, the white balance corrects the lights'
colour only partly and with an error of its own, defocus and sometimes shake blur it, photon and read noise
(correlated between neighbours, as demosaicing leaves it), a tone curve with a soft shoulder, sharpening, JPEG."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass
class Faults:
    aberration: float = 0.0
    """Red drawn this much wider than green, blue this much narrower (a share of the radius)."""
    vignette: float = 0.0
    exposure_ev: float = 0.0
    balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """Gains on linear red, green and blue (the camera's white balance, errors included)."""
    defocus: float = 0.4
    shake: float = 0.0
    shake_angle: float = 0.0
    shot: float = 0.0
    read: float = 0.0
    sharpen: float = 0.0
    quality: int = 0
    """JPEG quality; 0: a lossless PNG."""


def faults_for(tier: str, light_colour: np.ndarray, rng: np.random.Generator) -> Faults:
    if tier == "clean":
        return Faults()
    corrected = float(rng.uniform(0.55, 1.0))
    gains = (1 / np.asarray(light_colour, float)) ** corrected * np.exp(rng.normal(0, 0.05, 3))
    gains /= gains[1]
    return Faults(
        aberration=float(rng.uniform(0, 0.0015)),
        vignette=float(rng.uniform(0.08, 0.5)),
        exposure_ev=float(rng.uniform(-0.5, 0.35)),
        balance=tuple(float(g) for g in gains),  # type: ignore[arg-type]
        defocus=float(rng.uniform(0.35, 1.2)),
        shake=float(rng.uniform(1.5, 3.5)) if rng.random() < 0.15 else 0.0,
        shake_angle=float(rng.uniform(0, np.pi)),
        shot=float(rng.uniform(0.0008, 0.005)),
        read=float(rng.uniform(0.002, 0.01)),
        sharpen=float(rng.uniform(0, 0.7)),
        quality=int(rng.integers(60, 96)),
    )


def develop(linear: np.ndarray, maps: tuple[np.ndarray, np.ndarray], faults: Faults,
            rng: np.random.Generator) -> np.ndarray:
    """The photo (BGR uint8) a camera makes of the pinhole render ``linear`` (RGB float, linear light)."""
    map_x, map_y = maps
    height, width = map_x.shape
    cx, cy = linear.shape[1] / 2 - 0.5, linear.shape[0] / 2 - 0.5
    channels = []
    for c, stretch in enumerate((1 + faults.aberration, 1.0, 1 - faults.aberration)):
        channels.append(cv2.remap(np.ascontiguousarray(linear[..., c]), (map_x - cx) * stretch + cx,
                                  (map_y - cy) * stretch + cy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT))
    img = np.stack(channels, axis=-1)
    if faults.vignette:
        y, x = np.mgrid[0:height, 0:width].astype(np.float32)
        r2 = ((x - width / 2) ** 2 + (y - height / 2) ** 2) / ((width / 2) ** 2 + (height / 2) ** 2)
        img *= (1 / (1 + faults.vignette * r2) ** 2)[..., None]
    img *= np.asarray(faults.balance, np.float32)
    luminance = img @ np.array([0.2126, 0.7152, 0.0722], np.float32)
    weight = cv2.getGaussianKernel(height, height / 3) @ cv2.getGaussianKernel(width, width / 3).T
    metered = float((luminance * weight).sum() / weight.sum())
    img *= 0.2 / max(metered, 1e-4) * 2.0**faults.exposure_ev
    if faults.defocus > 0:
        img = cv2.GaussianBlur(img, (0, 0), faults.defocus)
    if faults.shake:
        size = int(np.ceil(faults.shake)) * 2 + 1
        kernel = np.zeros((size, size), np.float32)
        half = faults.shake / 2
        c, s = np.cos(faults.shake_angle), np.sin(faults.shake_angle)
        cv2.line(kernel, (round(size / 2 - c * half), round(size / 2 - s * half)),
                 (round(size / 2 + c * half), round(size / 2 + s * half)), 1.0, 1)
        img = cv2.filter2D(img, -1, kernel / kernel.sum())
    if faults.shot or faults.read:
        sigma = np.sqrt(np.clip(img, 0, None) * faults.shot + faults.read**2)
        grain = rng.standard_normal(img.shape).astype(np.float32)
        grain = 0.6 * grain + 0.4 * cv2.GaussianBlur(grain, (0, 0), 0.8) * 2.2
        img = img + sigma * grain
    img = np.clip(img, 0, None)
    knee = 0.6  # a soft shoulder above it instead of a hard clip at white
    shouldered = np.where(img < knee, img, knee + (1 - knee) * (1 - np.exp(-(img - knee) / (1 - knee))))
    srgb = np.where(shouldered <= 0.0031308, 12.92 * shouldered, 1.055 * np.power(shouldered, 1 / 2.4) - 0.055)
    srgb = np.clip(srgb, 0, 1) * 255
    if faults.sharpen:
        srgb = srgb + faults.sharpen * (srgb - cv2.GaussianBlur(srgb, (0, 0), 1.2))
    return np.clip(srgb, 0, 255).astype(np.uint8)[..., ::-1].copy()
