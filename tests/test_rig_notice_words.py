"""The pyramid's own notices ("put red back into the pyramid", "leg over") reach the players in their language:
the rig (firmware_py, which knows nothing of the companion) gives a catalog key and its params, the dice as colour
ids; the companion's pages say them through the message catalogs, colour names included."""


import pytest
from babel.lists import format_list
from babel.numbers import format_decimal
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.table.pyramid_source import RigPyramid
from companion.table.web import create_app
from companion.table.web.i18n import say
from tests.test_rig import make_rig, press

HOLD = {"button": {"lockout": 0.0, "hold_time": 1.5, "refill_hold_time": 2.5}, "servo": {"move_time": 0.0}}


def said(language, words):
    """The notice as the pages' pyramidNoticeText says it: a list of dice is their colours' names, joined as the
    language joins a list, and a number is written as the language writes it (the browser's Intl and Babel read
    the same CLDR data)."""

    def shown(value):
        if isinstance(value, list):
            return format_list([say(language, f"camel.{die}") for die in value], locale=language)
        return format_decimal(value, locale=language) if isinstance(value, float | int) else value

    return say(language, words["key"], **{name: shown(value) for name, value in words["params"].items()})


@pytest.fixture
def rig():
    factory = MockFactory(pin_class=MockPWMPin)
    made, _, config = make_rig(factory, HOLD)
    made.press_button = lambda: press(factory, config, made)
    yield made
    made.close()


def test_a_ready_rig_has_no_notice_and_no_words(rig):
    status = rig.status()
    assert status["state"] == "ready" and status["notice"] is None and status["notice_words"] is None


def test_leg_over_gives_its_key_and_the_configured_hold_time(rig):
    for _ in range(5):
        rig.press_button()
    status = rig.status()
    assert status["state"] == "leg over"
    assert status["notice_words"] == {"key": "rig.leg_over", "params": {"hold": 2.5}}
    assert said("en", status["notice_words"]) == status["notice"]
    assert said("fr", status["notice_words"]) == ("Fin de la manche : remettez les dés dans la pyramide et maintenez "
                                                  "son bouton enfoncé 2,5 s.")


def test_one_die_to_put_back_is_given_as_its_colour_id(rig):
    rig.press_button()
    rig.press_button()
    last = rig.pyramid.last.die
    rig.undo()
    rig.wait_idle()
    status = rig.status()
    assert status["notice_words"] == {"key": "rig.put_back_one", "params": {"dice": [last], "hold": 2.5}}
    assert said("en", status["notice_words"]) == status["notice"]
    french = said("fr", status["notice_words"])
    assert french == (f"Remettez le dé {say('fr', f'camel.{last}')} dans la pyramide, puis maintenez son bouton "
                      "enfoncé 2,5 s."), french


def test_several_dice_to_put_back_are_listed_in_the_order_the_rig_asks_for_them(rig):
    for _ in range(3):
        rig.press_button()
    drawn = [draw.die for draw in rig.pyramid.drawn]
    rig.reconcile(rig.pyramid.leg, [])  # the game has them all inside: the three in the tray go back
    rig.wait_idle()
    status = rig.status()
    assert status["state"] == "put back" and sorted(status["put_back"]) == sorted(drawn)
    words = status["notice_words"]
    assert words["key"] == "rig.put_back" and words["params"]["dice"] == status["put_back"]
    assert all(" " not in die for die in words["params"]["dice"])  # ids, not "blue and red"
    french = said("fr", words)
    names = [say("fr", f"camel.{die}") for die in status["put_back"]]
    assert french.startswith(f"Remettez les dés {names[0]}, {names[1]} et {names[2]} dans la pyramide"), french
    assert not {"blue", "red", "green", "yellow", "white", "and"} & set(french.replace(",", "").split())


def test_the_companion_passes_the_rig_s_words_to_the_pages(rig):
    for _ in range(5):
        rig.press_button()
    assert RigPyramid(rig).status()["notice_words"] == {"key": "rig.leg_over", "params": {"hold": 2.5}}


def test_the_french_table_screen_says_the_dice_to_put_back_in_french(rig, tmp_path, browser):
    from playwright.sync_api import expect

    from tests.browser_kit import SHOTS, new_page, served

    app = create_app(tmp_path / "data", RigPyramid(rig), "http://t", testing=True)
    with served(app) as port:
        client = app.test_client()
        created = {"edition": "2018", "players": ["Ann", "Bob"], "dice": "pyramid"}
        game = client.post("/api/games", json=created).get_json()
        for _ in range(2):
            rig.press_button()  # the rig's button: each draw is the game's
        rig.wait_idle()
        for _ in range(2):  # the host takes both back: both dice lie in the tray and must go back
            assert client.post(f"/api/games/{game['game_id']}/undo",
                               headers={"Authorization": f"Bearer {game['host_token']}"}).status_code == 200
            for _ in range(3):
                rig.wait_idle()
        status = rig.status()
        assert len(status["put_back"]) == 2, status
        first, second = (say("fr", f"camel.{die}") for die in status["put_back"])
        errors: list[str] = []
        pages = {}
        for lang, viewport in (("fr", {"width": 1920, "height": 1080}), ("en", {"width": 1920, "height": 1080})):
            pages[lang] = new_page(browser, errors, "table", lang, viewport=viewport)
            pages[lang].goto(f"http://127.0.0.1:{port}/table/{game['game_id']}#{game['table_token']}")
        expect(pages["fr"].locator("#pyramid-notice")).to_have_text(
            f"Remettez les dés {first} et {second} dans la pyramide, puis maintenez son bouton enfoncé 2,5 s.")
        expect(pages["en"].locator("#pyramid-notice")).to_have_text(status["notice"])
        pages["fr"].screenshot(path=str(SHOTS / "rig-notice-put-back-table-fr.png"))
        host = new_page(browser, errors, "host", "fr", viewport={"width": 390, "height": 844}, is_mobile=True,
                        has_touch=True)
        host.goto(f"http://127.0.0.1:{port}/host/{game['game_id']}#{game['host_token']}")
        expect(host.locator("#pyramid-notice")).to_contain_text(f"Remettez les dés {first} et {second}")
        # A draw asked for meanwhile is refused in French too (not "Action refusée", which says nothing).
        host.get_by_role("button", name="Tirer un dé").click()
        expect(host.locator("#toast")).to_contain_text(
            "La pyramide n'est pas prête : faites ce que dit son message sur l'écran de table, puis tirez de nouveau")
        host.screenshot(path=str(SHOTS / "rig-notice-put-back-host-fr.png"), full_page=True)
        assert errors == []
