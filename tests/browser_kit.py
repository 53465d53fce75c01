"""Shared by the real-browser tests: one server for the session and one Chromium (Debian's, driven by
Playwright) per test module, and helpers to open the pages as the people at the table do."""

from __future__ import annotations

import contextlib
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.test_crash import free_port, request, start_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SHOTS = Path(__file__).resolve().parents[1] / "build" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


class Server:
    def __init__(self, port: int) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"

    def create(self, players: list[str], setup: dict[str, Any], edition: str = "2018", **extra: Any) -> dict[str, Any]:
        _, game = request(self.port, "POST", "/api/games",
                          {"edition": edition, "players": players, "dice": "manual", "setup": setup, **extra})
        game["seat"] = {seat["player"]: seat["token"] for seat in game["seats"]}
        return game

    def act(self, game: dict[str, Any], player: str, **action: Any) -> dict[str, Any]:
        status, body = request(self.port, "POST", f"/api/games/{game['game_id']}/actions", action, game["seat"][player])
        assert status == 200, body
        return body["state"]

    def join_url(self, game: dict[str, Any], player: str) -> str:
        return f"{self.base}/join/{game['seat'][player]}"

    def table_url(self, game: dict[str, Any]) -> str:
        return f"{self.base}/table/{game['game_id']}#{game['table_token']}"

    def host_url(self, game: dict[str, Any]) -> str:
        return f"{self.base}/host/{game['game_id']}#{game['host_token']}"


@contextlib.contextmanager
def served(app: Any) -> Iterator[int]:
    """``app`` (the companion built in this process, to reach into it) served over HTTP in a thread for the block:
    its port."""
    from werkzeug.serving import make_server

    port = free_port()
    http = make_server("127.0.0.1", port, app, threaded=True)
    threading.Thread(target=http.serve_forever, daemon=True).start()
    try:
        yield port
    finally:
        http.shutdown()


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    port = free_port()
    process = start_server(port, tmp_path_factory.mktemp("browser-data"))
    yield Server(port)
    process.kill()
    process.wait()


@pytest.fixture(scope="module")  # not longer: a test that starts Playwright itself must find no loop running
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (make test installs it)")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def new_page(browser, errors: list[str], name: str, lang: str = "en", **context: Any):
    """A page in a context of its own (its own localStorage, as a separate device), in ``lang``."""
    page = browser.new_context(locale=lang, **context).new_page()
    page.add_init_script(f"localStorage.setItem('camelup:lang', '{lang}')")
    page.on("pageerror", lambda error: errors.append(f"{name}: {error}"))
    return page


def phone(browser, server: Server, game: dict[str, Any], player: str, errors: list[str], lang: str = "en"):
    page = new_page(browser, errors, player, lang, **PHONE)
    page.goto(server.join_url(game, player))
    page.wait_for_url(f"**/play/{game['game_id']}")
    return page


NAMES = re.compile(r"\b(Ann|Bob|Cy|Dee|Eve|Fay)\b")


def said(text: str) -> str:
    """``text`` as the pages write it: each player's name isolated for bidirectional text (U+2068 … U+2069)."""
    return NAMES.sub(lambda match: f"\u2068{match.group(1)}\u2069", text)
