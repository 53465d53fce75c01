"""Rematch: the host starts the same players' next race in one tap, and the finished game's phones and
table screen follow it to their places in the new game (while the companion runs: the link between the two
games is kept in memory; after a restart the new game's QR codes still work as for any game)."""

from __future__ import annotations

import threading
from typing import Any

from flask import Blueprint, current_app, jsonify

from companion.table.service import ApiError, Caller, GameService

rematch = Blueprint("rematch", __name__)
_lock = threading.Lock()


def service() -> GameService:
    return current_app.extensions["camelup"]


def _rematches() -> dict[str, str]:
    """Finished game → its rematch."""
    return current_app.extensions.setdefault("rematches", {})


def start_rematch(games: GameService, rematches: dict[str, str], game_id: str, caller: Caller) -> dict[str, Any]:
    """A new race with the same players, characters, edition and dice (the start rolled anew); a second tap
    gives the same new game."""
    if caller.role != "host":
        raise ApiError(403, "only the host can start a rematch")
    game = games.game(game_id)
    if not game.state.game_over:
        raise ApiError(409, "the race is not over yet", "RaceNotOver")
    with _lock:
        if game_id in rematches:
            return games.credentials(rematches[game_id])
        row = game.row
        made = games.create({"edition": row.edition, "players": list(row.players), "characters": row.characters,
                             "dice": row.dice})
        rematches[game_id] = made["game_id"]
        return made


def place_in_rematch(games: GameService, rematches: dict[str, str], game_id: str,
                     caller: Caller) -> dict[str, Any] | None:
    """Where ``caller`` of a finished game sits in its rematch: the new game and the token for the same seat
    (or table screen, or host). None while there is none (the game itself must exist)."""
    games.game(game_id)  # an unknown game is still a 404
    new_id = rematches.get(game_id)
    if new_id is None:
        return None
    row = games.game(new_id).row
    token = row.seat_tokens[caller.player] if caller.role == "seat" and caller.player else (
        row.host_token if caller.role == "host" else row.table_token)
    return {"game_id": new_id, "token": token}


@rematch.post("/api/games/<game_id>/rematch")
def start(game_id: str) -> Any:
    from companion.table.web.api import caller

    return jsonify(start_rematch(service(), _rematches(), game_id, caller(game_id))), 201


@rematch.get("/api/games/<game_id>/rematch")
def follow(game_id: str) -> Any:
    from companion.table.web.api import caller

    place = place_in_rematch(service(), _rematches(), game_id, caller(game_id))
    # No rematch yet is the usual answer while the finished game's pages wait for one: not an error (a 404 every
    # few seconds filled the browser's console), just nothing yet.
    return ("", 204) if place is None else jsonify(place)
