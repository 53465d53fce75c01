"""The camera let go by the host of the game holding it (companion/table/camera_game.py): a builder places the camera
from a throwaway game, taps "Done with the camera", and the real game's page takes it at its next look. Nobody else
can let it go; the released game's pages (which ask every two seconds) do not take it back, nor does a restart; the
protection of a game in play from a stranger's game (tests/test_camera_hostile.py) still holds."""

from __future__ import annotations

import pytest

from companion.table.camera_game import OTHER_GAME, RELEASED
from tests.test_camera_hostile import CLEAN, TRACK, _ask, _table, _verdict
from vision.board import load_template
from vision.synth import render_scene


@pytest.fixture(scope="module")
def board():
    template = load_template("2018")
    image, _ = render_scene(template, TRACK, 3, CLEAN)
    return template, image


def _bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _placement(client, game, frame: str | None = "json"):
    query = f"game={game[0]}&token={game[2]['host_token']}" + (f"&frame={frame}" if frame else "")
    return client.get(f"/camera/placement?{query}")


def _release(client, game_id: str, headers: dict[str, str]):
    return client.post(f"/api/games/{game_id}/camera/release", headers=headers)


def _released(client) -> set[str]:
    return client.application.extensions["camelup"].store.camera_released()


def _holding(client, game) -> dict:
    """How another game's pages name ``game`` while it holds the camera: as the lobby lists it (when it was
    created, its board, its players), and when it was last played."""
    listed = next(row for row in client.get("/api/games").get_json()["games"] if row["game_id"] == game[0])
    entries = client.application.extensions["camelup"].game(game[0]).entries
    return {"holder": {"created": listed["created"], "edition": listed["edition"], "players": listed["players"],
                       "last_played": max([listed["created"], *(entry.at for entry in entries)])}}


def test_a_throwaway_game_released_by_its_host_lets_the_real_game_take_the_camera(tmp_path, board):
    watch, client, source, throwaway, make = _table(tmp_path, board)
    watch.step(source)
    # The builder opens the placement assistant from a throwaway game's host page: it takes the camera.
    assert _placement(client, throwaway, None).status_code == 200
    assert _placement(client, throwaway).get_json()["state"] in ("ok", "advice")
    real = make()  # the real game, made once the camera stands
    assert _ask(client, real) == {"state": "other game", "message": OTHER_GAME, **_holding(client, throwaway)}
    refused = _placement(client, real)
    assert refused.status_code == 409
    assert refused.get_json() == {"error": OTHER_GAME, "code": "CameraOtherGame", **_holding(client, throwaway)}
    assert "its host can release it" in OTHER_GAME  # the real game's pages say how to get it
    # The throwaway's host page is told a game in play waits for the camera (with the button that lets it go).
    assert _ask(client, throwaway)["wanted"] is True

    released = _release(client, throwaway[0], throwaway[1])
    assert released.status_code == 200 and released.get_json()["state"] == "released"
    assert _released(client) == {throwaway[0]}
    # The throwaway's pages still ask every two seconds: they do not take it back.
    for _ in range(3):
        assert _ask(client, throwaway) == {"state": "released", "message": RELEASED}
    refused = _placement(client, throwaway)  # the placement page left open: its view stops
    assert refused.status_code == 409 and refused.get_json()["code"] == "CameraReleased"

    # The real game's page asks next: it takes the camera and gets its verdicts, and its host the live view.
    report = _verdict(client, watch, source, real)
    assert report["verdict"]["matches"] is True, report
    assert "wanted" not in report  # the released game's pages asking meanwhile want nothing
    assert _placement(client, real).get_json()["state"] in ("ok", "advice")
    # From now on the throwaway is a game like any other beside the game in play.
    assert _ask(client, throwaway) == {"state": "other game", "message": OTHER_GAME, **_holding(client, real)}
    taken = client.post(f"/api/games/{throwaway[0]}/camera/take", headers=throwaway[1])
    assert taken.status_code == 409 and taken.get_json()["code"] == "CameraOtherGame"
    assert _placement(client, throwaway, None).status_code == 409
    assert _ask(client, real)["state"] == "reading" and _released(client) == {throwaway[0]}


@pytest.mark.parametrize("who", ["seat", "table", "no token", "another game's host", "a token of another game"])
def test_nobody_but_the_holder_s_host_lets_the_camera_go(tmp_path, board, who):
    watch, client, source, real, make = _table(tmp_path, board)
    assert _verdict(client, watch, source, real)["verdict"]["matches"] is True
    stranger = make()
    game_id, headers, status = {
        "seat": (real[0], _bearer(real[2]["seats"][0]["token"]), 403),
        "table": (real[0], _bearer(real[2]["table_token"]), 403),
        "no token": (real[0], {}, 401),
        "a token of another game": (real[0], stranger[1], 401),
        "another game's host": (stranger[0], stranger[1], 409),  # its own game does not hold the camera
    }[who]
    refused = _release(client, game_id, headers)
    assert refused.status_code == status and refused.get_json()["error"], refused.get_json()
    if status == 409:
        assert refused.get_json()["code"] == "CameraNotHeld"
    # Nothing changed: the real game keeps the camera, the stranger's page still waits, nothing was stored.
    assert _released(client) == set()
    assert _ask(client, stranger)["state"] == "other game"
    watch.step(source)
    assert _ask(client, real)["state"] == "reading"
    # Nor can anyone but a game's host ask for the camera for it.
    if status != 409:
        asked = client.post(f"/api/games/{game_id}/camera/take", headers=headers)
        assert asked.status_code == status
        assert _ask(client, stranger)["state"] == "other game"


