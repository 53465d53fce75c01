"""The store's edges (companion/table/store.py) that mutation testing found unwatched: entries come back with
their number and time, a failed write is rolled back and the next one works, a full disk at start is a problem
that clears (not a read-only store), and a store that cannot write still reads, from any thread, writing
nothing anywhere."""

from __future__ import annotations

import os
import sqlite3
import threading

import pytest

from companion.table.store import Entry, GameRow, StorageError, Store


def row(game_id: str = "g1", created: float = 1.0) -> GameRow:
    return GameRow(game_id, created, "2018", ["Ann", "Bob"], {"track": {}}, "manual", "h", "t",
                   {"Ann": "a", "Bob": "b"}, None, {"Ann": "Nomad"}, ("Ann",))


def in_thread(function):
    """``function()`` run on another thread (the server's request threads), its result or its error."""
    out: list = []
    worker = threading.Thread(target=lambda: out.append(_try(function)))
    worker.start()
    worker.join(timeout=10)
    assert out, "the other thread did not finish"
    if isinstance(out[0], BaseException):
        raise out[0]
    return out[0]


def _try(function):
    try:
        return function()
    except BaseException as error:  # handed back to the test's thread
        return error


def test_entries_come_back_numbered_timed_and_in_order(tmp_path):
    ticks = iter([100.0, 200.5, 300.25])
    store = Store(tmp_path / "g.sqlite3", clock=lambda: next(ticks))  # 100.0: the start's probe
    store.create_game(row())
    second = store.append("g1", 2, "undo", {}, "host")
    first = store.append("g1", 1, "action", {"type": "leg_bet", "camel": "red"}, "Ann")
    assert second == Entry(2, "undo", {}, "host", 200.5) and first.at == 300.25
    assert store.entries("g1") == [first, second]  # by number, not by arrival
    assert store.entries("other") == []


def test_the_result_is_set_with_the_entry_and_kept_unless_given(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    store.create_game(row())
    store.append("g1", 1, "action", {}, "Ann", result={"winners": ["Ann"]})
    store.append("g1", 2, "action", {}, "Bob")  # KEEP: the result stays
    assert store.games()[0].result == {"winners": ["Ann"]}
    store.append("g1", 3, "undo", {}, "host", result={})  # an empty result is no result
    assert store.games()[0].result is None
    store.append("g1", 4, "action", {}, "Ann", result={"winners": ["Bob"]})
    store.append("g1", 5, "undo", {}, "host", result=None)  # an undo past the end takes it back
    again = Store(tmp_path / "g.sqlite3").games()[0]
    assert again.result is None and again.characters == {"Ann": "Nomad"} and again.joined == ("Ann",)


def test_a_failed_write_is_rolled_back_named_and_the_next_write_works(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    store.create_game(row())
    with pytest.raises(StorageError) as refused:
        store.create_game(row())  # the same game twice: the database refuses
    assert "UNIQUE constraint failed" in refused.value.message and store.problem == refused.value.message
    store.append("g1", 1, "action", {}, "Ann")  # no transaction was left open
    assert store.problem is None
    with pytest.raises(StorageError):
        store.append("g1", 1, "action", {"again": True}, "Ann")  # number 1 is taken
    assert [entry.body for entry in store.entries("g1")] == [{}]


class FullDisk:
    """A connection whose first write (the start's probe) finds the disk full."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self.full = True

    def execute(self, sql, *args):
        if self.full and sql.startswith("INSERT OR REPLACE INTO probe"):
            raise sqlite3.OperationalError("database or disk is full")
        return self._db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._db, name)


def test_a_full_disk_at_start_is_a_problem_that_clears_not_a_read_only_store(tmp_path, monkeypatch):
    real_open = Store._open
    monkeypatch.setattr(Store, "_open", staticmethod(lambda path: FullDisk(real_open(path))))
    store = Store(tmp_path / "g.sqlite3")
    assert store.problem == "the disk is full" and store.read_only_reason is None
    store.create_game(row())  # room again: writing works and the problem is gone
    assert store.problem is None and [game.id for game in store.games()] == ["g1"]


def test_a_full_disk_before_the_database_opens_is_a_read_only_store(tmp_path, monkeypatch):
    def cannot_open(path):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(Store, "_open", staticmethod(cannot_open))
    store = Store(tmp_path / "g.sqlite3")
    assert store.read_only_reason == f"{tmp_path}: the disk is full" and store.problem == store.read_only_reason
    assert store.games() == []


def test_a_store_that_cannot_write_reads_from_any_thread_and_writes_nothing_anywhere(tmp_path, monkeypatch):
    here = tmp_path / "cwd"
    here.mkdir()
    monkeypatch.chdir(here)
    (tmp_path / "a-file").write_text("not a folder")
    store = Store(tmp_path / "a-file" / "data" / "g.sqlite3")  # its folder cannot be made
    assert store.read_only_reason is not None and store.read_only_reason.startswith(str(tmp_path / "a-file"))
    assert in_thread(store.games) == [] and in_thread(lambda: store.entries("g1")) == []
    with pytest.raises(StorageError) as refused:
        store.create_game(row())
    assert refused.value.message == store.read_only_reason
    assert os.listdir(here) == []  # the empty stand-in database lives in memory, not in a file


def test_a_read_only_store_reads_its_games_from_any_thread(tmp_path, monkeypatch):
    path = tmp_path / "g.sqlite3"
    store = Store(path)
    store.create_game(row())
    store.append("g1", 1, "action", {"type": "leg_bet"}, "Ann")
    store.close()
    real_open = Store._open

    def read_only_disk(path):
        db = real_open(path)
        db.close()
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(Store, "_open", staticmethod(read_only_disk))
    again = Store(path)
    assert again.read_only_reason == f"{tmp_path}: the data directory is read-only"
    assert [game.id for game in in_thread(again.games)] == ["g1"]
    assert [entry.body for entry in in_thread(lambda: again.entries("g1"))] == [{"type": "leg_bet"}]


def test_a_read_only_database_from_before_characters_still_reads(tmp_path, monkeypatch):
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE games (id TEXT PRIMARY KEY, created REAL, edition TEXT, players TEXT, setup TEXT, dice TEXT,"
        " host_token TEXT, table_token TEXT, seat_tokens TEXT, result TEXT);"
        "CREATE TABLE entries (game_id TEXT, seq INTEGER, kind TEXT, body TEXT, by TEXT, at REAL);"
        "INSERT INTO games VALUES ('g0', 1.0, '2014', '[\"A\", \"B\"]', '{\"track\": {}}', 'manual', 'h', 't',"
        " '{\"A\": \"a\", \"B\": \"b\"}', NULL);")
    old.commit()
    old.close()

    def read_only_disk(path):
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(Store, "_open", staticmethod(read_only_disk))
    (game,) = Store(path).games()  # no characters or joined columns, and none can be added
    assert game.id == "g0" and game.characters == {} and game.joined == () and game.players == ["A", "B"]
