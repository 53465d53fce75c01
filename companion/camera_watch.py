"""The camera beside the board, watched in the background: stable readings of the board, for the companion
to compare with the game. A missing or failing camera is a notice, never a crash: play goes on by hand."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from vision.board import BoardTemplate
from vision.locate import BoardNotFound
from vision.read import BOARD_BGR, ReadConfig, read_board
from vision.sources import CameraError, FrameSource
from vision.stable import StableReadings


@dataclass(frozen=True)
class CameraStatus:
    state: str
    """``"starting"``, ``"reading"`` (a stable reading exists), ``"unsettled"``, ``"board not found"`` or
    ``"unavailable"``."""
    track: dict[int, list[str]] | None = None
    message: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"state": self.state, "message": self.message}


class CameraWatch:
    """Reads a frame every ``interval`` seconds on its own thread; :attr:`status` is the latest news."""

    def __init__(
        self,
        open_source: Callable[[], FrameSource],
        template: BoardTemplate,
        profiles: dict[str, tuple[float, float, float]],
        interval: float = 1.0,
        agree: int = 3,
        board_bgr: tuple[float, float, float] = BOARD_BGR,
    ) -> None:
        self._open_source = open_source
        self.template = template
        self.profiles = profiles
        self.board_bgr = board_bgr
        self.interval = interval
        self._stable = StableReadings(agree)
        self.latest_frame: Any = None
        """The last frame read (for the placement assistant's live view)."""
        self.status = CameraStatus("starting", message="the camera is starting")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera-watch", daemon=True)

    def start(self) -> CameraWatch:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def step(self, source: FrameSource) -> CameraStatus:
        """Read one frame and update the status (the thread's loop; tests call it directly)."""
        try:
            self.latest_frame = source.read()
            reading = read_board(ReadConfig(), self.template, self.profiles, self.latest_frame, self.board_bgr)
        except BoardNotFound as error:
            self._stable.feed(None)
            self.status = CameraStatus("board not found", message=str(error))
            return self.status
        except CameraError as error:
            self.status = CameraStatus("unavailable", message=f"{error}: play goes on by hand")
            return self.status
        track = self._stable.feed(reading)
        if track is None:
            self.status = CameraStatus("unsettled", message="waiting for the board to stay still")
        else:
            self.status = CameraStatus("reading", track=track)
        return self.status

    def _run(self) -> None:
        try:
            source = self._open_source()
        except Exception as error:  # any failure to start (a numpy of another ABI raises ValueError) is a notice
            reason = str(error) if isinstance(error, CameraError) else f"the camera cannot start ({error!r})"
            self.status = CameraStatus("unavailable", message=f"{reason}: play goes on by hand")
            return
        try:
            while not self._stop.is_set():
                self.step(source)
                self._stop.wait(self.interval)
        except Exception as error:  # a camera that fails mid-game must not take the companion down
            self.status = CameraStatus("unavailable", message=f"the camera stopped ({error}): play goes on by hand")
        finally:
            source.close()


def camera_report(
    status: CameraStatus, game_track: dict[int, tuple[str, ...]], language: str = "en"
) -> dict[str, Any]:
    """The camera's news for the pages: its state, and how the board it sees differs from the game (in
    ``language``, ``"en"`` or ``"fr"``)."""
    from companion.board_check import differences, phrase

    report = status.as_json()
    if status.track is not None:
        found = differences({space: list(stack) for space, stack in game_track.items()}, status.track, language)
        report["differences"] = found
        report["message"] = phrase("differ" if found else "matches", language)
    return report


def wait_for(watch: CameraWatch, states: set[str], timeout: float = 10.0) -> CameraStatus:
    """Wait until the camera reaches one of ``states`` (for tests and start-up)."""
    deadline = time.monotonic() + timeout
    while watch.status.state not in states and time.monotonic() < deadline:
        time.sleep(0.02)
    return watch.status
