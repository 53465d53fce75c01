"""The companion's server (``camelup serve``): one event loop holds every connection, the Flask app runs on a
few threads behind it.

Why: a live page (Server-Sent Events) stays open for the whole evening. On a thread-per-request server each one
holds a thread, and a hundred of them starved every action. Here an open stream costs a coroutine and a
socket: the loop answers them itself, and the Flask app's threads only ever run short requests. Guards against a
careless or hostile crowd:

- request headers must arrive within ``HEADER_TIMEOUT_SECONDS`` (408) and fit in ``MAX_HEADER_BYTES`` (431);
  a body within ``BODY_TIMEOUT_SECONDS`` and its call's size limit (413) -- read on the loop, so a slow sender
  never holds a thread;
- a vanished phone is found by TCP itself: data unacknowledged for ``DEAD_PEER_SECONDS`` drops the connection,
  and the streams send a heartbeat every ``HEARTBEAT_SECONDS`` so there is always data to acknowledge;
- at most ``STREAMS_PER_TOKEN`` streams per link (a newer one closes the oldest: a phone that reconnects before
  its old stream was found dead), ``STREAMS_PER_CLIENT`` per device (429) and ``STREAMS_TOTAL`` in all (503);
- a seat's new link closes the old link's streams at once (they check their token at every wake-up).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import resource
import socket
import time
import urllib.parse
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from a2wsgi import WSGIMiddleware
from flask import Flask
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from companion.table.service import ApiError, GameService
from companion.table.web.limits import SECURITY_HEADERS, body_limit, too_large

HEADER_TIMEOUT_SECONDS = 10.0
MAX_HEADER_BYTES = 16 * 1024
BODY_TIMEOUT_SECONDS = 10.0
HEARTBEAT_SECONDS = 5.0
DEAD_PEER_SECONDS = 20
"""With a heartbeat every 5 s, a phone gone from the network is let go within 25 s."""
STREAMS_PER_TOKEN = 4
STREAMS_PER_CLIENT = 16
STREAMS_TOTAL = 3000
WORKER_THREADS = 8
"""Threads for the Flask app: requests are short (an action is stored in a few milliseconds)."""

EVENTS_PATH = re.compile(r"/api/games/([^/]+)/events")


@dataclass(eq=False)
class Stream:
    client: str
    token: str
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False
    """Set when a newer stream on the same link replaced this one."""


class Streams:
    """The open event streams, counted per link and per device. Used on the event loop only."""

    def __init__(self) -> None:
        self._by_token: dict[str, list[Stream]] = defaultdict(list)
        self._by_client: dict[str, int] = defaultdict(int)
        self.count = 0

    def open(self, client: str, token: str) -> Stream:
        """A new stream, or an ApiError (429: this device has too many, 503: the companion has too many)."""
        if self.count >= STREAMS_TOTAL:
            raise ApiError(503, f"the companion already serves {STREAMS_TOTAL} live pages: try again later",
                           "TooManyStreams")
        if self._by_client[client] >= STREAMS_PER_CLIENT:
            raise ApiError(429, f"this device already has {STREAMS_PER_CLIENT} live pages open: close some",
                           "TooManyStreams")
        same_link = self._by_token[token]
        if len(same_link) >= STREAMS_PER_TOKEN:
            oldest = same_link.pop(0)
            oldest.closed = True
            oldest.wake.set()
        stream = Stream(client, token)
        same_link.append(stream)
        self._by_client[client] += 1
        self.count += 1
        return stream

    def close(self, stream: Stream) -> None:
        same_link = self._by_token.get(stream.token, [])
        if stream in same_link:
            same_link.remove(stream)
        if not same_link:
            self._by_token.pop(stream.token, None)
        self._by_client[stream.client] -= 1
        if self._by_client[stream.client] <= 0:
            del self._by_client[stream.client]
        self.count -= 1


class CompanionServer:
    """The ASGI app: event streams on the loop; everything else to the Flask app, body read first."""

    def __init__(self, app: Flask) -> None:
        self.flask = app
        self.service: GameService = app.extensions["camelup"]
        self.streams = Streams()
        app.extensions["streams"] = self.streams  # /healthz reports how many are open
        self.wsgi = WSGIMiddleware(app, workers=WORKER_THREADS)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await receive()  # startup
            await send({"type": "lifespan.startup.complete"})
            await receive()  # shutdown
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["type"] != "http":
            return
        scope = {**scope, "camelup.received": time.monotonic()}  # an action that waits too long is refused
        try:
            found = EVENTS_PATH.fullmatch(scope["path"])
            if found and scope["method"] == "GET":
                await self.events(scope, receive, send, found.group(1))
                return
            body = await self._read_body(scope, receive)
        except ApiError as error:
            await _send_json(send, error.status, _error_body(error))
            return
        if body is None:
            return  # the caller hung up
        await self.wsgi(scope, _replay(body, receive), send)

    async def _read_body(self, scope: dict[str, Any], receive: Any) -> bytes | None:
        """The whole body, on the loop (no thread waits for a slow sender), within its size and time limits."""
        limit = body_limit(scope["path"])
        headers = dict(scope["headers"])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            raise too_large(limit) if length.isdigit() else ApiError(400, "Content-Length must be a number")
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(BODY_TIMEOUT_SECONDS):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > limit:
                        raise too_large(limit)
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(chunks)
        except TimeoutError:
            raise ApiError(408, f"the request's body did not arrive within {BODY_TIMEOUT_SECONDS:.0f} s") from None

    async def events(self, scope: dict[str, Any], receive: Any, send: Any, game_id: str) -> None:
        """Server-Sent Events: the caller's view now, then after every change, with a heartbeat between."""
        game_id = urllib.parse.unquote(game_id)
        token = _token(scope)
        service = self.service
        who = await asyncio.to_thread(service.authenticate, game_id, token)  # a seat's first visit is stored
        client = (scope.get("client") or ("?", 0))[0]
        stream = self.streams.open(client, token or "")
        loop = asyncio.get_running_loop()

        def wake() -> None:  # called from the thread that stored a change
            loop.call_soon_threadsafe(stream.wake.set)

        async def hang_up() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            stream.closed = True
            stream.wake.set()

        service.listen(game_id, wake)
        watcher = asyncio.create_task(hang_up())
        try:
            headers = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-cache"),
                       (b"x-accel-buffering", b"no"), (b"connection", b"close"), *_security_headers()]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            sent = await asyncio.to_thread(service.state_text, game_id, who)
            await send({"type": "http.response.body", "body": b"retry: 1000\n" + _event(sent), "more_body": True})
            while True:
                try:
                    async with asyncio.timeout(HEARTBEAT_SECONDS):
                        await stream.wake.wait()
                except TimeoutError:
                    await send({"type": "http.response.body", "body": b": keep-alive\n\n", "more_body": True})
                    continue
                stream.wake.clear()
                if stream.closed:
                    break
                try:
                    service.authenticate(game_id, token)
                except ApiError:
                    break  # the seat's link was replaced: the old link hears nothing more
                # Several changes at once: the latest only. The text, not the version, decides: the pyramid's
                # notices change what a page shows without a new action.
                text = service.state_text(game_id, who)
                if text != sent:
                    sent = text
                    await send({"type": "http.response.body", "body": _event(text), "more_body": True})
            with contextlib.suppress(OSError):
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            pass  # the connection broke while writing
        finally:
            watcher.cancel()
            service.stop_listening(game_id, wake)
            self.streams.close(stream)


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol with a deadline and a size limit on request headers (slow-loris clients)."""

    _header_timer: asyncio.TimerHandle | None = None
    _header_bytes = 0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_headers()

    def _await_headers(self) -> None:
        self._header_bytes = 0
        self._header_timer = self.loop.call_later(HEADER_TIMEOUT_SECONDS, self._headers_too_slow)

    def _headers_arrived(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def data_received(self, data: bytes) -> None:
        waiting = self._header_timer is not None
        if waiting:
            self._header_bytes += len(data)
        super().data_received(data)
        if waiting and self._header_timer is not None and self._header_bytes > MAX_HEADER_BYTES:
            self._refuse(431, f"the request's headers are larger than {MAX_HEADER_BYTES // 1024} KB")

    def on_headers_complete(self) -> None:
        self._headers_arrived()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_headers()  # the next request on this connection has the same deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._headers_arrived()
        super().connection_lost(exc)

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.cycle is None or self.cycle.response_complete:
            self._refuse(408, f"the request's headers did not arrive within {HEADER_TIMEOUT_SECONDS:.0f} s")

    def _refuse(self, status: int, message: str) -> None:
        self._headers_arrived()
        if self.transport.is_closing():
            return
        body = json.dumps({"error": message}).encode()
        reason = {408: b"Request Timeout", 431: b"Request Header Fields Too Large"}[status]
        head = [b"HTTP/1.1 %d %s" % (status, reason), b"content-type: application/json",
                b"content-length: %d" % len(body), b"connection: close",
                *(name + b": " + value for name, value in _security_headers())]
        self.transport.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
        self.transport.close()


def listening_socket(host: str, port: int) -> socket.socket:
    """The server's socket. Accepted connections inherit its TCP settings: keep-alive probes for idle ones, and
    a user timeout that drops a connection whose data has gone unacknowledged for ``DEAD_PEER_SECONDS``."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # asyncio sets TCP_NODELAY only then
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no 40 ms Nagle stall on keep-alive requests
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    for option, value in (("TCP_KEEPIDLE", 10), ("TCP_KEEPINTVL", 5), ("TCP_KEEPCNT", 3),
                          ("TCP_USER_TIMEOUT", DEAD_PEER_SECONDS * 1000)):
        if hasattr(socket, option):  # Linux (the Pi); elsewhere the system's defaults apply
            sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, option), value)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(2048)
    sock.setblocking(False)
    return sock


