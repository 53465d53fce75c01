"""A frame the reader cannot use, said in words: a picture of an odd shape (a USB glitch, a driver hiccup, a
stray file in files mode) is a problem of that frame only. The camera watch and the placement page say what is
wrong with it, never a library's raw error text, and the next frame is read as usual."""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

MIN_SIDE = 64
"""A picture narrower or lower than this many pixels cannot show four markers and sixteen spaces (the README's
cameras give 1280×720; OpenCV's resizing asserts on a 4000×1 strip)."""

NEXT_FRAME = "the next picture is read as usual"

log = logging.getLogger("camelup.camera")


def size_words(frame: Any) -> str:
    """``"4000×1 pixels"`` (or what the frame is, when it is not a picture at all)."""
    shape = getattr(frame, "shape", None)
    if shape is None or len(shape) < 2:
        return "no picture"
    return f"{shape[1]}×{shape[0]} pixels"


def frame_problem(frame: Any) -> str | None:
    """What makes ``frame`` unusable before any reading (None: a picture the reader may try)."""
    if not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3) or frame.size == 0:
        return f"the camera gave something that is not a picture ({size_words(frame)}): {NEXT_FRAME}"
    channels = 1 if frame.ndim == 2 else frame.shape[2]
    if channels != 3 or frame.dtype != np.uint8:  # every source gives 8-bit BGR: anything else is a glitch
        return (f"the camera's picture is not 8-bit colour ({channels} channel(s) of {frame.dtype}), as the reader "
                f"needs: {NEXT_FRAME}")
    if min(frame.shape[:2]) < MIN_SIDE:
        return (f"the camera's picture is {size_words(frame)}, too small to show the board (at least {MIN_SIDE} "
                f"pixels each way; the README's cameras give 1280×720): {NEXT_FRAME}")
    return None


def unreadable_words(frame: Any, error: BaseException, what: str = "read") -> str:
    """Why a frame that made the reader fail is skipped: its size and the kind of failure, not the library's
    text (that goes to the companion's log, with the traceback)."""
    size = "" if frame is None else f" ({size_words(frame)})"
    log.warning("the camera's picture%s could not be %s", size, what, exc_info=error)
    return (f"the camera's picture{size} could not be {what} ({type(error).__name__}; the companion's log has "
            f"the details): {NEXT_FRAME}")
