"""The pages: lobby, join link, phone, host (scorekeeper) and table screen. They are thin HTML shells;
everything they show comes from the JSON API, and every rule is asked of the engine through it."""

from __future__ import annotations

import io
from typing import Any

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request

from companion.service import GameService

pages = Blueprint("pages", __name__, static_folder="static", static_url_path="/static")


def service() -> GameService:
    return current_app.extensions["camelup"]


def _page(template: str, **context: Any) -> str:
    return render_template(template, language=current_app.config["LANGUAGE"], **context)


@pages.get("/")
def lobby() -> str:
    return _page("lobby.html")


@pages.get("/join/<token>")
def join(token: str) -> Any:
    found = service().find_seat(token)
    if found is None:
        return _page("message.html", title="This link no longer works",
                     text="Ask the host for a new link or QR code for your seat."), 404
    game_id, player = found
    return _page("join.html", game_id=game_id, player=player, token=token)


@pages.get("/play/<game_id>")
def play(game_id: str) -> str:
    service().game(game_id)
    return _page("play.html", game_id=game_id)


@pages.get("/host/<game_id>")
def host(game_id: str) -> str:
    service().game(game_id)
    return _page("host.html", game_id=game_id)


@pages.get("/table/<game_id>")
def table(game_id: str) -> str:
    service().game(game_id)
    return _page("table.html", game_id=game_id)


@pages.get("/camera/placement")
def camera_placement() -> Any:
    """The placement assistant on the host's device: the page; its live view (``?frame=jpg``, the latest frame
    with the findings drawn over it) and its findings (``?frame=json``)."""
    from companion.placement_view import placement_response

    return placement_response(current_app.extensions.get("camera"), request.args.get("frame"), _page)


@pages.get("/qr.svg")
def qr() -> Response:
    """A QR code (SVG) for a join link or the Wi-Fi: what phones scan at the table."""
    import qrcode
    import qrcode.image.svg

    data = request.args.get("data", "")
    if not data or len(data) > 1000:
        abort(400)
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=12, border=2)
    out = io.BytesIO()
    image.save(out)
    return Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


@pages.get("/favicon.ico")
def favicon() -> Any:
    return redirect("/static/favicon.svg")
