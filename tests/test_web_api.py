"""The JSON API with Flask's test client: the spec's statuses, seats and host, secrets, storage."""

import json
import random
import threading

import pytest

from companion.gamelog import parse_log, summary
from companion.table.service import SimulatedPyramid
from companion.table.web import create_app
from tests.gamegen import random_log

SETUP = {"track": {"1": ["green", "red"], "3": ["yellow", "blue", "purple"], "14": ["black"], "16": ["white"]}}
SPEC_KEYS = ("edition", "leg", "game_over", "track", "ranking", "money", "next_player")


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def create(client, **changes):
    body = {"edition": "2018", "players": ["Ann", "Bob", "Cy"], "dice": "manual", "setup": SETUP, **changes}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    game = response.get_json()
    game["seat"] = {seat["player"]: seat["token"] for seat in game["seats"]}
    return game


def act(client, game, token, **action):
    return client.post(f"/api/games/{game['game_id']}/actions", json=action, headers=bearer(token))


def state(client, game, token):
    return client.get(f"/api/games/{game['game_id']}/state", headers=bearer(token)).get_json()


def test_healthz(client):
    assert client.get("/healthz").get_json() == {"ok": True, "status": "ok"}


def test_create_game_gives_unguessable_tokens_and_join_links(client):
    game = create(client)
    tokens = [game["host_token"], game["table_token"], *game["seat"].values()]
    assert len(set(tokens)) == 5 and all(len(token) >= 32 for token in tokens)
    assert game["seats"][0]["join_url"] == f"http://table.test:8000/join/{game['seat']['Ann']}"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ([], "JSON object"),
        ({"edition": "2020", "players": ["A", "B"]}, "'edition'"),
        ({"edition": "2018", "players": "A,B"}, "'players'"),
        ({"edition": "2018", "players": ["A"]}, "2 to 8 players"),
        ({"edition": "2018", "players": ["A", "B"], "dice": "cards"}, "'dice'"),
        ({"edition": "2018", "players": ["A", "B"], "setup": {"track": {"1": ["green"]}}}, "missing from the track"),
    ],
)
def test_bad_game_creation_is_400_with_a_message(client, body, words):
    response = client.post("/api/games", json=body)
    assert response.status_code == 400 and words in response.get_json()["error"]


