"""Rematch: the host starts the same players' next race in one tap, and the finished game's phones and
table screen follow it to their place in the new game."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify

from companion.service import GameService

rematch = Blueprint("rematch", __name__)


def service() -> GameService:
    return current_app.extensions["camelup"]


@rematch.post("/api/games/<game_id>/rematch")
def start(game_id: str) -> Any:
    from companion.web.api import caller

    return jsonify(service().rematch(game_id, caller(game_id))), 201


@rematch.get("/api/games/<game_id>/rematch")
def follow(game_id: str) -> Any:
    from companion.web.api import caller

    return jsonify(service().rematch_for(game_id, caller(game_id)))
