"""The web companion: a Flask app factory, the JSON API (``shared/spec/http-api.md``) and the pages."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask, Response, jsonify, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.exceptions import HTTPException

from companion.table.service import ApiError, DiceSource, GameService
from companion.table.store import StorageError, Store

if TYPE_CHECKING:  # a type only: the camera's modules import the web's catalogs, which import this package
    from companion.table.camera_watch import CameraWatch


def create_app(
    data_dir: str | Path,
    pyramid: DiceSource | None = None,
    public_url: str | None = None,
    language: str = "auto",
    testing: bool = False,
    hotspot: tuple[str, str] | None = None,
    camera: CameraWatch | None = None,
    games_per_minute: int | None = None,
    bind_host: str | None = None,
) -> Flask:
    """The companion as a WSGI app. Games live in ``data_dir/games.sqlite3``. ``bind_host``: the address the
    server listens on (a loopback one: the links are this machine's, and the host's page says phones cannot
    join)."""
    from companion.table.web import api as api_module
    from companion.table.web.i18n import catalogs
    from companion.table.web.limits import GAMES_PER_MINUTE, IMPORT_BODY_BYTES, SECURITY_HEADERS
    from companion.table.web.net import base_url_for, loopback
    from companion.table.web.pages import pages
    from companion.table.web.picker import picker
    from companion.table.web.rematch import rematch

    data = Path(data_dir)
    store = Store(data / "games.sqlite3")  # a data directory that cannot be written is a notice, not a crash
    app = Flask(__name__)
    app.config["TESTING"] = testing
    app.config["SECRET_KEY"] = _secret_key(data)
    app.config["MAX_CONTENT_LENGTH"] = IMPORT_BODY_BYTES  # no call reads more (most read far less)
    app.config["LANGUAGE"] = language
    app.config["HOTSPOT"] = hotspot  # (network name, password) when the Pi is the table's Wi-Fi
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.config["LOCAL_ONLY"] = not public_url and loopback(bind_host)
    service = GameService(store, pyramid, base_url=lambda: base_url_for(public_url, request, bind_host))
    app.extensions["camelup"] = service
    app.extensions["camera"] = camera  # None: no camera, play is by hand
    app.register_blueprint(api_module.api)
    app.register_blueprint(pages)
    app.register_blueprint(picker)
    app.register_blueprint(rematch)
    app.register_blueprint(catalogs)
    from companion.table.web.coach import coach

    app.register_blueprint(coach)  # the coach page after a race (companion/sim/)

    # Games created per device and minute: a crowd's phone (or a script) cannot fill the Pi with games.
    limiter = Limiter(get_remote_address, app=app, storage_uri="memory://", headers_enabled=True)
    per_minute = f"{games_per_minute or GAMES_PER_MINUTE}/minute"
    words = f"too many new games from this device: at most {games_per_minute or GAMES_PER_MINUTE} a minute"
    for endpoint in ("api.create_game", "api.import_game"):
        app.view_functions[endpoint] = limiter.limit(per_minute, error_message=words)(app.view_functions[endpoint])

    @app.after_request
    def security_headers(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    @app.context_processor
    def storage_notice() -> dict[str, Any]:
        """Every page says so when games cannot be saved."""
        return {"storage_problem": store.problem}

    @app.errorhandler(StorageError)
    def storage_error(error: StorageError) -> Any:
        return jsonify({"error": f"the companion cannot save games ({error.message}): nothing was changed",
                        "code": "StorageError"}), 503

    @app.errorhandler(ApiError)
    def api_error(error: ApiError) -> Any:
        body: dict[str, Any] = {"error": error.message}
        if error.code:
            body["code"] = error.code
        return jsonify(body), error.status

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        if request.path.startswith("/api/") or request.path == "/healthz":
            return jsonify({"error": error.description or error.name}), error.code
        return error

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Any:  # a bug: log it, answer in the one JSON shape, keep serving
        app.logger.exception("unexpected error on %s", request.path)
        return jsonify({"error": "something went wrong on the companion; the game is unchanged"}), 500

    return app


def _secret_key(data: Path) -> str:
    """A random key made on first start and kept in the data directory: never a default shipped in code (one
    for this run only when the directory cannot be written or read)."""
    path = data / "secret_key"
    try:
        if not path.exists():
            path.write_text(secrets.token_hex(32))
            path.chmod(0o600)
        return path.read_text().strip()
    except OSError:
        return secrets.token_hex(32)
