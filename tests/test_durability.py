"""What is acknowledged is on disk: the store's durability settings, store-before-acknowledge, and a restart
that brings back everything a game holds (players' characters, seat links, undos, the result)."""

from __future__ import annotations

import errno
import sqlite3

import pytest

from companion.table.service import ApiError, Caller, GameService
from companion.table.store import StorageError, Store

SETUP = {"track": {"1": ["green", "red"], "3": ["yellow", "blue", "purple"], "14": ["black"], "16": ["white"]}}
HOST = Caller("host")


def _new_game(service: GameService, **extra) -> str:
    body = {"edition": "2018", "players": ["Ann", "Bob", "Cy"], "dice": "manual", "setup": SETUP, **extra}
    return service.create(body)["game_id"]


def test_the_store_commits_with_a_full_fsync_in_wal_mode(tmp_path, monkeypatch):
    """``synchronous=FULL`` makes SQLite fsync the WAL at every commit; with ``NORMAL`` or ``OFF`` a power cut
    can lose what a phone was told was accepted. The kill -9 test cannot see this (the OS keeps its cache)."""
    opened: list[sqlite3.Connection] = []
    connect = sqlite3.connect

    def spy(*args, **kwargs):
        connection = connect(*args, **kwargs)
        opened.append(connection)
        return connection

    monkeypatch.setattr(sqlite3, "connect", spy)
    store = Store(tmp_path / "games.sqlite3")
    (connection,) = opened
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert connection.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert connection.isolation_level is None  # autocommit: each write is committed when execute returns
    store.close()


def test_an_action_the_store_could_not_write_is_not_acknowledged_nor_applied(tmp_path, monkeypatch):
    service = GameService(Store(tmp_path / "games.sqlite3"))
    game = _new_game(service)
    woken: list[None] = []
    service.listen(game, lambda: woken.append(None))
    before = service.state_json(game, HOST)

    def full_disk(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(service.store, "append", full_disk)
    with pytest.raises((sqlite3.OperationalError, ApiError, StorageError)):
        service.act(game, HOST, {"player": "Ann", "type": "leg_bet", "camel": "red"})
    assert service.state_json(game, HOST) == before
    assert not woken, "no page may be told of an action that is not stored"
    monkeypatch.undo()
    service.act(game, HOST, {"player": "Ann", "type": "leg_bet", "camel": "red"})  # the same tap, once it can
    assert service.state_json(game, HOST)["version"] == before["version"] + 1 and woken


def test_a_restart_brings_back_characters_links_undos_and_the_result(tmp_path):
    path = tmp_path / "games.sqlite3"
    service = GameService(Store(path))
    game = _new_game(service, characters={"Ann": "Pharaoh", "Cy": "Nomad"})
    service.act(game, HOST, {"player": "Ann", "type": "leg_bet", "camel": "red"})
    service.act(game, HOST, {"player": "Bob", "type": "leg_bet", "camel": "blue"})
    service.undo(game, HOST)
    credentials = service.reissue_seat(game, HOST, "Bob")
    finished = _new_game(service)
    for _ in range(40):  # play the second game to its end with pyramid tickets
        state = service.game(finished).state
        if state.game_over:
            break
        die = state.dice_in_pyramid()[0]
        action = {"player": state.current_player, "type": "pyramid", "die": die, "value": 3}
        if die == "grey":
            action["crazy"] = "black"
        service.act(finished, HOST, action)
    assert service.game(finished).state.game_over
    views = {g: {role: service.state_json(g, Caller(*role)) for role in (("host",), ("table",), ("seat", "Ann"))}
             for g in (game, finished)}
    service.store.close()

    again = GameService(Store(path))
    assert again.credentials(game) == credentials
    assert again.game(game).row.characters == {"Ann": "Pharaoh", "Cy": "Nomad"}
    for g, by_role in views.items():
        for role, view in by_role.items():
            assert again.state_json(g, Caller(*role)) == view
    (past,) = [p for p in again.past_games() if p["game_id"] == finished]
    assert past["game_over"] and past["winners"] == views[finished][("host",)]["winners"]
    assert again.game(finished).row.result is not None


@pytest.mark.parametrize(("error", "words"), [
    (OSError(errno.ENOSPC, "No space left on device"), "the disk is full"),
    (sqlite3.OperationalError("database or disk is full"), "the disk is full"),
    (OSError(errno.EROFS, "Read-only file system"), "the data directory is read-only"),
    (OSError(errno.EACCES, "Permission denied"), "the data directory is read-only"),
    (OSError(errno.EPERM, "Operation not permitted"), "the data directory is read-only"),
    (sqlite3.OperationalError("attempt to write a readonly database"), "the data directory is read-only"),
    (sqlite3.OperationalError("unable to open: read-only"), "the data directory is read-only"),
    (sqlite3.OperationalError("database is locked"), "another companion is already using this data directory"),
    (sqlite3.OperationalError("disk I/O error"), "disk I/O error (can the database files be written?)"),
    (sqlite3.DatabaseError("file is not a database"), "file is not a database"),
    (sqlite3.DatabaseError(), "DatabaseError"),
])
def test_a_storage_fault_is_said_in_words_the_host_can_act_on(error, words):
    """What /healthz, every page and the 503 say: the reason a host can act on, not a raw exception."""
    from companion.table.store import _reason

    assert _reason(error) == words
    refused = StorageError(_reason(error))
    assert refused.message == str(refused) == words
