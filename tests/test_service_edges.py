"""The table service's refusals and records (companion/table/service.py), as mutation testing found them
unwatched: each refusal's status and words, who a button draw is recorded for and in which game, what an undo
and a camera correction store, and tokens that are not text a phone would send."""

from __future__ import annotations

import random

import pytest

from companion.rules import EDITION_2018, new_game
from companion.table.correction import Amendment
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
    amendment = Amendment(0, {}, {})
    assert refusal(lambda: service.correct_entry(gid, ann, amendment)) == (
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


class FixedPyramid:
    """An electronic pyramid whose draws the test chooses; it remembers every state it was synced to."""

    name = "fixed"

    def __init__(self, *draws) -> None:
        self.draws = list(draws)
        self.synced: list = []

    def roll(self, state):
        return self.draws.pop(0)

    def setup(self, edition):
        return {1: ("green", "red"), 3: ("yellow", "blue", "purple"), 14: ("black",), 16: ("white",)}

    def sync(self, state) -> None:
        self.synced.append(state)


def test_a_pyramid_draw_records_the_grey_dies_camel_and_refuses_out_of_turn_or_after_the_race(tmp_path):
    pyramid = FixedPyramid(("grey", 2, "white"), ("red", 3, None))
    service = GameService(Store(tmp_path / "games.sqlite3"), pyramid)
    near_the_end = {"track": {"1": ["green"], "2": ["yellow"], "3": ["blue", "purple"], "14": ["black"],
                              "15": ["red"], "16": ["white"]}}
    gid = service.create({"edition": "2018", "players": ["Ann", "Bob"], "dice": "pyramid",
                          "setup": near_the_end})["game_id"]
    assert refusal(lambda: service.act(gid, HOST, {"player": "Bob", "type": "pyramid"})) == (
        409, "it is Ann's turn, not Bob's", "NotYourTurnError")
    service.act(gid, HOST, {"player": "Ann", "type": "pyramid"})
    assert service.store.entries(gid)[-1].body == {"player": "Ann", "type": "pyramid", "die": "grey", "value": 2,
                                                   "crazy": "white"}
    service.act(gid, Caller("seat", "Bob"), {"type": "pyramid"})  # red 15 → across the line
    assert service.game(gid).state.game_over
    assert refusal(lambda: service.act(gid, HOST, {"player": "Ann", "type": "pyramid"})) == (
        409, "the race is over: no more actions can be taken", "RaceOverError")
    assert service.store.games()[0].result is not None
    service.undo(gid, HOST)  # the race is on again: its stored result goes
    assert service.store.games()[0].result is None and not service.game(gid).state.game_over


def test_pyramid_dice_without_a_pyramid_and_bad_character_names_are_refused_in_words(tmp_path):
    service = GameService(Store(tmp_path / "games.sqlite3"))
    body = {"edition": "2018", "players": ["Ann", "Bob"], "setup": SETUP}
    assert refusal(lambda: service.create({**body, "dice": "pyramid"})) == (
        400, "no electronic pyramid is configured here: use \"dice\": \"manual\"", None)
    status, words, _ = refusal(lambda: service.create({**body, "characters": ["Nomad", "x" * 40]}))
    assert status == 400 and words.startswith("a character's name 'xxx") and "longer than 32 characters" in words
    for name, words in (("  ", "a player's name must not be empty"), (".", "a player's name cannot be '.'"),
                        ("Ann\u2029Lee", "a player's name 'Ann\\u2029Lee' holds a control character (U+2029)")):
        assert refusal(lambda name=name: service.create({**body, "players": ["Bob", name]})) == (400, words, None)
    created = service.create({**body, "characters": ["Nomad", "Merchant"]})  # a list: in seating order
    assert service.game(created["game_id"]).row.characters == {"Ann": "Nomad", "Bob": "Merchant"}


def test_after_a_restart_the_pyramid_holds_the_dice_of_the_game_played_last(tmp_path):
    ticks = iter(range(100, 200))
    store = Store(tmp_path / "games.sqlite3", clock=lambda: float(next(ticks)))
    service = GameService(store, FixedPyramid())
    played, newer = new(service, "pyramid"), new(service, "pyramid")
    service.act(played, HOST, {"player": "Ann", "type": "leg_bet", "camel": "red"})
    service.act(played, HOST, {"player": "Bob", "type": "pyramid", "die": "red", "value": 1})
    pyramid = FixedPyramid()
    GameService(Store(tmp_path / "games.sqlite3", clock=lambda: 500.0), pyramid)
    assert [len(state.dice_out) for state in pyramid.synced] == [1]  # the played game, with red out
    assert pyramid.synced[0].dice_out[0].die == "red" and newer


def test_the_button_follows_the_game_acted_in_last_even_when_the_clock_cannot_tell(tmp_path):
    service = GameService(Store(tmp_path / "games.sqlite3", clock=lambda: 0.0), FixedPyramid())
    older, newer = new(service, "pyramid"), new(service, "pyramid")
    service.act(older, HOST, {"player": "Ann", "type": "leg_bet", "camel": "red"})
    service.act(newer, HOST, {"player": "Ann", "type": "leg_bet", "camel": "red"})
    assert service.button_draw("red", 1, None) is not None
    assert service.game(newer).version == 2 and service.game(older).version == 1


def test_a_seat_taken_by_a_phone_stays_taken_after_a_restart(tmp_path):
    service = GameService(Store(tmp_path / "games.sqlite3"))
    gid = new(service)
    service.authenticate(gid, service.credentials(gid)["seats"][1]["token"])  # Bob's phone opens his link
    again = GameService(Store(tmp_path / "games.sqlite3"))
    assert again.game(gid).row.joined == ("Bob",)


def test_after_a_restart_the_button_goes_to_the_game_with_the_latest_entry_not_its_second(tmp_path):
    ticks = iter(range(100, 200))
    service = GameService(Store(tmp_path / "games.sqlite3", clock=lambda: float(next(ticks))), FixedPyramid())
    busy = new(service, "pyramid")
    for player, camel in (("Ann", "red"), ("Bob", "blue")):
        service.act(busy, HOST, {"player": player, "type": "leg_bet", "camel": camel})
    quiet = new(service, "pyramid")  # made after the busy game's second entry...
    service.act(busy, HOST, {"player": "Ann", "type": "leg_bet", "camel": "green"})  # ...before its third
    again = GameService(Store(tmp_path / "games.sqlite3", clock=lambda: 500.0), None)
    assert again.button_draw("yellow", 1, None) is not None
    assert again.game(busy).version == 4 and again.game(quiet).version == 0


def test_names_that_are_not_text_are_refused():
    from companion.table.service import check_name

    assert refusal(lambda: check_name(7, "a player's name")) == (400, "a player's name must be text", None)
    assert check_name("  Ann ", "a player's name") == "Ann"


def test_characters_given_as_a_list_must_match_the_players(service):
    body = {"edition": "2018", "players": ["Ann", "Bob"], "setup": SETUP}
    assert refusal(lambda: service.create({**body, "characters": ["Nomad"]})) == (
        400, "'characters' must map each player to a character's name", None)
    assert refusal(lambda: service.create({**body, "characters": {"Zed": "Nomad", "Yan": "Sage"}})) == (
        400, "'characters' names no such player: Yan, Zed", None)
    assert refusal(lambda: service.create({**body, "players": "Ann,Bob"})) == (
        400, "'players' must be a list of names in seating order", None)
    created = service.create(body)
    assert created["host_url"] == f"http://localhost:8000/host/{created['game_id']}#{created['host_token']}"


def test_a_pyramid_game_after_a_restart_without_the_pyramid_asks_for_the_die_by_hand(tmp_path):
    first = GameService(Store(tmp_path / "games.sqlite3"), FixedPyramid())
    gid = new(first, "pyramid")
    again = GameService(Store(tmp_path / "games.sqlite3"))  # the pyramid is unplugged now
    assert refusal(lambda: again.act(gid, HOST, {"player": "Ann", "type": "pyramid"})) == (
        409, "no electronic pyramid is configured: enter the die by hand", None)
    again.act(gid, HOST, {"player": "Ann", "type": "pyramid", "die": "red", "value": 1})
    assert again.store.entries(gid)[-1].by == "host"  # the scorekeeper entered it


def test_a_malformed_action_is_400_with_its_code_and_stop_listening_to_no_game_is_harmless(service):
    gid = new(service)
    assert refusal(lambda: service.act(gid, HOST, {"player": "Ann", "type": "dance"}))[::2] == (
        400, "InvalidActionError")
    service.stop_listening("no-such-game", lambda: None)
    service.stop_listening(gid, lambda: None)


def test_an_imported_log_replays_into_the_same_game(service):
    log = {"format": "camelup-game-log/1", "edition": "2018", "players": ["Ann", "Bob"], "setup": SETUP,
           "actions": [{"player": "Ann", "type": "leg_bet", "camel": "red"},
                       {"player": "Bob", "type": "pyramid", "die": "blue", "value": 2}]}
    gid = service.import_log(log)["game_id"]
    game = service.game(gid)
    assert game.actions == log["actions"] and [entry.by for entry in game.entries] == ["import", "import"]
    assert game.state.track.as_dict()[5] == ("blue", "purple") and game.state.current_player == "Ann"


def test_a_player_may_take_back_their_tap_for_exactly_the_grace_period(tmp_path):
    from companion.table.service import TAKE_BACK_SECONDS

    now = [100.0]
    service = GameService(Store(tmp_path / "games.sqlite3", clock=lambda: now[0]))
    gid = new(service)
    ann = Caller("seat", "Ann")
    service.act(gid, ann, {"type": "leg_bet", "camel": "red"})
    now[0] += TAKE_BACK_SECONDS
    service.undo(gid, ann)  # just in time
    service.act(gid, ann, {"type": "leg_bet", "camel": "red"})
    now[0] += TAKE_BACK_SECONDS + 0.5
    assert refusal(lambda: service.undo(gid, ann)) == (
        409, "too late to take it back: ask the host to undo", "TakeBackTooLate")


def test_more_refusals_word_for_word(tmp_path):
    service = GameService(Store(tmp_path / "games.sqlite3"), FixedPyramid())
    body = {"edition": "2018", "players": ["Ann", "Bob\u202e"], "setup": SETUP}
    assert refusal(lambda: service.create(body)) == (
        400, "a player's name 'Bob\\u202e' holds a text-direction control character (U+202E), which would reorder "
             "the text around it", None)
    log = {"format": "camelup-game-log/1", "edition": "2018", "players": ["Ann", "Bob"], "setup": SETUP,
           "actions": [{"player": "Ann", "type": "leg_bet"}]}
    assert refusal(lambda: service.import_log(log)) == (400, "action 1: a leg_bet action needs 'camel'", None)


def test_only_a_pyramid_game_takes_its_start_from_the_pyramid(tmp_path):
    service = GameService(Store(tmp_path / "games.sqlite3"), FixedPyramid())
    fixed = {"track": {str(k): list(v) for k, v in FixedPyramid().setup("2018").items()}}
    electronic = service.create({"edition": "2018", "players": ["Ann", "Bob"], "dice": "pyramid"})
    assert service.game(electronic["game_id"]).row.setup == fixed
    starts = [service.game(service.create({"edition": "2018", "players": ["Ann", "Bob"]})["game_id"]).row.setup
              for _ in range(3)]  # manual dice: rolled by the simulated pyramid, not this one's fixed start
    assert any(start != fixed for start in starts)
