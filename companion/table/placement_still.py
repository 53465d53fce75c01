"""The calibration photo while the companion holds the camera: the camera watch's own thread takes a picture at
the camera's full resolution between two frames (nothing else may open a camera the service holds), for the
placement page's "Take the calibration photo" (``/camera/placement?frame=still``), which saves it beside the
games (:data:`PHOTO_NAME`) for ``camelup vision calibrate`` and sends it to the host's device."""

from __future__ import annotations

import queue
import threading
import time
from pathlib import Path
from typing import Any

from vision.sources import CameraError, FrameSource

PHOTO_NAME = "calibration-photo.jpg"
"""The last calibration photo taken from the placement page, in the companion's data folder."""
JPEG_QUALITY = 95


STILL_SECONDS = 2.5
"""How long a web request waits for the camera's thread to take a still: never longer (a worker thread held for
15 s per request let any phone freeze the companion); the camera's thread is woken at once to take it."""


STILL_GAP = 1.0
"""Seconds after a still before the next is taken: each is a JPEG at quality 95 written beside the games (a host's
page tapped in a loop would keep the companion encoding)."""


class StillBusy(CameraError):
    """A still is being taken for another request: one at a time, the next is told so, not queued."""


class StillRequests:
    """Requests for a still from other threads (the web's), served by the thread that owns the camera: one at a
    time, never queued, and never waited for longer than :data:`STILL_SECONDS`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: queue.Queue[Any] | None = None
        """The one request waiting for the camera's thread (its answer goes there), if any."""
        self._taking = threading.Lock()
        """Held by the request being served: a second one is refused at once (StillBusy)."""
        self.asked = threading.Event()
        """Set when a still is asked for (or the camera stops): the camera's thread wakes from its wait."""
        self._last: float | None = None
        """When the latest still came (``time.monotonic()``)."""
        self.closed: str | None = None
        """Why the camera's thread stopped serving (no still will come), once it has."""
        self.camera: str | None = None
        """Which camera the source is (:func:`vision.guidance.camera_id`: a Pi camera by its sensor, a webcam),
        noted on the camera's thread, for the placement page's "where to start" (``None``: not known)."""

    def request(self, timeout: float = STILL_SECONDS, gap: float = 0.0) -> Any:
        """A full-resolution picture (BGR), taken by the camera's own thread at once (it is woken); ``gap``: refused
        until that many seconds after the latest still (:data:`STILL_GAP` for the placement page).

        Raises:
            StillBusy: another request's still is being taken, or one came less than ``gap`` seconds ago.
            CameraError: the camera's thread has stopped, none came within ``timeout`` seconds, or the camera failed.
        """
        if self.closed is not None:
            raise CameraError(f"the camera is not running ({self.closed})")
        if not self._taking.acquire(blocking=False):
            raise StillBusy("a photo is being taken: try again in a moment")
        if self._last is not None and time.monotonic() - self._last < gap:
            self._taking.release()
            raise StillBusy("a photo was taken a moment ago: try again in a second")
        try:
            answer: queue.Queue[Any] = queue.Queue(maxsize=1)
            with self._lock:
                self._pending = answer
            self.asked.set()
            try:
                result = answer.get(timeout=timeout)
            except queue.Empty:
                raise CameraError(f"the camera gave no picture within {timeout:g} s: try again in a moment (the "
                                  "host's page says what the camera is doing)") from None
            finally:
                with self._lock:
                    if self._pending is answer:
                        self._pending = None  # given up: nothing is left waiting for the camera's thread
            self._last = time.monotonic()
        finally:
            self._taking.release()
        if isinstance(result, Exception):
            raise result
        return result

    def serve(self, source: FrameSource, frame: Any) -> None:
        """Answer the waiting request, if any (on the camera's thread, between frames): a full-resolution still
        where the source takes one, else ``frame`` (the frame just read)."""
        self.camera = source_camera(source)
        self.asked.clear()
        with self._lock:
            answer, self._pending = self._pending, None
        if answer is None:
            return
        still = getattr(source, "still", None)
        result: Any = frame
        if callable(still):
            try:
                result = still()
            except CameraError:
                result = frame  # a Pi short of memory, say: the frame makes a calibration photo too
            except Exception as error:  # the camera's failure goes to who asked, not the thread
                result = CameraError(f"the camera could not take a still ({type(error).__name__}: {error})")
        if result is None:
            result = CameraError("the camera has given no frame yet")
        answer.put(result)

    def close(self, why: str) -> None:
        """The camera's thread stops: a request waiting is answered, and later ones are refused at once."""
        self.closed = why
        with self._lock:
            answer, self._pending = self._pending, None
        if answer is not None:
            answer.put(CameraError(f"the camera is not running ({why})"))
        self.asked.set()


def source_camera(source: Any) -> str | None:
    """Which camera of the README's table ``source`` is (:func:`vision.guidance.camera_id`)."""
    from vision.guidance import camera_id
    from vision.sources import Webcam

    return camera_id(getattr(source, "sensor", None), webcam=isinstance(source, Webcam))


def save_photo(picture: Any, folder: Path | None) -> tuple[bytes, Path | None]:
    """The picture as a JPEG, and where it was saved (``folder``/:data:`PHOTO_NAME`, written atomically; None when
    there is no folder or it cannot be written)."""
    import cv2

    ok, data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise CameraError("the picture could not be encoded as a JPEG")
    if folder is None:
        return data.tobytes(), None
    path = folder / PHOTO_NAME
    temporary = path.with_name(f".{PHOTO_NAME}.tmp")
    try:
        temporary.write_bytes(data.tobytes())
        temporary.replace(path)
    except OSError:
        return data.tobytes(), None
    return data.tobytes(), path


def capture(settings: Any, out: Path, service_holds_camera: bool) -> tuple[int, str]:
    """``camelup vision capture``: the calibration photo from the configured camera, at its full resolution
    where it takes one, written to ``out``. Returns (exit status, what to say)."""
    import cv2

    from vision.sources import open_source

    if settings.camera == "none":
        return 2, "no camera is configured ([camera] mode = \"none\"): set mode and source under [camera] first"
    data = Path(settings.data) / PHOTO_NAME
    if settings.camera in ("picamera2", "webcam") and service_holds_camera:
        return 1, ("the running camelup service holds the camera: open the placement assistant from the host's page "
                   "(the Camera box's \"Place the camera\" link) and press \"Take the calibration photo\"; it is saved "
                   f"on this computer as {data}. Or stop the service first (sudo systemctl stop camelup), run this "
                   "again, then start it (sudo systemctl start camelup)")
    if out.is_dir() or not out.parent.is_dir():
        return 2, f"{out}: give a file name in a folder that exists"
    try:
        source = open_source(settings.camera, settings.camera_source)
        try:
            frame = source.read()
            still = getattr(source, "still", None)
            picture = frame
            if callable(still):
                try:
                    picture = still()
                except CameraError:
                    picture = frame  # a Pi short of memory: the frame is a calibration photo too
        finally:
            source.close()
    except CameraError as error:
        return 1, str(error)
    if not cv2.imwrite(str(out), picture, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]):
        return 2, f"{out}: cannot write it (use a .jpg or .png name in a folder you may write to)"
    return 0, (f"wrote {out} ({picture.shape[1]}×{picture.shape[0]}); calibrate from it: camelup vision calibrate "
               f"{out} --board {settings.camera_board} --out camera.json")
