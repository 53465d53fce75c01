"""The facts the pages word (ticker, move still current, what to put back after an undo, breakdown) and a
player's take-back of their own last tap, through the JSON API."""

import json

import pytest

from tests.test_web_api import act, bearer, create, state


def undo(client, game, token):
    return client.post(f"/api/games/{game['game_id']}/undo", headers=bearer(token))


def test_the_ticker_tells_actions_and_never_a_face_down_card(client):
    game = create(client)
    act(client, game, game["seat"]["Ann"], type="leg_bet", camel="red")
    act(client, game, game["seat"]["Bob"], type="finish_bet", pile="winner", camel="purple")
    table = state(client, game, game["table_token"])
    assert table["ticker"] == [
        {"n": 1, "type": "leg_bet", "player": "Ann", "camel": "red", "value": 5},
        {"n": 2, "type": "finish_bet", "player": "Bob", "pile": "winner"},
    ]
    assert "purple" not in json.dumps(table["ticker"]) and table["move_current"] is False
    assert table["start_track"] == {"1": ["green", "red"], "3": ["yellow", "blue", "purple"], "14": ["black"],
                                    "16": ["white"]}


def test_a_move_is_current_only_until_the_next_action(client):
    game = create(client)
    act(client, game, game["seat"]["Ann"], type="pyramid", die="green", value=2)
    moved = state(client, game, game["seat"]["Bob"])
    assert moved["move_current"] is True
    assert moved["last_action"]["move"] == {"camel": "green", "steps": 2, "carried": ["red"], "tile": None, "end": 3,
                                            "on": "purple", "under": None, "crossed": False}
    act(client, game, game["seat"]["Bob"], type="leg_bet", camel="blue")
    assert state(client, game, game["seat"]["Cy"])["move_current"] is False


def test_after_an_undo_every_page_says_which_camels_go_back_where(client):
    game = create(client)
    act(client, game, game["seat"]["Ann"], type="pyramid", die="blue", value=1)  # blue+purple: 3 → 4
    act(client, game, game["seat"]["Bob"], type="pyramid", die="green", value=3)  # green+red: 1 → 4, on purple
    assert undo(client, game, game["host_token"]).status_code == 200
    told = state(client, game, game["seat"]["Cy"])["undo"]
    assert told["by"] == "host" and told["action"]["player"] == "Bob"
    assert told["camels"] == {"camel": "green", "unit": ["green", "red"], "from": 4, "to": 1, "on": None, "under": None}
    assert undo(client, game, game["host_token"]).status_code == 200
    told = state(client, game, game["table_token"])["undo"]
    assert told["camels"] == {"camel": "blue", "unit": ["blue", "purple"], "from": 4, "to": 3, "on": "yellow",
                              "under": None}
    act(client, game, game["seat"]["Ann"], type="leg_bet", camel="red")
    assert state(client, game, game["table_token"])["undo"] is None


def test_a_player_takes_back_their_own_tap_only_quickly_and_only_if_nobody_acted(client, app):
    game = create(client)
    act(client, game, game["seat"]["Ann"], type="leg_bet", camel="red")
    assert undo(client, game, game["seat"]["Ann"]).status_code == 200
    assert state(client, game, game["table_token"])["undo"]["by"] == "Ann"
    act(client, game, game["seat"]["Ann"], type="leg_bet", camel="green")
    act(client, game, game["seat"]["Bob"], type="leg_bet", camel="green")
    refused = undo(client, game, game["seat"]["Ann"])  # Bob acted since
    assert refused.status_code == 409 and refused.get_json()["code"] == "TakeBackNotYours"
    store = app.extensions["camelup"].store
    real = store._clock
    store._clock = lambda: real() + 60
    late = undo(client, game, game["seat"]["Bob"])
    assert late.status_code == 409 and late.get_json()["code"] == "TakeBackTooLate"
    assert state(client, game, game["table_token"])["leg_tickets"][-1] == {"owner": "Bob", "camel": "green",
                                                                          "value": 3}
    store._clock = real
    act(client, game, game["seat"]["Cy"], type="pyramid", die="blue", value=1)
    redraw = undo(client, game, game["seat"]["Cy"])  # no second try at a better die
    assert redraw.status_code == 409 and redraw.get_json()["code"] == "TakeBackDraw"