def test_a_released_game_s_host_asks_for_it_again_while_no_game_in_play_holds_it(tmp_path, board):
    watch, client, source, throwaway, _ = _table(tmp_path, board)
    assert _verdict(client, watch, source, throwaway)["verdict"]["matches"] is True
    assert _release(client, throwaway[0], throwaway[1]).status_code == 200
    assert _release(client, throwaway[0], throwaway[1]).status_code == 200  # a second tap: still let go
    assert _ask(client, throwaway)["state"] == "released"
    # Tapped by mistake: its host asks for it again, and no other game has taken it.
    taken = client.post(f"/api/games/{throwaway[0]}/camera/take", headers=throwaway[1])
    assert taken.status_code == 200 and _released(client) == set()
    assert _ask(client, throwaway)["state"] == "reading"
    # Opening the placement assistant again is asking for it too (its view and findings alone are not).
    assert _release(client, throwaway[0], throwaway[1]).status_code == 200
    assert _placement(client, throwaway).status_code == 409
    assert _placement(client, throwaway, None).status_code == 200
    assert _placement(client, throwaway).status_code == 200 and _released(client) == set()


def test_a_release_that_cannot_be_stored_changes_nothing(tmp_path, board):
    _, client, _, real, _ = _table(tmp_path, board)
    _ask(client, real)
    store = client.application.extensions["camelup"].store
    store.read_only_reason = f"{tmp_path}: the data directory is read-only"  # as the store says it at start
    refused = _release(client, real[0], real[1])
    assert refused.status_code == 503 and "read-only" in refused.get_json()["error"]
    assert _ask(client, real)["state"] not in ("released", "other game")
    assert client.application.extensions["camera_game"].game_id == real[0] and _released(client) == set()


def test_a_released_game_does_not_take_the_camera_back_after_a_restart(tmp_path):
    from tests.test_camera_restart_edition import Evening, _game, _report

    evening = Evening(tmp_path, board="2018")
    evening.show("2018")
    client, _ = evening.serve()
    real, real_host = _game(client, "2018")
    throwaway, throwaway_host = _game(client, "2018")  # made last: the race played last, as the store sees it
    assert _report(client, throwaway, throwaway_host)["state"] not in ("other game", "released")
    assert _report(client, real, real_host)["state"] == "other game"
    assert client.post(f"/api/games/{throwaway}/camera/release", headers=throwaway_host).status_code == 200

    client, _ = evening.serve()  # the Pi restarts before the real game's page asked again
    # The throwaway's page asks first: the real game, in play, holds the camera again.
    assert _report(client, throwaway, throwaway_host)["state"] == "other game"
    assert _report(client, real, real_host)["state"] not in ("other game", "released")
    assert client.application.extensions["camera_game"].game_id == real

    # With no other game left in play the released game does not take it by itself either: its host asks for it.
    client.post(f"/api/games/{real}/camera/release", headers=real_host)
    client, _ = evening.serve()
    assert "camera_game" not in client.application.extensions  # no game holds it: the first page to ask may
    assert _report(client, throwaway, throwaway_host)["state"] == "released"
    assert client.post(f"/api/games/{throwaway}/camera/take", headers=throwaway_host).status_code == 200
    assert _report(client, throwaway, throwaway_host)["state"] not in ("other game", "released")
    assert _report(client, real, real_host)["state"] == "other game"


def test_the_holder_s_host_is_told_only_while_a_game_in_play_waits(tmp_path, board):
    from tests.test_camera_follows_edition import _leave

    watch, client, source, real, make = _table(tmp_path, board)
    assert "wanted" not in _verdict(client, watch, source, real)
    left = make()
    _leave(client)  # the real game and this one are left for 16 minutes
    assert _ask(client, left)["state"] == "other game"  # a game left does not take it, nor wait for it
    assert "wanted" not in _ask(client, real)
    waiting = make()  # a game in play (a phone on the Wi-Fi) asks: the holder is not in play, so it takes it
    assert _ask(client, waiting)["state"] != "other game"
    stranger = make()
    assert _ask(client, stranger)["state"] == "other game"
    assert _ask(client, waiting)["wanted"] is True
    store = client.application.extensions["camelup"].store
    clock = store._clock
    store._clock = lambda: clock() + 11  # the stranger's page closed: after ten seconds nobody waits
    assert "wanted" not in _ask(client, waiting)


