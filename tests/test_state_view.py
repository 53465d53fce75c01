"""What the state JSON tells the pages, key by key, after a scene the rules make plain (companion/table/views.py).
The pages draw the board, the pyramid and the controls from these keys; mutation testing found that no quick
test read most of them, so a renamed or emptied key would only show in a browser."""

import pytest

from companion.table.live import Caller
from companion.table.views import viewer_json
from tests.test_web_api import act, create, state

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]  # six: the 2018 partnerships exist


@pytest.fixture
def scene(client):
    """Starting from tests.test_web_api's SETUP (1: green red | 3: yellow blue purple | 14: black | 16: white)."""
    game = create(client, players=PLAYERS)
    host = game["host_token"]
    for action in (
        {"player": "Ann", "type": "leg_bet", "camel": "red"},
        {"player": "Bob", "type": "pyramid", "die": "grey", "value": 2, "crazy": "black"},  # black 14 → 12
        {"player": "Cy", "type": "finish_bet", "pile": "winner", "camel": "blue"},
        {"player": "Dee", "type": "partnership", "with": "Eve"},
        {"player": "Eve", "type": "pyramid", "die": "yellow", "value": 3},  # yellow, blue, purple 3 → 6
    ):
        assert act(client, game, host, **action).status_code == 200
    return game


def test_the_public_part_says_what_is_on_the_table(client, scene):
    seen = state(client, scene, scene["table_token"])
    assert seen["dice_mode"] == "manual"
    assert seen["racing_camels"] == ["green", "yellow", "red", "blue", "purple"]
    assert seen["crazy_camels"] == ["black", "white"] and seen["tile_sides"] == ["cheer", "boo"]
    assert seen["pyramid_tickets"] == {"Ann": 0, "Bob": 1, "Cy": 0, "Dee": 0, "Eve": 1, "Fay": 0}
    assert seen["pyramid_tickets_left"] == 3 and seen["dice_in_pyramid"] == 4  # five tickets a leg, six dice
    assert seen["dice_out"] == [{"die": "grey", "value": 2, "crazy": "black", "camel": "black"},
                                {"die": "yellow", "value": 3, "crazy": None, "camel": "yellow"}]
    assert seen["piles"] == {"winner": 1, "loser": 0}  # how many cards, never which camel
    assert seen["partnerships"] == [["Dee", "Eve"]]
    assert seen["track"] == {"1": ["green", "red"], "6": ["yellow", "blue", "purple"], "12": ["black"],
                             "16": ["white"]}
    assert seen["last_move"] == "Move yellow 3 (carrying blue, purple): space 6"
    assert seen["last_movement"] == {"camel": "yellow", "steps": 3, "carried": ["blue", "purple"], "tile": None,
                                     "end": 6, "on": None, "under": None, "crossed": False}
    assert seen["you"] is None and "legal" not in seen  # the table screen acts for no one


def test_before_any_move_there_is_no_last_move(client):
    game = create(client)
    seen = state(client, game, game["host_token"])
    assert seen["last_move"] is None and seen["last_movement"] is None and seen["dice_out"] == []


def test_the_player_to_act_gets_their_hand_and_the_host_only_its_size(client, scene):
    fay = state(client, scene, scene["seat"]["Fay"])  # Fay is to act, after Eve
    assert fay["you"]["player"] == "Fay" and sorted(fay["you"]["finish_cards"]) == sorted(
        ["green", "yellow", "red", "blue", "purple"])
    assert fay["legal"]["player"] == "Fay" and sorted(fay["legal"]["finish_cards"]) == sorted(
        fay["you"]["finish_cards"])
    assert fay["legal"]["partners"] == ["Ann", "Bob", "Cy"]  # Dee and Eve are partners already
    assert fay["legal"]["dice"] == ["green", "red", "blue", "purple"]  # yellow and grey are out
    assert {bet["camel"]: bet["value"] for bet in fay["legal"]["leg_bets"]}["red"] == 3  # Ann took red's 5
    host = state(client, scene, scene["host_token"])
    assert host["legal"]["player"] == "Fay" and host["legal"]["finish_cards"] == 5 and host["you"] is None
    cy = state(client, scene, scene["seat"]["Cy"])
    assert cy["you"]["played"] == [{"pile": "winner", "camel": "blue"}] and "legal" not in cy
    assert "blue" not in cy["you"]["finish_cards"]


