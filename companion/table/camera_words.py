"""The host's calibration line (the camera box's "Calibration:") as catalog keys and their data, so that the page
says it in its own language: ``{"key": "camera_learnt.…", "params": {...}}``, where a param may itself be such
words (said first, in the same language). The English is the English catalog's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.table.catalogs import say

Words = dict[str, Any]


def words(key: str, **params: Any) -> Words:
    return {"key": key, "params": params}


def text(said: Words | str | None, language: str = "en") -> str:
    """``said`` in ``language`` (English where the catalog has no such words); a plain text as it is."""
    if said is None:
        return ""
    if isinstance(said, str):
        return said
    params = {name: text(value, language) if isinstance(value, dict) else value
              for name, value in said["params"].items()}
    return say(language, said["key"], **params)


def line(edition: str, state: Words | None) -> Words:
    """The whole line: which edition's colours the camera reads with, and how it came by them (``state``: None
    before any lesson or calibration, the board's usual colours)."""
    return words("camera_learnt.line", edition=edition, state=state or words("camera_learnt.usual", edition=edition))


def with_note(state: Words | None, note: Words | None) -> Words | None:
    """The calibration's state and why a calibration at hand is not used (either may be missing)."""
    if state is None or note is None:
        return state or note
    return words("camera_learnt.with_note", state=state, note=note)


def confirmed(left_out: Sequence[str] = ()) -> Words:
    """Calibrated from a board the game confirmed; the camels hidden on it (``left_out``) kept the colours they had,
    which the host should know: a camel that read wrongly before still does."""
    if not left_out:
        return words(CONFIRMED)
    if len(left_out) == 1:
        return words(CONFIRMED_LEFT_OUT_ONE, camel=camel_names(left_out))
    return words(CONFIRMED_LEFT_OUT_MANY, camels=camel_names(left_out))


def camel_names(camels: Sequence[str]) -> Words:
    """"blue", "blue and green", "blue, green and white": each colour in the page's language."""
    if len(camels) == 1:
        return words(f"camel.{camels[0]}")
    if len(camels) == 2:
        return words("list_two", first=words(f"camel.{camels[0]}"), second=words(f"camel.{camels[1]}"))
    return words("list_more", first=words(f"camel.{camels[0]}"), rest=camel_names(camels[1:]))


BEFORE = "camera_learnt.before"
FROM_FILE = "camera_learnt.file"
CONFIRMED = "camera_learnt.confirmed"
CONFIRMED_LEFT_OUT_ONE = "camera_learnt.confirmed_left_out_one"
CONFIRMED_LEFT_OUT_MANY = "camera_learnt.confirmed_left_out_many"
NOT_YET = "camera_learnt.not_yet"
FILE_NOT_YET = "camera_learnt.file_not_yet"
EARLIER_NOT_YET = "camera_learnt.earlier_not_yet"
WAITING = "camera_learnt.waiting"
NEXT_BOARD = "camera_learnt.next_board"
UNMOVED = "camera_learnt.unmoved"
PENDING = "camera_learnt.pending"
DIFFERS = "camera_learnt.differs"
REFUSED = "camera_learnt.refused"
NOT_SAVED = "camera_learnt.not_saved"

KEYS = (BEFORE, FROM_FILE, CONFIRMED, CONFIRMED_LEFT_OUT_ONE, CONFIRMED_LEFT_OUT_MANY,
        NOT_YET, FILE_NOT_YET, EARLIER_NOT_YET, WAITING, NEXT_BOARD, UNMOVED, PENDING,
        DIFFERS, REFUSED, NOT_SAVED, "camera_learnt.usual", "camera_learnt.with_note", "camera_learnt.line",
        "camera_learnt.other_edition", "list_two", "list_more")
"""Every key the line is made of (each in every catalog)."""
