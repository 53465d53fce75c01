"""Every endpoint of a game answers each kind of caller as the API says: the host, the table screen, a seat,
a token of another game, and no token at all."""

from __future__ import annotations

import random

import pytest

from companion.table.service import SimulatedPyramid
from companion.table.web import create_app

SETUP = {"track": {"1": ["green", "red"], "3": ["yellow", "blue", "purple"], "14": ["black"], "16": ["white"]}}
ROLES = ("host", "table", "seat", "other game", "none")

# (method, path under /api/games/<id>, body) -> the status each role gets. 2xx means allowed.
LEG_BET = {"player": "Ann", "type": "leg_bet", "camel": "red"}
ENDPOINTS = [  # (method, path under /api/games/<id>, body, the status per role: others get 401)
    ("GET", "/state", None, {"host": 200, "table": 200, "seat": 200}),
    ("GET", "/events", None, {"host": 200, "table": 200, "seat": 200}),
    ("GET", "/camera", None, {"host": 200, "table": 200, "seat": 200}),
    ("GET", "/credentials", None, {"host": 200, "table": 403, "seat": 403}),
    ("GET", "/table", None, {"host": 200, "table": 200, "seat": 403}),
    ("GET", "/odds", None, {"host": 200, "table": 200, "seat": 403}),
    ("GET", "/log", None, {"host": 409, "table": 403, "seat": 403}),  # the host's, once the race is over
    ("POST", "/undo", {}, {"host": 200, "table": 403, "seat": 409}),  # a seat may take back only its own tap
    ("POST", "/seats/Bob/reissue", {}, {"host": 200, "table": 403, "seat": 403}),
    ("POST", "/actions", LEG_BET, {"host": 200, "table": 403, "seat": 200}),
    # The host's alone (no camera here: the host is told so); companion/table/camera_game.py
    ("POST", "/camera/release", {}, {"host": 409, "table": 403, "seat": 403}),
    ("POST", "/camera/take", {}, {"host": 409, "table": 403, "seat": 403}),
]


@pytest.fixture
def client(tmp_path):
    app = create_app(tmp_path / "data", SimulatedPyramid(random.Random(3)), "http://t", testing=True)
    return app.test_client()


def _create(client) -> dict:
    body = {"edition": "2018", "players": ["Ann", "Bob", "Cy"], "dice": "manual", "setup": SETUP}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201
    return response.get_json()


@pytest.mark.parametrize(("method", "path", "body", "statuses"), ENDPOINTS, ids=[e[1] for e in ENDPOINTS])
@pytest.mark.parametrize("role", ROLES)
def test_each_role_gets_what_the_api_promises(client, method, path, body, statuses, role):
    game, other = _create(client), _create(client)
    tokens = {"host": game["host_token"], "table": game["table_token"], "seat": game["seats"][0]["token"],
              "other game": other["host_token"], "none": None}
    game_id = game["game_id"]
    if path == "/undo":  # something to undo, entered by the host
        client.post(f"/api/games/{game_id}/actions", json={"player": "Ann", "type": "leg_bet", "camel": "blue"},
                    headers={"Authorization": f"Bearer {game['host_token']}"})
    headers = {"Authorization": f"Bearer {tokens[role]}"} if tokens[role] else {}
    url = f"/api/games/{game_id}{path}"
    if method == "GET":
        response = client.get(url, headers=headers, buffered=path != "/events")
    else:
        response = client.post(url, json=body, headers=headers)
    expected = statuses.get(role, 401)
    try:
        assert response.status_code == expected, response.get_data(as_text=True)[:200]
        if expected >= 400:
            assert response.get_json()["error"], "a refusal says why"
    finally:
        response.close()


def test_a_refused_caller_changes_nothing(client):
    game = _create(client)
    game_id = game["game_id"]
    seat = {"Authorization": f"Bearer {game['seats'][1]['token']}"}
    before = client.get(f"/api/games/{game_id}/state", headers=seat).get_json()
    client.post(f"/api/games/{game_id}/undo", json={}, headers=seat)
    client.post(f"/api/games/{game_id}/seats/Ann/reissue", json={}, headers=seat)
    client.post(f"/api/games/{game_id}/actions", json={"player": "Ann", "type": "leg_bet", "camel": "red"},
                headers=seat)
    assert client.get(f"/api/games/{game_id}/state", headers=seat).get_json() == before
    host = {"Authorization": f"Bearer {game['host_token']}"}
    seats = client.get(f"/api/games/{game_id}/credentials", headers=host).get_json()["seats"]
    assert [s["token"] for s in seats] == [s["token"] for s in game["seats"]]
