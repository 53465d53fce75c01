"""The JSON API (v1) of ``shared/spec/http-api.md``, plus the host's extras (undo, seats, odds, import)."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context
from werkzeug.exceptions import RequestEntityTooLarge

from companion.table.camera_edition import EDITIONS
from companion.table.camera_game import IDLE_SECONDS, OTHER_GAME, RELEASED, CameraGame, camera_game_of
from companion.table.service import ApiError, Caller, GameService
from companion.table.web.limits import body_limit, parse_json, too_large

api = Blueprint("api", __name__)

KEEPALIVE_SECONDS = 2.0
"""Also how soon a page that went away frees its server thread (found when a write fails). This stream serves
the app on its own (tests, a plain WSGI server); ``camelup serve`` answers event streams on its event loop."""


def service() -> GameService:
    return current_app.extensions["camelup"]


def body() -> Any:
    """The request's JSON, read only up to the call's size limit (64 KB, 1 MB for an imported log)."""
    if not request.is_json:
        raise ApiError(400, "the body must be JSON (Content-Type: application/json)")
    limit = body_limit(request.path)
    # Not mutated: werkzeug's max_content_length (below) gives the same 413; this one answers before reading.
    if request.content_length is not None and request.content_length > limit:  # pragma: no mutate
        raise too_large(limit)
    request.max_content_length = limit  # also bounds a body sent without a length (chunked)
    try:
        raw = request.get_data(cache=False)  # pragma: no mutate (caching the body changes only memory use)
    except RequestEntityTooLarge:
        raise too_large(limit) from None
    return parse_json(raw)


def received() -> float | None:
    """When the event-loop server took the request in (``time.monotonic()``), if it did."""
    return request.environ.get("asgi.scope", {}).get("camelup.received")


def token_of_request() -> str | None:
    """``Authorization: Bearer <token>``, or ``?token=`` for the event stream (browsers' EventSource cannot
    set headers)."""
    header = request.headers.get("Authorization", "")  # pragma: no mutate (headers ignore case; "" is any non-bearer)
    return header[7:].strip() if header.lower().startswith("bearer ") else request.args.get("token")


def caller(game_id: str) -> Caller:
    """Who is calling."""
    return service().authenticate(game_id, token_of_request())


@api.get("/healthz")
def healthz() -> Any:
    """``status`` "ok", or "degraded" with the ``reason`` (the games cannot be stored); ``streams``: open live
    pages, when served by ``camelup serve``; ``pyramid``, when the configured rig could not start."""
    problem = service().store.problem
    out: dict[str, Any] = {"ok": problem is None, "status": "degraded" if problem else "ok"}
    if problem:
        out["reason"] = f"games cannot be saved: {problem}"
    streams = current_app.extensions.get("streams")
    if streams is not None:
        out["streams"] = streams.count
    rig_problem = getattr(service().pyramid, "problem", None)
    if rig_problem is not None:  # the rig could not start: the companion draws the dice (camelup doctor asks here)
        out["pyramid"] = {"state": "unavailable", "problem": rig_problem.sentence()}
    return jsonify(out)


@api.post("/api/games")
def create_game() -> Any:
    return jsonify(service().create(body())), 201


@api.get("/api/games")
def list_games() -> Any:
    return jsonify({"games": service().past_games()})


@api.post("/api/import")
def import_game() -> Any:
    data = body()
    dice = request.args.get("dice", "manual")
    return jsonify(service().import_log(data, dice)), 201


@api.post("/api/games/<game_id>/actions")
def act(game_id: str) -> Any:
    who = caller(game_id)
    data = body()
    service().act(game_id, who, data, received())
    return Response(f'{{"state": {service().state_text(game_id, who)}}}', mimetype="application/json")


@api.post("/api/games/<game_id>/undo")
def undo(game_id: str) -> Any:
    who = caller(game_id)
    service().undo(game_id, who)
    return jsonify({"state": service().state_json(game_id, who)})


@api.get("/api/games/<game_id>/state")
def state(game_id: str) -> Any:
    return Response(service().state_text(game_id, caller(game_id)), mimetype="application/json")


@api.get("/api/games/<game_id>/log")
def log(game_id: str) -> Any:
    return jsonify(service().log(game_id, caller(game_id)))


@api.get("/api/games/<game_id>/credentials")
def credentials(game_id: str) -> Any:
    if caller(game_id).role != "host":
        raise ApiError(403, "only the host can see the seats' links")
    found = service().credentials(game_id)
    if current_app.config.get("LOCAL_ONLY"):  # listening on a loopback address: no phone can open the links
        found["local_only"] = True
    return jsonify(found)


@api.get("/api/games/<game_id>/table")
def table_info(game_id: str) -> Any:
    """What the table screen shows besides the game: the Wi-Fi to join (when the Pi is the hotspot) and the
    address of the companion, each for a QR code."""
    if caller(game_id).role not in ("host", "table"):
        raise ApiError(403, "this is for the table screen")
    base = service().base_url()
    hotspot = current_app.config.get("HOTSPOT")
    wifi = None
    if hotspot:
        name, password = hotspot
        wifi = {"ssid": name, "password": password, "qr": wifi_qr()}
    return jsonify({"address": f"{base}/", "wifi": wifi})


def wifi_qr() -> str | None:
    """The text of the Wi-Fi QR code (phones join the network by scanning it), when the Pi is the hotspot."""
    hotspot = current_app.config.get("HOTSPOT")
    if not hotspot:
        return None
    escaped = [value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace(":", "\\:")
               for value in hotspot]
    return f"WIFI:T:WPA;S:{escaped[0]};P:{escaped[1]};;"


@api.get("/api/games/<game_id>/camera")
def camera(game_id: str) -> Any:
    """What the camera beside the board sees, compared with the game (``{"state": "off"}`` without one)."""
    from companion.table.board_check import LANGUAGES
    from companion.table.camera_report import camera_report

    caller(game_id)
    language = request_language(LANGUAGES)  # refused before anything changes
    watch = current_app.extensions.get("camera")
    unchecked = _unchecked()
    if watch is None:
        if "all" in unchecked:  # a setting switched it off: the host is told which, not a bare "no camera"
            return jsonify({"state": "not checked", "message": f"no camera: {unchecked['all']}"})
        return jsonify({"state": "off", "message": "no camera: the board is not checked"})
    game = service().game(game_id)
    edition = game.row.edition
    if edition in unchecked:  # this game cannot use the camera: it does not take it from another
        return jsonify({"state": "not checked", "message": unchecked[edition], "edition": watch.edition,
                        "learnt": watch.learnt, "learnt_words": watch.learnt_words})
    if not holds_camera(game_id):
        if camera_released(game_id):
            # Its host let the camera go, and no game in play took it since: the host may ask for it again.
            return jsonify({"state": "released", "message": RELEASED})
        # Another game in play has the camera: this one changes nothing of it (board, still run, lessons).
        return jsonify({"state": "other game", "message": OTHER_GAME, **camera_holder(game_id)})
    # Another game in play waits for it: the host may be done with it (a game made only to place the camera).
    wanted = {"wanted": True} if _camera_game().wanted(service().store.now()) else {}
    # The camera reads the edition of the game it checks (its template and that edition's colours).
    played = _played(game_id, game)
    elsewhere = watch.follow(game_id, edition, played, game.state.game_over)
    lobby = current_app.extensions.get("camera_lobby_read")
    if lobby is not None and lobby[0] == edition and played >= lobby[1]:
        current_app.extensions.pop("camera_lobby_read", None)  # a game of it played since: the camera follows that
    if elsewhere is not None:
        return jsonify({"state": "other board", "message": _other_game(elsewhere, edition, watch), "edition": elsewhere,
                        "learnt": watch.learnt, "learnt_words": watch.learnt_words, **wanted})
    if watch.switching() or watch.edition != edition:
        # Until its next frame the camera shows the other edition's board, read with the other's colours (and its
        # lessons wait: this game's is given once the camera reads its board).
        return jsonify({"state": "switching", "message": f"the camera switches to the {edition} board",
                        "learnt": watch.learnt, "learnt_words": watch.learnt_words, "edition": watch.edition, **wanted})
    # The game's version before its actions are read: a verdict never claims a newer game than it judged.
    version = game.version
    state = game.state
    start = service().game_start(game_id)
    if not state.game_over and len(state.dice_in_pyramid()) == len(state.edition.dice):
        # A leg's start (or the game's): the board is the one the game confirmed; the camera learns this
        # table's colours from the first steady frame that shows it (once per leg).
        track = {space: list(stack) for space, stack in state.track.as_dict().items()}
        watch.learn(game_id, state.leg, track, start, list(game.actions), game.row.dice, edition)
    else:
        watch.forget(game_id)  # the leg has moved on: its start's board is no longer on the table
    status = watch.status  # one status for the whole report (the camera's thread moves on meanwhile)
    learnt = {"learnt": watch.learnt, "learnt_words": watch.learnt_words, "edition": watch.edition}
    report = camera_report(status, state.track.as_dict(), language)
    report.update(learnt)
    if status.state in ("board not found", "unavailable") and language != "en":  # why, in the page's language
        from companion.table.picture_words import not_found_said, unavailable_said

        said = not_found_said if status.state == "board not found" else unavailable_said
        reason = said(status.message, language)
        if reason:
            report["reason"] = reason
    if not state.game_over:
        # The game's board verified against the latest steady frame, with the slips that could explain a
        # difference (none while the board is not steady).
        verdict = watch.verdict(game_id, start, game.actions, language, game.row.dice, edition)
        if verdict is not None:
            # Which version of the game it was worked out for: a page showing a later one (an entry, a
            # correction, an undo since) does not show it.
            report = {**camera_report(status, state.track.as_dict(), language, {**verdict, "version": version}),
                      **learnt}
            if verdict.get("problems"):  # what is wrong with the picture, in the page's language where known
                from companion.table.picture_words import problems_in

                problems, languages = problems_in(verdict["problems"], language)
                report["verdict"] = {**report["verdict"], "problems": problems, "problems_languages": languages}
        elif report["state"] == "reading":
            # A still picture from before the game's latest change (a draw, a new game): it is not judged, and
            # its blind reading is no news either. The board is looked at again once it is still after it.
            report = {**report, "state": "unsettled", "message": "waiting for the board to stay still"}
            report.pop("differences", None)
    return jsonify({**report, **wanted})


@api.post("/api/games/<game_id>/camera/correct")
def correct_from_camera(game_id: str) -> Any:
    """The host takes the camera's verdict as right: the die entry it names as the likeliest explanation of
    the steady board is corrected."""
    from companion.table.correction import Amendment
    from companion.table.service import refuse_pyramid_change

    who = caller(game_id)
    if who.role != "host":  # before anything else: a player's tap changes nothing, not even what the camera reads
        raise ApiError(403, "only the host can correct the game from the camera")
    watch = _camera_watch()
    game = service().game(game_id)
    edition = game.row.edition
    if edition in _unchecked():
        raise ApiError(409, _unchecked()[edition], "CameraNotChecked")
    if not holds_camera(game_id):
        return jsonify({"error": OTHER_GAME, "code": "CameraOtherGame", **camera_holder(game_id)}), 409
    elsewhere = watch.follow(game_id, edition, _played(game_id, game), game.state.game_over)
    if elsewhere is not None:
        raise ApiError(409, _other_game(elsewhere, edition, watch), "CameraOtherBoard")
    _refuse_while_switching(watch, edition)
    refuse_pyramid_change(game.row)  # before the picture: its draws are facts, whatever the camera sees
    verdict = watch.verdict(game_id, service().game_start(game_id), game.actions, dice=game.row.dice,
                            edition=edition)
    if verdict is None:
        status = watch.status
        # A steady picture from before the game's latest change is no picture of this game yet.
        why = "waiting for the board to stay still" if status.state == "reading" else status.message or status.state
        raise ApiError(409, f"the board is not steady yet ({why}): try again in a moment", "CameraNotReady")
    found = verdict.get("correction")
    if not verdict["answer"].startswith("differs") or found is None:
        raise ApiError(409, f"the camera does not see a difference that one entry explains ({verdict['answer']})",
                       "NoCorrection")
    amendment = Amendment(found["index"], found["was"], found["becomes"])
    service().correct_entry(game_id, who, amendment)
    return jsonify({"state": service().state_json(game_id, who), "correction": amendment.describe()})


@api.post("/api/games/<game_id>/camera/release")
def release_camera(game_id: str) -> Any:
    """The host of the game the camera checks lets it go (done placing the camera with a throwaway game): the next
    game whose page asks takes it; this game's pages no longer take it back by asking
    (:mod:`companion.table.camera_game`)."""
    if caller(game_id).role != "host":  # before anything else: only that game's host lets it go
        raise ApiError(403, "only the host can let the camera go")
    watch = _camera_watch()
    taken = _camera_game()
    if not taken.released(game_id) and not taken.release(game_id):
        raise ApiError(409, "this game does not hold the camera: there is nothing to release (the camera checks "
                            "another game, or none)", "CameraNotHeld")
    watch.forget(game_id)  # a lesson waiting for this game's board: the next game's board is no lesson of it
    return jsonify({"state": "released", "message": RELEASED})


@api.post("/api/games/<game_id>/camera/take")
def take_camera(game_id: str) -> Any:
    """The host asks for the camera for this game (after letting it go): it takes it when no other game in play
    holds it, else a 409 saying how that game frees it."""
    if caller(game_id).role != "host":
        raise ApiError(403, "only the host can ask for the camera")
    _camera_watch()
    if holds_camera(game_id, asked=True):
        return jsonify({"state": "taken"})
    return jsonify({"error": OTHER_GAME, "code": "CameraOtherGame", **camera_holder(game_id)}), 409


@api.get("/api/camera")
def camera_status() -> Any:
    """The camera without a game: is there one, and which board it is set up for."""
    watch = current_app.extensions.get("camera")
    if watch is None:
        return jsonify({"state": "off", "message": "no camera: the board is not checked"})
    return jsonify({**watch.status.as_json(), "edition": watch.edition, "learnt": watch.learnt,
                    "learnt_words": watch.learnt_words})


@api.get("/api/camera/setup")
def camera_setup() -> Any:
    """The starting positions as the camera reads them, in the game log's ``setup`` form, for a new game
    (``?edition=E``: of that edition; the camera reads that edition's board from its next frame, as for a game
    just created, and answers once it is steady)."""
    edition = request.args.get("edition")
    if edition is not None:
        if edition not in EDITIONS:
            raise ApiError(400, f"edition must be one of {', '.join(EDITIONS)}, not {edition!r}")
        watch = _camera_watch()
        if edition in _unchecked():
            raise ApiError(409, _unchecked()[edition], "CameraNotChecked")
        held = _camera_game().held_in_play(_in_play)
        if held is None:
            now = service().store.now()  # the clock the games' entries are stamped by
            watch.follow(NEW_GAME, edition, now)
            current_app.extensions["camera_lobby_read"] = (edition, now)  # the other games' pages say why it switched
        elif service().game(held).row.edition != edition:
            # A GET (a web page's picture can send it) never takes the camera from a game in play: it waits.
            # The refusal names that game, as the lobby lists it (the host sees whom to ask).
            return jsonify({"error": f"the camera checks a {service().game(held).row.edition} game in play: a "
                                     f"{edition} start is read once its host releases the camera (Place the camera "
                                     f"page), or that game is over or has had no entry for {IDLE_SECONDS // 60} "
                                     "minutes", "code": "CameraInUse", **camera_holder("")}), 409
        _refuse_while_switching(watch, edition)
    track = _stable_camera_track()
    watch = current_app.extensions["camera"]
    unseen = [camel for camel in watch.profiles if not any(camel in stack for stack in track.values())]
    setup = {"track": {str(space): list(stack) for space, stack in sorted(track.items()) if stack}}
    if unseen:
        # Refused (no game starts from it as it is), with what it saw: the host adds the camels it did not see.
        return jsonify({"error": f"the camera does not see {', '.join(unseen)}: add them by hand, or check the board "
                                 "and the light", "code": "CameraIncomplete", "edition": watch.template.edition,
                        "setup": setup, "unseen": unseen}), 409
    return jsonify({"edition": watch.template.edition, "setup": setup})


NEW_GAME = ("a new game",)
"""Who asks the camera for a new game's starting positions (it is played next)."""


