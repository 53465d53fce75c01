"""A hostile or careless crowd (issue 14): 1,000 open event streams and 300 slow clients (one more header line
every 5 s, never finished), while 10 of the streamed games are played (one draw a second each). Measured: how
fast /healthz and actions on another game answer.

Target: p95 <= 100 ms for both. Every connection goes to 127.0.0.1; the simulated phones use distinct loopback
source addresses (127.0.x.y) so the per-device stream cap sees a crowd of devices, not one.
Run: .venv/bin/python benchmarks/server_crowd.py [--streams 1000] [--slow 300] [--seconds 60]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.crowd import Stream, http, percentile, phone_address, slow_client
from tests.test_crash import free_port, start_server


def crowd(port: int, paths: list[tuple[str, str]], slow: int, ready, stop, results) -> None:
    """The streams and the slow clients, on one event loop in a process of their own."""

    async def main() -> None:
        streams = [Stream(port, path, source) for path, source in paths]
        tasks = [asyncio.create_task(stream.run()) for stream in streams]
        for index in range(0, len(streams), 100):  # a crowd arrives over a few seconds, not in one instant
            await asyncio.gather(*(stream.opened.wait() for stream in streams[index:index + 100]))
        halt = asyncio.Event()
        cut: list[float] = []
        slow_tasks = [asyncio.create_task(slow_client(port, halt, 5.0, phone_address(2000 + i), cut))
                      for i in range(slow)]
        await asyncio.sleep(1)
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.2)
        open_now = sum(not stream.ended.is_set() for stream in streams)
        halt.set()
        for task in [*tasks, *slow_tasks]:
            task.cancel()
        await asyncio.gather(*tasks, *slow_tasks, return_exceptions=True)
        results.put({"opened": sum(stream.status == 200 for stream in streams), "open_at_end": open_now,
                     "events": sum(stream.events for stream in streams), "slow_cut": len(cut),
                     "slow_cut_after": max(cut) if cut else None})

    asyncio.run(main())


def create_game(port: int, index: int, players: int = 3) -> dict:
    status, game = http(port, "POST", "/api/games", {
        "edition": "2018", "players": [f"P{i}" for i in range(players)], "dice": "pyramid"},
        source=phone_address(4000 + index))  # games from many devices: each may create 20 a minute
    assert status == 201, game
    return game


class Player:
    """Draws from the pyramid for whoever's turn it is; starts a new game when the race is over."""

    def __init__(self, port: int, index: int, game: dict | None = None) -> None:
        self.port, self.index, self.games = port, index, 0
        self._new(game)

    def _new(self, game: dict | None = None) -> None:
        self.game = game or create_game(self.port, self.index * 100 + self.games)
        self.games += 1
        self.seats = {seat["player"]: seat["token"] for seat in self.game["seats"]}
        self.next = "P0"

    def draw(self) -> tuple[int, float]:
        started = time.perf_counter()
        status, body = http(self.port, "POST", f"/api/games/{self.game['game_id']}/actions", {"type": "pyramid"},
                            self.seats[self.next], timeout=15)
        took = time.perf_counter() - started
        if status == 200:
            if body["state"]["game_over"]:
                self._new()
            else:
                self.next = body["state"]["next_player"]
        return status, took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--slow", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        server = start_server(port, Path(data))
        try:
            games = [create_game(port, i) for i in range(max(1, args.streams // 20))]
            paths = []
            for number, game in enumerate(games):
                tokens = [s["token"] for s in game["seats"]] + [game["host_token"], game["table_token"]]
                for i in range(20):  # 20 pages per game: 4 per link, 10 per device
                    paths.append((f"/api/games/{game['game_id']}/events?token={tokens[i % 5]}",
                                  phone_address(number * 2 + i // 10)))
            paths = paths[:args.streams]
            ready, stop, results = multiprocessing.Event(), multiprocessing.Event(), multiprocessing.Queue()
            watcher = multiprocessing.Process(target=crowd, args=(port, paths, args.slow, ready, stop, results))
            watcher.start()
            if not ready.wait(120):
                raise SystemExit("the crowd did not get its streams open")
            _, health = http(port, "GET", "/healthz")
            print(f"open event streams: {health['streams']}, slow clients: {args.slow}")

            # Ten streamed games are being played meanwhile: their pages get events.
            halt = threading.Event()
            background: list[int] = []

            def play_streamed_games() -> None:
                players = [Player(port, 900 + i, game) for i, game in enumerate(games[:10])]
                while not halt.is_set():
                    for player in players:
                        background.append(player.draw()[0])
                    halt.wait(1.0)

            player_thread = threading.Thread(target=play_streamed_games, daemon=True)
            player_thread.start()
            measured = Player(port, 999)
            health_ms, action_ms, errors = [], [], 0
            deadline = time.monotonic() + args.seconds
            while time.monotonic() < deadline:
                started = time.perf_counter()
                status, _ = http(port, "GET", "/healthz", timeout=15)
                health_ms.append((time.perf_counter() - started) * 1000)
                errors += status != 200
                status, took = measured.draw()
                action_ms.append(took * 1000)
                errors += status != 200
                time.sleep(0.1)
            halt.set()
            player_thread.join(30)
            stop.set()
            crowd_figures = results.get(timeout=60)
            watcher.join(30)
        finally:
            server.kill()
            server.wait()
    for name, values in (("/healthz", health_ms), ("action on another game", action_ms)):
        print(f"{name}: {len(values)} requests, p50 {percentile(values, 0.5):.1f} ms, "
              f"p95 {percentile(values, 0.95):.1f} ms, max {max(values):.1f} ms (target p95 <= 100 ms)")
    print(f"errors: {errors}; actions on the streamed games meanwhile: {len(background)} "
          f"({sum(s != 200 for s in background)} refused)")
    print(f"streams opened {crowd_figures['opened']}/{len(paths)}, still open at the end "
          f"{crowd_figures['open_at_end']}, state events delivered {crowd_figures['events']}; slow clients cut "
          f"off at the header deadline {crowd_figures['slow_cut']} times "
          f"(longest {crowd_figures['slow_cut_after'] or 0:.1f} s)")


if __name__ == "__main__":
    main()
