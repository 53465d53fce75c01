"""The table's words: gettext message catalogs (``translations/<language>/LC_MESSAGES/messages.po``), read with
Babel once and shared by everything that speaks to the players: the pages (served by
:mod:`companion.table.web.i18n`) and the camera's reports, which say their findings in the page's language.
Message ids are stable keys; the English catalog holds the English words."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from babel.messages.pofile import read_po

TRANSLATIONS = Path(__file__).parent / "translations"


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
