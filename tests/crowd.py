"""A crowd of phones for the real server, on one event loop: open event streams, slow clients, timed requests.
Each simulated phone may use its own loopback address (127.0.x.y: Linux routes all of 127/8 to this machine), so
per-device limits see many devices; every connection goes to the server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from dataclasses import dataclass, field


def phone_address(index: int) -> str:
    """A distinct loopback source address per simulated phone (never 127.0.0.1 itself)."""
    return f"127.0.{10 + (index // 250) % 240}.{1 + index % 250}"


async def connect(port: int, source: str | None = None) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if source:
        sock.bind((source, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return await asyncio.open_connection(sock=sock)


@dataclass(eq=False)
class Stream:
    """One open live page: counts the events it got."""

    port: int
    path: str
    source: str | None = None
    status: int | None = None
    events: int = 0
    versions: list[int] = field(default_factory=list)
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    writer: asyncio.StreamWriter | None = None
    ended_at: float | None = None

    async def run(self) -> None:
        try:
            reader, self.writer = await connect(self.port, self.source)
            self.writer.write(f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            self.status = int(head.split(b" ", 2)[1])
            self.opened.set()
            while True:
                block = await reader.readuntil(b"\n\n")
                if b"event: state" in block:
                    self.events += 1
                    marker = block.find(b'"version": ')
                    if marker >= 0:
                        self.versions.append(int(block[marker + 11:].split(b",", 1)[0]))
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, IndexError):
            pass
        finally:
            self.ended_at = time.monotonic()
            self.opened.set()
            self.ended.set()
            self.close()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.transport.abort()


async def slow_client(port: int, stop: asyncio.Event, every: float = 5.0, source: str | None = None,
                      cut: list[float] | None = None, connected: list[float] | None = None) -> None:
    """Sends one more header line every ``every`` seconds and never finishes; reconnects when cut off (and notes
    after how long in ``cut``); notes each time its request has started in ``connected``."""
    while not stop.is_set():
        try:
            reader, writer = await connect(port, source)
        except OSError:
            await asyncio.sleep(0.5)
            continue
        started = time.monotonic()
        try:
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            if connected is not None:
                connected.append(started)
            line = 0
            while not stop.is_set():
                try:
                    data = await asyncio.wait_for(reader.read(4096), timeout=every)
                except TimeoutError:
                    line += 1
                    writer.write(f"X-Slow-{line}: {'a' * 20}\r\n".encode())
                    continue
                if not data:
                    break
            if cut is not None and not stop.is_set():
                cut.append(time.monotonic() - started)
        except OSError:
            pass
        finally:
            writer.transport.abort()


def http(port: int, method: str, path: str, body: object = None, token: str | None = None,
         timeout: float = 15.0, source: str | None = None) -> tuple[int, dict]:
    """One blocking request (a fresh connection, like a phone's, from ``source`` if given), returning status and
    JSON body."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                            source_address=(source, 0) if source else None)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = connection.getresponse()
        data = response.read()
        is_json = response.getheader("Content-Type", "").startswith("application/json")
        return response.status, json.loads(data) if data and is_json else {}
    finally:
        connection.close()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * (len(ordered) - 1) + 0.5))]
