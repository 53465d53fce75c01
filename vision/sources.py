"""Where frames of the board come from, behind one small interface.

- :class:`PiCamera`: picamera2 on a Raspberry Pi (imported only there), RGB888, one running configuration,
  exposure and white balance locked once they have settled, so frames stay comparable; continuous autofocus on a
  camera that has it (Camera Module 3), since a lens left where libcamera parks it blurs the board.
- :class:`Webcam`: OpenCV ``VideoCapture`` (USB webcams, or a video file).
- :class:`ImageFiles`: an image, or a folder of images read in name order (testing and tuning).

Frames are OpenCV's BGR ``uint8`` arrays. Standalone: nothing here knows about the companion.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff"}


class CameraError(RuntimeError):
    """The camera cannot give a frame; the message says what to check."""


@dataclass(frozen=True)
class FrameInfo:
    width: int
    height: int
    exposure: str
    """The exposure as the source reports it ("8.3 ms", "auto", "n/a for image files")."""


class FrameSource(Protocol):
    def read(self) -> np.ndarray: ...
    def info(self) -> FrameInfo: ...
    def close(self) -> None: ...


class ImageFiles:
    """An image file, or every image of a folder in name order (then round again)."""

    def __init__(self, path: str | Path) -> None:
        path = Path(path)
        if path.is_dir():
            self.paths = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self.paths:
                raise CameraError(f"{path}: no images in this folder ({', '.join(sorted(IMAGE_SUFFIXES))})")
        elif path.is_file():
            self.paths = [path]
        else:
            raise CameraError(f"{path}: no such file or folder")
        self._next = 0
        self._last: np.ndarray | None = None

    def read(self) -> np.ndarray:
        """The next image, read as ``vision read`` reads a photo (:func:`vision.image_file.load_photo`), so an
        empty, cut-short or non-image file is named as such (OpenCV alone reads a cut-short JPEG half grey).

        Raises:
            CameraError: that file cannot be used (named by its file name only: the message reaches the pages).
        """
        from vision.image_file import PhotoError, load_photo

        path = self.paths[self._next % len(self.paths)]
        self._next += 1
        try:
            frame = load_photo(str(path))
        except PhotoError as error:
            said = str(error)
            said = path.name + said[len(str(path)):] if said.startswith(str(path)) else said
            raise CameraError(f"the camera's picture {said}") from None
        self._last = frame
        return frame

    def info(self) -> FrameInfo:
        frame = self._last if self._last is not None else self.read()
        return FrameInfo(frame.shape[1], frame.shape[0], "n/a (image files)")

    def close(self) -> None:
        pass


class Webcam:
    """A camera OpenCV can open: ``device`` is an index (0 for the first) or a path or URL."""

    def __init__(self, device: int | str = 0, width: int = 1280, height: int = 720) -> None:
        self.device = device
        self.capture = cv2.VideoCapture(device)
        if not self.capture.isOpened():
            raise CameraError(f"cannot open camera {device!r}: is it plugged in, and is this user in the video group?")
        self.capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self.capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)

    def read(self) -> np.ndarray:
        ok, frame = self.capture.read()
        if not ok or frame is None:
            raise CameraError(f"camera {self.device!r} gave no frame")
        return frame

    def info(self) -> FrameInfo:
        frame = self.read()
        exposure = self.capture.get(cv2.CAP_PROP_EXPOSURE)
        return FrameInfo(frame.shape[1], frame.shape[0], f"{exposure:g} (OpenCV units)" if exposure else "auto")

    def close(self) -> None:
        self.capture.release()


def explain_picamera2_failure(error: BaseException) -> str:
    """What a failed ``import picamera2`` means, in words a builder can act on.

    apt's picamera2 (and the simplejpeg it uses) are built against the system's numpy; a numpy from pip in front
    of it fails with "numpy.dtype size changed" (ValueError), "compiled using NumPy 1.x" or "_ARRAY_API not
    found" (picamera2 issues #1088, #1211).
    """
    text = f"{type(error).__name__}: {error}"
    if isinstance(error, ModuleNotFoundError) and (error.name or "").split(".")[0] in ("picamera2", "libcamera"):
        return (
            "picamera2 is not available: on Raspberry Pi OS run 'sudo apt install python3-picamera2' and use "
            "a virtual environment made with --system-site-packages (deploy/install.sh does both)"
        )
    if "numpy" in text.lower() or "_ARRAY_API" in text:
        return (
            f"picamera2 cannot load beside numpy {np.__version__} from {Path(np.__file__).parent} ({text}): apt's "
            "picamera2 needs the system's numpy; run 'sudo deploy/install.sh' again (it keeps the system's numpy "
            "and picks an OpenCV built for it), or in your own environment: pip uninstall numpy"
        )
    return f"picamera2 cannot load ({text}): check that python3-picamera2 and python3-libcamera are up to date"


AF_CONTINUOUS = 2
"""libcamera's ``controls.AfModeEnum.Continuous`` (Manual 0, Auto 1, Continuous 2): the lens keeps the board in
focus by itself (picamera2 manual, "Autofocus")."""
STILL_MEMORY_BYTES = 1536 * 1024 * 1024
"""A Pi with less memory than this (a 1 GB Pi 4) takes no full-resolution still: calibrating from a 4608×2592
still peaks at about 660 MB for the process (a 1280×720 frame at about 300 MB), and the frame is used instead."""


def memory_bytes() -> int | None:
    """The machine's memory, or None where the system does not say."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


