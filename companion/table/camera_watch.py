"""The camera beside the board, watched in the background: steady readings of the board, the game's board
verified against the latest steady frame, and the table's colours learnt from boards the game confirmed. A
missing or failing camera is a notice, never a crash: play goes on by hand (the pages' report: camera_report.py)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.table import camera_words as said
from companion.table.camera_read import picture_problems
from companion.table.camera_report import CameraStatus
from companion.table.camera_words import Words
from companion.table.odd_frame import frame_problem, log, unreadable_words
from companion.table.placement_still import StillRequests
from vision.board import BoardTemplate
from vision.calibrate import Calibration
from vision.edition_check import other_edition_seen
from vision.focus import measure_whole, not_found_words
from vision.image_file import colourless
from vision.locate import BoardLocation, BoardNotFound, fit_location
from vision.read import BOARD_BGR, ReadConfig, Reading, observe
from vision.reader import read_with_scorer
from vision.sources import CameraError, FrameSource
from vision.stable import StableReadings, board_bounds

NO_COLOUR = ("the picture is greyscale, and the camels differ only in colour: use a colour camera, or set this one "
             "to colour (not monochrome or night mode)")
"""The host's words for a greyscale camera (the pages say a short sentence of their own to everyone)."""

NOT_YET = "not calibrated yet: "
WAITING_FOR = "waiting for a steady frame of the board the game confirmed"
NEXT_BOARD = "it learns from the next board the game confirms (a leg's start)"
WAITING = NOT_YET + WAITING_FOR
NEXT_LEG = NOT_YET + NEXT_BOARD

OTHER_EDITION = "the camels look like the "
"""How a steady frame's problem begins when its camels look like the other edition's (vision/edition_check.py)."""

MISSED_FRAMES = 2
"""Frames in a row the camera may miss (not given, not a picture the reader can use) before the pages hear of it."""

LESSON_RETRY_FRAMES = 5
"""A lesson refused on a steady board is tried again on the next steady board (once the picture has changed and
is still again), or on a frame of the same still board at least this many frames later (a calibration costs a few
frames' time: not on every frame)."""


@dataclass(frozen=True)
class SteadyFrame:
    """The latest frame of a run of still frames: what the verdict and the lessons are worked out on."""

    frame: Any
    reading: Reading
    """The consensus of the still frames' readings (``vision.stable.consensus``)."""
    scorer: Any
    """The ``vision.silhouette.SilhouetteScorer`` the reading used: the game's boards are judged with it."""
    camels: tuple[str, ...]
    location: BoardLocation
    run: int = 0
    """Which still run it belongs to (``vision.stable.StableReadings.run``)."""
    problems: tuple[str, ...] = ()
    """What is wrong with the latest frame itself (too dark, blurred, too small; camels that look like the other
    edition's): a verdict on it says so."""
    edition: str = ""
    """The edition whose board it was read as."""


