"""Kill the real server with SIGKILL during a stream of actions, restart it, and find every action that
was acknowledged (an acknowledged action was committed to disk before the answer left)."""

import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

from companion.gamelog import parse_log, summary
from tests.gamegen import random_log

SPEC_KEYS = ("edition", "leg", "game_over", "track", "ranking", "money", "next_player")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(port, method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, headers=headers, method=method)
    with urllib.request.urlopen(req, timeout=10) as response:
        return response.status, json.loads(response.read())


def start_server(port, data_dir, cpus=None, extra=()):
    """The real server in a process of its own; ``cpus`` pins it (and all its threads) to those cores;
    ``extra`` are more ``camelup serve`` arguments (a ``--config``)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--data", str(data_dir), "--simulate", *extra],
        stdout=subprocess.DEVNULL, stderr=None if os.environ.get("CAMELUP_SERVER_LOG") else subprocess.DEVNULL,
        preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None,
    )
    deadline = time.time() + 15
    while time.time() < deadline:
        try:
            request(port, "GET", "/healthz")
            return process
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("the server did not start")


def start_with_camera(tmp_path, frame, board="2018"):
    """The real server with a camera: ``frame`` (a picture, BGR) as an image file in ``files`` mode. Returns
    its port and process."""
    import cv2

    cv2.imwrite(str(tmp_path / "board.png"), frame)
    config = tmp_path / "companion.toml"
    config.write_text(f'[camera]\nmode = "files"\nsource = "{tmp_path / "board.png"}"\nboard = "{board}"\n')
    port = free_port()
    return port, start_server(port, tmp_path / "data", extra=["--config", str(config)])


def test_every_acknowledged_action_survives_sigkill(tmp_path):
    log = random_log(random.Random(12), edition="2018", players=4, noise=0)
    port = free_port()
    server = start_server(port, tmp_path)
    acknowledged = 0
    try:
        _, game = request(port, "POST", "/api/games", {
            "edition": log["edition"], "players": log["players"], "dice": "manual", "setup": log["setup"]})
        seats = {seat["player"]: seat["token"] for seat in game["seats"]}

        twenty_in = threading.Event()

        def stream():
            nonlocal acknowledged
            for obj in log["actions"]:
                action = {k: v for k, v in obj.items() if k != "player"}
                try:
                    request(port, "POST", f"/api/games/{game['game_id']}/actions", action, seats[obj["player"]])
                except (urllib.error.URLError, ConnectionError, OSError):
                    return
                acknowledged += 1
                if acknowledged == 20:
                    twenty_in.set()

        sender = threading.Thread(target=stream)
        sender.start()
        assert twenty_in.wait(timeout=60), "the server did not acknowledge 20 actions within a minute"
        os.kill(server.pid, signal.SIGKILL)
        sender.join()
        server.wait()
    finally:
        if server.poll() is None:
            server.kill()

    assert 20 <= acknowledged < len(log["actions"]), "the kill must land in the middle of the stream"
    restarted = start_server(port, tmp_path)
    try:
        _, after = request(port, "GET", f"/api/games/{game['game_id']}/state", token=game["host_token"])
    finally:
        restarted.kill()
        restarted.wait()
    got = {key: after[key] for key in SPEC_KEYS}

    def expected(count):
        partial = {**log, "actions": log["actions"][:count]}
        out = summary(parse_log(partial).replay())
        return {key: out[key] for key in SPEC_KEYS}

    # Everything acknowledged is there; at most the one action in flight was also committed.
    assert got in (expected(acknowledged), expected(acknowledged + 1))
    assert after["version"] in (acknowledged, acknowledged + 1)