def test_only_a_seat_caller_ever_sees_a_hand_whatever_name_it_carries(client, scene):
    live = client.application.extensions["camelup"].game(scene["game_id"])
    _, game_state = live.snapshot
    for role in ("host", "table"):
        part = viewer_json(game_state, Caller(role, "Fay"))  # a caller that names Fay but is not her seat
        assert part["you"] is None
        assert part.get("legal", {}).get("finish_cards", 5) == 5  # a count at most, never the cards
    assert viewer_json(game_state, Caller("seat", "Fay"))["you"]["player"] == "Fay"


def test_a_legs_and_the_races_scoring_are_told_line_by_line(client):
    setup = {"track": {"1": ["green"], "2": ["yellow"], "3": ["blue", "purple"], "5": ["white"], "10": ["black"],
                       "14": ["red"]}}
    game = create(client, players=["Ann", "Bob"], setup=setup)
    host = game["host_token"]

    def play(**action):
        assert act(client, game, host, **action).status_code == 200

    play(player="Ann", type="leg_bet", camel="red")
    play(player="Bob", type="pyramid", die="green", value=1)
    seen = state(client, game, host)
    assert seen["last_move"] == "Move green 1: space 2, on top of yellow"  # the track after the move says on what
    assert seen["last_movement"]["on"] == "yellow" and seen["leg_scoring"] is None
    play(player="Ann", type="finish_bet", pile="winner", camel="red")
    play(player="Bob", type="finish_bet", pile="loser", camel="yellow")
    for player, die in (("Ann", "yellow"), ("Bob", "blue"), ("Ann", "purple")):
        play(player=player, type="pyramid", die=die, value=1)
    play(player="Bob", type="pyramid", die="grey", value=1, crazy="white")  # the fifth die: the leg ends
    leg = state(client, game, host)["leg_scoring"]
    assert leg["leg"] == 1 and leg["ranking"] == ["red", "green", "yellow", "purple", "blue"]
    ann, bob = leg["players"]
    assert ann["player"] == "Ann" and ann["amounts"] == [5, 1, 1] and ann["explain"] == "5 + 1 + 1 = 7"
    assert ann["lines"][0] == "red leg ticket 5 (red first): +5" and (ann["before"], ann["after"]) == (3, 10)
    assert bob["amounts"] == [1, 1, 1] and (bob["before"], bob["after"]) == (3, 6)
    assert state(client, game, host)["race_scoring"] is None
    play(player="Ann", type="pyramid", die="red", value=3)  # red 14 → across the line
    race = state(client, game, game["seat"]["Bob"])["race_scoring"]  # everyone sees the reveal
    assert (race["winner"], race["loser"], race["winners"]) == ("red", "blue", ["Ann"])
    assert race["cards"] == [
        {"pile": "winner", "owner": "Ann", "camel": "red", "right": True, "amount": 8, "before": 11, "after": 19},
        {"pile": "loser", "owner": "Bob", "camel": "yellow", "right": False, "amount": -1, "before": 6, "after": 5},
    ]
    assert race["final_money"] == {"Ann": 19, "Bob": 5}


def test_a_seat_sees_where_its_own_cards_lie_on_both_piles_and_the_bets_it_may_make(client):
    game = create(client, players=["Ann", "Bob"])
    for pile, camel in (("loser", "green"), ("winner", "red")):
        for player in ("Ann", "Bob"):
            chosen = camel if player == "Ann" else "blue" if pile == "loser" else "yellow"
            assert act(client, game, game["seat"][player], type="finish_bet", pile=pile, camel=chosen
                       ).status_code == 200
    ann = state(client, game, game["seat"]["Ann"])
    assert ann["you"]["played"] == [{"pile": "winner", "camel": "red"}, {"pile": "loser", "camel": "green"}]
    assert {bet["camel"]: bet["value"] for bet in ann["legal"]["leg_bets"]} == {
        "green": 5, "yellow": 5, "red": 5, "blue": 5, "purple": 5}
    assert [2, "cheer"] in ann["legal"]["tile_spots"] and [1, "cheer"] not in ann["legal"]["tile_spots"]
