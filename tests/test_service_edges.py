"""The table service's refusals and records (companion/table/service.py), as mutation testing found them
unwatched: each refusal's status and words, who a button draw is recorded for and in which game, what an undo
and a camera correction store, and tokens that are not text a phone would send."""

from __future__ import annotations

import random

import pytest

from companion.rules import EDITION_2018, new_game
from companion.table.service import ApiError, Caller, GameService, SimulatedPyramid, same_token
from companion.table.store import Store

SETUP = {"track": {"1": ["green", "red"], "3": ["yellow", "blue", "purple"], "14": ["black"], "16": ["white"]}}
HOST, TABLE = Caller("host"), Caller("table")


def new(service: GameService, dice: str = "manual", players=("Ann", "Bob")) -> str:
    return service.create({"edition": "2018", "players": list(players), "dice": dice, "setup": SETUP})["game_id"]


@pytest.fixture
def service(tmp_path):
    return GameService(Store(tmp_path / "games.sqlite3"), SimulatedPyramid(random.Random(3)))


def refusal(call) -> tuple[int, str, str | None]:
    with pytest.raises(ApiError) as refused:
        call()
    return refused.value.status, refused.value.message, refused.value.code


def test_each_refusal_has_its_status_and_words(service):
    gid = new(service)
    ann = Caller("seat", "Ann")
    assert refusal(lambda: service.act(gid, HOST, ["leg_bet"])) == (400, "an action must be a JSON object", None)
    assert refusal(lambda: service.authenticate(gid, "not-a-token")) == (
        401, "no valid token for this game: join it from its link or QR code", None)
    assert refusal(lambda: service.log(gid, ann)) == (403, "only the host can export the game log", None)
    assert refusal(lambda: service.reissue_seat(gid, TABLE, "Ann")) == (403, "only the host can re-issue a seat", None)
    assert refusal(lambda: service.reissue_seat(gid, HOST, "Zed")) == (404, "there is no seat for 'Zed'", None)
    assert refusal(lambda: service.correct_from_camera(gid, ann, {})) == (
        403, "only the host can correct the game from the camera", None)
    assert refusal(lambda: service.game("nope")) == (404, "there is no game 'nope'", None)


def test_tokens_that_are_no_text_a_phone_sends_are_refused_not_a_crash(service):
    gid = new(service)
    assert not same_token("\ud800", "abc") and same_token("\ud800x", "\ud800x")  # lone surrogates compare too
    assert refusal(lambda: service.authenticate(gid, "\udcff" * 32))[0] == 401


def test_a_button_draw_is_recorded_for_the_player_to_act_in_the_game_played_last(service):
    first, second = new(service, "pyramid"), new(service, "pyramid")
    service.act(first, HOST, {"player": "Ann", "type": "leg_bet", "camel": "red"})  # the first is played last
    after = service.button_draw("grey", 2, "black")
    assert after is not None and service.game(first).version == 2 and service.game(second).version == 0
    entry = service.game(first).entries[-1]
    assert (entry.kind, entry.by) == ("action", "Bob")
    assert entry.body == {"player": "Bob", "type": "pyramid", "die": "grey", "value": 2, "crazy": "black"}


def test_with_no_game_played_yet_the_button_goes_to_the_newest_game(tmp_path):
    ticks = iter(range(100, 200))
    store = Store(tmp_path / "games.sqlite3", clock=lambda: float(next(ticks)))
    service = GameService(store, SimulatedPyramid(random.Random(3)))
    older, newer = new(service, "pyramid"), new(service, "pyramid")
    again = GameService(Store(tmp_path / "games.sqlite3"), None)  # after a restart no game is "the last one"
    assert again.button_draw("red", 1, None) is not None
    assert again.game(newer).version == 1 and again.game(older).version == 0


def test_an_undo_is_stored_as_an_empty_entry_by_whoever_undid(service):
    gid = new(service)
    service.act(gid, HOST, {"player": "Ann", "type": "leg_bet", "camel": "red"})
    service.undo(gid, HOST)
    entry = service.store.entries(gid)[-1]
    assert (entry.kind, entry.body, entry.by) == ("undo", {}, "host")


def test_past_games_list_each_games_edition_players_and_standing(service):
    gid = new(service, players=("Ann", "Bob", "Cy"))
    (listed,) = service.past_games()
    assert listed["game_id"] == gid and listed["edition"] == "2018" and listed["players"] == ["Ann", "Bob", "Cy"]
    assert listed["game_over"] is False and listed["leg"] == 1 and listed["winners"] == []
    assert listed["money"] == {"Ann": 3, "Bob": 3, "Cy": 3}


def test_the_simulated_pyramid_names_a_crazy_camel_for_the_grey_die_only():
    state = new_game(EDITION_2018, ["Ann", "Bob"], {1: ("green", "red"), 3: ("yellow", "blue", "purple"),
                                                   14: ("black",), 16: ("white",)})
    pyramid = SimulatedPyramid(random.Random(11))
    rolls = [pyramid.roll(state) for _ in range(200)]
    assert {die for die, _, _ in rolls} == set(state.dice_in_pyramid())
    for die, value, crazy in rolls:
        assert value in (1, 2, 3)
        assert (crazy in ("black", "white")) if die == "grey" else crazy is None
