"""Issue 14's findings against the app itself (Flask's test client): tokens, probing, input limits, QR codes,
storage faults and security headers. The server model (streams, slow clients) is tested in test_server_load.py."""

import io
import json
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.table.live import ApiError
from companion.table.service import ACTION_DEADLINE_SECONDS
from companion.table.web import create_app
from companion.table.web.limits import (
    ACTION_BODY_BYTES,
    IMPORT_BODY_BYTES,
    JSON_DEPTH,
    NUMBER_DIGITS,
    SECURITY_HEADERS,
    parse_json,
)
from tests.gamegen import random_log
from tests.test_web_api import SETUP, act, bearer, create, state

TEMPLATES = Path(__file__).resolve().parents[1] / "companion" / "table" / "web" / "templates"


# -- tokens ----------------------------------------------------------------------------------------------------
def test_any_token_bytes_are_refused_with_401_never_500(client):
    game = create(client)
    gid = game["game_id"]
    assert client.get(f"/api/games/{gid}/state?token=%C3%A9").status_code == 401
    assert client.get(f"/api/games/{gid}/events?token=%C3%A9%00%ED%A0%80").status_code == 401
    raw = "Bearer \xc3\xa9\udc80".encode("utf-8", "surrogateescape").decode("latin-1")  # bytes as a server sees them
    assert client.get(f"/api/games/{gid}/state", headers={"Authorization": raw}).status_code == 401
    assert client.get(f"/api/games/{gid}/state", headers={"Authorization": "Bearer é"}).status_code == 401
    assert client.get("/join/%C3%A9").status_code == 404


def test_a_replaced_seat_stops_hearing_the_game_at_once(client):
    game = create(client)
    old = game["seat"]["Bob"]
    stream = client.get(f"/api/games/{game['game_id']}/events?token={old}", buffered=False)
    chunks = iter(stream.response)
    assert next(chunks).startswith(b"retry:") and b"event: state" in next(chunks)
    client.post(f"/api/games/{game['game_id']}/seats/Bob/reissue", headers=bearer(game["host_token"]))
    started = time.monotonic()
    assert list(chunks) == []  # the stream ends: nothing more, not even the new phone's moves
    assert time.monotonic() - started < 1.0
    stream.close()


# -- no probing of face-down cards -------------------------------------------------------------------------------
def test_the_host_cannot_probe_a_joined_seats_finish_cards(client):
    game = create(client)
    ann = game["seat"]["Ann"]
    assert client.get(f"/join/{ann}").status_code == 200  # Ann's phone takes her seat
    assert act(client, game, ann, type="finish_bet", pile="winner", camel="red").status_code == 200
    host = game["host_token"]
    act(client, game, host, player="Bob", type="leg_bet", camel="blue")
    act(client, game, host, player="Cy", type="leg_bet", camel="blue")
    before = state(client, game, host)
    answers = []
    for camel in ("red", "blue"):  # one played, one not: the host must not tell them apart
        response = act(client, game, host, player="Ann", type="finish_bet", pile="winner", camel=camel)
        answers.append((response.status_code, response.get_json()["error"]))
        assert "red" not in response.get_json()["error"] and "blue" not in response.get_json()["error"]
    assert answers[0] == answers[1] and answers[0][0] == 403
    assert state(client, game, host) == before
    # Her own phone still gets the reason (it is her card).
    refused = act(client, game, ann, type="finish_bet", pile="loser", camel="red")
    assert refused.status_code == 409 and "red" in refused.get_json()["error"]


def test_the_scorekeeper_enters_finish_cards_for_a_seat_with_no_phone(client):
    game = create(client)
    host = game["host_token"]
    assert act(client, game, host, player="Ann", type="finish_bet", pile="winner", camel="red").status_code == 200


def test_a_seat_that_joined_stays_joined_after_a_restart_and_a_new_link(tmp_path):
    app = create_app(tmp_path, None, "http://t", testing=True)
    client = app.test_client()
    game = create(client)
    state(client, game, game["seat"]["Ann"])
    client.post(f"/api/games/{game['game_id']}/seats/Ann/reissue", headers=bearer(game["host_token"]))
    again = create_app(tmp_path, None, "http://t", testing=True).test_client()
    refused = act(again, game, game["host_token"], player="Ann", type="finish_bet", pile="winner", camel="red")
    assert refused.status_code == 403