def _refuse_while_switching(watch: Any, edition: str) -> None:
    """A 409 until the camera reads ``edition``'s board (it switches at its next frame)."""
    if watch.switching() or watch.edition != edition:
        raise ApiError(409, f"the camera switches to the {edition} board: try again in a moment", "CameraNotReady")


LANGUAGE_CODE = re.compile(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}")


def request_language(known: Any) -> str:
    """``?lang=``: one of ``known``, English for a language code it has no words in (a page in a language the
    camera does not speak), and a 400 naming it for anything that is not a language code."""
    language = request.args.get("lang", "en")
    if len(language) > 35 or not LANGUAGE_CODE.fullmatch(language):
        shown = language if len(language) <= 20 else f"{language[:20]}… ({len(language)} characters)"
        raise ApiError(400, f"lang must be a language code such as en or fr, not {shown!r}")
    return language if language in known else "en"


_making = threading.Lock()


def _camera_game() -> CameraGame:
    """Which game the camera checks (:mod:`companion.table.camera_game`), with the releases stored with the games."""
    found = current_app.extensions.get("camera_game")
    if found is None:
        with _making:  # made once: two pages asking at once share one holder
            found = current_app.extensions.get("camera_game")
            if found is None:
                found = current_app.extensions["camera_game"] = camera_game_of(service().store)
    return found


