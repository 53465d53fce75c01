"""One photo: the scene rendered by POV-Ray (single-threaded) through a pinhole wider than the photo, bent
through the table's lens onto 1280x720, then the camera's faults; and the truth from two id passes (what the
camera sees of each camel and marker, and what it would see of each camel with nothing in the way)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from benchmarks.independent.art import board_texture, marker_texture
from benchmarks.independent.scene import Truth
from benchmarks.independent.table import Table
from benchmarks.povray.compose import compose
from benchmarks.povray.scene import MARKER_ID_BASE, pov
from benchmarks.povray.sensor import Faults, develop, faults_for

PIXEL_BUDGET = 1.3 * 1280 * 720
"""The pinhole render's most pixels: a wide lens's corners need a larger render, made a little coarser instead."""
QUALITY = ("+A0.15", "+AM2", "+R2", "+Q9")


def povray_available() -> bool:
    return shutil.which("povray") is not None


@dataclass
class Lens:
    """The pinhole POV-Ray renders through and how its picture is bent onto the photo (OpenCV's lens model)."""

    width: int
    height: int
    focal: float
    maps: tuple[np.ndarray, np.ndarray]
    """For each photo pixel, where in the render it comes from (x and y, float32)."""
    camera: str
    """The POV-Ray camera statement: the table's camera, its principal point at the render's centre."""


_LENSES: dict[tuple, Lens] = {}


def lens_for(table: Table, budget: float = PIXEL_BUDGET) -> Lens:
    """The render that covers the whole photo once undistorted, and the maps back (cached per table)."""
    cam = table.camera
    key = (cam.f, cam.k1, cam.k2, cam.pp, tuple(np.ravel(cam.centre)), tuple(np.ravel(cam.rotation)), budget)
    if key in _LENSES:
        return _LENSES[key]
    k = cam.matrix()
    dist = np.array([cam.k1, cam.k2, 0.0, 0.0])
    u, v = np.meshgrid(np.arange(cam.width, dtype=np.float32), np.arange(cam.height, dtype=np.float32))
    pts = np.stack([u.ravel(), v.ravel()], axis=1).reshape(-1, 1, 2)
    criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 30, 1e-7)
    norm = cv2.undistortPointsIter(pts, k, dist, None, None, criteria).reshape(cam.height, cam.width, 2)
    focal = cam.f
    width = 2 * int(np.ceil(np.abs(norm[..., 0]).max() * focal)) + 6
    height = 2 * int(np.ceil(np.abs(norm[..., 1]).max() * focal)) + 6
    if width * height > budget:
        shrink = np.sqrt(budget / (width * height))
        focal *= shrink
        width, height = 2 * int(np.ceil(width * shrink / 2)), 2 * int(np.ceil(height * shrink / 2))
    maps = ((norm[..., 0] * focal + width / 2 - 0.5).astype(np.float32),
            (norm[..., 1] * focal + height / 2 - 0.5).astype(np.float32))
    right, down, forward = cam.rotation
    camera = (f"camera {{ perspective location {pov(cam.centre)} right {pov(right * width)} "
              f"up {pov(-down * height)} direction {pov(forward * focal)} }}")
    lens = Lens(width, height, focal, maps, camera)
    _LENSES[key] = lens
    return lens


def povray(scene_file: Path, out: Path, lens: Lens, photo: bool, frames: int = 0) -> float:
    """Run POV-Ray on one thread; the seconds it took."""
    args = ["povray", f"+I{scene_file}", f"+O{out}", f"+W{lens.width}", f"+H{lens.height}", "-D", "-V", "+WT1",
            "-GA", "File_Gamma=1.0", "Pause_When_Done=off"]
    args += ["+FN16", *QUALITY] if photo else ["+FN8", "-A", "+Q3"]
    if frames:
        args += ["+KFI1", f"+KFF{frames}", "+KI1", f"+KF{frames}"]
    started = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True, cwd=scene_file.parent)
    if done.returncode != 0:
        raise RuntimeError(f"povray failed on {scene_file.name}: {done.stderr.strip()[-800:]}")
    return time.monotonic() - started


@dataclass
class Rendered:
    truth: Truth
    seconds: dict[str, float]
    faults: Faults


