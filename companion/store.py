"""SQLite storage: every game as its log (setup, then every action with who and when).

The database holds the log, never a snapshot: a game's state is rebuilt by replaying it. An action is
committed (WAL, ``synchronous=FULL``) before the caller acknowledges it, so a pulled power cord loses
nothing that a phone was told had been accepted.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id          TEXT PRIMARY KEY,
    created     REAL NOT NULL,
    edition     TEXT NOT NULL,
    players     TEXT NOT NULL,      -- JSON list, seating order
    setup       TEXT NOT NULL,      -- JSON {"track": {...}}
    dice        TEXT NOT NULL,      -- "pyramid" or "manual"
    host_token  TEXT NOT NULL,
    table_token TEXT NOT NULL,
    seat_tokens TEXT NOT NULL,      -- JSON {player: token}
    result      TEXT,               -- JSON summary once the race is over
    characters  TEXT                -- JSON {player: character}, may be empty
);
CREATE TABLE IF NOT EXISTS entries (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    kind    TEXT NOT NULL,          -- "action" or "undo"
    body    TEXT NOT NULL,          -- JSON action object (empty object for an undo)
    by      TEXT NOT NULL,          -- who sent it: a player's name or "host"
    at      REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


@dataclass(frozen=True)
class GameRow:
    id: str
    created: float
    edition: str
    players: list[str]
    setup: dict[str, Any]
    dice: str
    host_token: str
    table_token: str
    seat_tokens: dict[str, str]
    result: dict[str, Any] | None
    characters: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str
    body: dict[str, Any]
    by: str
    at: float


def effective_actions(entries: list[Entry]) -> list[dict[str, Any]]:
    """The actions that stand: each undo entry takes back the last action still standing, and each
    correction entry replaces one standing action (``body["index"]``) by ``body["action"]``."""
    actions: list[dict[str, Any]] = []
    for entry in entries:
        if entry.kind == "undo":
            if actions:
                actions.pop()
        elif entry.kind == "correct":
            actions[entry.body["index"]] = entry.body["action"]
        else:
            actions.append(entry.body)
    return actions


class Store:
    """One SQLite file. Thread-safe: one connection, guarded by a lock (the Pi serves one table)."""

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._clock = clock
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        if "characters" not in columns:  # a database made before characters were recorded
            self._db.execute("ALTER TABLE games ADD COLUMN characters TEXT")

    def now(self) -> float:
        """The store's clock (the time entries are stamped with)."""
        return self._clock()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create_game(self, row: GameRow) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO games (id, created, edition, players, setup, dice, host_token, table_token, seat_tokens,"
                " characters) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.id,
                    row.created,
                    row.edition,
                    json.dumps(row.players),
                    json.dumps(row.setup),
                    row.dice,
                    row.host_token,
                    row.table_token,
                    json.dumps(row.seat_tokens),
                    json.dumps(row.characters),
                ),
            )

    def append(self, game_id: str, seq: int, kind: str, body: dict[str, Any], by: str) -> Entry:
        """Durably append one entry; returns only once it is committed to disk."""
        entry = Entry(seq, kind, body, by, self._clock())
        with self._lock:
            self._db.execute(
                "INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, kind, json.dumps(body), by, entry.at),
            )
        return entry

    def set_seat_tokens(self, game_id: str, tokens: dict[str, str]) -> None:
        with self._lock:
            self._db.execute("UPDATE games SET seat_tokens = ? WHERE id = ?", (json.dumps(tokens), game_id))

    def set_result(self, game_id: str, result: dict[str, Any] | None) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE games SET result = ? WHERE id = ?", (json.dumps(result) if result else None, game_id)
            )

    def games(self) -> list[GameRow]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, created, edition, players, setup, dice, host_token, table_token, seat_tokens, result,"
                " characters FROM games ORDER BY created"
            ).fetchall()
        return [_game_row(row) for row in rows]

    def entries(self, game_id: str) -> list[Entry]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, kind, body, by, at FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return [Entry(seq, kind, json.loads(body), by, at) for seq, kind, body, by, at in rows]


def _game_row(row: tuple[Any, ...]) -> GameRow:
    id_, created, edition, players, setup, dice, host, table, seats, result, characters = row
    return GameRow(
        id_,
        created,
        edition,
        json.loads(players),
        json.loads(setup),
        dice,
        host,
        table,
        json.loads(seats),
        json.loads(result) if result else None,
        json.loads(characters) if characters else {},
    )