def test_not_json_is_400(client):
    response = client.post("/api/games", data="{oops", headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and "must be JSON" in response.get_json()["error"]


def test_starting_positions_are_rolled_when_not_given(client):
    response = client.post("/api/games", json={"edition": "2014", "players": ["A", "B"], "dice": "pyramid"})
    assert response.status_code == 201
    game = response.get_json()
    track = client.get(f"/api/games/{game['game_id']}/state", headers=bearer(game["host_token"])).get_json()["track"]
    positions = {camel: int(space) for space, stack in track.items() for camel in stack}
    assert sorted(positions) == sorted(["blue", "green", "orange", "yellow", "white"])
    assert set(positions.values()) <= {1, 2, 3}


def test_seat_acts_for_itself_only_and_tokens_are_checked(client):
    game = create(client)
    gid = game["game_id"]
    assert act(client, game, game["seat"]["Ann"], type="leg_bet", camel="red").status_code == 200
    forged = act(client, game, game["seat"]["Bob"], player="Cy", type="leg_bet", camel="red")
    assert forged.status_code == 403 and "Bob's seat" in forged.get_json()["error"]
    assert client.post(f"/api/games/{gid}/actions", json={"type": "leg_bet", "camel": "red"}).status_code == 401
    assert act(client, game, "guess", type="leg_bet", camel="red").status_code == 401
    assert client.post("/api/games/nope/actions", json={}, headers=bearer("x")).status_code == 404
    assert act(client, game, game["table_token"], type="leg_bet", camel="red").status_code == 403


def test_host_is_the_scorekeeper_and_must_name_the_player(client):
    game = create(client)
    missing = act(client, game, game["host_token"], type="leg_bet", camel="red")
    assert missing.status_code == 400 and "'player' is missing" in missing.get_json()["error"]
    assert act(client, game, game["host_token"], player="Ann", type="leg_bet", camel="red").status_code == 200


def test_a_refused_action_is_409_and_changes_nothing(client):
    game = create(client)
    before = state(client, game, game["host_token"])
    wrong_turn = act(client, game, game["seat"]["Bob"], type="leg_bet", camel="red")
    assert wrong_turn.status_code == 409
    assert wrong_turn.get_json() == {"error": "it is Ann's turn, not Bob's", "code": "NotYourTurnError"}
    tile = act(client, game, game["seat"]["Ann"], type="spectator", space=1, side="cheer")
    assert tile.status_code == 409 and "space 1" in tile.get_json()["error"]
    shape = act(client, game, game["seat"]["Ann"], type="spectator", space="7", side="cheer")
    assert shape.status_code == 400
    assert act(client, game, game["seat"]["Ann"], type="dance").status_code == 400
    assert state(client, game, game["host_token"]) == before


def test_state_has_the_spec_keys_and_the_legal_actions_for_the_player_to_move(client):
    game = create(client)
    ann = state(client, game, game["seat"]["Ann"])
    assert set(SPEC_KEYS) <= set(ann)
    assert ann["legal"]["player"] == "Ann"
    assert {"camel": "red", "value": 5} in ann["legal"]["leg_bets"]
    assert ann["you"]["finish_cards"] == ["green", "yellow", "red", "blue", "purple"]
    assert "legal" not in state(client, game, game["seat"]["Bob"])


def test_pyramid_draw_without_a_die_uses_the_pyramid(client):
    game = create(client, dice="pyramid")
    response = act(client, game, game["seat"]["Ann"], type="pyramid")
    assert response.status_code == 200
    body = response.get_json()["state"]
    assert len(body["dice_out"]) == 1 and body["last_move"].startswith("Move ")
    manual = create(client)
    refused = act(client, manual, manual["seat"]["Ann"], type="pyramid")
    assert refused.status_code == 400 and "manual dice" in refused.get_json()["error"]


def views_after_card(app, camel, tmp_path):
    client = app.test_client()
    game = create(client)
    act(client, game, game["seat"]["Ann"], type="finish_bet", pile="winner", camel=camel)
    out = {}
    for who, token in (("Bob", game["seat"]["Bob"]), ("host", game["host_token"]), ("table", game["table_token"])):
        body = state(client, game, token)
        body.pop("game_id")
        out[who] = body
    return out, client, game


def test_no_one_but_the_owner_can_learn_a_face_down_card(tmp_path):
    red_app = create_app(tmp_path / "a", SimulatedPyramid(random.Random(1)), "http://t", testing=True)
    blue_app = create_app(tmp_path / "b", SimulatedPyramid(random.Random(1)), "http://t", testing=True)
    red, client, game = views_after_card(red_app, "red", tmp_path)
    blue, _, _ = views_after_card(blue_app, "blue", tmp_path)
    assert red == blue  # every other seat, the host and the table see exactly the same
    assert "red" in json.dumps(state(client, game, game["seat"]["Ann"])["you"])
    log = client.get(f"/api/games/{game['game_id']}/log", headers=bearer(game["host_token"]))
    assert log.status_code == 409 and "face-down" in log.get_json()["error"]


def test_undo_by_the_host_and_recorded(client, app):
    game = create(client)
    act(client, game, game["seat"]["Ann"], type="leg_bet", camel="red")
    refused = client.post(f"/api/games/{game['game_id']}/undo", headers=bearer(game["seat"]["Bob"]))
    assert refused.status_code == 409 and refused.get_json()["code"] == "TakeBackNotYours"
    response = client.post(f"/api/games/{game['game_id']}/undo", headers=bearer(game["host_token"]))
    assert response.status_code == 200 and response.get_json()["state"]["next_player"] == "Ann"
    entries = app.extensions["camelup"].store.entries(game["game_id"])
    assert [e.kind for e in entries] == ["action", "undo"]
    assert client.post(f"/api/games/{game['game_id']}/undo", headers=bearer(game["host_token"])).status_code == 409


def test_reissued_seat_link_replaces_the_old_one(client):
    game = create(client)
    response = client.post(f"/api/games/{game['game_id']}/seats/Bob/reissue", headers=bearer(game["host_token"]))
    new = {s["player"]: s["token"] for s in response.get_json()["seats"]}
    assert new["Bob"] != game["seat"]["Bob"] and new["Ann"] == game["seat"]["Ann"]
    assert client.get(f"/api/games/{game['game_id']}/state", headers=bearer(game["seat"]["Bob"])).status_code == 401
    assert client.get(f"/api/games/{game['game_id']}/state", headers=bearer(new["Bob"])).status_code == 200
    assert client.get(f"/join/{game['seat']['Bob']}").status_code == 404


def play_through_api(client, log):
    game = create(client, edition=log["edition"], players=log["players"], setup=log["setup"])
    for obj in log["actions"]:
        action = {k: v for k, v in obj.items() if k != "player"}
        response = act(client, game, game["seat"][obj["player"]], **action)
        assert response.status_code == 200, response.get_json()
    return game


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_whole_games_through_the_api_end_in_the_state_the_rules_give(client, seed):
    log = random_log(random.Random(seed), noise=0)
    game = play_through_api(client, log)
    expected = summary(parse_log(log).replay())
    got = state(client, game, game["host_token"])
    assert {k: got[k] for k in SPEC_KEYS} == {k: expected[k] for k in SPEC_KEYS}
    assert got["game_over"] and got["race_scoring"]["winners"]
    exported = client.get(f"/api/games/{game['game_id']}/log", headers=bearer(game["host_token"])).get_json()
    assert exported["actions"] == log["actions"] and exported["setup"] == log["setup"]


def test_a_restart_restores_every_game_exactly(tmp_path):
    first = create_app(tmp_path, SimulatedPyramid(random.Random(2)), "http://t", testing=True)
    client = first.test_client()
    log = random_log(random.Random(8), noise=0)
    log["actions"] = log["actions"][:25]
    game = play_through_api(client, log)
    before = state(client, game, game["seat"]["Ann"])
    first.extensions["camelup"].store.close()  # the first server stops: one companion per data directory
    again = create_app(tmp_path, SimulatedPyramid(random.Random(2)), "http://t", testing=True).test_client()
    assert state(again, game, game["seat"]["Ann"]) == before
    games = again.get("/api/games").get_json()["games"]
    assert [g["game_id"] for g in games] == [game["game_id"]]


def test_import_a_game_log(client):
    log = random_log(random.Random(5), noise=0)
    response = client.post("/api/import", json=log)
    assert response.status_code == 201
    game = response.get_json()
    got = state(client, game, game["host_token"])
    assert got["money"] == summary(parse_log(log).replay())["money"]
    bad = client.post("/api/import", json={**log, "actions": [*log["actions"][:3], {"type": "x"}]})
    assert bad.status_code == 400 and "action 4" in bad.get_json()["error"]


def test_double_tap_accepts_exactly_one(app):
    client = app.test_client()
    game = create(client)
    results = []
    barrier = threading.Barrier(2)

    def tap():
        barrier.wait()
        results.append(act(app.test_client(), game, game["seat"]["Ann"], type="leg_bet", camel="red").status_code)

    threads = [threading.Thread(target=tap) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [200, 409]
    assert state(client, game, game["host_token"])["tickets_left"]["red"] == [3, 2, 2]


def test_events_stream_the_state_then_every_change(client):
    game = create(client)
    response = client.get(f"/api/games/{game['game_id']}/events?token={game['seat']['Bob']}", buffered=False)
    assert response.mimetype == "text/event-stream"
    chunks = iter(response.response)
    assert next(chunks).startswith(b"retry:")
    first = json.loads(next(chunks).decode().split("data: ", 1)[1])
    assert first["next_player"] == "Ann" and first["you"]["player"] == "Bob"
    act(client, game, game["seat"]["Ann"], type="leg_bet", camel="red")
    second = json.loads(next(chunks).decode().split("data: ", 1)[1])
    assert second["next_player"] == "Bob" and second["version"] == first["version"] + 1
    response.close()


def test_pages_render(client):
    game = create(client)
    assert b"Create game" in client.get("/").data
    join = client.get(f"/join/{game['seat']['Ann']}")
    assert join.status_code == 200 and game["seat"]["Ann"].encode() in join.data
    for page in ("play", "host", "table"):
        assert client.get(f"/{page}/{game['game_id']}").status_code == 200
    assert client.get("/play/nope").status_code == 404
    qr = client.get("/qr.svg", query_string={"data": game["seats"][0]["join_url"]})
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml" and b"<svg" in qr.data


def test_players_can_have_characters(client):
    game = create(client, characters=["Pharaoh", "Nomad", "Merchant"])
    expected = {"Ann": "Pharaoh", "Bob": "Nomad", "Cy": "Merchant"}
    assert state(client, game, game["table_token"])["characters"] == expected
    only_one = create(client, characters={"Cy": "Merchant"})
    assert state(client, only_one, only_one["host_token"])["characters"] == {"Cy": "Merchant"}
    for characters, words in (
        (["Nomad", "Nomad", "Merchant"], "same character"),
        ({"Zed": "Nomad"}, "no such player: Zed"),
        ({"Ann": 3}, "'characters' must map"),
    ):
        response = client.post("/api/games", json={"edition": "2018", "players": ["Ann", "Bob", "Cy"],
                                                   "setup": SETUP, "characters": characters})
        assert response.status_code == 400 and words in response.get_json()["error"]


def test_a_database_from_before_characters_still_opens(tmp_path):
    import sqlite3

    from companion.table.store import Store

    old = sqlite3.connect(tmp_path / "games.sqlite3")
    old.executescript(
        "CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, edition TEXT NOT NULL, players TEXT NOT NULL,"
        " setup TEXT NOT NULL, dice TEXT NOT NULL, host_token TEXT NOT NULL, table_token TEXT NOT NULL,"
        " seat_tokens TEXT NOT NULL, result TEXT);"
        "INSERT INTO games VALUES ('g1', 1.0, '2014', '[\"A\", \"B\"]', '{\"track\": {\"1\": "
        "[\"blue\", \"green\", \"orange\", \"yellow\", \"white\"]}}', 'manual', 'h', 't', '{}', NULL);"
    )
    old.commit()
    old.close()
    games = Store(tmp_path / "games.sqlite3").games()
    assert [(g.id, g.characters) for g in games] == [("g1", {})]


def test_the_wifi_qr_code_escapes_every_character_the_format_reserves(tmp_path):
    # A network name and password holding each of \ ; , : (the WIFI: format's separators) must survive a scan.
    hotspot = ("Camel;Table,\\1", "sand:dunes;,\\")
    client = create_app(tmp_path, None, "http://192.168.4.1:8000", testing=True, hotspot=hotspot).test_client()
    game = create(client)
    info = client.get(f"/api/games/{game['game_id']}/table", headers=bearer(game["table_token"])).get_json()
    assert info["wifi"] == {"ssid": hotspot[0], "password": hotspot[1],
                            "qr": "WIFI:T:WPA;S:Camel\\;Table\\,\\\\1;P:sand\\:dunes\\;\\,\\\\;;"}
    plain = create_app(tmp_path / "lan", None, "http://t", testing=True).test_client()
    game = create(plain)
    assert plain.get(f"/api/games/{game['game_id']}/table", headers=bearer(game["host_token"])).get_json() == {
        "address": "http://t/", "wifi": None}


def test_a_body_not_sent_as_json_is_400_saying_how_to_send_it(client):
    response = client.post("/api/games", data={"edition": "2018", "players": "Ann,Bob"})  # a form, not JSON
    assert response.status_code == 400
    assert response.get_json() == {"error": "the body must be JSON (Content-Type: application/json)"}