def _in_play(game_id: str) -> bool:
    """Not over, and created or entered within :data:`IDLE_SECONDS` (a game gone from the store: not in play)."""
    try:
        game = service().game(game_id)
    except ApiError:
        return False
    return not game.state.game_over and service().store.now() - _last_played(game) <= IDLE_SECONDS


def holds_camera(game_id: str, asked: bool = False) -> bool:
    """Whether the camera checks ``game_id``: it takes the camera when no other game in play holds it (a game whose
    host let it go: only when ``asked``, the host asking for it)."""
    return _camera_game().take(game_id, _in_play, service().store.now(), asked)


def camera_holder(game_id: str) -> dict[str, Any]:
    """``{"holder": …}``: the other game the camera checks, as the lobby lists it (when it was created, its board,
    its players) and when it was last played, so that ``game_id``'s players recognise it and see when it frees the
    camera; ``{}`` when no other game holds it. Nothing that opens it (no id, no link): the lobby shows as much."""
    held = _camera_game().game_id
    if held is None or held == game_id:
        return {}
    try:
        game = service().game(held)
    except ApiError:  # gone from the store meanwhile: nothing to name
        return {}
    return {"holder": {"created": game.row.created, "edition": game.row.edition, "players": list(game.row.players),
                       "last_played": _last_played(game)}}


