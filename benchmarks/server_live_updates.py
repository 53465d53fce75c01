"""The companion under a table's load: 20 live pages (Server-Sent Events) while actions stream in.

Targets (issue 5): an accepted action reaches all 20 pages within 100 ms at p95, and the server accepts at
least 200 actions per second, each committed to disk (SQLite WAL, synchronous=FULL) before it is answered.
Everything runs on this machine's loopback. At a table the phones are other devices, so by default the
server gets one core and the simulated pages and the sender the other; --shared-cores lets them all share
both (the pages then take CPU from the server).
Run: .venv/bin/python benchmarks/server_live_updates.py [--shared-cores]
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import re
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.crowd import phone_address
from tests.gamegen import random_log
from tests.test_crash import free_port, request, start_server

VERSION = re.compile(rb'"version": (\d+)')


class Page(threading.Thread):
    """One open page: reads the event stream and notes when each version arrived."""

    def __init__(self, port: int, game_id: str, token: str, source: str) -> None:
        super().__init__(daemon=True)
        self.port, self.game_id, self.token = port, game_id, token
        self.arrivals: list[tuple[int, float]] = []
        self.ready = threading.Event()
        # Each page is a phone of its own (a loopback address of its own): the server caps pages per device.
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60, source_address=(source, 0))
        self.sock: socket.socket | None = None

    def close(self) -> None:
        if self.sock is not None:
            self.sock.shutdown(socket.SHUT_RDWR)
        self.join(5)

    def run(self) -> None:
        self.connection.request("GET", f"/api/games/{self.game_id}/events?token={self.token}")
        self.sock = self.connection.sock  # the response takes it over: keep it to hang up later
        response = self.connection.getresponse()
        buffer = b""
        while True:
            try:
                chunk = response.read1(65536)
            except (OSError, http.client.HTTPException):
                return
            if not chunk:
                return
            buffer += chunk
            while b"\n\n" in buffer:
                event, buffer = buffer.split(b"\n\n", 1)
                found = VERSION.search(event)
                if found:  # the version alone: parsing every state would make the readers the bottleneck
                    self.arrivals.append((int(found.group(1)), time.perf_counter()))
                    self.ready.set()


def watch(port: int, game_id: str, tokens: list[str], clients: int, ready, stop, results) -> None:
    """The open pages, in a process of their own (so the readers do not slow the one sending actions)."""
    pages = [Page(port, game_id, tokens[i % len(tokens)], phone_address(i)) for i in range(clients)]
    for page in pages:
        page.start()
    for page in pages:
        page.ready.wait(10)
    ready.set()
    stop.wait()
    for page in pages:
        page.close()
    results.put([page.arrivals for page in pages])


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--games", type=int, default=5, help="whole games to stream (30 to 80 actions each)")
    parser.add_argument("--shared-cores", action="store_true", help="do not give the server a core of its own")
    args = parser.parse_args()
    port = free_port()
    split = not args.shared_cores and hasattr(os, "sched_setaffinity") and len(os.sched_getaffinity(0)) >= 2
    if split:
        server_core, *client_cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, set(client_cores))  # this process and the pages' process started from it
    with tempfile.TemporaryDirectory() as data:
        server = start_server(port, Path(data), {server_core} if split else None)
        cpu_before = _cpu_seconds(server.pid)
        try:
            logs = [random_log(random.Random(seed), edition="2018", players=4, noise=0) for seed in range(args.games)]
            latencies: list[float] = []
            accepted = 0
            busy = 0.0
            for log in logs:
                _, game = request(port, "POST", "/api/games", {
                    "edition": log["edition"], "players": log["players"], "dice": "manual", "setup": log["setup"]})
                tokens = [s["token"] for s in game["seats"]] + [game["table_token"], game["host_token"]]
                ready, stop, results = multiprocessing.Event(), multiprocessing.Event(), multiprocessing.Queue()
                watcher = multiprocessing.Process(
                    target=watch, args=(port, game["game_id"], tokens, args.clients, ready, stop, results))
                watcher.start()
                ready.wait(20)
                seats = {s["player"]: s["token"] for s in game["seats"]}
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                sent: dict[int, float] = {}
                start = time.perf_counter()
                for version, obj in enumerate(log["actions"], start=1):
                    body = json.dumps({k: v for k, v in obj.items() if k != "player"})
                    sent[version] = time.perf_counter()
                    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {seats[obj['player']]}"}
                    connection.request("POST", f"/api/games/{game['game_id']}/actions", body, headers)
                    response = connection.getresponse()
                    response.read()
                    assert response.status == 200, response.status
                    accepted += 1
                busy += time.perf_counter() - start
                time.sleep(0.3)
                stop.set()
                arrivals = results.get(timeout=30)
                watcher.join()
                time.sleep(0.5)  # the server lets go of the departed pages
                for page in arrivals:
                    for version, at in sent.items():
                        seen = next((t for v, t in page if v >= version), None)
                        if seen is None:
                            raise SystemExit(f"a page never saw version {version}")
                        latencies.append((seen - at) * 1000)
            cpu = _cpu_seconds(server.pid) - cpu_before
        finally:
            server.kill()
            server.wait()
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print("server on a core of its own, pages and sender on the other" if split else "server and pages share the cores")
    print(f"{args.clients} live pages, {accepted} actions: action -> every page "
          f"p50 {statistics.median(latencies):.1f} ms, p95 {p95:.1f} ms, max {latencies[-1]:.1f} ms "
          "(target p95 <= 100 ms)")
    print(f"accepted actions: {accepted / busy:.0f}/s, each stored before it was answered (target >= 200/s); "
          f"server CPU over the whole run, keep-alives included: {1000 * cpu / accepted:.1f} ms per action")


if __name__ == "__main__":
    main()
