"""Stable readings: a reading counts only once several frames in a row agree on every stack and on the camels
they cannot see, so a hand passing over the board or a camel being put down never becomes a correction, while
a camel that stays hidden (behind the pyramid, the palm tree, a taller stack) does not keep a still board from
counting."""

from __future__ import annotations

from vision.read import Reading


class StableReadings:
    """Feed it each frame's reading (``None`` when the board was not found); it answers the track once
    ``agree`` consecutive readings give the same one with the same camels unseen, and keeps answering it until
    the board changes. A hand moving over the board changes what is seen or unseen from frame to frame; the
    pyramid hiding the same camel does not."""

    def __init__(self, agree: int = 3) -> None:
        if agree < 1:
            raise ValueError("agree must be at least 1")
        self.agree = agree
        self._candidate: tuple[dict[int, list[str]], tuple[str, ...]] | None = None
        self._count = 0

    @property
    def unseen(self) -> tuple[str, ...]:
        """The camels the current run of frames does not see (sorted; empty before any)."""
        return self._candidate[1] if self._candidate is not None else ()

    @property
    def frames(self) -> int:
        """How many frames in a row have agreed so far (0 after a frame without the board)."""
        return self._count

    def feed(self, reading: Reading | None) -> dict[int, list[str]] | None:
        if reading is None:
            self._candidate, self._count = None, 0  # no board: the run is broken
            return None
        seen = (reading.track, tuple(sorted(reading.unseen)))
        if seen == self._candidate:
            self._count += 1
        else:
            self._candidate, self._count = seen, 1
        return self._candidate[0] if self._count >= self.agree else None