class PiCamera:
    """The Raspberry Pi camera through picamera2 (from Raspberry Pi OS: python3-picamera2)."""

    def __init__(self, width: int = 1280, height: int = 720, settle_seconds: float = 1.5) -> None:
        try:
            from picamera2 import Picamera2  # only on a Pi: it needs the Pi's libcamera
        except Exception as error:  # not only ImportError: a numpy of another ABI raises ValueError
            raise CameraError(explain_picamera2_failure(error)) from None
        self.camera: Any = None
        self.autofocus = False
        self.sensor: str | None = None
        """The sensor's model as libcamera names it (imx708: a Camera Module 3, imx708_wide its Wide, imx219: a
        Camera Module 2): the placement assistant says where to start that camera."""
        try:
            self.camera = Picamera2()
            self.sensor = str((getattr(self.camera, "camera_properties", None) or {}).get("Model") or "") or None
            config = self.camera.create_still_configuration(main={"size": (width, height), "format": "RGB888"})
            self.camera.configure(config)  # one configuration for good: no mode switches while reading
            # A lens that can focus (Camera Module 3) focuses all the time: the board stays sharp if the camera
            # is moved. Older modules have a fixed focus and no such control.
            self.autofocus = "AfMode" in (getattr(self.camera, "camera_controls", None) or {})
            if self.autofocus:
                self.camera.set_controls({"AfMode": AF_CONTINUOUS})
            self.camera.start()
            time.sleep(settle_seconds)
            metadata = self.camera.capture_metadata()
            # Lock exposure and white balance where they settled, so every frame is lit the same way.
            self.camera.set_controls(
                {
                    "AeEnable": False,
                    "AwbEnable": False,
                    "ExposureTime": metadata.get("ExposureTime", 10000),
                    "AnalogueGain": metadata.get("AnalogueGain", 1.0),
                    "ColourGains": metadata.get("ColourGains", (1.0, 1.0)),
                }
            )
        except Exception as error:  # libcamera reports a missing, busy or refused camera in several ways
            self._close_quietly()
            raise CameraError(
                f"the Pi camera does not start ({type(error).__name__}: {error}): check its ribbon cable, that no "
                "other program uses it, and 'camelup doctor'"
            ) from None
        self._exposure_us = metadata.get("ExposureTime")

    def _close_quietly(self) -> None:
        if self.camera is None:
            return
        with contextlib.suppress(Exception):  # already broken: closing is only tidying up
            self.camera.close()

    def read(self) -> np.ndarray:
        # picamera2's "RGB888" is laid out B, G, R in memory: what OpenCV calls BGR.
        return self.camera.capture_array("main")

    def info(self) -> FrameInfo:
        frame = self.read()
        exposure = f"{self._exposure_us / 1000:.1f} ms (locked)" if self._exposure_us else "unknown"
        focus = ", continuous autofocus" if self.autofocus else ", fixed focus"
        return FrameInfo(frame.shape[1], frame.shape[0], exposure + focus)

    def close(self) -> None:
        self.camera.stop()
        self.camera.close()

    def still(self) -> np.ndarray:
        """One picture at the sensor's full resolution (Camera Module 3: 4608×2592), taken between frames:
        the reader finds the markers on a smaller copy and reads the board's region at full resolution.

        Raises:
            CameraError: this Pi has too little memory for it (:data:`STILL_MEMORY_BYTES`): use the frame.
        """
        memory = memory_bytes()
        if memory is not None and memory < STILL_MEMORY_BYTES:
            raise CameraError(f"no full-resolution still on a Pi with {memory / 2**30:.1f} GB of memory (the "
                              "calibration it feeds needs about 660 MB): the frame is used instead")
        full = self.camera.create_still_configuration(main={"format": "RGB888"})  # the sensor's whole size
        return self.camera.switch_mode_and_capture_array(full, "main")


CAMERA_KINDS = ("none", "picamera2", "webcam", "files")


def open_source(kind: str, target: str = "") -> FrameSource:
    """A frame source by kind (``picamera2``, ``webcam`` with a device index or path, ``files`` with a path).

    Raises:
        CameraError: the camera cannot be opened, with what to check.
    """
    try:
        if kind == "picamera2":
            return PiCamera()
        if kind == "webcam":
            return Webcam(int(target) if target.isdigit() else (target or 0))
        if kind == "files":
            if not target:
                raise CameraError("camera mode 'files' needs a file or folder (camera.source)")
            return ImageFiles(target)
    except CameraError:
        raise
    except Exception as error:  # whatever a driver raises, the caller gets one kind of error with the reason
        raise CameraError(f"the {kind} camera cannot start ({type(error).__name__}: {error})") from None
    raise CameraError(f"unknown camera kind {kind!r} ({', '.join(CAMERA_KINDS[1:])})")
