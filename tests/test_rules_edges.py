"""Rules-engine edges (companion/rules) that only the slow property tests watched, or none: what each player
may see of the face-down cards, how a leg's lines are worded, and the words of a refused setup. Found by
mutation testing with the quick tests alone."""

import pytest

from companion.rules import (
    EDITION_2018,
    FinishBet,
    LegBet,
    LegTicket,
    Partnership,
    PlaceTile,
    PyramidTicket,
    apply,
    move_camel,
    new_game,
    score_leg,
)
from companion.rules.errors import InvalidActionError, RuleError
from companion.rules.scoring import FinishCard
from companion.rules.track import Track
from companion.rules.view import HIDDEN, view_for

SETUP = {1: ("green", "red"), 3: ("yellow", "blue", "purple"), 14: ("black",), 16: ("white",)}


def with_cards():
    """Ann: red to win, Bob: green to win and blue to lose, Cy: yellow to lose."""
    state = new_game(EDITION_2018, ["Ann", "Bob", "Cy"], SETUP)
    for action in (FinishBet("Ann", "winner", "red"), FinishBet("Bob", "winner", "green"),
                   FinishBet("Cy", "loser", "yellow"), LegBet("Ann", "purple"), FinishBet("Bob", "loser", "blue")):
        state = apply(state, action)
    return state


def test_each_player_sees_their_own_cards_on_both_piles_and_only_owners_of_the_rest():
    state = with_cards()
    bob = view_for(state, "Bob")
    assert bob.winner_pile == (FinishCard("Ann", HIDDEN), FinishCard("Bob", "green"))
    assert bob.loser_pile == (FinishCard("Cy", HIDDEN), FinishCard("Bob", "blue"))
    table = view_for(state, None)
    assert [card.camel for card in table.winner_pile + table.loser_pile] == [HIDDEN] * 4
    assert [card.owner for card in table.winner_pile + table.loser_pile] == ["Ann", "Bob", "Cy", "Bob"]


def test_once_the_race_is_over_everyone_sees_every_card():
    state = with_cards().evolve(game_over=True)
    assert view_for(state, "Cy").winner_pile == (FinishCard("Ann", "red"), FinishCard("Bob", "green"))
    assert view_for(state, None).loser_pile == (FinishCard("Cy", "yellow"), FinishCard("Bob", "blue"))


def test_a_legs_lines_are_worded_by_where_the_camel_came():
    ranking = ["red", "green", "yellow", "blue", "purple"]
    tickets = [LegTicket("red", 5, "Ann"), LegTicket("green", 5, "Ann"), LegTicket("blue", 3, "Bob")]
    scoring = score_leg(EDITION_2018, 1, ["Ann", "Bob"], [3, 3], ranking, tickets, ["Bob"], [])
    ann, bob = scoring.scores
    assert [reward.describe() for reward in ann.rewards] == [
        "red leg ticket 5 (red first): +5", "green leg ticket 5 (green second): +1"]
    assert [reward.describe() for reward in bob.rewards] == [
        "blue leg ticket 3 (blue not first or second): -1", "pyramid ticket: +1"]
    assert bob.after == 3


@pytest.mark.parametrize(("setup", "words"), [
    ({1: ("green", "red"), 3: ("yellow", "blue", "purple"), 14: ("black",)}, "missing from the track: the white camel"),
    ({1: ("green", "red"), 3: ("yellow", "blue", "purple")}, "missing from the track: the black, white camels"),
])
def test_a_setup_missing_camels_names_them(setup, words):
    with pytest.raises(InvalidActionError) as refused:
        new_game(EDITION_2018, ["Ann", "Bob"], setup)
    assert str(refused.value) == words


def test_leaders_need_two_racing_camels():
    with pytest.raises(ValueError) as refused:
        Track.from_mapping({3: ("red", "black")}).leaders(EDITION_2018.racing_camels)
    assert str(refused.value) == "fewer than two racing camels on the track"


def refused(state, action) -> str:
    with pytest.raises(RuleError) as error:
        apply(state, action)
    return str(error.value)


def test_refused_bets_and_tiles_say_why_in_words():
    state = new_game(EDITION_2018, ["Ann", "Bob"], SETUP)
    assert refused(state, FinishBet("Ann", "winner", "black")) == \
        "the black camel is a crazy camel: nobody can bet on it (finish card)"
    six = new_game(EDITION_2018, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], SETUP)
    assert refused(six, Partnership("Ann", "Zed")) == "there is no player named 'Zed' in this game"
    placed = apply(state, PlaceTile("Ann", 7, "cheer"))
    placed = apply(placed, LegBet("Bob", "red"))
    assert refused(placed, PlaceTile("Ann", 7, "boo")) == (
        "your spectator tile is already on space 7: moving it needs a different space "
        "(the side cannot be flipped without moving)")


def test_each_players_tile_is_their_own_and_a_camel_twice_names_both_spaces():
    state = new_game(EDITION_2018, ["Ann", "Bob"], SETUP)
    state = apply(apply(state, PlaceTile("Ann", 7, "cheer")), PlaceTile("Bob", 10, "boo"))
    assert (state.tile_of("Bob").space, state.tile_of("Ann").space) == (10, 7)
    with pytest.raises(InvalidActionError) as error:
        new_game(EDITION_2018, ["Ann", "Bob"], {**SETUP, 5: ("red",)})
    assert str(error.value) == "the red camel is on the track twice (spaces 1 and 5)"


def test_a_crazy_camel_backwards_onto_space_1_has_not_crossed_any_line():
    setup = {2: ("green", "red"), 3: ("yellow", "blue", "purple"), 4: ("black",), 16: ("white",)}
    state = new_game(EDITION_2018, ["Ann", "Bob"], setup)
    after = apply(state, PyramidTicket("Ann", "grey", 3, "black"))  # black 4 → 1
    assert after.track.as_dict()[1] == ("black",) and not after.game_over
    assert after.last_movement.crossed_finish is False


def test_a_camel_landing_exactly_on_the_last_space_has_not_finished():
    setup = {1: ("green",), 2: ("yellow",), 3: ("blue", "purple"), 14: ("red",), 10: ("black",), 12: ("white",)}
    state = apply(new_game(EDITION_2018, ["Ann", "Bob"], setup), PyramidTicket("Ann", "red", 2, None))
    assert state.track.as_dict()[16] == ("red",) and not state.game_over


def test_moving_a_camel_that_is_not_on_the_track_names_it():
    with pytest.raises(KeyError) as missing:
        move_camel(Track.from_mapping({3: ("red",)}), "pink", 1, EDITION_2018)
    assert missing.value.args == ("pink",)
