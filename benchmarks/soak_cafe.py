"""An evening at a café (issue 14): 8 tables of bots play through the HTTP API, each table with 20 open event
streams, beside 300 idle streams and 100 slow clients, while faults are injected: the server is killed with
SIGKILL twice, the disk is full for a minute, a phone's network vanishes.

Checked: every acknowledged action is stored (at its place in the game's log), a 503 never changed anything,
every game replays exactly (a fresh server serves what the stored log gives), memory stays flat; measured:
action p95 outside the injected faults (target <= 100 ms).

It runs in a network and mount namespace of its own (``unshare``; needs root): the server listens on that
namespace's own 127.0.0.1, the data directory is a 64 MB tmpfs that can be filled, and iptables cuts the
vanishing phone off without touching the machine's own network.
Run: .venv/bin/python benchmarks/soak_cafe.py [--seconds 600]     (the suite runs a 60-second version)
Prints the figures, then one JSON line with them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import queue
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from http.client import HTTPException
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.crowd import Stream, http, percentile, phone_address, slow_client  # noqa: E402

CUT_OFF = (OSError, HTTPException)
"""What a request meets when the server is killed under it."""

PORT = 8000
SPEC_KEYS = ("edition", "leg", "game_over", "track", "ranking", "money", "next_player")
VANISHING_PHONE = "127.0.0.99"


# -- the server ------------------------------------------------------------------------------------------------
class Server:
    def __init__(self, data: Path, log: Path) -> None:
        self.data, self.log = data, log
        self.process: subprocess.Popen | None = None
        self.rss_mb: list[tuple[float, int, float]] = []  # (time, life, MB)
        self.lives = 0

    def start(self) -> None:
        with open(self.log, "a") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(PORT),
                 "--data", str(self.data), "--simulate"], stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        self.lives += 1
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if http(PORT, "GET", "/healthz", timeout=2)[0] == 200:
                    return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("the server did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def sample_memory(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        try:
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    self.rss_mb.append((time.monotonic(), self.lives, int(line.split()[1]) / 1024))
        except OSError:
            pass


# -- the crowd: streams and slow clients, in a process of their own ---------------------------------------------
def crowd(commands: multiprocessing.Queue, results: multiprocessing.Queue, idle_paths: list[str], slow: int) -> None:
    async def main() -> None:
        tables: dict[int, list[Stream]] = {}
        tasks: set[asyncio.Task] = set()
        events = 0

        def spawn(stream: Stream) -> None:
            task = asyncio.create_task(stream.run())
            tasks.add(task)
            task.add_done_callback(tasks.discard)

        idle = [Stream(PORT, path, phone_address(3000 + i // 10)) for i, path in enumerate(idle_paths)]
        for stream in idle:
            spawn(stream)
        halt = asyncio.Event()
        for i in range(slow):
            task = asyncio.create_task(slow_client(PORT, halt, 5.0, phone_address(5000 + i)))
            tasks.add(task)
        reopened = 0
        while True:
            try:
                command = commands.get_nowait()
            except queue.Empty:
                await asyncio.sleep(0.1)
                # Streams cut by a server restart come back a second later, as a browser's EventSource does.
                for stream in [*idle, *(s for streams in tables.values() for s in streams)]:
                    if stream.ended.is_set() and not getattr(stream, "retired", False) \
                            and time.monotonic() - (stream.ended_at or 0) > 1.0:
                        fresh = Stream(PORT, stream.path, stream.source)
                        stream.retired = True  # type: ignore[attr-defined]
                        events += stream.events
                        spawn(fresh)
                        reopened += 1
                        if stream in idle:
                            idle[idle.index(stream)] = fresh
                        else:
                            for streams in tables.values():
                                if stream in streams:
                                    streams[streams.index(stream)] = fresh
                continue
            if command[0] == "stop":
                break
            if command[0] == "table":
                _, table, paths = command
                for stream in tables.get(table, []):
                    stream.retired = True  # type: ignore[attr-defined]
                    events += stream.events
                    stream.close()
                tables[table] = [Stream(PORT, path, phone_address(1000 + table * 20 + i)) for i, path in
                                 enumerate(paths)]
                for stream in tables[table]:
                    spawn(stream)
            if command[0] == "vanish":
                stream = Stream(PORT, command[1], VANISHING_PHONE)
                spawn(stream)
                await stream.opened.wait()
                results.put(("vanish-open", stream.status))
        open_now = sum(not s.ended.is_set() for s in [*idle, *(s for ss in tables.values() for s in ss)])
        events += sum(s.events for s in [*idle, *(s for ss in tables.values() for s in ss)])
        halt.set()
        for task in list(tasks):
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        results.put(("crowd", {"open_at_end": open_now, "events": events, "reopened": reopened}))

    asyncio.run(main())


# -- the tables: bots playing through the API -------------------------------------------------------------------
class Faults:
    """When faults were injected: actions answered then do not count toward the latency target."""

    def __init__(self) -> None:
        self.windows: list[tuple[float, float]] = []
        self.active = threading.Event()

    def during(self, started: float, ended: float) -> bool:
        return self.active.is_set() or any(a <= ended and started <= b for a, b in self.windows)


class Table(threading.Thread):
    def __init__(self, number: int, faults: Faults, stop: threading.Event, commands: multiprocessing.Queue,
                 seed: int) -> None:
        super().__init__(daemon=True)
        self.number, self.faults, self.stop, self.commands = number, faults, stop, commands
        self.rng = random.Random(seed)
        self.acknowledged: list[tuple[str, int, dict]] = []  # (game, version, action with player)
        self.games: list[dict] = []
        self.latencies: list[tuple[float, bool]] = []  # (ms, during a fault)
        self.refused_changed = 0  # a 503 after which the game had changed anyway (must stay 0)
        self.unanswered = 0
        self.service_unavailable = 0
        self.unexpected: list[str] = []

    def request(self, method: str, path: str, body: object = None, token: str | None = None):
        return http(PORT, method, path, body, token, timeout=10, source=phone_address(7000 + self.number))

    def new_game(self) -> None:
        while not self.stop.is_set():
            try:
                status, game = self.request("POST", "/api/games", {
                    "edition": self.rng.choice(["2014", "2018"]), "players": ["Ann", "Bob", "Cy", "Dee"],
                    "dice": "pyramid"})
            except CUT_OFF:
                status, game = 0, {}
            if status == 201:
                self.game = game
                self.games.append(game)
                self.seats = {seat["player"]: seat["token"] for seat in game["seats"]}
                tokens = [*self.seats.values(), game["host_token"]]
                self.commands.put(("table", self.number, [
                    f"/api/games/{game['game_id']}/events?token={tokens[i % 5]}" for i in range(20)]))
                return
            time.sleep(0.5)

    def state(self) -> dict | None:
        """The game as the host sees it, once the server answers."""
        while not self.stop.is_set():
            try:
                status, body = self.request("GET", f"/api/games/{self.game['game_id']}/state",
                                            token=self.game["host_token"])
                if status == 200:
                    return body
            except CUT_OFF:
                pass
            time.sleep(0.3)
        return None

    def choose(self, view: dict) -> dict:
        legal = view["legal"]
        options: list[dict] = [{"type": "pyramid"}] * 5
        options += [{"type": "leg_bet", "camel": bet["camel"]} for bet in legal["leg_bets"]][:3]
        if legal["tile_spots"]:
            space, side = self.rng.choice(legal["tile_spots"])
            options.append({"type": "spectator", "space": space, "side": side})
        if legal["finish_cards"]:
            options.append({"type": "finish_bet", "pile": self.rng.choice(["winner", "loser"]),
                            "camel": self.rng.choice(legal["finish_cards"])})
        if legal["partners"]:
            options.append({"type": "partnership", "with": self.rng.choice(legal["partners"])})
        return self.rng.choice(options)

    def run(self) -> None:
        self.new_game()
        while not self.stop.is_set():
            current = self.state()
            if current is None:
                return
            if current["game_over"]:
                self.new_game()
                continue
            player = current["next_player"]
            try:
                status, view = self.request("GET", f"/api/games/{self.game['game_id']}/state",
                                            token=self.seats[player])
            except CUT_OFF:
                continue
            if status != 200:
                continue
            action = self.choose(view)
            started = time.monotonic()
            try:
                status, body = self.request("POST", f"/api/games/{self.game['game_id']}/actions", action,
                                            self.seats[player])
            except CUT_OFF:
                self.unanswered += 1  # killed mid-request: not acknowledged (it may or may not be stored)
                continue
            ended = time.monotonic()
            if status == 200:
                self.latencies.append(((ended - started) * 1000, self.faults.during(started, ended)))
                stored = body["state"]
                self.acknowledged.append((self.game["game_id"], stored["version"], {"player": player, **action}))
            elif status == 503:
                self.service_unavailable += 1
                after = self.state()
                if after is not None and after["version"] != current["version"]:
                    self.refused_changed += 1
                time.sleep(0.5)
            else:
                self.unexpected.append(f"{status} {body}")
            self.stop.wait(0.15)  # a player's thinking time, much shorter than at a real table


# -- faults ----------------------------------------------------------------------------------------------------
def fill_disk(data: Path) -> Path:
    """Fill the data directory's disk to the last byte (unbuffered: nothing is left to fail at close)."""
    filler = data / "filler"
    with open(filler, "wb", buffering=0) as handle:
        for size in (1 << 20, 4096, 1):
            try:
                while True:
                    handle.write(b"\0" * size)
            except OSError:
                pass
    return filler


