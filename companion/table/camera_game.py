"""Which game the camera checks: one camera stands at the table, and any phone on the network can make a game.

The rule (the README's camera section says it to users): the camera checks one game at a time, the game that took
it. A game in play takes the camera when one of its pages asks what the camera sees (or its host opens the
placement assistant) while no other game in play holds it; a game is in play while it is not over and was created
or entered within the last :data:`IDLE_SECONDS`. Only that game gets the camera's verdicts, its lessons and
corrections, and only its host the live view and the calibration photo; another game's pages are told that the
camera checks another game. A throwaway game cannot take the camera from a game in play, nor switch its board
(the lobby's read of a new game's start waits too), nor restart the still run that game is judged on."""

from __future__ import annotations

import threading
from collections.abc import Callable

IDLE_SECONDS = 15 * 60
"""A game with no entry for this long has been left (a real leg has an entry every minute or two): another game
may take the camera."""

OTHER_GAME = (f"the camera checks another game at this table: it checks this game once that one is over or has "
              f"had no entry for {IDLE_SECONDS // 60} minutes")
"""What another game's pages are told (the catalogs say it in the page's language: ``camera.other game``)."""


class CameraGame:
    """The game the camera checks (by id), shared by the web's threads."""

    def __init__(self, game_id: str | None = None, since: float = 0.0) -> None:
        """``game_id``: the game that holds the camera from the start (after a restart, the race in play)."""
        self._lock = threading.Lock()
        self.game_id = game_id
        self.since = since
        """When it took the camera (the store's clock): the camera reads its board from then on."""

    def take(self, game_id: str, in_play: Callable[[str], bool], now: float) -> bool:
        """Whether ``game_id`` holds the camera, taking it when it is in play and no other game in play holds it
        (or when no game has taken it yet)."""
        with self._lock:
            if self.game_id == game_id:
                return True
            # Only a game in play takes it from another (two games left open on pages would take turns).
            if self.game_id is not None and (in_play(self.game_id) or not in_play(game_id)):
                return False
            self.game_id, self.since = game_id, now
            return True

    def held_in_play(self, in_play: Callable[[str], bool]) -> str | None:
        """The game in play that holds the camera, if any (without taking it)."""
        with self._lock:
            held = self.game_id
        return held if held is not None and in_play(held) else None
