"""The placement assistant's page on the host's device: only the host sees it (the camera shows the room); the
page, the annotated live view and its findings, with what to change in the host's language."""

from __future__ import annotations

import dataclasses
import re
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.table.web import create_app
from vision.photo import make_table, render_scene
from vision.raster import PinholeCamera, look_at, make_canvas

SETUP = {"track": {"1": ["blue"], "2": ["green", "yellow"], "3": ["red"], "4": ["purple"], "5": ["black", "white"]}}


def _moved(table, distance: float, elevation: float, azimuth: float):
    """The same table with its camera somewhere else, looking at the board's middle (same lens)."""
    middle = np.array([335.0, 335.0, 0.0])
    el, az = np.radians(elevation), np.radians(azimuth)
    position = middle + distance * np.array([np.sin(az) * np.cos(el), np.cos(az) * np.cos(el), -np.sin(el)])
    rotation = look_at(position, middle)
    old = table.camera
    camera = PinholeCamera(old.matrix, old.distortion, rotation, -rotation @ position, old.size)
    return dataclasses.replace(table, camera=camera, canvas=make_canvas(camera))


def _palm_hiding_marker_1(table):
    """The palm tree's crown on the sight line from the camera to marker 1 (top right)."""
    marker = np.array([*np.array(table.template.marker_corners(1)).mean(axis=0), 0.0])
    camera_at = table.camera.position
    crown = camera_at + (-200 - camera_at[2]) / (marker[2] - camera_at[2]) * (marker - camera_at)
    return dataclasses.replace(table, palm=(float(crown[0]), float(crown[1])), pyramid=None)


@pytest.fixture(scope="module")
def table():
    return make_table(203, "2018")


@pytest.fixture(scope="module")
def good_frame(table):
    frame, _ = render_scene(table, {1: ["red"], 2: ["green", "blue"]}, 1, "light")
    return frame


def _game(client) -> dict:
    response = client.post("/api/games", json={"edition": "2018", "players": ["Ann", "Bob"], "dice": "manual",
                                               "setup": SETUP})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


@pytest.fixture
def camera_client(tmp_path, table, good_frame):
    watch = SimpleNamespace(template=table.template, latest_frame=good_frame)
    return create_app(tmp_path, testing=True, camera=watch).test_client()


def _who(game: dict, role: str) -> str | None:
    return {"nobody": None, "seat": game["seats"][0]["token"], "table": game["table_token"],
            "host": game["host_token"], "stranger": "not-a-token-of-this-game"}[role]


@pytest.mark.parametrize(("role", "status", "says"), [
    ("nobody", 401, "camera_view_no_token"), ("stranger", 401, "camera_view_bad_token"),
    ("seat", 403, "camera_view_not_host"), ("table", 403, "camera_view_not_host"), ("host", 200, None)])
def test_only_the_games_host_sees_the_page_the_view_and_the_findings(camera_client, role, status, says):
    game = _game(camera_client)
    token = _who(game, role)
    query = f"game={game['game_id']}" + (f"&token={token}" if token else "")
    page = camera_client.get(f"/camera/placement?{query}")
    assert page.status_code == status
    if says:
        # The refusal page says why and how to open it, in the reader's language (the catalogs' words by key).
        assert page.mimetype == "text/html" and f'data-t="{says}"'.encode() in page.data
        assert b"placement.js" not in page.data
    else:
        assert b"placement.js" in page.data
    for kind in ("json", "jpg"):
        answer = camera_client.get(f"/camera/placement?{query}&frame={kind}")
        assert answer.status_code == status, (kind, answer.data[:200])
        if says:  # never the frame, nor what the camera sees
            assert answer.mimetype == "application/json" and "error" in answer.get_json()
            assert "markers" not in answer.get_json()
        # The same with the token in the Authorization header, as the page's script sends it.
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        assert camera_client.get(f"/camera/placement?game={game['game_id']}&frame={kind}",
                                 headers=headers).status_code == status


def test_a_host_token_opens_only_its_own_games_view(camera_client):
    first, second = _game(camera_client), _game(camera_client)
    other = camera_client.get(f"/camera/placement?game={second['game_id']}&token={first['host_token']}&frame=json")
    assert other.status_code == 401
    assert camera_client.get(f"/camera/placement?token={first['host_token']}").status_code == 401  # no game named
    missing = camera_client.get(f"/camera/placement?game=nope&token={first['host_token']}")
    assert missing.status_code == 404 and b'data-t="no_game"' in missing.data
    assert camera_client.get(f"/camera/placement?game=nope&token={first['host_token']}&frame=jpg").status_code == 404


