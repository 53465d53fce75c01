"""Reading the board: which camels stand on each space, bottom to top, from one oblique photo.

Stages, each ``(config, ...) -> result`` with its thresholds in :class:`ReadConfig`:

1. :func:`vision.locate.locate_board`: the markers give the board plane (millimetres → pixels).
2. :func:`camera_pose`: from that homography, the camera's focal length and pose (principal point at the
   image centre, square pixels), so points above the board can be projected too.
3. :func:`read_board`: for every space and every level of a possible stack, the colour where a camel's block
   would be, judged against the camel colour profiles after dividing by the board's own colour next to it
   (which takes out uneven light and colour casts). The first level that shows no camel ends the stack;
   each camel is kept once, where it is read most clearly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from vision.board import BoardTemplate
from vision.locate import BoardLocation, LocateConfig, locate_board

BOARD_BGR = (175.0, 222.0, 240.0)
"""The colour of an empty space under neutral light (the synthetic board's; calibrate for a real one)."""


@dataclass(frozen=True)
class ReadConfig:
    locate: LocateConfig = field(default_factory=LocateConfig)
    max_stack: int = 7
    sample_radius_px: int = 2
    empty_margin: float = 0.9
    """A sample is "no camel" when the board's colour is nearer than any camel's times this."""
    face_offset_mm: float = 3.0
    """The line runs this far in front of where a camel's side would be, so each camel, even the bottom one
    seen from high up, fills a whole level of it."""
    line_step_px: float = 0.75
    min_run_share: float = 0.25
    """Runs of one colour shorter than this share of a camel's height (in this picture, at this space) are
    edges or outlines, not camels. Seen from high up, a camel's side is a thin band."""
    shading: tuple[float, float] = (0.45, 1.15)
    """How much darker or brighter than its profile a lit or shaded face of a camel may look."""
    brightness_weight: float = 1.5
    min_confidence: float = 0.25


@dataclass(frozen=True)
class Pose:
    matrix: np.ndarray
    rotation: np.ndarray
    translation: np.ndarray

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Points (N×3, mm; z into the table, so above the board is negative) to pixels (N×2)."""
        in_camera = points_mm @ self.rotation.T + self.translation
        projected = in_camera @ self.matrix.T
        return projected[:, :2] / projected[:, 2:3]


@dataclass(frozen=True)
class Reading:
    track: dict[int, list[str]]
    confidence: float
    problems: list[str]
    unseen: tuple[str, ...] = ()
    """Camels the reading could not find (hidden, or out of the picture)."""

    def as_json(self) -> dict[str, Any]:
        return {
            "track": {str(space): stack for space, stack in sorted(self.track.items())},
            "confidence": round(self.confidence, 3),
            "problems": self.problems,
        }


def camera_pose(location: BoardLocation, image_size: tuple[int, int]) -> Pose:
    """The camera's focal length and pose from the board's homography (Zhang's constraints with one unknown)."""
    width, height = image_size
    shift = np.array([[1, 0, -width / 2], [0, 1, -height / 2], [0, 0, 1]], float)
    h = shift @ location.homography
    h = h / np.linalg.norm(h[:, 0])
    # r1 ⊥ r2 and |r1| = |r2| for the columns of K⁻¹H give f²; average the two estimates that are sane.
    estimates = []
    denominator = h[2, 0] * h[2, 1]
    if abs(denominator) > 1e-12:
        estimates.append(-(h[0, 0] * h[0, 1] + h[1, 0] * h[1, 1]) / denominator)
    denominator = h[2, 1] ** 2 - h[2, 0] ** 2
    if abs(denominator) > 1e-12:
        estimates.append((h[0, 0] ** 2 + h[1, 0] ** 2 - h[0, 1] ** 2 - h[1, 1] ** 2) / denominator)
    squares = [value for value in estimates if value > 0]
    focal = float(np.sqrt(np.mean(squares))) if squares else float(max(width, height))
    inverse = np.diag([1 / focal, 1 / focal, 1.0])
    a = inverse @ h
    scale = 1 / np.linalg.norm(a[:, 0])
    if a[2, 2] * scale < 0:  # the board must be in front of the camera
        scale = -scale
    r1 = a[:, 0] * scale
    r2 = a[:, 1] * scale
    r2 -= r1 * np.dot(r1, r2)
    r2 /= np.linalg.norm(r2)
    rotation = np.column_stack([r1, r2, np.cross(r1, r2)])
    translation = a[:, 2] * scale
    matrix = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]])
    return Pose(matrix, rotation, translation)


