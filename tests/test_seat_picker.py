"""The seat picker behind the table screen's QR code, through the API: only the table's key opens it, and
picking a name gives that seat's join link."""

import random

import pytest

from companion.table.service import SimulatedPyramid
from companion.table.web import create_app
from tests.test_web_api import bearer, create


@pytest.fixture
def client(tmp_path):
    return create_app(tmp_path / "data", SimulatedPyramid(random.Random(3)), "http://table.test:8000",
                      testing=True).test_client()


def test_the_table_s_key_opens_the_picker_and_a_pick_gives_the_seat_s_link(client):
    game = create(client)
    gid = game["game_id"]
    link = client.get(f"/api/games/{gid}/seat-picker-link", headers=bearer(game["table_token"])).get_json()
    assert link["url"].startswith(f"http://table.test:8000/pick/{gid}#")
    key = link["url"].split("#")[1]
    assert client.get(f"/api/games/{gid}/seat-picker?key={key}").get_json()["players"] == ["Ann", "Bob", "Cy"]
    picked = client.post(f"/api/games/{gid}/seat-picker", json={"key": key, "player": "Bob"}).get_json()
    assert picked == {"join_url": f"/join/{game['seat']['Bob']}"}
    qr = client.get(link["qr"])
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"


def test_without_the_key_the_picker_gives_nothing(client):
    game = create(client)
    gid = game["game_id"]
    assert client.get(f"/api/games/{gid}/seat-picker-link", headers=bearer(game["seat"]["Ann"])).status_code == 403
    assert client.get(f"/api/games/{gid}/seat-picker?key=guess").status_code == 401
    refused = client.post(f"/api/games/{gid}/seat-picker", json={"key": "guess", "player": "Bob"})
    assert refused.status_code == 401 and game["seat"]["Bob"] not in refused.get_data(as_text=True)
    assert client.get(f"/pick/{gid}/qr.svg?key=guess").status_code == 401
    assert client.post(f"/api/games/{gid}/seat-picker", json=["Bob"]).status_code == 400


def test_a_bad_game_id_gives_a_page_not_json(client):
    for path in ("/table/nope", "/play/nope", "/host/nope", "/pick/nope", "/results/nope"):
        response = client.get(path)
        assert response.status_code == 404 and response.mimetype == "text/html", path
        assert 'data-t="no_game"' in response.get_data(as_text=True)
    gone = client.get("/join/not-a-seat")
    assert gone.status_code == 404 and 'data-t="link_gone"' in gone.get_data(as_text=True)