def render(
    table: Table,
    tier: str,
    track: dict[int, list[str]],
    seed: int,
    path: str,
    calibration: bool = False,
    hand: bool | None = None,
    work: Path | None = None,
    more: list[str] | None = None,
    tiles: bool = True,
) -> Rendered:
    """Render the board ``track`` (space -> camels bottom first) at ``table`` and save the photo to ``path``;
    ``work`` keeps the scene files and passes (default: a temporary folder); ``more``: POV-Ray objects to add
    (textured with :func:`benchmarks.povray.scene.tex`); ``tiles=False``: no desert or spectator tiles."""
    with tempfile.TemporaryDirectory(prefix="povray-") as tmp:
        folder = Path(work) if work is not None else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        board_png = folder / "board.png"
        cv2.imwrite(str(board_png), cv2.cvtColor(board_texture(table.spaces, np.random.default_rng([table.seed, 5])),
                                                 cv2.COLOR_RGB2BGR))
        marker_pngs = {}
        for m in table.markers:
            marker_pngs[m.marker_id] = f"marker{m.marker_id}.png"
            image = marker_texture(m.marker_id, m.size, np.random.default_rng([table.seed, m.marker_id]))
            cv2.imwrite(str(folder / marker_pngs[m.marker_id]), image)
        scene, colour, rng = compose(table, tier, track, seed, board_png.name, marker_pngs, calibration, hand,
                                       tiles)
        scene.extras += more or []
        lens = lens_for(table)
        seconds = {}
        for mode in ("photo", "ids", "alone"):
            (folder / f"{mode}.pov").write_text(scene.write(mode, lens.camera))
        seconds["photo"] = povray(folder / "photo.pov", folder / "photo.png", lens, photo=True)
        started = time.monotonic()
        povray(folder / "ids.pov", folder / "ids.png", lens, photo=False)
        if scene.camels:
            povray(folder / "alone.pov", folder / "alone.png", lens, photo=False, frames=len(scene.camels))
        seconds["truth"] = time.monotonic() - started
        linear = cv2.imread(str(folder / "photo.png"), cv2.IMREAD_UNCHANGED)[..., ::-1].astype(np.float32) / 65535
        faults = faults_for(tier, colour, rng)
        photo = develop(linear, lens.maps, faults, rng)
        if faults.quality:
            ok = cv2.imwrite(path, photo, [cv2.IMWRITE_JPEG_QUALITY, faults.quality])
        else:
            ok = cv2.imwrite(path, photo)
        if not ok:
            raise OSError(f"could not write {path}")
        ids = _bent(folder / "ids.png", lens)
        visible = {}
        for k, piece in enumerate(scene.camels):
            alone = _bent(_frame_file(folder, k + 1, len(scene.camels)), lens)
            whole = int(np.count_nonzero(alone == k + 1))
            visible[piece.name] = np.count_nonzero(ids == k + 1) / whole if whole else 0.0
        truth = Truth(
            track={s: list(v) for s, v in track.items()},
            visible=visible,
            level={p.name: p.level for p in scene.camels},
            hidden_markers=hidden_markers(table, ids),
            props=scene.labels,
        )
        return Rendered(truth, seconds, faults)


def _frame_file(folder: Path, frame: int, frames: int) -> Path:
    """POV-Ray numbers an animation's files with as many digits as the last frame needs."""
    return folder / f"alone{frame:0{len(str(frames))}d}.png"


def _bent(path: Path, lens: Lens) -> np.ndarray:
    """An id pass (the red channel is the id) bent through the lens onto the photo's pixels."""
    ids = cv2.imread(str(path), cv2.IMREAD_COLOR)[..., 2]
    return cv2.remap(ids, lens.maps[0], lens.maps[1], cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def project(table: Table, points: np.ndarray) -> np.ndarray:
    """World points (mm) onto the photo's pixels through the table's lens (OpenCV's model)."""
    cam = table.camera
    # the camera's axes (right, down, forward) form a mirror in the template's left-handed world: turn the points
    # into the camera's frame here, then let OpenCV apply the lens
    local = (np.asarray(points, float) - np.asarray(cam.centre, float)) @ np.asarray(cam.rotation, float).T
    px, _ = cv2.projectPoints(local.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), cam.matrix(),
                              np.array([cam.k1, cam.k2, 0.0, 0.0]))
    return px.reshape(-1, 2)


def hidden_markers(table: Table, ids: np.ndarray) -> list[int]:
    """Markers whose black square is less than 90% in view (a 7 x 7 grid of its points checked in the id pass)."""
    hidden = []
    height, width = ids.shape
    for m in table.markers:
        px = np.round(project(table, m.square(7))).astype(int)
        inside = (px[:, 0] >= 0) & (px[:, 0] < width) & (px[:, 1] >= 0) & (px[:, 1] < height)
        seen = np.zeros(len(px), bool)
        seen[inside] = ids[px[inside, 1], px[inside, 0]] == MARKER_ID_BASE + m.marker_id
        if seen.mean() < 0.9:
            hidden.append(m.marker_id)
    return hidden
