"""The printable marker sheet: four ArUco markers (DICT_4X4_50, ids 0 to 3) at their true size on an A4 page,
with cut lines and where each one goes. OpenCV draws the markers; the page is a 300 dpi PNG."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

DPI = 300
A4_MM = (210.0, 297.0)
PLACES = {0: "top left", 1: "top right", 2: "bottom right", 3: "bottom left"}


def mm_to_px(mm: float, dpi: int = DPI) -> int:
    return round(mm / 25.4 * dpi)


def marker_sheet(marker_size_mm: float = 70.0, dpi: int = DPI) -> np.ndarray:
    """An A4 page (portrait) with the four markers, each ``marker_size_mm`` wide, a white quiet zone around
    each, dashed cut lines and a label; instructions at the top."""
    if not 20 <= marker_size_mm <= 80:
        raise ValueError(f"marker size {marker_size_mm} mm: choose 20 to 80 mm so four fit on an A4 page")
    width, height = mm_to_px(A4_MM[0], dpi), mm_to_px(A4_MM[1], dpi)
    page = np.full((height, width), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    side = mm_to_px(marker_size_mm, dpi)
    quiet = mm_to_px(8, dpi)  # the white border the detector needs around each marker
    lines = [
        "Camel Up companion - board markers (print at 100%, no scaling)",
        f"Each black square must measure {marker_size_mm:g} mm: check with a ruler.",
        "Cut along the dashed lines, keeping the white border. Tape each marker flat about 5 cm out",
        "from the track's corner named under it (space 1 top left), where no stack can hide it.",
    ]
    for row, text in enumerate(lines):
        cv2.putText(
            page,
            text,
            (mm_to_px(12, dpi), mm_to_px(16 + 8 * row, dpi)),
            cv2.FONT_HERSHEY_SIMPLEX,
            dpi / 300 * 1.1,
            0,
            max(1, dpi // 150),
            cv2.LINE_AA,
        )
    cell_w, cell_h = width // 2, (height - mm_to_px(60, dpi)) // 2
    for marker_id, place in PLACES.items():
        col, row = marker_id % 2, marker_id // 2
        x0 = col * cell_w + (cell_w - side) // 2
        y0 = mm_to_px(60, dpi) + row * cell_h + (cell_h - side) // 2 - mm_to_px(6, dpi)
        page[y0 : y0 + side, x0 : x0 + side] = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        _dashed_rectangle(page, x0 - quiet, y0 - quiet, x0 + side + quiet, y0 + side + quiet, mm_to_px(3, dpi))
        label = f"ID {marker_id}: {place} corner"
        cv2.putText(
            page,
            label,
            (x0, y0 + side + quiet + mm_to_px(9, dpi)),
            cv2.FONT_HERSHEY_SIMPLEX,
            dpi / 300 * 1.3,
            0,
            max(1, dpi // 150),
            cv2.LINE_AA,
        )
    return page


def _dashed_rectangle(page: np.ndarray, x0: int, y0: int, x1: int, y1: int, dash: int) -> None:
    for start in range(x0, x1, 2 * dash):
        for y in (y0, y1):
            cv2.line(page, (start, y), (min(start + dash, x1), y), 120, 2)
    for start in range(y0, y1, 2 * dash):
        for x in (x0, x1):
            cv2.line(page, (x, start), (x, min(start + dash, y1)), 120, 2)


def write_marker_sheet(path: str | Path, marker_size_mm: float = 70.0) -> Path:
    """Write the sheet as a PNG that says its resolution (so printers keep the true size)."""
    path = Path(path)
    if path.suffix.lower() != ".png":
        raise ValueError(f"{path}: the sheet is a PNG image: name it something.png")
    ok, data = cv2.imencode(".png", marker_sheet(marker_size_mm))
    if not ok:
        raise ValueError("OpenCV could not encode the sheet")
    path.write_bytes(_with_dpi(data.tobytes(), DPI))
    return path


def _with_dpi(png: bytes, dpi: int) -> bytes:
    """Insert a pHYs chunk (pixels per metre) after the PNG header, so printing at 100% keeps millimetres."""
    import struct
    import zlib

    per_metre = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature, then the IHDR chunk
    return png[:ihdr_end] + chunk + png[ihdr_end:]
