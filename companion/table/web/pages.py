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


def _message(title: str, text: str, status: int, holder: dict[str, Any] | None = None) -> tuple[str, int]:
    """A page (never JSON) saying what went wrong; ``title`` and ``text`` are catalog keys; ``holder``: the game
    that holds the camera (:func:`companion.table.web.api.camera_holder`), named on the page."""
    return _page("message.html", title=title, text=text, holder=holder), status


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
    """The placement assistant on the host's device (``?game=<id>`` and that game's host token, as
    ``Authorization: Bearer`` or ``?token=`` like the event stream): the page; its live view (``?frame=jpg``, the
    latest frame with the findings drawn over it) and its findings (``?frame=json``). The camera shows the room,
    so anyone else gets a 401 or 403 saying how to open it, never the frame, and the host of a game the camera does
    not check (:mod:`companion.table.camera_game`) a 409. Opening the page is the host asking for the camera: a game
    whose host let it go takes it again (when no other game in play holds it); its view and findings do not."""
    from companion.table.web.placement import placement_response

    kind = request.args.get("frame")
    refusal = _host_only(request.args.get("game", ""), kind is None)
    if refusal is not None:
        return refusal
    from companion.table.catalogs import load_catalogs
    from companion.table.web.api import request_language

    language = request_language(load_catalogs()) if kind == "json" else "en"  # the findings are said in it
    return placement_response(current_app.extensions.get("camera"), kind, _page, language)


def _host_only(game_id: str, page: bool) -> Any:
    """None for the game's host; otherwise the refusal, as a page (in the reader's language) or as JSON."""
    from companion.table.web.api import holds_camera, token_of_request

    token = token_of_request()
    if not game_id or not token:
        status, key = 401, "camera_view_no_token"
    else:
        try:
            role = service().authenticate(game_id, token).role
        except ApiError as error:
            if not page:
                raise  # the API's own JSON: no such game (404) or a token that is not this game's (401)
            if error.status == 404:
                return _message("no_game", "no_game_hint", 404)
            return _message("camera_view_host_only", "camera_view_bad_token", 401)
        if role == "host" and (current_app.extensions.get("camera") is None or holds_camera(game_id, asked=page)):
            return None
        if role == "host":  # the host of a game the camera does not check: the room is not theirs to look at
            from companion.table.camera_game import OTHER_GAME, RELEASED
            from companion.table.web.api import camera_holder, camera_released

            holder = camera_holder(game_id)  # which game has it, as the lobby names it
            if page:
                return _message("camera_view_host_only", "camera_view_other_game", 409, holder.get("holder"))
            if camera_released(game_id):  # let go from this page: it shows the view again once asked for
                return jsonify({"error": RELEASED, "code": "CameraReleased"}), 409
            return jsonify({"error": OTHER_GAME, "code": "CameraOtherGame", **holder}), 409
        status, key = 403, "camera_view_not_host"
    if page:
        return _message("camera_view_host_only", key, status)
    words = {401: "the camera's view is for the host: open it from the host's page of a game",
             403: "only the host's device can see the camera's view"}
    return jsonify({"error": words[status], "code": "NotHost" if status == 403 else "NoToken"}), status


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
