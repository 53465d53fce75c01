"""The message catalogs: English and French hold the same keys with the same placeholders, and every key
the pages ask for is in them (a missing key would show the key itself on the page)."""

import re
from pathlib import Path

from companion.table.web import create_app
from companion.table.web.i18n import load_catalogs

WEB = Path(__file__).resolve().parents[1] / "companion" / "table" / "web"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_english_and_french_have_the_same_keys_and_placeholders():
    catalogs = load_catalogs()
    assert set(catalogs) >= {"en", "fr"}
    assert set(catalogs["en"]) == set(catalogs["fr"])
    for key, english in catalogs["en"].items():
        assert set(PLACEHOLDER.findall(english)) == set(PLACEHOLDER.findall(catalogs["fr"][key])), key


def test_every_key_the_pages_use_is_in_the_catalogs():
    used = set()
    for script in (WEB / "static").glob("*.js"):
        used |= set(re.findall(r'\bt\("([^"]+)"', script.read_text()))
        used |= set(re.findall(r'"([a-z_]+_(?:pile_short|are|player))"', script.read_text()))
    for template in (WEB / "templates").glob("*.html"):
        text = template.read_text()
        used |= set(re.findall(r'data-t(?:-title|-placeholder|-label)?="([^"{]+)"', text))
        used |= set(re.findall(r"\{% block title_key %\}(\w+)", text))
    used |= {f"refusal.{code}" for code in ("NotYourTurnError", "NoTicketLeftError", "TilePlacementError",
                                             "DieNotInPyramidError", "FinishCardError", "PartnershipError",
                                             "RaceOverError", "InvalidActionError")}
    missing = sorted(used - set(load_catalogs()["en"]))
    assert missing == []


def test_the_rules_refusals_each_have_words(tmp_path):
    from companion.rules import errors

    codes = {cls.code for cls in vars(errors).values() if isinstance(cls, type) and issubclass(cls, errors.RuleError)}
    codes.discard("RuleError")
    assert {f"refusal.{code}" for code in codes} <= set(load_catalogs()["fr"])


def test_the_catalogs_are_served_as_a_script(tmp_path):
    client = create_app(tmp_path, testing=True).test_client()
    response = client.get("/i18n/catalogs.js")
    assert response.mimetype == "text/javascript"
    assert '"your_turn": "À vous de jouer"' in response.get_data(as_text=True)