def serve(app: Flask, sock: socket.socket) -> None:
    """Serve ``app`` on ``sock`` until interrupted."""
    import uvicorn

    _raise_open_files_limit()
    config = uvicorn.Config(
        CompanionServer(app), http=GuardedProtocol, lifespan="on", access_log=False, log_level="warning",
        proxy_headers=False, server_header=False, timeout_keep_alive=5, timeout_graceful_shutdown=2,
        limit_concurrency=STREAMS_TOTAL + 1000,
    )
    uvicorn.Server(config).run(sockets=[sock])


def _raise_open_files_limit() -> None:
    """Every connection is a file: the usual soft limit of 1024 would refuse the 1,001st page."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 16384 if hard == resource.RLIM_INFINITY else min(hard, 16384)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def _token(scope: dict[str, Any]) -> str | None:
    for name, value in scope["headers"]:
        if name == b"authorization" and value[:7].lower() == b"bearer ":
            return value[7:].strip().decode("latin-1")
    values = urllib.parse.parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token")
    return values[0] if values else None


def _event(state: str) -> bytes:
    return f"event: state\ndata: {state}\n\n".encode()


def _security_headers() -> list[tuple[bytes, bytes]]:
    return [(name.lower().encode(), value.encode()) for name, value in SECURITY_HEADERS.items()]


def _error_body(error: ApiError) -> dict[str, Any]:
    return {"error": error.message, **({"code": error.code} if error.code else {})}


async def _send_json(send: Any, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()),
               *_security_headers()]
    with contextlib.suppress(OSError):
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": data})


def _replay(body: bytes, receive: Any) -> Any:
    """``receive`` for the Flask app: the body already read, then (for a disconnect) the real one."""
    given = False

    async def replay() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
