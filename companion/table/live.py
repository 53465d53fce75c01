"""What the game service and the JSON views share: who is calling, a game as it lives in memory, and the
error a caller is answered with. A module of its own so that the service and the views need not import each
other."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.rules import GameState
from companion.table.store import Entry, GameRow, effective_actions


class ApiError(Exception):
    """An error for the caller: ``status`` is the HTTP status, ``message`` says what is wrong in words."""

    def __init__(self, status: int, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code


@dataclass(frozen=True)
class Caller:
    role: str
    """``"host"``, ``"seat"`` or ``"table"`` (the read-only table screen)."""
    player: str | None = None


@dataclass
class LiveGame:
    row: GameRow
    entries: list[Entry]
    state: GameState
    lock: threading.Lock = field(default_factory=threading.Lock)
    listeners: list[Callable[[], None]] = field(default_factory=list)
    """Live pages' wake-up calls: after every change, and when a seat's link is replaced."""
    version: int = 0
    views: dict[tuple[int, str, str | None], str] = field(default_factory=dict)
    """Serialised views of the current version, one per kind of viewer (most pages share one)."""

    @property
    def snapshot(self) -> tuple[int, GameState]:
        """``(version, state)`` taken together, for readers that do not hold the lock."""
        return self._snapshot

    def __post_init__(self) -> None:
        self._snapshot = (self.version, self.state)

    def record(self, entry: Entry, after: GameState) -> None:
        """Take in a stored entry and the state after it."""
        self.entries.append(entry)
        self.views = {}
        self.state = after
        self.version = len(self.entries)  # survives restarts: open pages never see the version go back
        self._snapshot = (self.version, after)  # one assignment: readers never see a half-made change

    @property
    def actions(self) -> list[dict[str, Any]]:
        return effective_actions(self.entries)
