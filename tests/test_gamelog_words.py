"""A log's refusals word for word (companion/gamelog.py): the replay command and the import page show these to
whoever wrote the log, so each must name the field, the value and the action. Mutation testing found that the
existing checks (tests/test_gamelog.py, by key words) let a value or a field name go missing unnoticed."""

import pytest

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