def camera_released(game_id: str) -> bool:
    """Whether ``game_id``'s host let the camera go and no game in play has taken it since."""
    return _camera_game().released(game_id) and _camera_game().held_in_play(_in_play) is None


def _played(game_id: str, game: Any) -> float:
    """When the game the camera checks was last played, or took the camera if later: the camera reads its edition
    (a game left earlier, played after this one was created, must not win ``CameraWatch.follow``)."""
    taken = _camera_game()
    return max(_last_played(game), taken.since if taken.game_id == game_id else 0.0)


def _last_played(game: Any) -> float:
    """When the game was last played: its latest entry (a draw, an undo, a correction), else its creation."""
    return max([game.row.created, *(entry.at for entry in game.entries)])


def _other_game(reading: str, edition: str, watch: Any) -> str:
    """Why the camera does not check this ``edition`` game: it reads the ``reading`` board of the game played
    last (one camera, one board on the table), or that board only."""
    if not watch.reads(edition):
        return (f"the camera reads the {reading} board only (its board = under [camera] is a template of that "
                f"board alone): this {edition} game is not checked")
    lobby = current_app.extensions.get("camera_lobby_read")
    if lobby is not None and lobby[0] == reading:  # no game of it yet, maybe: say what is true
        return (f"the camera reads the {reading} board: a {reading} start was read in the lobby, for a new game; it "
                f"checks this {edition} game's board from its next entry")
    return (f"the camera reads the {reading} board, for the game played last; it checks this {edition} game's "
            "board from its next entry")


