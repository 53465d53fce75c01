"""The pages: lobby, join link, phone, host (scorekeeper) and table screen. They are thin HTML shells;
everything they show comes from the JSON API, and every rule is asked of the engine through it."""

from __future__ import annotations

import functools
import io
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, request

from companion.table.service import ApiError, GameService

pages = Blueprint("pages", __name__, static_folder="static", static_url_path="/static")


def service() -> GameService:
    return current_app.extensions["camelup"]


def _page(template: str, **context: Any) -> str:
    return render_template(template, language=current_app.config["LANGUAGE"], **context)


@pages.get("/")
def lobby() -> str:
    return _page("lobby.html")


def _message(title: str, text: str, status: int) -> tuple[str, int]:
    """A page (never JSON) saying what went wrong; ``title`` and ``text`` are catalog keys."""
    return _page("message.html", title=title, text=text), status


def _game_page(template: str, game_id: str) -> Any:
    try:
        service().game(game_id)
    except ApiError:
        return _message("no_game", "no_game_hint", 404)
    return _page(template, game_id=game_id)


@pages.get("/join/<token>")
def join(token: str) -> Any:
    found = service().find_seat(token)
    if found is None:
        return _message("link_gone", "link_gone_hint", 404)
    game_id, player = found
    return _page("join.html", game_id=game_id, player=player, token=token)


@pages.get("/play/<game_id>")
def play(game_id: str) -> Any:
    return _game_page("play.html", game_id)


@pages.get("/host/<game_id>")
def host(game_id: str) -> Any:
    return _game_page("host.html", game_id)


@pages.get("/table/<game_id>")
def table(game_id: str) -> Any:
    return _game_page("table.html", game_id)


@pages.get("/pick/<game_id>")
def pick(game_id: str) -> Any:
    """The seat picker the table screen's QR code opens."""
    return _game_page("pick.html", game_id)


@pages.get("/results/<game_id>")
def results(game_id: str) -> Any:
    """A finished game's result, linked from the lobby's list of past games."""
    return _game_page("results.html", game_id)


@pages.get("/camera/placement")
def camera_placement() -> Any:
    """The placement assistant on the host's device: the page; its live view (``?frame=jpg``, the latest frame
    with the findings drawn over it) and its findings (``?frame=json``)."""
    from companion.table.placement_view import placement_response

    return placement_response(current_app.extensions.get("camera"), request.args.get("frame"), _page)


@pages.get("/qr.svg")
def qr() -> Any:
    """A QR code (SVG) for what phones scan at the table: a seat's join link, the companion's address or the
    Wi-Fi. Only those: a code for any other text is refused (making one costs the Pi 100 ms)."""
    from companion.table.web.api import wifi_qr

    data = request.args.get("data", "")
    base = service().base_url()
    token = data[len(base) + len("/join/"):] if data.startswith(f"{base}/join/") else None
    if data != f"{base}/" and data != wifi_qr() and (not token or service().find_seat(token, join=False) is None):
        return jsonify({"error": "QR codes are made only for this companion's own links: a seat's join link, "
                                 "its address or its Wi-Fi"}), 404
    return Response(_qr_svg(data), mimetype="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


@functools.lru_cache(maxsize=128)
def _qr_svg(data: str) -> bytes:
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=12, border=2)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue()


@pages.get("/favicon.ico")
def favicon() -> Any:
    return redirect("/static/favicon.svg")
