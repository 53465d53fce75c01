"""Differences between the expected board and the camera's reading, in words."""

from companion.table.board_check import describe_place, differences


def test_the_issues_example_in_words():
    expected = {9: ["yellow", "red"], 3: ["green"]}
    seen = {8: ["red", "yellow"], 3: ["green"]}
    assert differences(expected, seen) == [
        "red should be on 9 on top of yellow; the camera sees it on 8 under yellow",
        "yellow should be on 9 under red; the camera sees it on 8 on top of red",
    ]


def test_same_board_no_differences_and_missing_or_strange_camels():
    board = {1: ["green", "red"], 5: ["blue"]}
    assert differences(board, {1: ["green", "red"], 5: ["blue"]}) == []
    assert differences(board, {1: ["green", "red"]}) == ["blue should be alone on 5; the camera does not see it"]
    assert differences({2: ["blue"]}, {2: ["blue"], 4: ["pink"]}) == [
        "the camera sees a pink camel that is not in this game"
    ]


def test_a_swapped_stack_is_reported_for_both_camels():
    found = differences({7: ["white", "purple"]}, {7: ["purple", "white"]})
    assert found == [
        "purple should be on 7 on top of white; the camera sees it on 7 under white",
        "white should be on 7 under purple; the camera sees it on 7 on top of purple",
    ]
    assert describe_place(4, 1, ["a", "b", "c"]) == "on 4 on top of a"


def test_differences_in_french_for_french_pages():
    expected = {9: ["yellow", "red"], 3: ["blue"]}
    seen = {8: ["red", "yellow"], 3: ["blue"], 12: ["pink"]}
    assert differences(expected, seen, "fr") == [
        "rouge devrait être sur la case 9, sur jaune ; la caméra le voit sur la case 8, sous jaune",
        "jaune devrait être sur la case 9, sous rouge ; la caméra le voit sur la case 8, sur rouge",
        "la caméra voit un chameau pink qui n'est pas dans cette partie",
    ]
