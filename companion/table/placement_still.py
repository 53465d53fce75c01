"""The calibration photo while the companion holds the camera: the camera watch's own thread takes a picture at
the camera's full resolution between two frames (nothing else may open a camera the service holds), for the
placement page's "Take the calibration photo" (``/camera/placement?frame=still``), which saves it beside the
games (:data:`PHOTO_NAME`) for ``camelup vision calibrate`` and sends it to the host's device."""

from __future__ import annotations

import queue
from pathlib import Path
from typing import Any

from vision.sources import CameraError, FrameSource

PHOTO_NAME = "calibration-photo.jpg"
"""The last calibration photo taken from the placement page, in the companion's data folder."""
JPEG_QUALITY = 95


class StillRequests:
    """Requests for a still from other threads (the web's), served by the thread that owns the camera."""

    def __init__(self) -> None:
        self._waiting: queue.Queue[queue.Queue[Any]] = queue.Queue()
        self.camera: str | None = None
        """Which camera the source is (:func:`vision.guidance.camera_id`: a Pi camera by its sensor, a webcam),
        noted on the camera's thread, for the placement page's "where to start" (``None``: not known)."""

    def request(self, timeout: float = 15.0) -> Any:
        """A full-resolution picture (BGR), taken by the camera's own thread at its next frame.

        Raises:
            CameraError: none came within ``timeout`` seconds (the camera is not running), or the camera failed.
        """
        answer: queue.Queue[Any] = queue.Queue(maxsize=1)
        self._waiting.put(answer)
        try:
            result = answer.get(timeout=timeout)
        except queue.Empty:
            raise CameraError(f"the camera gave no picture within {timeout:g} s: is it running? (the host's page "
                              "says what the camera is doing)") from None
        if isinstance(result, Exception):
            raise result
        return result

    def serve(self, source: FrameSource, frame: Any) -> None:
        """Answer every waiting request (on the camera's thread, between frames): a full-resolution still where
        the source takes one, else ``frame`` (the frame just read)."""
        self.camera = source_camera(source)
        while True:
            try:
                answer = self._waiting.get_nowait()
            except queue.Empty:
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
