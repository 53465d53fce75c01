"""Stable readings: a reading counts only once several frames in a row agree on every stack, so a hand
passing over the board or a camel being put down never becomes a correction."""

from __future__ import annotations

from vision.read import Reading


class StableReadings:
    """Feed it each frame's reading (``None`` when the board was not found); it answers the track once
    ``agree`` consecutive readings give the same one, and keeps answering it until the board changes."""

    def __init__(self, agree: int = 3) -> None:
        if agree < 1:
            raise ValueError("agree must be at least 1")
        self.agree = agree
        self._candidate: dict[int, list[str]] | None = None
        self._count = 0

    def feed(self, reading: Reading | None) -> dict[int, list[str]] | None:
        if reading is None or (reading.problems and any("not seen" in problem for problem in reading.problems)):
            self._candidate, self._count = None, 0  # a frame that cannot be trusted breaks the run
            return None
        if reading.track == self._candidate:
            self._count += 1
        else:
            self._candidate, self._count = reading.track, 1
        return self._candidate if self._count >= self.agree else None