def _sample_many(image: np.ndarray, points: np.ndarray, radius: int) -> np.ndarray:
    """Median colour of the (2r+1)² patch around each point (N×2 → N×3); NaN rows outside the picture."""
    height, width = image.shape[:2]
    xy = np.rint(points).astype(int)
    inside = (xy[:, 0] >= radius) & (xy[:, 0] < width - radius) & (xy[:, 1] >= radius) & (xy[:, 1] < height - radius)
    out = np.full((len(points), 3), np.nan, np.float32)
    if inside.any():
        offsets = np.arange(-radius, radius + 1)
        ys = xy[inside, 1][:, None, None] + offsets[None, :, None]
        xs = xy[inside, 0][:, None, None] + offsets[None, None, :]
        patches = image[ys, xs].reshape(int(inside.sum()), -1, 3).astype(np.float32)
        out[inside] = np.median(patches, axis=1)
    return out


def _distances(samples: np.ndarray, profile: np.ndarray, shading: tuple[float, float], weight: float) -> np.ndarray:
    """How far (light-corrected) samples are from a colour profile: the difference of their chroma (each
    channel's share), plus a penalty only when the brightness is outside what shading can make of the
    profile (a white camel's face in shadow is grey, not sand; black and white differ by brightness alone)."""
    totals = samples.sum(axis=1, keepdims=True) + 1e-6
    profile_total = float(profile.sum()) + 1e-6
    chroma = np.linalg.norm(samples / totals - profile / profile_total, axis=1)
    low, high = profile_total * shading[0], profile_total * shading[1]
    outside = np.maximum(0.0, np.maximum(low - totals[:, 0], totals[:, 0] - high)) / (3 * 255)
    return chroma + weight * outside