def test_the_host_gets_the_annotated_view_and_the_findings(camera_client, good_frame):
    game = _game(camera_client)
    query = f"game={game['game_id']}&token={game['host_token']}"
    found = camera_client.get(f"/camera/placement?{query}&frame=json").get_json()
    assert found["state"] == "ok" and found["advice"] == [] and all(m["found"] for m in found["markers"].values())
    assert found["changes"] == [] and found["change_keys"] == []
    assert set(found["guidance"]) >= {"distance_mm", "elevation_deg", "azimuth_deg", "margin_px", "min_camel_px"}
    view = camera_client.get(f"/camera/placement?{query}&frame=jpg")
    assert view.status_code == 200 and view.mimetype == "image/jpeg"
    assert view.headers["Cache-Control"] == "no-store"
    picture = cv2.imdecode(np.frombuffer(view.data, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape == good_frame.shape
    # The findings are drawn: a space's outline is green where it was not.
    x, y = np.round(np.array(found["spaces"]["1"]["outline"][0])).astype(int)
    drawn, raw = picture[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3).astype(int), good_frame[y, x].astype(int)
    assert any(g - max(b, r) > 60 for b, g, r in drawn) and not raw[1] - max(raw[0], raw[2]) > 60
    assert camera_client.get(f"/camera/placement?{query}&frame=png").status_code == 400


def test_without_a_camera_the_page_says_so(tmp_path):
    client = create_app(tmp_path, testing=True).test_client()
    game = _game(client)
    query = f"game={game['game_id']}&token={game['host_token']}"
    assert client.get(f"/camera/placement?{query}&frame=json").get_json()["state"] == "off"
    assert client.get(f"/camera/placement?{query}&frame=jpg").status_code == 404
    waiting = create_app(tmp_path, testing=True, camera=SimpleNamespace(template=None, latest_frame=None)).test_client()
    game = _game(waiting)
    query = f"game={game['game_id']}&token={game['host_token']}"
    assert waiting.get(f"/camera/placement?{query}&frame=json").get_json()["state"] == "waiting"


def test_what_to_change_is_said_in_french_from_the_findings(tmp_path, table):
    frame, _ = render_scene(_palm_hiding_marker_1(table), {1: ["red"], 3: ["blue"]}, 2, "props", hand=False)
    client = create_app(tmp_path, testing=True, camera=SimpleNamespace(template=table.template, latest_frame=frame)
                        ).test_client()
    game = _game(client)
    query = f"game={game['game_id']}&token={game['host_token']}&frame=json"
    french = client.get(f"/camera/placement?{query}&lang=fr").get_json()
    assert french["state"] == "advice" and french["changes_language"] == "fr"
    assert ("le marqueur 1 (en haut à droite) est caché, sans doute par la pyramide ou le palmier au milieu du "
            "plateau : montez la caméra ou déplacez-la vers la case 9") in french["changes"]
    assert "placement.marker_hidden_middle" in french["change_keys"]
    english = client.get(f"/camera/placement?{query}&lang=en").get_json()
    assert english["changes_language"] == "en" and len(english["changes"]) == len(english["advice"])
    assert client.get(f"/camera/placement?{query}&lang=xx").get_json()["changes_language"] == "en"


@pytest.mark.parametrize(("distance", "elevation", "azimuth", "keys"), [
    (520, 45, 0, {"placement.marker_outside", "placement.too_near"}),
    (1000, 45, 0, {"placement.too_far", "placement.camels_small"}),
    (750, 28, 0, {"placement.too_low"}),
    (750, 45, 40, {"placement.marker_outside", "placement.turned"}),
    (750, 45, -35, {"placement.turned"}),
])
def test_each_misplaced_camera_gets_the_same_advice_as_vision_gives(table, distance, elevation, azimuth, keys):
    """Rebuilt from the facts, the advice says as many things as vision's sentences, in the same order and with
    the same numbers, in English and in French."""
    from companion.table.placement_view import changes
    from vision.placement import assess_placement

    frame, _ = render_scene(_moved(table, distance, elevation, azimuth), {1: ["red"], 12: ["yellow"]}, 1, "light")
    report = assess_placement(table.template, frame).as_json()
    english, french = changes(report, "en"), changes(report, "fr")
    assert keys <= set(english["change_keys"])
    assert english["changes_language"] == "en" and french["changes_language"] == "fr"
    assert len(english["changes"]) == len(french["changes"]) == len(report["advice"])
    for ours, theirs, theirs_fr in zip(english["changes"], report["advice"], french["changes"], strict=True):
        numbers = sorted(re.findall(r"\d+", theirs))  # the spaces out of the picture come first in ours
        assert sorted(re.findall(r"\d+", ours)) == numbers == sorted(re.findall(r"\d+", theirs_fr))
    assert not set(french["changes"]) & set(report["advice"])


def test_doctor_says_what_to_change_about_the_camera(tmp_path, capsys, table):
    from companion.cli import main

    frame, _ = render_scene(_palm_hiding_marker_1(table), {1: ["red"]}, 2, "props", hand=False)
    cv2.imwrite(str(tmp_path / "table.png"), frame)
    config = tmp_path / "companion.toml"
    config.write_text(f'[camera]\nmode = "files"\nsource = "{tmp_path / "table.png"}"\nboard = "2018"\n')
    main(["doctor", "--simulate", "--config", str(config), "--data", str(tmp_path / "data")])
    out = capsys.readouterr().out
    assert "WARN  camera placement: marker 1 (top right) is hidden" in out and "/camera/placement" in out


def test_the_view_and_its_findings_of_one_frame_are_assessed_once(tmp_path, table, good_frame, monkeypatch):
    import vision.placement

    calls = []
    real = vision.placement.assess_placement
    monkeypatch.setattr(vision.placement, "assess_placement", lambda *args: calls.append(1) or real(*args))
    watch = SimpleNamespace(template=table.template, latest_frame=good_frame.copy())
    client = create_app(tmp_path, testing=True, camera=watch).test_client()
    game = _game(client)
    query = f"game={game['game_id']}&token={game['host_token']}"
    assert client.get(f"/camera/placement?{query}&frame=json").status_code == 200
    assert client.get(f"/camera/placement?{query}&frame=jpg").status_code == 200
    assert len(calls) == 1
    watch.latest_frame = good_frame.copy()  # the camera's next frame
    assert client.get(f"/camera/placement?{query}&frame=jpg").status_code == 200
    assert len(calls) == 2
