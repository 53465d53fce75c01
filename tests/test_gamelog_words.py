"""A log's refusals word for word (companion/gamelog.py): the replay command and the import page show these to
whoever wrote the log, so each must name the field, the value and the action. Mutation testing found that the
existing checks (tests/test_gamelog.py, by key words) let a value or a field name go missing unnoticed."""

import pytest

from companion.gamelog import parse_log
from tests.test_gamelog import SPEC_EXAMPLE, refusal, with_changes

ANN = {"player": "Ann"}


@pytest.mark.parametrize(
    ("log", "index", "message"),
    [
        ("a log", 0, "a game log must be a JSON object"),
        (with_changes(format="camelup/2"), 0, "'format' must be \"camelup-game-log/1\", not \"camelup/2\""),
        (with_changes(setup={"track": {"x": ["red"]}}), 0,
         "setup track space \"x\" must be a space number such as \"1\""),
        (with_changes(setup={"track": {"01": ["red"]}}), 0,
         "setup track space \"01\" must be a space number such as \"1\""),
        (with_changes(actions=[{**ANN, "type": "leg_bet", "camel": 5}]), 1, "'camel' must be a text, not 5"),
        (with_changes(actions=[{**ANN, "type": "leg_bet"}]), 1, "a leg_bet action needs 'camel'"),
        (with_changes(actions=[{**ANN, "type": "pyramid", "value": 1}]), 1, "a pyramid action needs 'die'"),
        (with_changes(actions=[{**ANN, "type": "pyramid", "die": "red", "value": True}]), 1,
         "'value' must be a whole number, not true"),
        (with_changes(setup=[]), 0,
         "'setup' must be an object with a 'track' object (space number to stack, bottom first)"),
        (with_changes(setup={"track": {"1": "red"}}), 0,
         "setup track space 1 must list camel names, bottom first, not \"red\""),
        (with_changes(edition="2020"), 0, "'edition' must be one of \"2014\", \"2018\", not \"2020\""),
        (with_changes(players="Ann"), 0, "'players' must be a list of player names in seating order"),
        ({k: v for k, v in SPEC_EXAMPLE.items() if k != "setup"}, 0, "the log has no 'setup'"),
        (with_changes(actions={}), 0, "'actions' must be a list of action objects"),
        (with_changes(actions=[{**ANN, "type": "dance"}]), 1,
         "unknown action type \"dance\" (expected one of leg_bet, spectator, pyramid, finish_bet, partnership)"),
        (with_changes(actions=[{**ANN, "type": "finish_bet", "camel": "red"}]), 1, "a finish_bet action needs 'pile'"),
        (with_changes(actions=[{**ANN, "type": "partnership"}]), 1, "a partnership action needs 'with'"),
        (with_changes(actions=[{**ANN, "type": "spectator", "side": "cheer"}]), 1, "a spectator action needs 'space'"),
        (with_changes(actions=[{**ANN, "type": "spectator", "space": 7}]), 1, "a spectator action needs 'side'"),
        (with_changes(actions=[{**ANN, "type": "pyramid", "die": "grey", "value": 1, "crazy": 2}]), 1,
         "'crazy' must be a text, not 2"),
    ],
)
def test_a_refused_log_says_exactly_what_and_where(log, index, message):
    error = refusal(log)
    assert (error.action, error.message) == (index, message)
    assert error.as_json() == {"error": message, "action": index}


def test_a_three_digit_space_is_read_as_a_number_and_refused_by_the_rules_not_the_format():
    log = with_changes(setup={"track": {**SPEC_EXAMPLE["setup"]["track"], "100": ["white"], "16": []}})
    message = refusal(log).message
    assert message == "space 100 is not on the track (1 to 16)"


def test_a_log_without_actions_is_a_game_not_yet_begun():
    log = {k: v for k, v in SPEC_EXAMPLE.items() if k != "actions"}
    assert parse_log(log).actions == () and parse_log(log).replay().current_player == "Ann"


@pytest.mark.parametrize(("action", "message"), [
    (["leg_bet"], "an action must be a JSON object, not [\"leg_bet\"]"),
    ({"type": "leg_bet", "camel": "red"}, "a leg_bet action needs 'player'"),
    ({**ANN, "type": "pyramid", "die": "red"}, "a pyramid action needs 'value'"),
    ({**ANN, "type": "pyramid", "die": "grey", "value": 1, "crazy": "pink"},
     "the grey die's number is black or white, not 'pink'"),
])
def test_a_refused_action_says_exactly_what(action, message):
    error = refusal(with_changes(actions=[action]))
    assert (error.action, error.message) == (1, message)