def read_board(
    config: ReadConfig,
    template: BoardTemplate,
    profiles: dict[str, tuple[float, float, float]],
    image: np.ndarray,
) -> Reading:
    """The camels on every space, bottom first.

    Raises:
        vision.locate.BoardNotFound: the markers are not all visible (nothing is guessed).
    """
    location = locate_board(config.locate, template, image)
    pose = camera_pose(location, (image.shape[1], image.shape[0]))
    camera_at = -pose.rotation.T @ pose.translation
    h = template.camel["height"]
    half_width = template.camel["width"] / 2
    board_reference = np.array(BOARD_BGR, np.float32)
    references = {camel: np.array(bgr, np.float32) for camel, bgr in profiles.items()}
    candidates: list[tuple[float, int, int, str]] = []  # (clarity, space, level, camel)
    problems: list[str] = []
    heights: dict[int, int] = {}
    for space, corners in template.spaces.items():
        cx, cy = template.space_centre(space)
        # The board's own colour next to the camels gives the local light (inset corners of the space).
        rim = np.array([(cx + 0.8 * (x - cx), cy + 0.8 * (y - cy), 0.0) for x, y in corners])
        rim_samples = _sample_many(image, pose.project(rim), config.sample_radius_px)
        rim_samples = rim_samples[~np.isnan(rim_samples[:, 0])]
        if not len(rim_samples):
            problems.append(f"space {space} is outside the picture")
            continue
        light = rim_samples.max(axis=0) / board_reference  # brightest rim sample: the least shadowed
        # Read up a vertical line just in front of the stack's side facing the camera: bottom to top, each run of
        # one colour is one camel; the board seen above the stack (behind it) ends it.
        toward = np.array([camera_at[0] - cx, camera_at[1] - cy])
        toward = toward / (np.linalg.norm(toward) + 1e-9) * (half_width + config.face_offset_mm)
        ends = pose.project(
            np.array([[cx + toward[0], cy + toward[1], 0.0], [cx + toward[0], cy + toward[1], -config.max_stack * h]])
        )
        line_px = float(np.linalg.norm(ends[1] - ends[0]))
        steps = max(2, int(line_px / config.line_step_px))
        min_run_px = max(config.line_step_px, config.min_run_share * line_px / config.max_stack)
        points = ends[0] + np.linspace(0.0, 1.0, steps)[:, None] * (ends[1] - ends[0])
        samples = _sample_many(image, points, config.sample_radius_px)
        usable = ~np.isnan(samples[:, 0])
        if not usable.all():  # the line leaves the picture: read only up to there
            samples = samples[: int(np.argmin(usable))] if not usable[0] else samples[:0]
        corrected = samples / np.maximum(light, 0.05)
        names = list(references)
        table = np.stack(
            [_distances(corrected, references[name], config.shading, config.brightness_weight) for name in names],
            axis=1,
        )
        board = _distances(corrected, board_reference, (0.6, 1.1), config.brightness_weight)
        order = np.argsort(table, axis=1)
        nearest = table[np.arange(len(table)), order[:, 0]] if len(table) else np.zeros(0)
        second = table[np.arange(len(table)), order[:, 1]] if len(table) and len(names) > 1 else nearest + 1
        labels: list[tuple[str, float]] = [
            ("board", 1.0)
            if board[i] < nearest[i] * config.empty_margin + 1e-3
            else (names[order[i, 0]], float((second[i] - nearest[i]) / (second[i] + 1e-6)))
            for i in range(len(table))
        ]
        runs: list[list[Any]] = []  # [label, length, summed clarity, index where it starts]
        for index, (label, clarity) in enumerate(labels):
            if runs and runs[-1][0] == label:
                runs[-1][1] += 1
                runs[-1][2] += clarity
            else:
                runs.append([label, 1, clarity, index])
        runs = [run for run in runs if run[1] * line_px / steps >= min_run_px]
        merged: list[list[Any]] = []
        for run in runs:  # dropping a short run (an outline) can leave two runs of one colour side by side
            if merged and merged[-1][0] == run[0]:
                merged[-1][1] += run[1]
                merged[-1][2] += run[2]
            else:
                merged.append(run)
        level = 0
        started = False
        first_level_end = steps / config.max_stack  # a stack's bottom camel starts within the first level
        for label, length, clarity, start in merged:
            if label == "board":
                if started:
                    break
                continue
            if not started and start > first_level_end:
                break  # what the line meets higher up stands on a space behind this one
            started = True
            candidates.append((clarity / length, space, level, label))
            level += 1
        heights[space] = level

    # Each camel once: keep its clearest sighting; a stack is cut where a kept camel was taken away.
    best: dict[str, tuple[float, int, int]] = {}
    for clarity, space, level, camel in candidates:
        if camel not in best or clarity > best[camel][0]:
            best[camel] = (clarity, space, level)
    track: dict[int, list[str]] = {}
    for camel, (_, space, _level) in sorted(best.items(), key=lambda item: (item[1][1], item[1][2])):
        track.setdefault(space, []).append(camel)
    unseen = tuple(camel for camel in profiles if camel not in best)
    problems += [f"the {camel} camel is not seen" for camel in unseen]
    duplicates = len(candidates) - len(best)
    if duplicates:
        problems.append(f"{duplicates} sighting{'s' if duplicates > 1 else ''} of a camel already placed ignored")
    confidence = float(np.mean([c for c, *_ in candidates])) if candidates else 0.0
    if confidence < config.min_confidence:
        problems.append(f"low confidence ({confidence:.2f}): check the light and the colour profiles")
    return Reading(track, confidence, problems, unseen)
