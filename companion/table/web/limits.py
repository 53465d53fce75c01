"""Limits on what a caller may send, each refused with a 4xx that names the limit, and the headers every
response carries. Shared by the Flask app and the event-loop server in front of it (``server.py``)."""

from __future__ import annotations

import json
from typing import Any

from companion.table.service import ApiError

ACTION_BODY_BYTES = 64 * 1024
"""Any JSON body but an imported log: an action, a new game."""
IMPORT_BODY_BYTES = 1024 * 1024
"""An imported game log (a long game's log is about 20 KB)."""
JSON_DEPTH = 20
"""Deepest nesting of lists and objects in a body (a game log needs 4)."""
NUMBER_DIGITS = 15
"""Longest number in a body, in digits (a space number has at most 2)."""
GAMES_PER_MINUTE = 20
"""Games one device may create (or import) per minute."""

SECURITY_HEADERS = {
    # Scripts only from the companion's own files: no inline script can run, even one slipped into a name.
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
                               "form-action 'self'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def body_limit(path: str) -> int:
    return IMPORT_BODY_BYTES if path == "/api/import" else ACTION_BODY_BYTES


def too_large(limit: int) -> ApiError:
    return ApiError(413, f"the body is larger than the {limit // 1024} KB this call accepts", "TooLarge")


def parse_json(raw: bytes) -> Any:
    """A request body as JSON, within ``JSON_DEPTH`` and ``NUMBER_DIGITS``.

    Raises:
        ApiError: 400 naming what is wrong.
    """
    try:
        text = raw.decode("utf-8")  # pragma: no mutate ("UTF-8" is the same codec)
    except UnicodeDecodeError:
        raise ApiError(400, "the body must be JSON in UTF-8") from None
    try:
        data = json.loads(text, parse_int=_integer, parse_float=_decimal, parse_constant=_constant)
    except RecursionError:
        raise ApiError(400, f"the body's JSON is nested deeper than {JSON_DEPTH} levels") from None
    except ValueError as error:
        if isinstance(error, _Refused):
            raise ApiError(400, str(error)) from None
        raise ApiError(400, "the body must be JSON (Content-Type: application/json)") from None
    if _depth(data) > JSON_DEPTH:
        raise ApiError(400, f"the body's JSON is nested deeper than {JSON_DEPTH} levels")
    return data


class _Refused(ValueError):
    pass


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > NUMBER_DIGITS:
        raise _Refused(f"a number in the body has more than {NUMBER_DIGITS} digits")
    return int(text)


def _decimal(text: str) -> float:
    if len(text) > NUMBER_DIGITS + 10:
        raise _Refused(f"a number in the body has more than {NUMBER_DIGITS} digits")
    return float(text)


def _constant(text: str) -> float:
    raise _Refused(f"{text} is not a number JSON allows")


def _depth(data: Any) -> int:
    """How deeply lists and objects nest (without recursion: the depth is what is being checked)."""
    deepest = 0  # pragma: no mutate (only ever compared with JSON_DEPTH: 0 and 1 give the same answer)
    pending = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict | list):
            deepest = max(deepest, depth)
            if depth > JSON_DEPTH:
                return depth
            pending.extend((child, depth + 1) for child in (value.values() if isinstance(value, dict) else value))
    return deepest
