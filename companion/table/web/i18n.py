"""The pages' words: gettext message catalogs (``translations/<language>/LC_MESSAGES/messages.po``), read
with Babel when the companion starts and served to the pages as one script (the pages switch language
without a reload). Message ids are stable keys; the English catalog holds the English words."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from babel.messages.pofile import read_po
from flask import Blueprint, Response

TRANSLATIONS = Path(__file__).parent / "translations"

catalogs = Blueprint("catalogs", __name__)


@lru_cache(maxsize=1)
def load_catalogs() -> dict[str, dict[str, str]]:
    """``{language: {key: text}}`` for every catalog (fuzzy and empty entries left out)."""
    out = {}
    for path in sorted(TRANSLATIONS.glob("*/LC_MESSAGES/messages.po")):
        language = path.parts[-3]
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=language)
        out[language] = {str(m.id): str(m.string) for m in catalog if m.id and m.string and not m.fuzzy}
    return out


def say(language: str, key: str, **params: object) -> str:
    """A catalog's words with their ``{placeholders}`` filled, as the pages' ``t()`` does (English when the
    language or the key is missing)."""
    words = load_catalogs()
    text = words.get(language, {}).get(key) or words["en"].get(key) or key
    return re.sub(r"\{(\w+)\}", lambda found: str(params.get(found.group(1), "")), text)


@catalogs.get("/i18n/catalogs.js")
def catalogs_script() -> Response:
    body = f"const CATALOGS = {json.dumps(load_catalogs(), ensure_ascii=False, sort_keys=True)};\n"
    return Response(body, mimetype="text/javascript", headers={"Cache-Control": "no-cache"})
