"""SQLite storage: every game as its log (setup, then every action with who and when).

The database holds the log, never a snapshot: a game's state is rebuilt by replaying it. An action is
committed (WAL, ``synchronous=FULL``) before the caller acknowledges it, so a pulled power cord loses
nothing that a phone was told had been accepted.

Lines marked ``# pragma: no mutate`` hold SQL, which ignores case: mutation testing's upper- and lower-case
copies of them are the same program (``make mutation`` would count them as survivors no test can catch).
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Collection
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
    characters  TEXT,               -- JSON {player: character}, may be empty
    joined      TEXT                -- JSON [player]: seats that have joined from their own phone
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
CREATE TABLE IF NOT EXISTS probe (id INTEGER PRIMARY KEY, at REAL);  -- written at start: can we write?
CREATE TABLE IF NOT EXISTS camera_released (  -- games whose host let the camera go (companion.table.camera_game)
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    at      REAL NOT NULL
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
    joined: tuple[str, ...] = ()
    """Seats that have used their own link: from then on only that seat enters its finish cards."""


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


class StorageError(Exception):
    """The store cannot write (read-only or full disk, broken file): nothing was stored. ``message`` says why in
    words a host can act on."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _reason(error: BaseException) -> str:
    """A storage failure in words: what the host should look at."""
    text = str(error)
    if (isinstance(error, OSError) and error.errno == errno.ENOSPC) or "disk is full" in text:
        return "the disk is full"
    if (isinstance(error, OSError) and error.errno in (errno.EROFS, errno.EACCES, errno.EPERM)) or "readonly" in text \
            or "read-only" in text:
        return "the data directory is read-only"
    if "database is locked" in text:
        return "another companion is already using this data directory"
    if "disk I/O error" in text:
        return "disk I/O error (can the database files be written?)"
    return text or type(error).__name__


OPTIONAL_COLUMNS = ("characters", "joined")
_open_stores: weakref.WeakValueDictionary[Path, Store] = weakref.WeakValueDictionary()
_open_stores_lock = threading.Lock()
KEEP = object()
"""``Store.append(result=KEEP)``: leave the game's result as it is."""


