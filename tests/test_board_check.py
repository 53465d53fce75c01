"""Differences between the expected board and the camera's reading, in words."""

from hypothesis import given, settings
from hypothesis import strategies as st

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


def test_a_swapped_stack_is_told_as_one_stack():
    found = differences({7: ["white", "purple"]}, {7: ["purple", "white"]})
    assert found == ["on 7 the stack should be white, purple (bottom first); the camera sees purple, white"]
    assert describe_place(4, 1, ["a", "b", "c"]) == "on 4 on top of a"


def test_a_stack_put_down_in_another_order_says_so_not_the_same_words_twice():
    """The review's board: yellow on top of red in both, only higher up; the sentence must say the order."""
    expected = {5: ["blue", "purple", "red", "yellow"], 9: ["green"]}
    seen = {5: ["red", "yellow", "blue", "purple"], 9: ["green"]}
    assert differences(expected, seen) == [
        "on 5 the stack should be blue, purple, red, yellow (bottom first); the camera sees red, yellow, blue, purple"
    ]
    assert differences(expected, seen, "fr") == [
        "sur la case 5, la pile devrait être bleu, violet, rouge, jaune (de bas en haut) ; "
        "la caméra voit rouge, jaune, bleu, violet"
    ]


def test_only_the_height_differs_under_a_camel_from_elsewhere():
    """green belongs on 9 but sits under the stack on 5: red's neighbour changes (its own sentence), yellow's does
    not (still on top of red, one higher): the stack is told instead of a sentence whose sides read the same."""
    found = differences({5: ["red", "yellow"], 9: ["green"]}, {5: ["green", "red", "yellow"]})
    assert found == [
        "green should be alone on 9; the camera sees it on 5 under red",
        "on 5 the stack should be red, yellow (bottom first); the camera sees green, red, yellow",
        "red should be on 5 under yellow; the camera sees it on 5 on top of green",
    ]


def test_differences_in_french_for_french_pages():
    expected = {9: ["yellow", "red"], 3: ["blue"]}
    seen = {8: ["red", "yellow"], 3: ["blue"], 12: ["pink"]}
    assert differences(expected, seen, "fr") == [
        "rouge devrait être sur la case 9, sur jaune ; la caméra le voit sur la case 8, sous jaune",
        "jaune devrait être sur la case 9, sous rouge ; la caméra le voit sur la case 8, sur rouge",
        "la caméra voit un chameau pink qui n'est pas dans cette partie",
    ]


CAMELS = ["blue", "green", "orange", "yellow", "white", "red", "purple", "black"]


def _track(draw, camels):
    track: dict[int, list[str]] = {}
    for camel in camels:
        track.setdefault(draw(st.integers(1, 6)), []).append(camel)
    return track


@st.composite
def two_tracks(draw):
    """A game's board and a camera's reading: the same camels shuffled over a few spaces, some unseen, maybe one
    stranger."""
    camels = draw(st.lists(st.sampled_from(CAMELS[:7]), min_size=1, max_size=7, unique=True))
    if draw(st.booleans()):  # the same spaces, each stack maybe put down in another order, maybe on a stranger
        expected = _track(draw, camels)
        seen = {space: list(draw(st.permutations(stack))) for space, stack in expected.items()}
        if draw(st.booleans()):
            seen[draw(st.sampled_from(sorted(seen)))].insert(0, "black")
        return expected, seen
    seen_camels = draw(st.permutations(camels))
    seen_camels = [c for c in seen_camels if draw(st.integers(0, 9)) > 0]
    if draw(st.booleans()):
        seen_camels.append("black")
    return _track(draw, camels), _track(draw, seen_camels)


@settings(max_examples=300, deadline=None)
@given(two_tracks(), st.sampled_from(["en", "fr"]))
def test_no_sentence_reads_the_same_on_both_sides_and_silence_means_the_same_board(tracks, language):
    expected, seen = tracks
    found = differences(expected, seen, language)
    separator = "; " if language == "en" else " ; "
    for sentence in found:
        should, _, camera = sentence.partition(separator)
        for lead in ("the stack should be ", "la pile devrait être ", "should be ", "devrait être "):
            should = should.split(lead, 1)[-1]
        for lead in ("the camera sees it ", "the camera sees ", "la caméra le voit ", "la caméra voit "):
            camera = camera.split(lead, 1)[-1]
        assert should.replace(" (bottom first)", "").replace(" (de bas en haut)", "") != camera, sentence
    same = {s: list(c) for s, c in expected.items() if c} == {s: list(c) for s, c in seen.items() if c}
    assert (found == []) == same