def _unchecked() -> dict[str, str]:
    """Per edition whose calibration setting cannot be used, why its games are not checked (``"all"``: why the
    camera is off): set by ``camelup serve``."""
    return dict(current_app.extensions.get("camera_unchecked") or {})


def _camera_watch() -> Any:
    """The companion's camera watch, or a 409 when no camera is set up."""
    watch = current_app.extensions.get("camera")
    if watch is None:
        raise ApiError(409, "no camera is set up: the board cannot be read", "NoCamera")
    return watch


def _stable_camera_track() -> dict[int, list[str]]:
    """The camera's latest stable blind reading of the board (no game yet to verify), or a 409 saying why
    there is none."""
    watch = _camera_watch()
    status = watch.status
    if status.track is None:
        raise ApiError(409, f"the camera has no steady reading of the board ({status.message or status.state})",
                       "CameraNotReady")
    return status.track


@api.post("/api/games/<game_id>/seats/<path:player>/reissue")  # path: a name may hold "/"
def reissue(game_id: str, player: str) -> Any:
    return jsonify(service().reissue_seat(game_id, caller(game_id), player))


@api.get("/api/games/<game_id>/odds")
def odds(game_id: str) -> Any:
    """The optional odds panel: exact leg odds and ticket values (public information only)."""
    from companion.odds import exact_leg_odds, leg_ticket_evs

    who = caller(game_id)
    if who.role not in ("host", "table"):
        raise ApiError(403, "the odds panel is for the table screen")
    game = service().game(game_id)
    leg = exact_leg_odds(game.state)
    return jsonify({
        "leg": {camel: {"first": leg.first[camel], "second": leg.second[camel]} for camel in leg.first},
        "leg_ticket_ev": leg_ticket_evs(game.state, leg),
    })


@api.get("/api/games/<game_id>/events")
def events(game_id: str) -> Response:
    """Server-Sent Events: the caller's view of the state now, then after every change. The browser
    reconnects by itself; a phone waking from sleep gets the current state as the first event."""
    token = token_of_request()
    who = caller(game_id)
    games = service()
    changed = threading.Event()
    games.listen(game_id, changed.set)

    def stream() -> Iterator[str]:
        try:
            yield "retry: 1000\n"
            yield _event(games.state_text(game_id, who))
            while True:
                if not changed.wait(timeout=KEEPALIVE_SECONDS):
                    yield ": keep-alive\n\n"
                    continue
                changed.clear()  # several changes at once: send the latest only
                try:
                    games.authenticate(game_id, token)
                except ApiError:
                    return  # the seat's link was replaced: its old pages stop hearing the game at once
                yield _event(games.state_text(game_id, who))
        finally:
            games.stop_listening(game_id, changed.set)

    return Response(
        stream_with_context(stream()),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _event(state: str) -> str:
    return f"event: state\ndata: {state}\n\n"
