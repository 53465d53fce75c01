"""Busy tables for the layout checks: a game of 2 to 8 players (either edition) in the middle of a leg, every
player holding tickets, a tile down, partners with six or more (2018), the camels of a draw still to be moved;
and the camera's report in each of its states, answered in the browser in place of the server's.

``python -m tests.layout_shots`` photographs every combination with these; tests/test_browser_layout.py
checks the geometry of the worst ones."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urljoin

from tests.browser_kit import Server
from tests.test_crash import request

# Names as people type them: short and long, accents and hyphens (the rules allow 2 to 8 players).
NAMES = ["Maximilian", "Bob", "Anne-Sophie", "Chloé", "Guillaume", "Eve", "Fatima", "Jean-Baptiste"]
SETUPS = {
    "2018": {"1": ["green", "red"], "2": ["yellow"], "3": ["blue", "purple"], "14": ["black"], "16": ["white"]},
    "2014": {"1": ["green", "orange"], "2": ["yellow"], "3": ["blue", "white"]},
}

# The camera's report, as the server words it, in each state a page shows.
DIFFERENCES = [
    "blue should be on 6 under purple; the camera sees it on 7 under purple",
    "purple should be on 6 on top of blue; the camera sees it on 7 on top of blue",
    "yellow should be alone on 4; the camera sees it on 7 on top of purple",
]
ENTRY = {"index": 1, "was": {"player": "Bob", "type": "pyramid", "die": "blue", "value": 2},
         "becomes": {"player": "Bob", "type": "pyramid", "die": "blue", "value": 3}}
CAMERA = {
    "off": {"state": "off", "message": "no camera"},
    "waiting": {"state": "unsettled", "message": "waiting for the board to stay still"},
    # The host's page says why; the others, that the camera is not checking the board and the host knows.
    "not-found": {"state": "board not found",
                  "message": "board not found: the picture is black: is the lens cap on or the camera covered? (no "
                             "light reaches it: take the cap off, move what covers the lens, or switch the room's "
                             "light on); markers 0 (top left), 1 (top right), 2 (bottom right), 3 (bottom left) not "
                             "seen"},
    "matches": {"state": "reading", "message": "the board matches the game",
                "verdict": {"answer": "matches", "matches": True, "unseen": [], "differences": [], "margin": 3.1},
                "learnt": "calibrated from the board the game confirmed"},
    "differs": {"state": "reading", "message": "the board differs from the game",
                "verdict": {"answer": "differs: most likely Bob's pyramid ticket: blue 2 → blue 3", "matches": False,
                            "unseen": [], "differences": DIFFERENCES,
                            "most_likely": "Bob's pyramid ticket: blue 2 → blue 3", "correction": ENTRY,
                            "margin": 2.4}},
    "cannot-tell": {"state": "reading", "message": "the board differs from the game",
                    "verdict": {"answer": "cannot tell (spaces 5, 6, 11 not clear enough)", "unclear": [5, 6, 11],
                                "matches": None, "unseen": ["blue", "purple"],
                                "differences": ["blue should be on 5 under purple; the camera does not see it"],
                                "margin": 0.2}},
}


MOMENTS = ("mid-leg", "setup", "leg-over", "undo")
"""Where the game is: a draw's camels to move; nothing played yet (the setup to copy); the leg's last draw
(the move and the leg's ranking on the banner, each player's gain); the host just took back a draw."""


def busy_game(server: Server, edition: str, players: int, moment: str = "mid-leg") -> dict[str, Any]:
    """A game of ``players`` in its first leg, as full as that leg gets on the table screen, at ``moment``."""
    names = NAMES[:players]
    game = server.create(names, {"track": SETUPS[edition]}, edition=edition)
    # The first round: everyone takes the top leg ticket of a colour; with six or more (2018) the first player
    # asks for a partner; then a tile, a finish card, more tickets, and a draw whose camels are still to move.
    plan = ["leg_bet"] * players + ["partnership", "spectator", "finish_bet", "leg_bet", "leg_bet", "pyramid"]
    if moment == "setup":
        plan = []
    elif moment == "leg-over":
        plan += ["pyramid"] * 4
    for index, kind in enumerate(plan):
        state = _state(server, game)
        legal = state["legal"]
        player = legal["player"]
        action = _pick(kind, legal, state, index)
        if action is None:
            continue
        server.act(game, player, **action)
    if moment == "undo":
        status, body = request(server.port, "POST", f"/api/games/{game['game_id']}/undo", None, game["host_token"])
        assert status == 200, body
    game["next_player"] = _state(server, game)["next_player"]
    return game


def finished_game(server: Server, players: int) -> dict[str, Any]:
    """A 2018 race of ``players`` played to its end: a finish card each, a leg ticket now and then, draws of 3."""
    game = server.create(NAMES[:players], {"track": SETUPS["2018"]}, edition="2018")
    index = 0
    while not (state := _state(server, game))["game_over"]:
        legal = state["legal"]
        if index < players and legal["finish_cards"]:
            camel = state["racing_camels"][index % len(state["racing_camels"])]
            action = {"type": "finish_bet", "pile": "winner" if index % 2 == 0 else "loser", "camel": camel}
        elif index % 7 == 3 and legal["leg_bets"]:
            action = {"type": "leg_bet", "camel": legal["leg_bets"][0]["camel"]}
        else:
            action = _pick("pyramid", legal, state, index)
        server.act(game, legal["player"], **action)
        index += 1
    game["final_money"] = state["race_scoring"]["final_money"]
    return game


def _state(server: Server, game: dict[str, Any]) -> dict[str, Any]:
    _, state = request(server.port, "GET", f"/api/games/{game['game_id']}/state", None, game["host_token"])
    return state


def _pick(kind: str, legal: dict[str, Any], state: dict[str, Any], index: int) -> dict[str, Any] | None:
    if kind == "leg_bet" and legal["leg_bets"]:
        return {"type": "leg_bet", "camel": legal["leg_bets"][index % len(legal["leg_bets"])]["camel"]}
    if kind == "partnership" and legal["partners"]:
        return {"type": "partnership", "with": legal["partners"][-1]}
    if kind == "spectator" and legal["tile_spots"]:
        space, side = legal["tile_spots"][len(legal["tile_spots"]) // 2]
        return {"type": "spectator", "space": space, "side": side}
    if kind == "finish_bet":
        return {"type": "finish_bet", "pile": "winner", "camel": state["racing_camels"][0]}
    if kind == "pyramid":
        die = legal["dice"][0]
        grey = {"crazy": state["crazy_camels"][0]} if die == "grey" else {}
        return {"type": "pyramid", "die": die, "value": 3, **grey}
    return None


def load(page, url: str) -> None:
    """Open ``url`` afresh: the pages drop the token from their address, so going to the same address with it
    again would only move to a fragment of the page already shown."""
    page.goto(urljoin(url, "/healthz"))  # another page of the same site (its start scripts run there too)
    page.goto(url)


class CameraStub:
    """Answers a page's camera requests with :attr:`report` (change it, then load the page again)."""

    def __init__(self, report: dict[str, Any]) -> None:
        self.report = report

    def attach(self, page) -> None:
        page.route(re.compile(r"/api/games/\w+/camera(\?.*)?$"), self._report)

    def _report(self, route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(self.report))


def settled(page, players: int, camera: str) -> None:
    """Wait until the page shows the game (all its players, or a phone's controls) and the camera box its
    state."""
    if page.locator("#players").count():
        page.locator("#players li").nth(players - 1).wait_for(timeout=10000)
    else:
        page.locator("#actions > *").first.wait_for(timeout=10000)
    if camera == "off":  # the camera's first answer hides the box
        page.wait_for_selector("#camera[hidden][data-verdict='']", state="attached", timeout=10000)
    elif camera == "waiting":
        page.wait_for_selector("#camera:not([hidden])[data-verdict=''] > p", timeout=10000)
    elif camera == "not-found":
        page.wait_for_selector("#camera:not([hidden])[data-state='board not found'] > p", timeout=10000)
    else:
        page.wait_for_selector(f'#camera[data-verdict="{camera}"]', timeout=10000)
    page.evaluate("document.fonts.ready.then(() => true)")
