"""Which game the camera checks: one camera stands at the table, and any phone on the network can make a game.

The rule (the README's camera section says it to users): the camera checks one game at a time, the game that took
it. A game in play takes the camera when one of its pages asks what the camera sees (or its host opens the
placement assistant) while no other game in play holds it; a game is in play while it is not over and was created
or entered within the last :data:`IDLE_SECONDS`. Only that game gets the camera's verdicts, its lessons and
corrections, and only its host the live view and the calibration photo; another game's pages are told that the
camera checks another game. A throwaway game cannot take the camera from a game in play, nor switch its board
(the lobby's read of a new game's start waits too), nor restart the still run that game is judged on.

The holder's host can let the camera go (the game made only to place the camera, say): from then on that game's
pages no longer take it by asking (they ask every two seconds, and would take it straight back), so the next game
whose page asks takes it. The released game takes it again only when its host asks for it (opens the placement
assistant, or taps "Use the camera for this game") while no other game in play holds it. Which games let it go is
stored (``record``), so a restart does not hand it back to them."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Protocol

IDLE_SECONDS = 15 * 60
"""A game with no entry for this long has been left (a real leg has an entry every minute or two): another game
may take the camera."""

OTHER_GAME = ("the camera checks another game at this table: its host can release it (Place the camera page), or "
              f"it is free once that game is over or has had no entry for {IDLE_SECONDS // 60} minutes")
"""What another game's pages are told (the catalogs say it in the page's language: ``camera.other game``)."""

WANTED_SECONDS = 10.0
"""Another game's page asked for the camera this recently (pages ask every two seconds): the holder's host is told,
with the button that lets it go."""

RELEASED = ("this game's host let the camera go: it does not check this game until the host asks for it again "
            "(Use the camera for this game)")
"""What a released game's pages are told while no other game in play holds the camera (``camera.released``)."""


class CameraGame:
    """The game the camera checks (by id), shared by the web's threads, and the games whose host let it go."""

    def __init__(self, game_id: str | None = None, since: float = 0.0, released: Iterable[str] = (),
                 record: Callable[[str, bool], None] | None = None) -> None:
        """``game_id``: the game that holds the camera from the start (after a restart, the race in play);
        ``released``: the games whose host let it go (from the store); ``record(game, released)`` stores a
        release or its end before it counts (it raises when it cannot, and nothing changes)."""
        self._lock = threading.Lock()
        self.game_id = game_id
        self.since = since
        """When it took the camera (the store's clock): the camera reads its board from then on."""
        self._released = set(released) - {game_id}
        self._record = record
        self._wanted = float("-inf")

    def take(self, game_id: str, in_play: Callable[[str], bool], now: float, asked: bool = False) -> bool:
        """Whether ``game_id`` holds the camera, taking it when it is in play and no other game in play holds it
        (or when no game holds it). A game whose host let the camera go takes it only when ``asked`` (its host
        asks for it: not a page's regular look)."""
        with self._lock:
            if self.game_id == game_id:
                return True
            if game_id in self._released and not asked:
                return False
            if self.game_id is not None:
                # Only a game in play takes it from another (two games left open on pages would take turns).
                waiting = in_play(game_id)
                if in_play(self.game_id) or not waiting:
                    if waiting:
                        self._wanted = now  # the holder's host is told a game in play waits for it
                    return False
            if game_id in self._released:
                self._store(game_id, False)
                self._released.discard(game_id)
            self.game_id, self.since, self._wanted = game_id, now, float("-inf")
            return True

    def release(self, game_id: str) -> bool:
        """``game_id``'s host lets the camera go: whether it held it (else nothing changes). The next game whose
        page asks takes it; this one's pages do not take it back by asking."""
        with self._lock:
            if self.game_id != game_id:
                return False
            self._store(game_id, True)  # stored first: a release that cannot be stored did not happen
            self._released.add(game_id)
            self.game_id = None
            self._wanted = float("-inf")  # whoever waited takes it at its next look
            return True

    def wanted(self, now: float) -> bool:
        """Whether a page of another game in play asked for the camera in the last :data:`WANTED_SECONDS` (and
        was refused): the holder's host may be done with it (a game made only to place the camera)."""
        with self._lock:
            return now - self._wanted <= WANTED_SECONDS

    def released(self, game_id: str) -> bool:
        """Whether ``game_id``'s host let the camera go (and has not asked for it since)."""
        with self._lock:
            return game_id in self._released

    def held_in_play(self, in_play: Callable[[str], bool]) -> str | None:
        """The game in play that holds the camera, if any (without taking it)."""
        with self._lock:
            held = self.game_id
        return held if held is not None and in_play(held) else None

    def _store(self, game_id: str, released: bool) -> None:
        if self._record is not None:
            self._record(game_id, released)


class ReleaseRecord(Protocol):
    """Where releases are stored (:class:`companion.table.store.Store`)."""

    def camera_released(self) -> set[str]: ...

    def set_camera_released(self, game_id: str, released: bool) -> None: ...


def camera_game_of(store: ReleaseRecord, game_id: str | None = None, since: float = 0.0) -> CameraGame:
    """The camera's holder for a companion whose games are in ``store`` (the releases stored there count)."""
    return CameraGame(game_id, since, store.camera_released(), store.set_camera_released)
