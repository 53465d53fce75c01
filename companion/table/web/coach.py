"""The coach after a race, on the table screen and the phones: one page and one API endpoint.

``GET /api/games/<id>/coach`` (any token of the game) answers :meth:`CoachReport.as_json` once the race is
over (409 before: the log would reveal face-down finish cards); ``GET /coach/<id>`` is the page showing it.
The action that ends a race starts the analysis in the background, so the page is ready when opened.
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request

coach = Blueprint("coach", __name__)

_reports: dict[tuple[str, int], dict[str, Any]] = {}
_lock = threading.Lock()


@coach.get("/coach/<game_id>")
def coach_page(game_id: str) -> str:
    current_app.extensions["camelup"].game(game_id)  # an unknown game is a 404 like every page's
    return render_template("coach.html", game_id=game_id, language=current_app.config["LANGUAGE"])


@coach.get("/api/games/<game_id>/coach")
def coach_report(game_id: str) -> Any:
    from companion.table.live import ApiError
    from companion.table.web.api import caller

    caller(game_id)  # any seat, the host or the table: everyone sees the same report after the race
    game = current_app.extensions["camelup"].game(game_id)
    if not game.state.game_over:
        raise ApiError(409, "the coach speaks once the race is over (it would reveal face-down finish cards)",
                       "CoachBeforeTheEnd")
    return jsonify(_report(game_id, game))


@coach.after_app_request
def start_coaching_at_the_finish(response: Response) -> Response:
    """The action that ends a race starts the coach's work at once, so the page is ready when opened."""
    game_id = (request.view_args or {}).get("game_id")
    if request.method == "POST" and response.status_code < 300 and request.path.endswith("/actions") and game_id:
        from companion.table.live import ApiError

        try:
            game = current_app.extensions["camelup"].game(game_id)
        except ApiError:
            return response
        if game.state.game_over and (game_id, len(game.actions)) not in _reports:
            threading.Thread(target=_report, args=(game_id, game), daemon=True, name="coach").start()
    return response


def _report(game_id: str, game: Any) -> dict[str, Any]:
    from companion.gamelog import parse_log
    from companion.sim.coach import analyse_log
    from companion.table.views import export_log

    key = (game_id, len(game.actions))
    with _lock:  # one analysis per finished game, however many phones ask at once
        if key not in _reports:
            _reports[key] = analyse_log(parse_log(export_log(game))).as_json()
        return _reports[key]