def test_the_holder_itself_stores_a_release_before_it_counts():
    """CameraGame alone: a release or a take back that cannot be stored changes nothing; a release is stored."""
    from companion.table.camera_game import CameraGame

    stored: list[tuple[str, bool]] = []
    failing = False

    def record(game: str, released: bool) -> None:
        if failing:
            raise OSError("disk full")
        stored.append((game, released))

    playing = {"a", "b"}
    holder = CameraGame("a", 0.0, record=record)
    in_play = playing.__contains__
    assert not holder.release("b") and stored == []  # not the holder: nothing happens
    failing = True
    with pytest.raises(OSError):
        holder.release("a")
    assert holder.game_id == "a" and not holder.released("a")
    failing = False
    assert holder.release("a") and stored == [("a", True)] and holder.game_id is None
    assert not holder.take("a", in_play, 1.0)  # its own page's look
    assert holder.take("b", in_play, 2.0) and holder.since == 2.0
    assert not holder.take("a", in_play, 3.0, asked=True) and holder.wanted(3.0)  # b is in play
    playing.discard("b")  # b is over: a's host asks for it back
    failing = True
    with pytest.raises(OSError):
        holder.take("a", in_play, 4.0, asked=True)
    assert holder.game_id == "b" and holder.released("a")
    failing = False
    assert holder.take("a", in_play, 5.0, asked=True) and stored[-1] == ("a", False) and not holder.released("a")
    assert not holder.wanted(5.0)


def test_another_game_s_pages_name_the_game_that_holds_the_camera(tmp_path, board):
    """Every page of a game the camera does not check (its host's, a seat's, the table screen's, the placement
    assistant, a tap on "Use the camera"), and the lobby's camera read, name the game that holds it as the lobby
    does, and nothing that opens it."""
    from tests.test_camera_follows_edition import STARTS

    _, client, _, _, _ = _table(tmp_path, board)

    setup = {"track": {str(space): stack for space, stack in STARTS["2018"].items()}}

    def made(players: list[str]) -> tuple[str, dict[str, str], dict]:
        body = {"edition": "2018", "players": players, "dice": "manual", "setup": setup}
        game = client.post("/api/games", json=body).get_json()
        return game["game_id"], _bearer(game["host_token"]), game

    holder = made(["Ann", "Bob", "Cleo"])
    assert _placement(client, holder, None).status_code == 200  # its host places the camera: it takes it
    other = made(["Dan", "Eve"])
    named = _ask(client, other)
    assert named["state"] == "other game" and named["holder"]["players"] == ["Ann", "Bob", "Cleo"]
    assert named["holder"]["edition"] == "2018" and set(named["holder"]) == {"created", "edition", "players",
                                                                            "last_played"}
    listed = {row["game_id"]: row for row in client.get("/api/games").get_json()["games"]}
    assert named["holder"]["created"] == listed[holder[0]]["created"] != listed[other[0]]["created"]
    # Nothing of the holder's that opens it: its id, its tokens.
    secrets = [holder[0], holder[2]["host_token"], holder[2]["table_token"],
               *(seat["token"] for seat in holder[2]["seats"])]
    for answer in (named, _ask(client, (other[0], _bearer(other[2]["table_token"]))),
                   _ask(client, (other[0], _bearer(other[2]["seats"][0]["token"])))):
        assert answer["holder"] == named["holder"] and not any(secret in str(answer) for secret in secrets)
    # The placement assistant's findings and page, and the host asking for the camera, name it too.
    assert _placement(client, other).get_json()["holder"] == named["holder"]
    page = _placement(client, other, None)
    assert page.status_code == 409 and "Ann" in page.get_data(as_text=True)
    taken = client.post(f"/api/games/{other[0]}/camera/take", headers=other[1])
    assert taken.status_code == 409 and taken.get_json()["holder"] == named["holder"]
    # So does the lobby's refusal to read a 2014 start while this 2018 game is in play.
    lobby = client.get("/api/camera/setup?edition=2014")
    assert lobby.get_json()["code"] == "CameraInUse" and lobby.get_json()["holder"] == named["holder"]
    # An entry in the holder: when it was last played moves with it (the camera is free 15 minutes after that).
    store = client.application.extensions["camelup"].store
    clock = store._clock
    store._clock = lambda: clock() + 60
    entered = client.post(f"/api/games/{holder[0]}/actions", headers=holder[1],
                          json={"type": "leg_bet", "player": "Ann", "camel": "blue"})
    assert entered.status_code == 200, entered.get_json()
    later, before = _ask(client, other)["holder"], named["holder"]
    assert later["last_played"] >= before["last_played"] + 60 and later["created"] == before["created"]
    # The holder's own pages name no holder; once it lets the camera go, the released game is told no holder either.
    assert "holder" not in _ask(client, holder)
    assert _release(client, holder[0], holder[1]).status_code == 200
    assert "holder" not in _ask(client, holder) and _ask(client, other)["state"] != "other game"
