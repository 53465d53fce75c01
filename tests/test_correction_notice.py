"""A correction is news for everyone: the public state says which entry changed, from what to what, and what
that changed (money, legs scored); the ticker keeps saying the entry was corrected."""

from companion.table.correction import Amendment
from companion.table.live import Caller
from tests.test_web_api import act, bearer, create, state


def play_a_leg(client, game):
    """Ann bets on red, then five draws end leg 1: purple first, blue second, red third (Ann's ticket loses)."""
    seat = game["seat"]
    assert act(client, game, seat["Ann"], type="leg_bet", camel="red").status_code == 200
    for player, die in (("Bob", "green"), ("Cy", "yellow"), ("Ann", "blue"), ("Bob", "purple"), ("Cy", "red")):
        assert act(client, game, seat[player], type="pyramid", die=die, value=1).status_code == 200, die


def correct(client, game, index, **changes):
    service = client.application.extensions["camelup"]
    was = dict(service.game(game["game_id"]).actions[index])
    service.correct_entry(game["game_id"], Caller("host"), Amendment(index, was, {**was, **changes}))


def test_a_correction_says_what_changed_and_what_it_changed_to_every_page(client):
    game = create(client)
    play_a_leg(client, game)
    before = state(client, game, game["table_token"])
    assert before["correction"] is None and before["leg_scoring"]["ranking"][:2] == ["purple", "blue"]
    correct(client, game, 5, value=3)  # Cy's red 1 was a red 3: red lands on blue, second, and Ann's ticket pays
    for token in (game["table_token"], game["seat"]["Bob"], game["host_token"]):
        told = state(client, game, token)["correction"]
        assert told["by"] == "host" and told["source"] == "camera" and told["n"] == 6
        assert (told["was"]["player"], told["was"]["die"], told["was"]["value"]) == ("Cy", "red", 1)
        assert (told["becomes"]["die"], told["becomes"]["value"]) == ("red", 3)
        assert told["money"] == [{"player": "Ann", "before": 3, "after": 5}]
        assert told["legs"] == [{"leg": 1, "change": "rescored"}] and told["race"] is None
    assert before["move_current"] is True
    assert state(client, game, game["table_token"])["move_current"] is False  # the camels already stand there
    ticker = state(client, game, game["seat"]["Ann"])["ticker"]
    assert ticker[-1]["corrected_from"] == {"die": "red", "value": 1, "crazy": None} and ticker[-1]["value"] == 3
    assert all("corrected_from" not in line for line in ticker[:-1])


def test_the_notice_goes_with_the_next_action_the_ticker_mark_with_an_undo(client):
    game = create(client)
    play_a_leg(client, game)
    correct(client, game, 5, value=3)
    assert act(client, game, game["seat"]["Ann"], type="leg_bet", camel="blue").status_code == 200
    later = state(client, game, game["table_token"])
    assert later["correction"] is None and later["ticker"][-2]["corrected_from"]["value"] == 1
    for _ in range(2):
        assert client.post(f"/api/games/{game['game_id']}/undo", headers=bearer(game["host_token"])).status_code == 200
    assert act(client, game, game["seat"]["Cy"], type="pyramid", die="red", value=2).status_code == 200
    assert "corrected_from" not in state(client, game, game["table_token"])["ticker"][-1]  # a new entry, not corrected


def test_a_correction_back_to_what_was_entered_marks_nothing(client):
    game = create(client)
    play_a_leg(client, game)
    correct(client, game, 5, value=3)
    correct(client, game, 5, value=1)
    table = state(client, game, game["table_token"])
    assert "corrected_from" not in table["ticker"][-1]
    assert table["correction"]["was"]["value"] == 3 and table["correction"]["money"] == [
        {"player": "Ann", "before": 5, "after": 3}]


def test_an_undo_says_what_it_changed_beyond_the_board(client):
    game = create(client)
    play_a_leg(client, game)
    scored = state(client, game, game["table_token"])
    assert client.post(f"/api/games/{game['game_id']}/undo", headers=bearer(game["host_token"])).status_code == 200
    undone = state(client, game, game["table_token"])
    told = undone["undo"]
    assert told["legs"] == [{"leg": 1, "change": "unscored"}] and told["race"] is None
    assert told["money"] == [{"player": p, "before": scored["money"][p], "after": undone["money"][p]}
                             for p in ("Ann", "Bob", "Cy") if scored["money"][p] != undone["money"][p]]
    assert told["money"]  # the leg's payouts are taken back
    assert client.post(f"/api/games/{game['game_id']}/undo", headers=bearer(game["host_token"])).status_code == 200
    assert state(client, game, game["table_token"])["undo"]["money"] == []  # a draw mid-leg pays nobody
