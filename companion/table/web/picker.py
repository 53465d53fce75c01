"""The seat picker: the table screen's QR code opens it, and whoever scans it picks their seat.

The picker's key is derived from the table screen's token, so only someone who can see the table screen
(or the host) can pick a seat; the seat's own link stays the secret that acts for the player.
"""

from __future__ import annotations

import hashlib
import hmac
import io
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from companion.table.service import ApiError, GameService

picker = Blueprint("picker", __name__)


def service() -> GameService:
    return current_app.extensions["camelup"]


def picker_key(table_token: str) -> str:
    return hmac.new(table_token.encode(), b"seat-picker", hashlib.sha256).hexdigest()[:32]


def _check_key(game_id: str, key: object) -> None:
    row = service().game(game_id).row
    if not isinstance(key, str) or not hmac.compare_digest(key, picker_key(row.table_token)):
        raise ApiError(401, "this seat picker link is not valid: scan the table screen's code again", "BadPickerKey")


@picker.get("/api/games/<game_id>/seat-picker-link")
def seat_picker_link(game_id: str) -> Any:
    """For the table screen's QR code (the table screen or the host only)."""
    from companion.table.web.api import caller

    if caller(game_id).role not in ("host", "table"):
        raise ApiError(403, "this is for the table screen")
    key = picker_key(service().game(game_id).row.table_token)
    return jsonify({"url": _picker_url(game_id, key), "qr": f"/pick/{game_id}/qr.svg?key={key}"})


def _picker_url(game_id: str, key: str) -> str:
    return f"{service().base_url()}/pick/{game_id}#{key}"


@picker.get("/pick/<game_id>/qr.svg")
def picker_qr(game_id: str) -> Response:
    """The seat picker's QR code for the table screen (made here: it is a link only this game's key opens)."""
    import qrcode
    import qrcode.image.svg

    key = request.args.get("key")
    _check_key(game_id, key)
    image = qrcode.make(_picker_url(game_id, str(key)), image_factory=qrcode.image.svg.SvgPathImage, box_size=12,
                        border=2)
    out = io.BytesIO()
    image.save(out)
    return Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "max-age=3600"})


@picker.get("/api/games/<game_id>/seat-picker")
def seats(game_id: str) -> Any:
    _check_key(game_id, request.args.get("key"))
    game = service().game(game_id)
    return jsonify({"players": list(game.row.players), "characters": game.row.characters,
                    "game_over": game.state.game_over})


@picker.post("/api/games/<game_id>/seat-picker")
def pick(game_id: str) -> Any:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object with 'key' and 'player'")
    _check_key(game_id, data.get("key"))
    tokens = service().game(game_id).row.seat_tokens
    player = data.get("player")
    if player not in tokens:
        raise ApiError(404, f"there is no seat for {player!r}")
    return jsonify({"join_url": f"/join/{tokens[player]}"})
