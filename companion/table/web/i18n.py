"""The pages' words on the web: the table's message catalogs (:mod:`companion.table.catalogs`) served to the pages
as one script, so the pages switch language without a reload."""

from __future__ import annotations

import json

from flask import Blueprint, Response

from companion.table.catalogs import TRANSLATIONS, load_catalogs, say

__all__ = ["TRANSLATIONS", "catalogs", "load_catalogs", "say"]

catalogs = Blueprint("catalogs", __name__)


@catalogs.get("/i18n/catalogs.js")
def catalogs_script() -> Response:
    body = f"const CATALOGS = {json.dumps(load_catalogs(), ensure_ascii=False, sort_keys=True)};\n"
    return Response(body, mimetype="text/javascript", headers={"Cache-Control": "no-cache"})