def test_the_final_breakdown_adds_up_to_the_money(client):
    setup = {"track": {"14": ["green"], "15": ["red"], "16": ["yellow", "blue", "purple"], "2": ["black"],
                       "3": ["white"]}}
    game = create(client, setup=setup)
    act(client, game, game["seat"]["Ann"], type="leg_bet", camel="purple")
    act(client, game, game["seat"]["Bob"], type="finish_bet", pile="winner", camel="purple")
    act(client, game, game["seat"]["Cy"], type="spectator", space=10, side="cheer")
    act(client, game, game["seat"]["Ann"], type="pyramid", die="yellow", value=1)  # across the line
    end = state(client, game, game["table_token"])
    assert end["game_over"]
    breakdown = end["race_scoring"]["breakdown"]
    for player, parts in breakdown.items():
        total = parts["start"] + parts["legs"] + parts["cards"] + parts["tiles"]
        assert total == parts["final"] == end["money"][player]
    assert breakdown["Bob"]["cards"] == 8 and breakdown["Ann"]["legs"] == 5 + 1
    rewards = {line["player"]: line["rewards"] for line in end["leg_scoring"]["players"]}
    assert rewards["Ann"][0] == {"source": "leg_ticket", "amount": 5, "camel": "purple", "printed": 5, "place": 1}


def test_a_rematch_is_the_host_s_and_every_seat_finds_its_place(client):
    setup = {"track": {"16": ["yellow"], "1": ["green", "red", "blue", "purple"], "2": ["black"], "3": ["white"]}}
    game = create(client, setup=setup, characters={"Ann": "Nefertiti"})
    gid = game["game_id"]
    early = client.post(f"/api/games/{gid}/rematch", headers=bearer(game["host_token"]))
    assert early.status_code == 409
    act(client, game, game["seat"]["Ann"], type="pyramid", die="yellow", value=1)
    assert client.post(f"/api/games/{gid}/rematch", headers=bearer(game["seat"]["Ann"])).status_code == 403
    waiting = client.get(f"/api/games/{gid}/rematch", headers=bearer(game["seat"]["Bob"]))
    assert waiting.status_code == 204 and waiting.data == b""  # nothing yet: not an error for the waiting pages
    assert client.get("/api/games/nosuchgame/rematch", headers=bearer(game["seat"]["Bob"])).status_code in (401, 404)
    made = client.post(f"/api/games/{gid}/rematch", headers=bearer(game["host_token"])).get_json()
    again = client.post(f"/api/games/{gid}/rematch", headers=bearer(game["host_token"])).get_json()
    assert again["game_id"] == made["game_id"] != gid  # a second tap does not make a third game
    bob = client.get(f"/api/games/{gid}/rematch", headers=bearer(game["seat"]["Bob"])).get_json()
    assert bob == {"game_id": made["game_id"], "token": {s["player"]: s["token"] for s in made["seats"]}["Bob"]}
    new = client.get(f"/api/games/{made['game_id']}/state", headers=bearer(bob["token"])).get_json()
    assert new["players"] == ["Ann", "Bob", "Cy"] and new["characters"] == {"Ann": "Nefertiti"}
    assert new["you"]["player"] == "Bob" and new["actions_taken"] == 0
    table = client.get(f"/api/games/{gid}/rematch", headers=bearer(game["table_token"])).get_json()
    assert table["token"] == made["table_token"]


@pytest.mark.parametrize("seed", range(12))
def test_the_facts_hold_through_random_games_with_undos(tmp_path, seed):
    """Whole random games (both editions, 2 to 8 players), undone at random moments: every view builds, the
    ticker never names a face-down card, and an undone move's camels go back where the game now has them."""
    import random as rnd

    from companion.table.service import Caller, GameService
    from companion.table.store import Store
    from tests.gamegen import random_log

    rng = rnd.Random(seed)
    log = random_log(rng, noise=0)
    games = GameService(Store(tmp_path / "games.sqlite3"))
    made = games.create({"edition": log["edition"], "players": log["players"], "setup": log["setup"]})
    gid, host, table = made["game_id"], Caller("host"), Caller("table")
    for obj in log["actions"]:
        games.act(gid, host, obj)
        if rng.random() < 0.15:
            games.undo(gid, host)
            view = games.state_json(gid, table)
            camels = view["undo"]["camels"]
            if camels is not None:
                stack = next(stack for stack in view["track"].values() if camels["camel"] in stack)
                assert view["track"][str(camels["to"])] == stack
                assert stack[stack.index(camels["unit"][0]):][:len(camels["unit"])] == camels["unit"]
            games.act(gid, host, obj)  # and redo it, so the game goes on as logged
        view = games.state_json(gid, table)
        assert view["undo"] is None and view["ticker"][-1]["player"] == obj["player"]
        assert all("camel" not in action for action in view["ticker"] if action["type"] == "finish_bet")
    assert games.state_json(gid, table)["actions_taken"] == len(log["actions"])
