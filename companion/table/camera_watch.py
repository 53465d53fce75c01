"""The camera beside the board, watched in the background: stable readings of the board, for the companion
to compare with the game. A missing or failing camera is a notice, never a crash: play goes on by hand."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.board import BoardTemplate
from vision.calibrate import Calibration
from vision.locate import BoardLocation, BoardNotFound
from vision.read import BOARD_BGR, ReadConfig, observe, read_board
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
        learnt_path: Path | None = None,
        calibration: Calibration | None = None,
    ) -> None:
        self._open_source = open_source
        self.calibration = calibration
        """The calibration the colours come from: where its photo showed the markers, the first frame looks."""
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
        self.learnt_path = learnt_path
        """Where the colours learnt from known boards are kept (beside the games), to start from next time."""
        self.learnt = ""
        """What the latest lesson gave, in words ("" before any)."""
        self._lessons: set[object] = set()
        self._lesson: dict[int, list[str]] | None = None
        self._lock = threading.Lock()
        self._location: BoardLocation | None = None
        self._verdicts: dict[object, tuple[Any, dict[str, Any]]] = {}

    def verdict(self, key: object, start: Any, actions: list[Any], language: str = "en") -> dict[str, Any] | None:
        """The latest frame checked against the game's board and the boards a slip would give
        (:func:`companion.table.camera_verdict.camera_verdict`): ``{"answer", "matches", "most_likely",
        "unseen", "differences", "correction"?}``, or None before a frame with the board in it. Worked out
        once per frame and ``key`` (the game and its number of actions): pages that ask again cost nothing."""
        from companion.table.board_hypotheses import board_hypotheses
        from companion.table.camera_verdict import camera_verdict
        from vision.read import read_with_scorer

        frame = self.latest_frame
        if frame is None:
            return None
        cached = self._verdicts.get(key)
        if cached is not None and cached[0] is frame:
            return cached[1]
        config = ReadConfig()
        try:
            observation = observe(config, self.template, frame, near=self._near(frame))
        except BoardNotFound:
            return None
        reading, scorer = read_with_scorer(config, self.template, self.profiles, frame, self.board_bgr, observation)
        track, unseen = reading.track, reading.unseen
        found = camera_verdict(scorer, board_hypotheses(start, actions), track, unseen, list(self.profiles), language)
        result = {key: value for key, value in found.as_json().items() if key not in ("track", "expected")}
        result["answer"] = result.pop("verdict")
        self._verdicts = {key: (frame, result)}
        return result

    def learn(self, key: object, track: dict[int, list[str]]) -> None:
        """The board is known to be ``track`` (the confirmed starting positions, a leg's start): the next
        frame calibrates the camera for this table. Once per ``key`` (a game and leg), so a page that asks
        again costs nothing."""
        with self._lock:
            if key not in self._lessons:
                self._lessons.add(key)
                self._lesson = {space: list(stack) for space, stack in track.items() if stack}

    def _learn_from(self, frame: Any) -> None:
        """Calibrate from ``frame`` (its board is the lesson's); keep the colours and save them if it works."""
        from vision.calibrate import CalibrationError, calibrate_from_board

        with self._lock:
            lesson, self._lesson = self._lesson, None
        if lesson is None:
            return
        # Only from a board the camera does not contradict with the colours it has (a camel moved by
        # hand, or two swapped, would teach it wrong colours).
        try:
            reading = read_board(ReadConfig(), self.template, self.profiles, frame, self.board_bgr)
        except BoardNotFound as error:
            self.learnt = f"not calibrated from this board ({error})"
            return
        if not agrees(reading.track, lesson):
            self.learnt = "not calibrated: the camera sees the board differently from the game"
            return
        try:
            calibration = calibrate_from_board(
                ReadConfig(), self.template, list(self.profiles), frame, lesson, start=self.profiles
            )
        except (CalibrationError, BoardNotFound) as error:
            self.learnt = f"not calibrated from this board ({error})"
            return
        self.profiles, self.board_bgr = dict(calibration.profiles), calibration.board_bgr
        self.calibration = calibration
        self.learnt = "calibrated from a board the game confirmed"
        if self.learnt_path is not None:
            try:
                save_learnt(calibration, self.learnt_path)
            except OSError as error:
                self.learnt += f" (not saved: {error.strerror})"

    def _near(self, frame: Any) -> BoardLocation | None:
        """Where to look for the markers first: where the previous frame had them, else where the calibration
        photo did (a camera still standing where it was calibrated, a marker or two covered at the start)."""
        if self._location is not None or self.calibration is None:
            return self._location
        return self.calibration.location((frame.shape[1], frame.shape[0]))

    def start(self) -> CameraWatch:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def step(self, source: FrameSource) -> CameraStatus:
        """Read one frame and update the status (the thread's loop; tests call it directly)."""
        try:
            frame = self.latest_frame = source.read()
            if self._lesson is not None:
                # A lesson is worth a full-resolution still where the camera can take one (picamera2).
                still = getattr(source, "still", None)
                self._learn_from(still() if callable(still) else frame)
            config = ReadConfig()
            # The camera stands still: the markers are looked for where they were in the previous frame.
            observation = observe(config, self.template, frame, near=self._near(frame))
            self._location = observation.location
            reading = read_board(config, self.template, self.profiles, frame, self.board_bgr, observation)
        except BoardNotFound as error:
            self._location = None
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


def agrees(seen: dict[int, list[str]], known: dict[int, list[str]]) -> bool:
    """Whether every camel the camera places stands where ``known`` has it, in the same order as the other
    camels it sees there (camels it does not see contradict nothing)."""
    for space, stack in seen.items():
        here = [camel for camel in known.get(space, []) if camel in stack]
        if list(stack) != here:
            return False
    return True


def save_learnt(calibration: Any, path: Path) -> Path:
    """Write a calibration atomically (a crash mid-write leaves the previous one whole)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with open(partial, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(calibration.as_json(), indent=1) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(partial, path)
    return path


LEARNT_NAME = "camera-calibration.json"
"""The calibration the companion learns by itself, in its data directory beside the games."""


def camera_report(
    status: CameraStatus, game_track: dict[int, tuple[str, ...]], language: str = "en"
) -> dict[str, Any]:
    """The camera's news for the pages: its state, and how the board it sees differs from the game (in
    ``language``, ``"en"`` or ``"fr"``)."""
    from companion.table.board_check import differences, phrase

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