def connections_to(address: str) -> int:
    out = subprocess.run(["ss", "-Htn", "state", "established", f"( sport = :{PORT} and dst {address} )"],
                         capture_output=True, text=True).stdout
    return len([line for line in out.splitlines() if line.strip()])


# -- checking the stored games ---------------------------------------------------------------------------------
def check_games(data: Path, tables: list[Table]) -> dict:
    from companion.gamelog import FORMAT, parse_log, summary
    from companion.table.store import Store, effective_actions

    store = Store(data / "games.sqlite3")
    rows = {row.id: row for row in store.games()}
    logs = {}
    for game_id, row in rows.items():
        actions = effective_actions(store.entries(game_id))
        logs[game_id] = {"format": FORMAT, "edition": row.edition, "players": row.players, "setup": row.setup,
                         "actions": actions}
    store.close()
    lost = []
    for table in tables:
        for game_id, version, action in table.acknowledged:
            stored = logs.get(game_id, {"actions": []})["actions"]
            # The server adds the pyramid's draw to a pyramid action: the rest must be exactly what was sent.
            if len(stored) < version or any(stored[version - 1].get(key) != value for key, value in action.items()):
                lost.append((game_id, version, action))
    replayed = {game_id: summary(parse_log(log).replay()) for game_id, log in logs.items()}
    return {"logs": logs, "lost": lost, "replayed": replayed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--disk-full", type=float, default=None, help="seconds the disk stays full (default 60)")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.inside:
        if os.geteuid() != 0 or shutil.which("unshare") is None:
            print("soak not run: it needs root and unshare (a network and mount namespace of its own)")
            return
        os.execvp("unshare", ["unshare", "--net", "--mount", "--propagation", "private", sys.executable,
                              __file__, *sys.argv[1:], "--inside"])
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    disk_full_for = args.disk_full if args.disk_full is not None else min(60.0, args.seconds / 3)
    work = Path(tempfile.mkdtemp(prefix="camelup-soak-"))
    data = work / "data"
    data.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(data)], check=True)
    server = Server(data, work / "server.log")
    server.start()

    idle_games = []
    for i in range(15):
        _, game = http(PORT, "POST", "/api/games", {"edition": "2018", "players": ["A", "B", "C"]},
                       source=phone_address(8000 + i))
        idle_games.append(game)
    idle_paths = []
    for game in idle_games:  # 20 pages per game, 4 per link (a fifth on a link would replace the oldest)
        tokens = [seat["token"] for seat in game["seats"]] + [game["host_token"], game["table_token"]]
        idle_paths += [f"/api/games/{game['game_id']}/events?token={tokens[i % 5]}" for i in range(20)]
    commands: multiprocessing.Queue = multiprocessing.Queue()
    results: multiprocessing.Queue = multiprocessing.Queue()
    crowd_process = multiprocessing.Process(target=crowd, args=(commands, results, idle_paths, 100))
    crowd_process.start()

    faults = Faults()
    stop = threading.Event()
    tables = [Table(n, faults, stop, commands, seed=n) for n in range(8)]
    for table in tables:
        table.start()
    began = time.monotonic()
    # The phone vanishes first (it is let go within 30 s, before any restart could hide it), then the disk fills
    # up, then the server is killed twice: its first life is long enough to show whether memory stays flat.
    plan = [(0.05, "vanish"), (0.1, "disk full"), (0.75, "kill"), (0.9, "kill")]
    report: dict = {"kills": 0, "disk_full_seconds": 0.0, "vanished_phone_freed_after": None,
                    "degraded_seen": False}
    vanish_started = None

    def sample_until(moment: float) -> None:
        nonlocal vanish_started
        while time.monotonic() < moment:
            server.sample_memory()
            if vanish_started is not None and connections_to(VANISHING_PHONE) == 0:
                report["vanished_phone_freed_after"] = round(time.monotonic() - vanish_started, 1)
                vanish_started = None
            time.sleep(min(1.0, max(0.0, moment - time.monotonic())))

    for share, fault in plan:
        sample_until(began + share * args.seconds)
        if fault == "kill":
            faults.active.set()
            started = time.monotonic()
            server.kill()
            report["kills"] += 1
            server.start()
            faults.windows.append((started, time.monotonic() + 1.0))
            faults.active.clear()
        elif fault == "disk full":
            started = time.monotonic()
            faults.active.set()
            filler = fill_disk(data)
            sample_until(started + disk_full_for / 2)
            health = http(PORT, "GET", "/healthz")[1]
            report["degraded_seen"] = health.get("status") == "degraded"
            sample_until(started + disk_full_for)
            filler.unlink()
            report["disk_full_seconds"] = round(time.monotonic() - started, 1)
            faults.windows.append((started, time.monotonic() + 1.0))
            faults.active.clear()
        elif fault == "vanish":
            _, game = http(PORT, "POST", "/api/games", {"edition": "2018", "players": ["A", "B"]},
                           source=phone_address(8100))  # a game of its own: no other page shares its link
            commands.put(("vanish", f"/api/games/{game['game_id']}/events?token={game['host_token']}"))
            kind, status = results.get(timeout=30)
            assert kind == "vanish-open" and status == 200, (kind, status)
            if shutil.which("iptables"):
                for chain, flag in (("INPUT", "-s"), ("INPUT", "-d")):  # lost on the way, not refused at the sender
                    subprocess.run(["iptables", "-A", chain, flag, VANISHING_PHONE, "-j", "DROP"], check=True)
                vanish_started = time.monotonic()
            else:
                report["vanished_phone_freed_after"] = "not tested: no iptables"
    sample_until(began + args.seconds)
    stop.set()
    for table in tables:
        table.join(30)
    commands.put(("stop",))
    crowd_figures = None
    while crowd_figures is None:
        kind, value = results.get(timeout=60)
        if kind == "crowd":
            crowd_figures = value
    crowd_process.join(30)
    health = http(PORT, "GET", "/healthz")[1]
    server.stop()

    checked = check_games(data, tables)
    # Every game replays exactly: a fresh server serves what the stored log gives.
    server.start()
    mismatched = 0
    for table in tables:
        for game in table.games:
            status, served = http(PORT, "GET", f"/api/games/{game['game_id']}/state", token=game["host_token"])
            expected = checked["replayed"][game["game_id"]]
            mismatched += status != 200 or {k: served[k] for k in SPEC_KEYS} != {k: expected[k] for k in SPEC_KEYS}
    server.stop()
    tracebacks = (work / "server.log").read_text().count("Traceback")
    subprocess.run(["umount", str(data)], check=False)
    shutil.rmtree(work, ignore_errors=True)

    clean = [ms for table in tables for ms, during in table.latencies if not during]
    faulty = [ms for table in tables for ms, during in table.latencies if during]
    lives = {}
    for at, life, mb in server.rss_mb:
        lives.setdefault(life, []).append((at, mb))
    memory = []
    for life, samples in sorted(lives.items()):
        if len(samples) >= 4:
            settled = samples[len(samples) // 4][1]
            memory.append({"life": life, "settled_mb": round(settled, 1), "end_mb": round(samples[-1][1], 1),
                           "growth_mb": round(samples[-1][1] - settled, 1), "minutes": round(
                               (samples[-1][0] - samples[0][0]) / 60, 1)})
    figures = {
        "seconds": round(time.monotonic() - began),
        "tables": len(tables),
        "games_played": sum(len(t.games) for t in tables),
        "acknowledged": sum(len(t.acknowledged) for t in tables),
        "lost": len(checked["lost"]),
        "refused_yet_changed": sum(t.refused_changed for t in tables),
        "unanswered_at_kill": sum(t.unanswered for t in tables),
        "refused_503": sum(t.service_unavailable for t in tables),
        "unexpected": sum(len(t.unexpected) for t in tables),
        "replay_mismatches": int(mismatched),
        "action_p50_ms": round(percentile(clean, 0.5), 1) if clean else None,
        "action_p95_ms": round(percentile(clean, 0.95), 1) if clean else None,
        "action_p95_during_faults_ms": round(percentile(faulty, 0.95), 1) if faulty else None,
        "memory": memory,
        "server_tracebacks": tracebacks,
        "healthz_at_end": health.get("status"),
        "open_streams_at_end": health.get("streams"),
        **report,
        **crowd_figures,
    }
    print(f"{figures['seconds']} s, {figures['tables']} tables, {figures['games_played']} games, "
          f"{figures['acknowledged']} actions acknowledged; lost {figures['lost']}; a 503 that changed the game "
          f"{figures['refused_yet_changed']}; games that replay differently {figures['replay_mismatches']}")
    print(f"action p50 {figures['action_p50_ms']} ms, p95 {figures['action_p95_ms']} ms outside faults "
          f"(target <= 100 ms); p95 during faults {figures['action_p95_during_faults_ms']} ms")
    print(f"faults: {figures['kills']} x SIGKILL ({figures['unanswered_at_kill']} requests cut off), disk full for "
          f"{figures['disk_full_seconds']} s ({figures['refused_503']} actions refused with 503, /healthz degraded: "
          f"{figures['degraded_seen']}), vanished phone let go after {figures['vanished_phone_freed_after']} s")
    for life in memory:
        print(f"server life {life['life']}: {life['minutes']} min, memory {life['settled_mb']} MB once settled -> "
              f"{life['end_mb']} MB at its end ({life['growth_mb']:+} MB)")
    print(f"streams: {figures['open_streams_at_end']} open at the end, {figures['events']} state events, "
          f"{figures['reopened']} reconnections; server tracebacks {tracebacks}; unexpected answers "
          f"{figures['unexpected']}")
    for table in tables:
        for line in table.unexpected[:3]:
            print("unexpected:", line)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