class Store:
    """One SQLite file. Thread-safe: one connection, guarded by a lock (the Pi serves one table).

    A store that cannot write says so in ``problem`` (and every write raises :class:`StorageError`) instead of
    failing: games already stored can still be seen. The database is opened in exclusive locking mode, so the
    WAL index lives in this process's memory, never in a memory-mapped ``-shm`` file whose failure would kill
    the server with SIGBUS; a second companion on the same data directory is refused at start.
    """

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.Lock()
        self.read_only_reason: str | None = None
        """Why the store was opened read-only at start (fixed only by a restart), else None."""
        self.problem: str | None = None
        """The last write failure, cleared by the next write that succeeds (a disk that was full and is not)."""
        with _open_stores_lock:  # a new store on the same file in this process takes over (a restart)
            previous = _open_stores.get(self.path.resolve())
            if previous is not None:
                previous.close()
            _open_stores[self.path.resolve()] = self
        db: sqlite3.Connection | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                _probe_directory(self.path.parent)
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
            db = self._open(self.path)
            db.execute("INSERT OR REPLACE INTO probe VALUES (1, ?)", (self._clock(),))  # pragma: no mutate
        except (OSError, sqlite3.Error) as error:
            reason = _reason(error)
            if db is not None and reason == "the disk is full":
                self.problem = reason  # the database is open: writing works again once there is room
            else:
                if db is not None:
                    db.close()
                self.read_only_reason = f"{self.path.parent}: {reason}"
                self.problem = self.read_only_reason
                db = self._open_read_only(self.path)
        self._db = db
        self._optional = [column for column in OPTIONAL_COLUMNS if column in self._columns()]

    @staticmethod
    def _open(path: Path) -> sqlite3.Connection:
        db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA locking_mode=EXCLUSIVE")  # pragma: no mutate; before WAL: no shared-memory file at all
            db.execute("PRAGMA mmap_size=0")  # pragma: no mutate
            db.execute("PRAGMA journal_mode=WAL")  # pragma: no mutate
            db.execute("PRAGMA synchronous=FULL")  # pragma: no mutate
            db.execute("PRAGMA foreign_keys=ON")  # pragma: no mutate
            db.executescript(SCHEMA)
            columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}  # pragma: no mutate
            for column in OPTIONAL_COLUMNS:  # a database made before these were recorded
                if column not in columns:
                    db.execute(f"ALTER TABLE games ADD COLUMN {column} TEXT")
        except sqlite3.Error:
            db.close()
            raise
        return db

    @staticmethod
    def _open_read_only(path: Path) -> sqlite3.Connection:
        """What can still be read: the database as it is (``immutable``: nothing may change it), else nothing."""
        try:
            # Not mutated: Debian's SQLite reads a file: URI whatever uri= says.
            db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True,  # pragma: no mutate
                                 check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA mmap_size=0")  # pragma: no mutate
            if "seq" in {row[1] for row in db.execute("PRAGMA table_info(entries)")}:  # pragma: no mutate
                return db
            db.close()
        except (OSError, sqlite3.Error):
            pass
        empty = sqlite3.connect(":memory:", check_same_thread=False,
                                isolation_level=None)  # pragma: no mutate (nothing is ever written to it)
        empty.executescript(SCHEMA)
        return empty

    def _columns(self) -> set[str]:
        return {row[1] for row in self._db.execute("PRAGMA table_info(games)")}  # pragma: no mutate

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        """Run ``statements`` as one transaction, committed to disk before returning.

        Raises:
            StorageError: nothing was stored (and ``problem`` says why).
        """
        if self.read_only_reason is not None:
            raise StorageError(self.read_only_reason)
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")  # pragma: no mutate
                try:
                    for sql, parameters in statements:
                        self._db.execute(sql, parameters)
                    self._db.execute("COMMIT")  # pragma: no mutate
                except BaseException:
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")  # pragma: no mutate
                    raise
            except (OSError, sqlite3.Error) as error:
                self.problem = _reason(error)
                raise StorageError(self.problem) from error
            self.problem = None

    def now(self) -> float:
        """The store's clock (the time entries are stamped with)."""
        return self._clock()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create_game(self, row: GameRow) -> None:
        self._write([(
            "INSERT INTO games (id, created, edition, players, setup, dice, host_token,"  # pragma: no mutate
            " table_token, seat_tokens, characters, joined)"  # pragma: no mutate
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",  # pragma: no mutate
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
                json.dumps(list(row.joined)),
            ),
        )])

    def append(self, game_id: str, seq: int, kind: str, body: dict[str, Any], by: str,
               result: dict[str, Any] | object | None = KEEP) -> Entry:
        """Durably append one entry (and set the game's ``result`` in the same transaction, unless ``KEEP``);
        returns only once it is committed to disk.

        Raises:
            StorageError: nothing was stored.
        """
        entry = Entry(seq, kind, body, by, self._clock())
        statements: list[tuple[str, tuple[Any, ...]]] = [
            ("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?)",  # pragma: no mutate
             (game_id, seq, kind, json.dumps(body), by, entry.at))]
        if result is not KEEP:
            statements.append(("UPDATE games SET result = ? WHERE id = ?",  # pragma: no mutate
                               (json.dumps(result) if result else None, game_id)))
        self._write(statements)
        return entry

    def set_seat_tokens(self, game_id: str, tokens: dict[str, str]) -> None:
        self._write([("UPDATE games SET seat_tokens = ? WHERE id = ?",  # pragma: no mutate
                      (json.dumps(tokens), game_id))])

    def set_joined(self, game_id: str, joined: tuple[str, ...]) -> None:
        self._write([("UPDATE games SET joined = ? WHERE id = ?",  # pragma: no mutate
                      (json.dumps(list(joined)), game_id))])

    def games(self) -> list[GameRow]:
        with self._lock:
            optional = ", ".join(column if column in self._optional
                                 else "NULL"  # pragma: no mutate
                                 for column in OPTIONAL_COLUMNS)
            rows = self._db.execute(
                "SELECT id, created, edition, players, setup, dice, host_token, table_token,"  # pragma: no mutate
                " seat_tokens, result,"  # pragma: no mutate
                f" {optional} FROM games ORDER BY created"
            ).fetchall()
        return [_game_row(row) for row in rows]

    def in_play_last(self, skip: Collection[str] = ()) -> tuple[str, str, float] | None:
        """The game played last among those whose race is not over (and not in ``skip``): its id, edition, and
        when it was last played (its latest entry, else its creation), or None when every race is over. A game's
        ``result`` is set with the entry that ends its race and cleared by the undo or correction that reopens it."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.edition, MAX(g.created, COALESCE(MAX(e.at), g.created)) AS played"  # pragma: no mutate
                " FROM games AS g LEFT JOIN entries AS e ON e.game_id = g.id"  # pragma: no mutate
                " WHERE g.result IS NULL GROUP BY g.id ORDER BY played DESC"  # pragma: no mutate
            ).fetchall()
        row = next((row for row in rows if row[0] not in skip), None)
        return None if row is None else (str(row[0]), str(row[1]), float(row[2]))

    def camera_released(self) -> set[str]:
        """The games whose host let the camera go (``set_camera_released``)."""
        with self._lock:
            try:
                rows = self._db.execute("SELECT game_id FROM camera_released").fetchall()  # pragma: no mutate
            except sqlite3.OperationalError:  # an older database opened read-only: no game let it go
                return set()
        return {str(row[0]) for row in rows}

    def set_camera_released(self, game_id: str, released: bool) -> None:
        """Durably record that ``game_id``'s host let the camera go (or asked for it again).

        Raises:
            StorageError: nothing was stored.
        """
        if released:
            self._write([("INSERT OR REPLACE INTO camera_released VALUES (?, ?)",  # pragma: no mutate
                          (game_id, self._clock()))])
        else:
            self._write([("DELETE FROM camera_released WHERE game_id = ?", (game_id,))])  # pragma: no mutate

    def entries(self, game_id: str) -> list[Entry]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, kind, body, by, at FROM entries WHERE game_id = ? ORDER BY seq",  # pragma: no mutate
                (game_id,),
            ).fetchall()
        return [Entry(seq, kind, json.loads(body), by, at) for seq, kind, body, by, at in rows]


def _game_row(row: tuple[Any, ...]) -> GameRow:
    id_, created, edition, players, setup, dice, host, table, seats, result, characters, joined = row
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
        tuple(json.loads(joined)) if joined else (),
    )


def _probe_directory(directory: Path) -> None:
    """Write, sync and remove a small file: a read-only or full disk shows now, not at the first action."""
    probe = directory / ".write-probe"  # pragma: no mutate (any name will do: it is removed at once)
    with open(probe, "wb") as handle:
        handle.write(b"ok")  # pragma: no mutate (any bytes will do)
        handle.flush()
        os.fsync(handle.fileno())
    probe.unlink()