@dataclass
class Lesson:
    """A board the game confirmed (a leg's start), waiting for a steady frame that shows it."""

    game: object
    leg: int
    track: dict[int, list[str]]
    start: Any = None
    actions: list[Any] | None = None
    dice: str = "manual"
    edition: str | None = None
    """The game's edition: learnt only while the camera reads that edition's board, saved as that edition's."""
    tried: tuple[Any, int] | None = None
    """The still run it was last tried on (``vision.stable.StableReadings.run``), and the frame count then (see
    LESSON_RETRY_FRAMES)."""


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
        learnt_before: bool = False,
        note: str = "",
        calibration_file: str | None = None,
        config_file: str | None = None,
        editions: dict[str, Any] | None = None,
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
        self.stills = StillRequests()
        """Full-resolution pictures asked for by the placement page (the calibration photo), taken between frames."""
        self.status = CameraStatus("starting", message="the camera is starting")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera-watch", daemon=True)
        self.learnt_path = learnt_path
        """Where the colours learnt from known boards are kept (beside the games), to start from next time."""
        self.calibration_file = calibration_file
        """The configured calibration file it reads with (it sets the board), if any: named to a game of the other
        edition."""
        self.config_file = config_file
        """The configuration file the companion runs with (None: unknown), named where [camera] must change."""
        self._note: Words | str | None = note or None
        """Why a calibration at hand is not used (made for the other edition's camels): said with the calibration's
        state until the camera calibrates itself."""
        self._state: Words | None = (said.words(said.BEFORE) if learnt_before else
                                     said.words(said.FROM_FILE, file=calibration_file) if calibration_file else None)
        """Whether and why the camera learnt this table's colours (catalog words, :mod:`companion.table.camera_words`;
        None before any lesson without a calibration file; ``learnt_before``: the colours are those it learnt at an
        earlier start, from ``learnt_path``)."""
        self._calibrated = learnt_before
        self._settled = self._state
        """What stays true of the calibration while no lesson waits (the note a lesson's "not yet" is added to)."""
        self._held: dict[str, Any] = dict(editions or {})
        """What it reads each other edition's board with: a ``companion.table.camera_edition.EditionColours`` until
        it first reads that edition, then what it held when it last switched away (``EditionState``)."""
        self._wanted: str | None = None
        """The edition to read from the next frame on (the game played last is of it), set by :meth:`follow`."""
        self._asked: dict[object, tuple[str, float, bool]] = {}
        """Per game whose page asked: its edition, when it was last played, whether it is over."""
        self._learnt_legs: set[tuple[object, int]] = set()
        self._lesson: Lesson | None = None
        self._lock = threading.Lock()
        self._location: BoardLocation | None = None
        self._frames = 0
        self._steady: SteadyFrame | None = None
        self._verdict_lock = threading.Lock()
        self._verdicts_of: SteadyFrame | None = None
        self._verdicts: dict[object, dict[str, Any]] = {}
        self._changes: dict[object, tuple[str, int]] = {}
        """Per game (anything that names it): its actions' digest as last asked about, and the first still run
        that may judge it (one that began after the camera noticed the change: a picture taken before a draw or
        a new game must never be judged against it)."""
        self._restart = False
        """A game changed: the next frame starts a new still run, whatever the picture shows."""
        self._confirmed: dict[object, tuple[Any, dict[int, list[str]]]] = {}
        """Per game: the picture of the latest steady frame its board was confirmed on ("matches"), and that board:
        what did not change since cannot be the evidence of a difference (:class:`camera_verdict.SinceConfirmed`)."""

    def verdict(self, game: object, start: Any, actions: list[Any], language: str = "en",
                dice: str = "manual", edition: str | None = None) -> dict[str, Any] | None:
        """The latest steady frame checked against the game's board and the boards a slip would give
        (:func:`companion.table.camera_verdict.camera_verdict`): ``{"answer", "matches", "most_likely",
        "unseen", "differences", "correction"?, "pending"?, "unmoved"?}``, or None while the board is not steady (a hand
        passing over it gives no verdict, so never a correction) or still shows the moment before the game's
        latest change. ``dice``: the game's (``"pyramid"``: its draws are facts, never corrected). Worked out
        once per steady frame, ``game`` (anything that names it), its actions and ``language``: pages that ask
        again cost nothing, and frames that are not steady cost no verdict at all. ``edition``: the game's; a
        frame read as the other edition's board gives it no verdict."""
        actions = list(actions)  # the game's own list may grow meanwhile
        digest = _digest(actions)
        with self._lock:
            known = self._changes.get(game)
            if known is None or known[0] != digest:
                # New to the camera (a game just created, an entry, an undo, a correction): the still run of
                # this moment may show the board before the change. Only a run that begins with the next frame
                # may judge it.
                self._restart = True
                known = self._changes[game] = (digest, self._stable.run + 1)
                if len(self._changes) > 64:  # many games over a long evening: the oldest are forgotten
                    del self._changes[next(iter(self._changes))]
            steady = self._steady
        if steady is None or steady.run < known[1] or (edition is not None and steady.edition != edition):
            return None

        def hypotheses() -> list[Any]:
            from companion.table.board_hypotheses import board_hypotheses

            return board_hypotheses(start, actions, dice, in_play=True)

        return self._judged(steady, (game, digest, language, dice), hypotheses, language, game)

    def _judged(
        self, steady: SteadyFrame, key: object, hypotheses: Callable[[], list[Any]], language: str,
        game: object = None,
    ) -> dict[str, Any]:
        from companion.table.camera_verdict import camera_verdict

        with self._verdict_lock:  # one at a time: the scorer keeps caches, and the same question is asked once
            if self._verdicts_of is not steady:
                self._verdicts_of, self._verdicts = steady, {}
            cached = self._verdicts.get(key)
            if cached is not None:
                return cached
            reading = steady.reading
            found = camera_verdict(steady.scorer, hypotheses(), reading.track, reading.unseen, steady.camels, language,
                                   since=lambda: self._since_confirmed(game, steady))
            if found.matches is True and game is not None:
                self._confirmed[game] = (steady.scorer.observation.image, found.expected)
                if len(self._confirmed) > 8:  # many games over a long evening: the oldest are forgotten
                    del self._confirmed[next(iter(self._confirmed))]
            result = {name: value for name, value in found.as_json().items() if name not in ("track", "expected")}
            result["answer"] = result.pop("verdict")
            result["problems"] = list(steady.problems)  # "matches" on a frame too dark to trust is said with why
            if len(self._verdicts) >= 8:  # many games or languages asking at once: keep the latest only
                self._verdicts.clear()
            self._verdicts[key] = result
            return result

    def _since_confirmed(self, game: object, steady: SteadyFrame) -> Any:
        """The steady frame against the latest frame ``game``'s board was confirmed on (None before any)."""
        from companion.table.camera_verdict import SinceConfirmed
        from vision.change import change_since, space_windows

        confirmed = self._confirmed.get(game)
        if confirmed is None:
            return None
        picture, board = confirmed
        change = change_since(picture, steady.scorer.observation.image, space_windows(steady.scorer))
        return SinceConfirmed(board, change.unchanged, change.under_arm)

    @property
    def edition(self) -> str:
        """The edition whose board it reads now."""
        return str(self.template.edition)

    @property
    def learnt(self) -> str:
        """Whether and why the camera learnt this table's colours, in English ("" before any lesson without a
        calibration file)."""
        return said.text(said.with_note(self._state, self._note))

    @property
    def learnt_words(self) -> Words:
        """The host's calibration line as catalog words: which edition's colours it reads with, and how it came
        by them (the page says it in its language)."""
        return said.line(self.edition, said.with_note(self._state, self._note))

    def follow(self, game: object, edition: str, played: float, over: bool = False) -> str | None:
        """A page of ``game`` (of ``edition``, last played at ``played``; ``over``: the race is over) asks what the
        camera sees. It reads the edition of the game played last among those asked about (the latest created or
        entered; one in play before one that is over), from the next frame on. Returns None when that is
        ``game``'s edition, else the edition it reads (this game is checked from its next entry)."""
        with self._lock:
            self._asked[game] = (edition, float(played), bool(over))
            if len(self._asked) > 64:  # many games over a long evening: the one asked about longest ago goes
                del self._asked[next(iter(self._asked))]
            _, _, latest = max((not done, when, ed) for ed, when, done in self._asked.values())
            if latest not in (self.edition, *self._held):
                latest = self.edition  # an edition it has no template for (a custom board): it stays
            self._wanted = latest if latest != self.edition else None
            return None if latest == edition else latest

    def reads(self, edition: str) -> bool:
        """Whether it can read ``edition``'s board (not with a board template of its own for one edition only)."""
        return edition == self.edition or edition in self._held

    def switching(self) -> bool:
        """Whether it reads the other edition's board from the next frame on."""
        return self._wanted is not None

    def _switch(self, edition: str) -> None:
        """Read ``edition``'s board from now on (the camera's thread, between frames): its template and colours,
        and what it learnt for it; what it holds for this edition is kept for when a game of it is played again."""
        from companion.table.camera_edition import EditionColours, EditionState

        held = self._held.pop(edition)
        self._held[self.edition] = EditionState(
            self.template, dict(self.profiles), self.board_bgr, self.calibration, self.calibration_file,
            self.learnt_path, self._calibrated, self._state, self._settled, self._note)
        if isinstance(held, EditionColours):  # read for the first time since the start
            held = EditionState.first(held)
        self.template, self.profiles, self.board_bgr = held.template, held.profiles, held.board_bgr
        self.calibration, self.calibration_file, self.learnt_path = (held.calibration, held.calibration_file,
                                                                      held.learnt_path)
        self._calibrated, self._state, self._settled, self._note = (held.calibrated, held.state, held.settled,
                                                                    held.note)
        with self._lock:
            if self._lesson is not None and self._lesson.edition not in (None, edition):
                # The other edition's lesson waits in its game: asked again when the camera reads that board.
                self._lesson = None
            elif self._lesson is not None and not self._calibrated:
                self._state = self._not_yet(said.words(said.WAITING))
            self._restart = True
        self._steady = None
        self.status = CameraStatus("unsettled", message="waiting for the board to stay still")

    def learn(
        self, game: object, leg: int, track: dict[int, list[str]], start: Any = None, actions: list[Any] | None = None,
        dice: str = "manual", edition: str | None = None,
    ) -> None:
        """The game's board is ``track`` at the start of ``leg`` (the confirmed starting positions, a leg's
        start; ``start`` and ``actions``: the game, to weigh the boards a slip would give): the camera
        calibrates itself for this table from the first steady frame that shows this board (the game's verdict
        "matches", or at least is not contradicted, and the calibration finds each camel where the board says).
        Until then the lesson waits, and is tried again on later steady frames. Once per game and leg: a page
        that asks again costs nothing. ``edition``: the game's; a lesson waits while the camera reads the other
        edition's board, and is only ever saved as its own edition's."""
        board = {int(space): list(stack) for space, stack in track.items() if stack}
        entries = None if actions is None else list(actions)
        with self._lock:
            if (game, leg) in self._learnt_legs:
                return
            lesson = self._lesson
            # The same leg's start changed (a correction, an undo) is a new lesson: what the old one waited for,
            # and why it was refused, is about a board that is no longer the game's. Judged afresh next frame.
            if lesson is not None and (lesson.game, lesson.leg, lesson.track, _digest(lesson.actions),
                                       lesson.edition) == (game, leg, board, _digest(entries), edition):
                return
            self._lesson = Lesson(game, leg, board, start, entries, dice=dice, edition=edition)
            if edition is None or edition == self.edition:  # the other edition's words are said once it reads it
                self._state = self._settled if self._calibrated else self._not_yet(said.words(said.WAITING))

    def forget(self, game: object) -> None:
        """The game has moved on from its leg's start: a lesson it left waiting no longer shows its board."""
        with self._lock:
            if self._lesson is not None and self._lesson.game == game:
                self._lesson = None
                # Why that lesson waited is no longer news: only what is still true of the calibration.
                self._state = self._settled if self._calibrated else self._not_yet(said.words(said.NEXT_BOARD))

    def _take_lesson(self, steady: SteadyFrame, source: FrameSource) -> None:
        """Calibrate from the steady frame (or a full-resolution still) if it shows the lesson's board."""
        from vision.calibrate import CalibrationError, calibrate_from_board

        with self._lock:
            lesson = self._lesson
        if lesson is None or (lesson.edition is not None and lesson.edition != self.edition):
            return  # another edition's board: its colours are not this one's (it waits until the camera reads it)
        with self._lock:
            known = self._changes.get(lesson.game)
        if known is not None and steady.run < known[1]:
            return  # a picture from before the game's latest change
        # The same still picture: its consensus reading may still change a little, the lesson's answer would not.
        run = self._stable.run
        tried = lesson.tried
        if tried is not None and tried[0] == run and self._frames - tried[1] < LESSON_RETRY_FRAMES:
            return  # tried on this board a moment ago
        lesson.tried = (run, self._frames)

        def waiting(why: Words) -> Words:
            return said.words(said.EARLIER_NOT_YET, why=why) if self._calibrated else self._not_yet(why)

        # Only from a board the verdict does not contradict (a camel moved by hand, two swapped, or a camel not
        # moved yet after the last die would teach it wrong colours), nor calls a draw not moved or not entered.
        def hypotheses() -> list[Any]:
            from companion.table.board_hypotheses import Hypothesis, board_hypotheses

            if lesson.start is not None and lesson.actions is not None:
                return board_hypotheses(lesson.start, lesson.actions, lesson.dice, in_play=True)
            return [Hypothesis(lesson.track, "the game's board")]

        if lesson.actions is not None:  # the game's verdict, as its pages ask for it (worked out once)
            key: object = (lesson.game, _digest(lesson.actions), "en", lesson.dice)
        else:
            key = ("lesson", _digest(sorted(lesson.track.items())))
        verdict = self._judged(steady, key, hypotheses, "en", lesson.game if lesson.actions is not None else None)
        if verdict["matches"] is False or "pending" in verdict or "unmoved" in verdict:
            # In short: the camera box above it says the verdict in full (the host's line stays a line or two).
            why = said.UNMOVED if "unmoved" in verdict else said.PENDING if "pending" in verdict else said.DIFFERS
            self._refused(lesson, waiting(said.words(why)))
            return
        # A lesson is worth a full-resolution still where the camera can take one (picamera2).
        picture, location = steady.frame, steady.location
        if location.seen_now is not None:
            # Learnt at the frame's own corners, as from a photo: a kept place is the mean of earlier frames'.
            location = fit_location(self.template, location.seen_now)
        still = getattr(source, "still", None)
        if callable(still):
            with contextlib.suppress(CameraError):  # else the frame will do
                picture, location = still(), None
        try:
            calibration = calibrate_from_board(
                ReadConfig(), self.template, list(steady.camels), picture, lesson.track, start=self.profiles,
                location=location, camel_size=self.calibration.camel_size if self.calibration else None,
            )
        except (CalibrationError, BoardNotFound) as error:
            self._refused(lesson, waiting(said.words(said.REFUSED, error=str(error))))
            return
        with self._lock:
            self._learnt_legs.add((lesson.game, lesson.leg))
            if self._lesson is lesson:
                self._lesson = None
        if calibration.template.edition != self.edition:  # never: learnt with this edition's template
            return
        self.profiles, self.board_bgr = dict(calibration.profiles), calibration.board_bgr
        self.calibration = calibration
        self._calibrated = True
        self._note = None
        self._state = self._settled = said.confirmed(calibration.left_out)
        if self.learnt_path is not None:
            try:
                save_learnt(calibration, self.learnt_path)
            except OSError as error:
                self._state = said.words(said.NOT_SAVED, state=self._state, error=error.strerror or str(error))

    def _not_yet(self, why: Words) -> Words:
        """Why a lesson waits before any board taught the camera: a configured calibration file is in use
        meanwhile (a builder would otherwise think their file ignored)."""
        if self.calibration_file:
            return said.words(said.FILE_NOT_YET, file=self.calibration_file, why=why)
        return said.words(said.NOT_YET, why=why)

    def _refused(self, lesson: Lesson, why: Words) -> None:
        """Say why ``lesson`` waits, unless the game has replaced or dropped it meanwhile (its reason is stale)."""
        with self._lock:
            if self._lesson is lesson:
                self._state = why

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
        self.stills.asked.set()  # wakes the thread from its wait between frames
        self._thread.join(timeout=5)

    def running(self) -> bool:
        """Whether the camera's thread reads frames (it has not stopped, nor failed to open the camera)."""
        return self._thread.is_alive() and not self._stop.is_set() and self.stills.closed is None

    def _serve_stills(self, source: FrameSource) -> None:
        try:
            self.stills.serve(source, self.latest_frame)
        except Exception as error:  # the still's request has its own answer; the frames go on
            log.warning("a still could not be served", exc_info=error)

    def step(self, source: FrameSource) -> CameraStatus:
        """Read one frame and update the status (the thread's loop; tests call it directly)."""
        self._frames += 1
        with self._lock:
            wanted, self._wanted = self._wanted, None
        if wanted is not None and wanted != self.edition and wanted in self._held:
            self._switch(wanted)
        frame = None
        try:
            frame = self.latest_frame = source.read()
            odd = frame_problem(frame)
            if odd is not None:  # a glitch of this frame: said, and the next frame is read as usual
                return self._skipped(odd)
            if colourless(frame):
                # Every camel would look like the board: not a board to judge, but a camera to set right.
                self._steady = None
                self._stable.feed(None)
                self.status = CameraStatus("no colour", message=NO_COLOUR)
                return self.status
            config = ReadConfig()
            camels = tuple(self.profiles)
            # The camera stands still: the markers are looked for where they were in the previous frame.
            observation = observe(config, self.template, frame, near=self._near(frame), frames=True)
            self._location = observation.location
            reading, scorer = read_with_scorer(config, self.template, self.profiles, frame, self.board_bgr,
                                               observation, fit=self.calibration.fit() if self.calibration else None)
        except BoardNotFound as error:
            self._location = self._steady = None
            self._stable.feed(None)
            # A picture too blurred, dark or bright for any marker says so first ("point the camera at the board"
            # would not help): measured on the whole frame.
            whole = measure_whole(frame)
            message = not_found_words(frame, _without_calibration_advice(str(error)), whole)
            self.status = CameraStatus("board not found", message=message,
                                       whole=whole.as_json() if whole.problems() else None)
            return self.status
        except CameraError as error:
            return self._missed(CameraStatus("unavailable", message=f"{error}: play goes on by hand"))
        except Exception as error:  # the reader failed on this frame (an OpenCV assertion): this frame's problem only
            if frame is None:  # the camera's driver failed in a way of its own: tried again at the next frame
                return self._missed(CameraStatus("unavailable", message=f"{unreadable_words(None, error, 'taken')}: "
                                                 "play goes on by hand meanwhile"))
            return self._skipped(unreadable_words(frame, error))
        self._misses = 0
        # Steady is judged from the pictures (a still board whose blind reading flickers is still steady).
        with self._lock:
            restart, self._restart = self._restart, False
        if restart:  # a game changed since the last frame: a new still run begins with this frame
            self._stable.restart()
        track = self._stable.feed(reading, frame, board_bounds(self.template, observation.location, frame.shape))
        agreed = self._stable.reading
        if track is None or agreed is None:
            self._steady = None
            self.status = CameraStatus("unsettled", message="waiting for the board to stay still")
            return self.status
        problems = tuple(picture_problems(reading.problems))
        previous = self._steady
        if previous is not None and previous.run == self._stable.run and previous.edition == self.edition:
            problems += tuple(p for p in previous.problems if p.startswith(OTHER_EDITION))  # once per still run
        elif (seen := other_edition_seen(scorer, agreed.track, list(camels), self.board_bgr)) is not None:
            problems += (f"{seen.sentence()}: is the game's edition right? The camera reads the board of the game's "
                         "edition",)
        steady = self._steady = SteadyFrame(frame, agreed, scorer, camels, observation.location, self._stable.run,
                                            problems, self.edition)
        self.status = CameraStatus("reading", track=track, unseen=self._stable.unseen)
        self._take_lesson(steady, source)
        return self.status

    def _skipped(self, why: str) -> CameraStatus:
        """A frame the reader cannot use: no steady board from it, and the host is told why."""
        return self._missed(CameraStatus("board not found", message=why))

    _misses = 0
    """Frames missed in a row (:meth:`_missed`)."""

    def _missed(self, status: CameraStatus) -> CameraStatus:
        """A frame the camera did not give, or gave unusable: in a run of good frames, up to :data:`MISSED_FRAMES` in
        a row are not news (a flaky camera must not make every page flicker); the status and the steady board stay.
        More in a row, and the host is told why."""
        self._misses += 1
        if self._misses <= MISSED_FRAMES and self.status.state in ("reading", "unsettled"):
            return self.status
        self._location = self._steady = None
        self._stable.feed(None)
        self.status = status
        return self.status

    def _run(self) -> None:
        try:
            source = self._open_source()
        except Exception as error:  # any failure to start (a numpy of another ABI raises ValueError) is a notice
            reason = str(error) if isinstance(error, CameraError) else f"the camera cannot start ({error!r})"
            self.status = CameraStatus("unavailable", message=f"{reason}: play goes on by hand")
            self.stills.close(reason)  # a still asked for now is refused at once, not waited for
            return
        try:
            while not self._stop.is_set():
                # Caught per step, not around the loop: one odd frame or failed still is that frame's problem,
                # and the next frame is read as usual (a camera that fails mid-game keeps being tried).
                try:
                    self.step(source)
                except Exception as error:
                    self._steady = None
                    self.status = CameraStatus("unavailable", message=f"{unreadable_words(self.latest_frame, error)}: "
                                               "play goes on by hand meanwhile")
                self._serve_stills(source)
                # Until the next frame, a still asked for is taken at once (the host's request waits a moment only).
                deadline = time.monotonic() + self.interval
                while not self._stop.is_set() and (left := deadline - time.monotonic()) > 0:
                    if self.stills.asked.wait(left) and not self._stop.is_set():
                        self._serve_stills(source)
        finally:
            self.stills.close("the camera has stopped")
            with contextlib.suppress(Exception):
                source.close()


CALIBRATE_AGAIN = " (calibrate again where it stands now)"
"""``vision.locate.BoardNotFound``'s advice when the markers moved, for a calibration file made by hand
(``vision read``). The watch needs no new calibration (it finds the markers wherever they are, and learns the
colours by itself): ..."""
MOVED_ADVICE = " Bring all four markers into view where it stands now: it finds the board again by itself."
"""... what the host is told instead."""


def _without_calibration_advice(message: str) -> str:
    return message.replace(CALIBRATE_AGAIN, MOVED_ADVICE) if message.endswith(CALIBRATE_AGAIN) else message


def _digest(actions: list[Any] | None) -> str:
    """The game's actions in short, for the verdicts' cache (a correction changes an action, not their count)."""
    return hashlib.sha1(json.dumps(actions, sort_keys=True, default=str).encode()).hexdigest()


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


def wait_for(watch: CameraWatch, states: set[str], timeout: float = 10.0) -> CameraStatus:
    """Wait until the camera reaches one of ``states`` (for tests and start-up)."""
    deadline = time.monotonic() + timeout
    while watch.status.state not in states and time.monotonic() < deadline:
        time.sleep(0.02)
    return watch.status