# -- limits on input -------------------------------------------------------------------------------------------
def test_bodies_over_the_limit_are_413_naming_it(client):
    game = create(client)
    padding = "x" * ACTION_BODY_BYTES
    response = act(client, game, game["seat"]["Ann"], type="leg_bet", camel="red", note=padding)
    assert response.status_code == 413 and "64 KB" in response.get_json()["error"]
    huge = {"edition": "2018", "players": ["A", "B"], "junk": ["y" * 1000] * 2000}  # 2 MB in an unknown field
    response = client.post("/api/games", json=huge)
    assert response.status_code == 413 and "64 KB" in response.get_json()["error"]
    log = {**random_log(random.Random(5), noise=0), "junk": "z" * IMPORT_BODY_BYTES}
    response = client.post("/api/import", json=log)
    assert response.status_code == 413 and "1024 KB" in response.get_json()["error"]

    # No Content-Length (a chunked body): the limit holds while reading.
    chunked = io.BytesIO(b'{"edition": "2018", "players": ["A", "B"], "junk": "' + b"w" * 100_000 + b'"}')
    response = client.post("/api/games", input_stream=chunked, headers={"Content-Type": "application/json"},
                           environ_overrides={"wsgi.input_terminated": True})
    assert response.status_code == 413


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"edition": "2018", "players": ["Ann", "B" * 33]}, "longer than 32 characters"),
        ({"edition": "2018", "players": ["Ann", "Bob\u202e4 → 3"]}, "text-direction control"),
        ({"edition": "2018", "players": ["Ann", "Bo\x00b"]}, "control character"),
        ({"edition": "2018", "players": ["Ann", "Bob\nCy"]}, "control character"),
        ({"edition": "2018", "players": ["Ann", "Bob"], "characters": {"Bob": "\u2067Nomad"}}, "text-direction"),
        ({"edition": "2018", "players": ["Ann", "Bob"], "setup": {"track": {"1" * 5000: ["red"]}}}, "space number"),
        ({"edition": "2018", "players": ["Ann", "Bob"], "setup": {"track": {"²": ["red"]}}}, "space number"),
    ],
)
def test_names_and_numbers_beyond_the_limits_are_400(client, body, words):
    response = client.post("/api/games", json=body)
    assert response.status_code == 400 and words in response.get_json()["error"], response.get_json()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 30_000 + "]" * 30_000, "nested deeper than 20 levels"),  # 100,000 deep is over 64 KB
        ("[" * 25 + "]" * 25, "nested deeper than 20 levels"),
        ('{"edition": "2018", "players": ["A", "B"], "x": ' + "9" * 5000 + "}", "more than 15 digits"),
        ('{"edition": "2018", "players": ["A", "B"], "x": NaN}', "NaN"),
        (b'{"players": "\xff"}', "UTF-8"),
    ],
)
def test_json_too_deep_or_numbers_too_long_are_400(client, text, words):
    response = client.post("/api/games", data=text, headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and words in response.get_json()["error"]


def test_a_name_with_a_slash_can_get_a_new_link(client):
    game = create(client, players=["Ann/Bo", "Cy", "Dee"])
    response = client.post(f"/api/games/{game['game_id']}/seats/Ann%2FBo/reissue", headers=bearer(game["host_token"]))
    assert response.status_code == 200
    assert response.get_json()["seats"][0]["token"] != game["seat"]["Ann/Bo"]


def test_a_device_may_create_only_so_many_games_a_minute(tmp_path):
    client = create_app(tmp_path, None, "http://t", testing=True, games_per_minute=3).test_client()
    body = {"edition": "2018", "players": ["Ann", "Bob"], "setup": SETUP}
    assert [client.post("/api/games", json=body).status_code for _ in range(3)] == [201] * 3
    refused = client.post("/api/games", json=body)
    assert refused.status_code == 429 and "at most 3 a minute" in refused.get_json()["error"]
    other = client.post("/api/games", json=body, environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 201  # another phone is not held back


def test_qr_codes_only_for_the_games_own_links_and_made_once(client):
    from companion.table.web.pages import _qr_svg

    game = create(client)
    assert client.get("/qr.svg", query_string={"data": "x" * 1000}).status_code == 404
    assert client.get("/qr.svg", query_string={"data": "http://table.test:8000/join/guess"}).status_code == 404
    _qr_svg.cache_clear()
    link = game["seats"][1]["join_url"]
    for _ in range(5):
        assert client.get("/qr.svg", query_string={"data": link}).status_code == 200
    assert _qr_svg.cache_info().misses == 1 and _qr_svg.cache_info().hits == 4
    assert client.get("/qr.svg", query_string={"data": "http://table.test:8000/"}).status_code == 200


def test_a_timed_out_action_is_refused_not_applied_later(app, monkeypatch):
    import companion.table.service

    client = app.test_client()
    game = create(client)
    service = app.extensions["camelup"]
    monkeypatch.setattr(companion.table.service, "ACTION_DEADLINE_SECONDS", 0.3)
    live = service.game(game["game_id"])
    live.lock.acquire()  # the server is busy with this game for longer than the phone waits
    release = threading.Timer(1.0, live.lock.release)
    release.start()
    caller = service.authenticate(game["game_id"], game["seat"]["Ann"])
    with pytest.raises(companion.table.service.ApiError) as refused:
        service.act(game["game_id"], caller, {"type": "leg_bet", "camel": "red"}, time.monotonic())
    release.join()
    assert refused.value.status == 503
    assert state(client, game, game["host_token"])["version"] == 0  # and it never happens later
    retry = act(client, game, game["seat"]["Ann"], type="leg_bet", camel="red")
    assert retry.status_code == 200
    assert ACTION_DEADLINE_SECONDS < 15  # shorter than a phone's patience


# -- storage faults --------------------------------------------------------------------------------------------
@pytest.fixture
def immutable(tmp_path):
    """``chattr +i`` (undone after the test): not even root can write there, as on a read-only disk."""
    marked = []

    def mark(*paths):
        for path in paths:
            if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
                pytest.skip("chattr +i is not possible here (needs root on ext4)")
            marked.append(path)

    yield mark
    for path in marked:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_read_only_data_directory_is_loud_and_refuses_actions_with_503(tmp_path, immutable):
    data = tmp_path / "data"
    client = create_app(data, None, "http://t", testing=True).test_client()
    game = create(client)
    act(client, game, game["seat"]["Ann"], type="leg_bet", camel="red")
    client.application.extensions["camelup"].store.close()
    immutable(*data.iterdir(), data)
    client = create_app(data, None, "http://t", testing=True).test_client()
    health = client.get("/healthz").get_json()
    assert health["status"] == "degraded" and "read-only" in health["reason"]
    assert state(client, game, game["host_token"])["version"] == 1  # the games stored are still there
    refused = act(client, game, game["seat"]["Bob"], type="leg_bet", camel="red")
    assert refused.status_code == 503 and "cannot save games" in refused.get_json()["error"]
    assert client.post("/api/games", json={"edition": "2018", "players": ["A", "B"]}).status_code == 503
    for page in ("/", f"/play/{game['game_id']}", f"/table/{game['game_id']}"):
        assert b"Games cannot be saved" in client.get(page).data


def test_a_new_data_directory_on_a_read_only_disk_is_a_message(tmp_path, immutable):
    immutable(tmp_path)
    client = create_app(tmp_path / "new" / "data", None, "http://t", testing=True).test_client()
    assert client.get("/healthz").get_json()["status"] == "degraded"
    assert client.post("/api/games", json={"edition": "2018", "players": ["A", "B"]}).status_code == 503


def test_database_files_made_immutable_while_serving_never_kill_the_server(tmp_path, immutable):
    data = tmp_path / "data"
    code = f"""
import random
from companion.table.web import create_app
from tests.test_web_api import act, create
client = create_app({str(data)!r}, None, "http://t", testing=True).test_client()
game = create(client)
act(client, game, game["seat"]["Ann"], type="leg_bet", camel="red")
print("ready", flush=True)
input()
answers = [act(client, game, game["seat"]["Bob"], type="leg_bet", camel="blue").status_code for _ in range(3000)]
print(sorted(set(answers)), client.get("/healthz").get_json()["status"], flush=True)
"""
    process = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                               cwd=Path(__file__).resolve().parents[1])
    assert process.stdout.readline().strip() == "ready"
    immutable(*data.iterdir())
    out, _ = process.communicate("\n", timeout=60)
    assert process.returncode == 0, f"the server died (exit {process.returncode})"  # SIGBUS was -7
    assert out.strip() == "[503] degraded"


# -- security headers ------------------------------------------------------------------------------------------
def test_every_response_carries_the_security_headers(client):
    game = create(client)
    responses = [client.get(path) for path in (
        "/", f"/join/{game['seat']['Ann']}", f"/play/{game['game_id']}", "/static/app.js", "/healthz", "/nope",
        f"/api/games/{game['game_id']}/state", "/play/nope")]
    responses.append(client.post("/api/games", data="{", headers={"Content-Type": "application/json"}))
    for response in responses:
        for name, value in SECURITY_HEADERS.items():
            assert response.headers.get(name) == value, (response.request.path, name)
    policy = SECURITY_HEADERS["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy and "unsafe-inline" not in \
        policy.split("script-src")[1].split(";")[0]


def test_no_template_holds_an_inline_script_or_handler():
    for template in TEMPLATES.glob("*.html"):
        text = template.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), template.name
        assert not re.search(r"\son[a-z]+\s*=", text), template.name
        assert "javascript:" not in text, template.name


def test_the_join_page_keeps_the_seat_without_inline_script(client):
    game = create(client)
    page = client.get(f"/join/{game['seat']['Ann']}").data.decode()
    assert '<script src="/static/join.js">' in page and f'data-token="{game["seat"]["Ann"]}"' in page
    assert client.get("/static/join.js").status_code == 200
    assert json.dumps(game["seat"]["Ann"]) not in page.split("<main", 1)[0]


def test_serve_on_a_read_only_disk_says_so_and_keeps_serving(tmp_path, immutable):
    """Finding 9: a new data directory on a read-only disk was a raw traceback."""
    from tests.test_crash import free_port

    immutable(tmp_path)
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--data", str(tmp_path / "new" / "data"), "--simulate"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=Path(__file__).resolve().parents[1])
    try:
        lines = [process.stdout.readline() for _ in range(3)]
        assert any("WARNING: games cannot be saved" in line and "read-only" in line for line in lines), lines
        from tests.crowd import http

        deadline = time.monotonic() + 10
        while True:
            try:
                _, health = http(port, "GET", "/healthz", timeout=2)
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert health["status"] == "degraded"
        assert http(port, "POST", "/api/games", {"edition": "2018", "players": ["A", "B"]})[0] == 503
    finally:
        process.kill()
        process.wait()
    assert "Traceback" not in process.stdout.read()


# -- the limits' exact edges (found by mutation testing: each edge could move by one unnoticed) ---------------------
def _refusal(raw: bytes) -> str | None:
    try:
        parse_json(raw)
    except ApiError as error:
        assert error.status == 400
        return error.message
    return None


def _nested(depth: int, *, objects: bool) -> bytes:
    text = "1"
    for _ in range(depth):
        text = '{"k": ' + text + "}" if objects else "[" + text + "]"
    return text.encode()


@pytest.mark.parametrize("objects", [False, True])
def test_json_nested_exactly_to_the_limit_is_read_and_one_deeper_is_refused(objects):
    assert _refusal(_nested(JSON_DEPTH, objects=objects)) is None
    assert _refusal(_nested(JSON_DEPTH + 1, objects=objects)) == \
        f"the body's JSON is nested deeper than {JSON_DEPTH} levels"
    # Depth counts along every branch, not just the last one read.
    wide = b'{"a": ' + _nested(JSON_DEPTH, objects=objects) + b', "b": 1}'
    assert _refusal(wide) == f"the body's JSON is nested deeper than {JSON_DEPTH} levels"


def test_numbers_of_exactly_the_longest_length_are_read_and_longer_are_refused():
    longest = "9" * NUMBER_DIGITS
    assert parse_json(f"[{longest}, -{longest}]".encode()) == [int(longest), -int(longest)]
    assert _refusal(f"[{longest}9]".encode()) == f"a number in the body has more than {NUMBER_DIGITS} digits"
    decimal = "0." + "5" * (NUMBER_DIGITS + 8)  # the longest decimal text read
    assert parse_json(f"[{decimal}, 1.5]".encode()) == [float(decimal), 1.5]
    assert _refusal(f"[{decimal}5]".encode()) == f"a number in the body has more than {NUMBER_DIGITS} digits"


def test_a_body_that_is_not_utf8_or_not_json_is_refused_in_words():
    assert _refusal(b'{"a": "\xff"}') == "the body must be JSON in UTF-8"
    assert _refusal(b"{not json") == "the body must be JSON (Content-Type: application/json)"
    assert _refusal(b"[Infinity]") == "Infinity is not a number JSON allows"


def test_a_body_over_the_limit_carries_the_code_too_large(client):
    response = client.post("/api/games", json={"junk": "y" * (ACTION_BODY_BYTES + 1)})
    assert response.status_code == 413 and response.get_json()["code"] == "TooLarge"


def test_an_action_the_server_took_in_too_long_ago_is_refused(client):
    # The event-loop server stamps when it took the request in; the API must pass that on to the deadline.
    game = create(client)
    stale = {"asgi.scope": {"camelup.received": time.monotonic() - ACTION_DEADLINE_SECONDS - 1}}
    response = client.post(f"/api/games/{game['game_id']}/actions", json={"type": "leg_bet", "camel": "red"},
                           headers=bearer(game["seat"]["Ann"]), environ_overrides=stale)
    assert response.status_code == 503
    assert state(client, game, game["host_token"])["version"] == 0
    fresh = {"asgi.scope": {"camelup.received": time.monotonic()}}
    response = client.post(f"/api/games/{game['game_id']}/actions", json={"type": "leg_bet", "camel": "red"},
                           headers=bearer(game["seat"]["Ann"]), environ_overrides=fresh)
    assert response.status_code == 200
