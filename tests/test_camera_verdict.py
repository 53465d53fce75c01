"""The camera's verdict on a game's board when the picture cannot tell: only what is really in doubt is left
unseen (a hand over one stack leaves the rest of the board in plain view), and no correction is offered on a
guess."""

import json
from types import SimpleNamespace

import pytest

from companion.gamelog import loads
from companion.table.board_hypotheses import Hypothesis, board_hypotheses
from companion.table.camera_read import Expectation, read_picture
from companion.table.camera_verdict import camera_verdict
from companion.table.correction import Amendment
from tests.test_vision_verify import LOG as TWO_DRAWS
from vision.board import load_template
from vision.calibrate import calibrate
from vision.photo import make_table, render_calibration, render_scene
from vision.read import ReadConfig
from vision.synth import EDITION_CAMELS
from vision.verify import Verdict, VerifyConfig

CAMELS = ["blue", "green", "yellow", "red", "purple", "black", "white"]


def fake_scorer(verdict, covered=(), scores=None):
    """A scorer whose judgement is ``verdict`` (the picture's part is not what these tests are about), which
    sees the spaces ``covered`` covered (a hand, the pyramid over them) and each camel fitting where a board puts
    it by ``scores`` (camel -> score; 0.5, plainly seen, for the others)."""
    scores = scores or {}
    return SimpleNamespace(verify=VerifyConfig(), judge=lambda tracks, priors: verdict, track_cost=lambda t: 0.0,
                           space_costs=lambda track: dict.fromkeys(range(1, 17), 0.0),
                           covered=lambda track, space: space in covered,
                           camel_score=lambda track, camel: scores.get(camel, 0.5),
                           spaces=list(range(1, 17)), template=load_template("2018"))


def test_a_matching_board_with_a_covered_stack_cannot_tell_its_camels():
    # The pyramid stands over space 5: the game's board explains the picture best, but the camels on 5 are not
    # seen there: they are unseen, the rest agree, and the answer names the hidden space.
    expected = {2: ["red"], 5: ["green", "yellow"], 9: ["purple"]}
    hypotheses = [Hypothesis(expected, "the game's board"), Hypothesis({**expected, 5: ["yellow", "green"]}, "swap")]
    found = camera_verdict(fake_scorer(Verdict("matches", 0, 0.8, (), (), [0.0, 0.8]), covered={5}), hypotheses,
                           {}, (), CAMELS)
    assert found.matches is None and found.answer == "cannot tell (space 5 hidden)"
    assert found.unseen == ("green", "yellow") and found.unclear == (5,)
    assert found.track == {2: ["red"], 9: ["purple"]} and "correction" not in found.as_json()
    plain = camera_verdict(fake_scorer(Verdict("matches", 0, 0.8, (), (), [0.0, 0.8])), hypotheses, {}, (), CAMELS)
    assert plain.matches is True and plain.unseen == () and plain.track == expected


def test_a_swap_in_a_covered_stack_leaves_only_those_two_unseen():
    expected = {2: ["red"], 5: ["green", "yellow", "blue"], 9: ["purple"], 12: ["black", "white"]}
    swapped = {**expected, 5: ["green", "blue", "yellow"]}
    hypotheses = [Hypothesis(expected, "the game's board"), Hypothesis(swapped, "yellow and blue swapped on 5")]
    found = camera_verdict(fake_scorer(Verdict("cannot tell", 0, 0.1, (5,), (1,), [0.0, 0.1])), hypotheses, {}, (),
                           CAMELS)
    assert found.answer == "cannot tell (space 5 not clear enough)"
    assert found.unseen == ("blue", "yellow") and found.matches is None
    # The camel under them and every camel elsewhere are seen where they stand.
    assert found.track == {2: ["red"], 5: ["green"], 9: ["purple"], 12: ["black", "white"]}
    assert "correction" not in found.as_json()


def test_a_camel_set_one_space_off_leaves_the_stack_it_would_join_seen():
    expected = {4: ["red"], 5: ["green", "yellow"], 9: ["purple"]}
    on_top = {5: ["green", "yellow", "red"], 9: ["purple"]}  # red set on top: green and yellow keep their places
    under = {5: ["red", "green", "yellow"], 9: ["purple"]}  # red set under: green and yellow one level up
    hypotheses = [Hypothesis(expected, "the game's board"), Hypothesis(on_top, "red on 5"), Hypothesis(under, "red")]
    found = camera_verdict(fake_scorer(Verdict("cannot tell", 0, 0.2, (4, 5), (1,), [0.0, 0.2, 9.0])),
                           hypotheses, {}, (), CAMELS)
    assert found.unseen == ("red",) and found.track == {5: ["green", "yellow"], 9: ["purple"]}
    assert found.answer == "cannot tell (spaces 4, 5 not clear enough)" and found.matches is None
    both = camera_verdict(fake_scorer(Verdict("cannot tell", 0, 0.2, (4, 5), (1, 2), [0.0, 0.2, 0.3])),
                          hypotheses, {}, (), CAMELS)
    assert both.unseen == ("green", "yellow", "red") and both.track == {9: ["purple"]}


def test_cannot_tell_names_a_rival_s_space_only_where_the_picture_cannot_tell_its_stack():
    # Green on 7 is under a hand (7 covered); close rivals put it on 6 (under the hand too), on 8 (a bare space in
    # plain view: green there costs 0.55, what a camel on a bare board costs) or on 9 (which shows about as well
    # with green as without: a shadow of its colour). 8 is clear: players need not look there.
    expected = {7: ["green"], 12: ["black"]}
    cost_of_green = {6: 0.35, 7: 0.35, 8: 0.55, 9: 0.1}

    def space_costs(track):
        return {space: sum(cost_of_green.get(space, 0.0) for camel in track.get(space, ()) if camel == "green")
                for space in range(1, 17)}

    scorer = SimpleNamespace(**{**vars(fake_scorer(Verdict("cannot tell", 0, 0.1, (6, 7, 8, 9), (1, 2, 3),
                                                           [0.0, 0.1, 0.1, 0.1]))),
                                "space_costs": space_costs,
                                "covered": lambda track, space: space in (6, 7) and bool(track.get(space))})
    rivals = [Hypothesis({**{12: ["black"]}, space: ["green"]}, f"green on {space}") for space in (6, 8, 9)]
    found = camera_verdict(scorer, [Hypothesis(expected, "the game's board"), *rivals], {}, (), CAMELS)
    assert found.unclear == (6, 7, 9) and found.unseen == ("green",)
    assert found.answer == "cannot tell (spaces 6, 7, 9 not clear enough)"
    assert found.track == {12: ["black"]}


def test_a_wrong_log_the_picture_cannot_settle_gets_no_correction():
    # The picture shows a board that differs from the game's, but two die entries explain it about as well:
    # they differ only in where red stands, under a hand. Red is unseen, the rest agrees with the game (so
    # "matches" is null, as when a camel is hidden), and no correction is offered: either could be wrong.
    expected = {3: ["red"], 7: ["green", "yellow"], 12: ["purple"]}
    first = {6: ["red"], 7: ["green", "yellow"], 12: ["purple"]}
    second = {5: ["red"], 7: ["green", "yellow"], 12: ["purple"]}
    was = {"player": "Ann", "type": "pyramid", "die": "red", "value": 1}
    hypotheses = [
        Hypothesis(expected, "the game's board"),
        Hypothesis(first, "Ann's pyramid ticket: red 1 → red 3", Amendment(0, was, {**was, "value": 3})),
        Hypothesis(second, "Ann's pyramid ticket: red 1 → red 2", Amendment(0, was, {**was, "value": 2})),
    ]
    found = camera_verdict(fake_scorer(Verdict("cannot tell", 1, 0.1, (5, 6), (2,), [2.0, 0.0, 0.1])),
                           hypotheses, {}, (), CAMELS)
    assert found.matches is None and found.unseen == ("red",)
    assert found.track == {7: ["green", "yellow"], 12: ["purple"]}
    out = found.as_json()
    assert "correction" not in out and "most_likely" not in out
    assert out["verdict"] == "cannot tell (spaces 5, 6 not clear enough)" and out["unclear"] == [5, 6]
    assert out["differences"] == ["red should be alone on 3; the camera does not see it"]


def test_a_difference_seen_outside_the_unclear_spaces_is_named_without_a_correction():
    # Both close entries move purple from 12 to 14 in plain view; they differ only in red, under a hand.
    expected = {3: ["red"], 7: ["green"], 12: ["purple"]}
    was = {"player": "Ann", "type": "pyramid", "die": "purple", "value": 1}
    first = {4: ["red"], 7: ["green"], 14: ["purple"]}
    second = {3: ["red"], 7: ["green"], 14: ["purple"]}
    hypotheses = [
        Hypothesis(expected, "the game's board"),
        Hypothesis(first, "purple 3 and red 1", Amendment(0, was, {**was, "value": 3})),
        Hypothesis(second, "Ann's pyramid ticket: purple 1 → purple 3", Amendment(0, was, {**was, "value": 2})),
    ]
    found = camera_verdict(fake_scorer(Verdict("cannot tell", 1, 0.1, (3, 4), (2,), [2.0, 0.0, 0.1])),
                           hypotheses, {}, (), CAMELS)
    assert found.matches is False and found.unseen == ("red",)
    assert found.track == {7: ["green"], 14: ["purple"]}
    out = found.as_json()
    assert "correction" not in out and out["most_likely"] == "purple 3 and red 1"
    assert "purple should be alone on 12; the camera sees it alone on 14" in out["differences"]


def test_a_camel_every_rival_leaves_behind_is_seen_only_where_the_picture_shows_it():
    # The latest draw moved green from 3 onto the stack on 5, under an arm now. Every other draw the log could
    # have had leaves green on 3, so the close rivals agree on it there: but the picture shows nothing of green on
    # 3 (it fits there worse than no camel), so no difference is claimed about it (independent renderer, seed
    # 98: a matching board answered "matches": false).
    expected = {5: ["orange", "blue", "yellow", "green"], 13: ["white"]}
    was = {"player": "Ann", "type": "pyramid", "die": "green", "value": 2}
    first = {3: ["green"], 8: ["orange", "blue", "yellow"], 13: ["white"]}
    second = {3: ["green"], 7: ["orange", "blue", "yellow"], 13: ["white"]}
    hypotheses = [
        Hypothesis(expected, "the game's board"),
        Hypothesis(first, "Ann's pyramid ticket: green 2 → orange 3", Amendment(0, was, {**was, "die": "orange",
                                                                                          "value": 3})),
        Hypothesis(second, "Ann's pyramid ticket: green 2 → orange 2", Amendment(0, was, {**was, "die": "orange"})),
    ]
    verdict = Verdict("cannot tell", 1, 0.39, (7, 8), (2,), [0.76, -0.17, 0.23])
    unseen_there = camera_verdict(fake_scorer(verdict, covered={5}, scores={"green": -0.25}), hypotheses, {}, (),
                                  CAMELS)
    assert unseen_there.matches is None and "green" in unseen_there.unseen
    assert unseen_there.track == {13: ["white"]}
    # Where the picture does show green on 3, the difference is claimed (no correction: the rivals differ).
    seen_there = camera_verdict(fake_scorer(verdict, covered={5}, scores={"green": 0.4}), hypotheses, {}, (),
                                CAMELS)
    assert seen_there.matches is False and seen_there.track == {3: ["green"], 13: ["white"]}
    assert "green should be on 5 on top of yellow; the camera sees it alone on 3" in seen_there.differences


# A real picture: a 2018 table (vision.photo, the bench's independent renderer) with the pyramid and the palm
# tree on the board, and an arm reaching over white on space 15; the pyramid hides red on 3.
LOG = {
    "format": "camelup-game-log/1",
    "edition": "2018",
    "players": ["Ann", "Bob", "Cy"],
    "setup": {"track": {"1": ["blue", "red", "purple"], "3": ["yellow", "green"], "14": ["black"], "15": ["white"]}},
    "actions": [
        {"player": "Ann", "type": "pyramid", "die": "green", "value": 1},
        {"player": "Bob", "type": "pyramid", "die": "red", "value": 1},
        {"player": "Cy", "type": "pyramid", "die": "blue", "value": 3},
        {"player": "Ann", "type": "pyramid", "die": "yellow", "value": 3},
        {"player": "Bob", "type": "pyramid", "die": "grey", "value": 2, "crazy": "black"},
        {"player": "Cy", "type": "pyramid", "die": "blue", "value": 1},
        {"player": "Ann", "type": "pyramid", "die": "green", "value": 3},
        {"player": "Bob", "type": "pyramid", "die": "purple", "value": 3},
        {"player": "Cy", "type": "pyramid", "die": "yellow", "value": 1},
        {"player": "Ann", "type": "pyramid", "die": "red", "value": 1},
    ],
}
EXPECTED = {3: ["red"], 5: ["blue", "purple"], 7: ["green", "yellow"], 12: ["black"], 15: ["white"]}
HAND_OVER = 15
SCENE_SEED = 1392867200


@pytest.fixture(scope="module")
def table():
    """The table, calibrated from one calibration photo as the README says, and the log's expectation."""
    table = make_table(7015, "2018")
    photo, _ = render_calibration(table, 0, "light")
    found = calibrate(ReadConfig(), table.template, list(EDITION_CAMELS["2018"]), photo)
    log = loads(json.dumps(LOG))
    expectation = Expectation("2018", log.start(), list(log.actions))
    return table, found, found.location((photo.shape[1], photo.shape[0])), expectation


def read_scene(table, track):
    table, found, near, expectation = table
    image, truth = render_scene(table, track, SCENE_SEED, "props", hand=True)
    assert truth["hand_over_space"] == HAND_OVER
    return read_picture(image, found.template, found.profiles, found.board_bgr, expectation, near=near), truth


def test_a_hand_over_one_stack_leaves_the_camels_in_plain_view_seen(table):
    out, truth = read_scene(table, EXPECTED)
    assert out["expected"] == {str(space): stack for space, stack in EXPECTED.items()}
    assert out["matches"] is not False, out
    hidden = {camel for camel, seen in truth["camels"].items() if seen["visible"] < 0.5}
    assert hidden == {"red"}
    # Only camels under the hand or really hidden are left unseen (blue and purple on 5 stand in plain
    # view: the hand's doubt about white is no doubt about them) ...
    assert all(camel in hidden or camel in EXPECTED[HAND_OVER] for camel in out["unseen"]), out
    # ... and every camel in plain view elsewhere is seen where it stands.
    for space, stack in EXPECTED.items():
        for level, camel in enumerate(stack):
            if space != HAND_OVER and truth["camels"][camel]["visible"] > 0.9:
                assert out["track"][str(space)][level] == camel, out


def test_a_wrong_log_with_a_hand_over_one_stack_is_never_corrected_wrongly(table):
    # The board the picture shows had Ann's last draw come out as grey 1 (white number): white moved back
    # from under the hand, red stayed behind the pyramid.
    hypotheses = board_hypotheses(table[3].start, table[3].actions)
    shown = next(h for h in hypotheses if h.why == "Ann's pyramid ticket: red 1 → grey 1 (white number)")
    out, _ = read_scene(table, shown.track)
    assert out["matches"] is not True, out
    if "correction" in out:
        assert out["correction"]["becomes"] == shown.amendment.becomes, out
        assert out["verdict"] == f"differs: most likely {shown.why}"


def test_cannot_tell_names_only_the_spaces_the_picture_does_not_show(table):
    # An arm lies over space 7 and hides green and yellow there (a light table, no pyramid). The close rivals
    # put yellow 1 or 2 spaces further, on 8 or 9: bare spaces in plain view. Only 7 is not clear: naming 8 and 9
    # ("a hand or a piece in the way?") sent players looking for what is not there.
    calibrated, found, near, expectation = table
    image, truth = render_scene(calibrated, EXPECTED, 1, "light", hand=True)
    assert {camel for camel, seen in truth["camels"].items() if seen["visible"] < 0.5} == {"green", "yellow"}
    out = read_picture(image, found.template, found.profiles, found.board_bgr, expectation, near=near)
    assert out["verdict"].startswith("cannot tell"), out
    assert 7 in out["unclear"] and {"green", "yellow"} <= set(out["unseen"]), out
    plain = {int(space) for space, share in truth["spaces_visible"].items() if share > 0.95} - set(EXPECTED)
    assert {8, 9} <= plain  # the spaces the rivals put yellow on
    assert not plain & set(out["unclear"]), out
    assert out["verdict"] == f"cannot tell (space{'s' if len(out['unclear']) > 1 else ''} " \
        f"{', '.join(map(str, out['unclear']))} not clear enough)"


SLIP_LOG = TWO_DRAWS  # two draws of a 2018 game: the slips of camels the latest draw did not move are earlier ones


def hypotheses_of(log):
    game = loads(json.dumps(log))
    return board_hypotheses(game.start(), list(game.actions))


def test_slips_of_camels_the_latest_draw_did_not_move_are_marked_earlier():
    hypotheses = {h.why: h for h in hypotheses_of(SLIP_LOG)}
    # Blue 1 moved blue with purple and red on it from 3 to 4: a slip of theirs is a slip of the latest draw.
    assert not hypotheses["blue set down alone on 5, not on 4"].earlier
    assert not hypotheses["blue and purple swapped on 4"].earlier
    assert not hypotheses["red set down on 3 on top of yellow, not on 4"].earlier
    # Yellow stayed on 3, black and white were last set down at the setup: the camera could have seen a
    # slip of theirs before.
    assert hypotheses["yellow set down on 4 on top of red, not on 3"].earlier
    assert hypotheses["black set down alone on 15, not on 14"].earlier
    assert hypotheses["white set down alone on 15, not on 16"].earlier
    assert all(not h.earlier for h in hypotheses.values() if h.amendment is not None)
    # A bet moves no camel: the latest draw is still the one whose camels a hand set down.
    with_bet = {**SLIP_LOG, "actions": [*SLIP_LOG["actions"], {"player": "Ann", "type": "leg_bet", "camel": "red"}]}
    assert {h.why: h.earlier for h in hypotheses_of(with_bet)} == {h.why: h.earlier for h in hypotheses.values()}
    # Before any draw every camel was just set up by hand.
    assert not any(h.earlier for h in hypotheses_of({**SLIP_LOG, "actions": []}))


def test_an_earlier_slip_costs_more_before_the_picture_is_looked_at():
    game = loads(json.dumps(SLIP_LOG))
    hypotheses = board_hypotheses(game.start(), list(game.actions), in_play=True)
    assert any(h.pending for h in hypotheses) and any(h.unmoved for h in hypotheses)  # as likely as a die entry
    asked = []

    def judge(tracks, priors):
        asked.append(priors)
        return Verdict("matches", 0, 1.0, (), (), [0.0] * len(tracks))

    settings = VerifyConfig()
    camera_verdict(SimpleNamespace(**{**vars(fake_scorer(None)), "judge": judge}), hypotheses, {}, (), CAMELS)
    expected_priors = [0.0] + [settings.entry_prior if h.amendment or h.pending or h.unmoved
                               else settings.earlier_slip_prior if h.earlier
                               else settings.slip_prior for h in hypotheses[1:]]
    assert asked[0] == expected_priors
    assert settings.entry_prior < settings.slip_prior < settings.earlier_slip_prior


def test_the_cameras_own_reading_claims_nothing_about_camels_it_did_not_see():
    # The blind reading missed purple (behind the pyramid) and sees red moved: as the best explanation it is
    # completed with purple from the game's board, but the camera does not "see" purple there.
    expected = {3: ["purple"], 5: ["red"], 9: ["green"]}
    reading = {7: ["red"], 9: ["green"]}
    costs = {(("3", ("purple",)), ("5", ("red",)), ("9", ("green",))): 0.0}

    def track_cost(track):
        return costs.get(tuple(sorted((str(s), tuple(v)) for s, v in track.items())), -3.0)

    def judge(tracks, priors):
        best = min(range(len(tracks)), key=lambda index: track_cost(tracks[index]))
        return Verdict("matches" if best == 0 else "differs", best, 3.0, (), (), [track_cost(t) for t in tracks])

    scorer = SimpleNamespace(verify=VerifyConfig(), judge=judge, track_cost=track_cost, spaces=list(range(1, 17)),
                             covered=lambda track, space: False, template=load_template("2018"))
    found = camera_verdict(scorer, [Hypothesis(expected, "the game's board")], reading, ("purple",), CAMELS)
    assert found.answer == "differs: most likely the camera's own reading of the board"
    assert found.unseen == ("purple",) and found.track == {7: ["red"], 9: ["green"]}
    assert found.differences == ["red should be alone on 5; the camera sees it alone on 7"]


def test_the_cameras_own_reading_does_not_move_a_camel_away_from_a_place_the_picture_cannot_see():
    """Fresh seed 102: an arm hid green on 1, and the blind reading took a palm frond over 16 for green on top of
    black, far better than the game's board explains the picture. That green is not on 1 is nothing the picture
    shows: green is left where the game has it (unseen), and no difference is claimed."""
    expected = {1: ["green"], 9: ["yellow"], 16: ["black"]}
    places = {"green": 16, "yellow": 10}  # where the picture's look-alikes are: each there explains 3 camels more

    def track_cost(track):
        return -3.0 * sum(camel in track.get(space, ()) for camel, space in places.items())

    def judge(tracks, priors):
        costs = [track_cost(track) for track in tracks]
        best = min(range(len(tracks)), key=costs.__getitem__)
        return Verdict("matches" if best == 0 else "differs", best, 3.0, (), (), costs)

    def scorer(covered):
        return SimpleNamespace(verify=VerifyConfig(), judge=judge, track_cost=track_cost, spaces=list(range(1, 17)),
                               covered=lambda track, space: space in covered, template=load_template("2018"))

    game = [Hypothesis(expected, "the game's board")]
    frond = {9: ["yellow"], 16: ["black", "green"]}
    hidden = camera_verdict(scorer({1}), game, frond, (), CAMELS)
    assert hidden.matches is None and hidden.answer == "cannot tell (space 1 hidden)"
    assert hidden.unseen == ("green",) and hidden.track == {9: ["yellow"], 16: ["black"]}
    # With 1 in plain view, the picture does show green is not there: a difference.
    seen = camera_verdict(scorer(set()), game, frond, (), CAMELS)
    assert seen.matches is False and seen.answer == "differs: most likely the camera's own reading of the board"
    # A camel moved from a place in view is still a difference, the one from the hidden place unseen.
    both = camera_verdict(scorer({1}), game, {10: ["yellow"], 16: ["black", "green"]}, (), CAMELS)
    assert both.matches is False and both.unseen == ("green",)
    assert both.differences == ["yellow should be alone on 9; the camera sees it alone on 10"]


def test_a_slip_moving_only_camels_the_picture_cannot_see_where_the_game_has_them_cannot_be_told():
    """Fresh seed 103 (props, table 8): green stood hidden on 6, and a palm frond over the top of the stack on 7
    looked like green there: the hand's slip "green set down on 7" won by 0.7, a false alarm. That green is not on 6
    is nothing the picture shows: it cannot tell, and claims no difference."""
    expected = {6: ["green"], 7: ["white", "black"], 12: ["red"]}
    slip = {7: ["white", "black", "green"], 12: ["red"]}
    hypotheses = [Hypothesis(expected, "the game's board"),
                  Hypothesis(slip, "green set down on 7 on top of black, not on 6")]
    differs = Verdict("differs", 1, 0.7, (), (), [0.7, 0.0])
    hidden = camera_verdict(fake_scorer(differs, covered={6}), hypotheses, {}, (), CAMELS)
    assert hidden.matches is None and hidden.answer.startswith("cannot tell")
    assert hidden.unseen == ("green",) and hidden.track == {7: ["white", "black"], 12: ["red"]}
    # With 6 in plain view the picture shows green is not there: the slip is named.
    seen = camera_verdict(fake_scorer(differs), hypotheses, {}, (), CAMELS)
    assert seen.matches is False and seen.answer == "differs: most likely green set down on 7 on top of black, not on 6"


def test_the_first_roll_of_a_leg_moved_before_it_is_typed_in_is_pending_not_a_mis_entered_die():
    """The race bench's --between found it: the leg's last die back in the pyramid, rolled again and moved before
    anyone types it in, gives the very board that die entered one value too low would give. The usual course of
    play explains it, so it is "pending", not an alarm about the previous leg's entry."""
    setup = {"1": ["blue"], "2": ["green"], "3": ["orange"], "4": ["white"], "5": ["yellow"]}
    leg = [{"player": player, "type": "pyramid", "die": die, "value": 1}
           for player, die in zip(["Ann", "Bob"] * 3, ["blue", "green", "orange", "white", "yellow"], strict=False)]
    game = loads(json.dumps({"format": "camelup-game-log/1", "edition": "2014", "players": ["Ann", "Bob"],
                             "setup": {"track": setup}, "actions": leg}))
    state = game.replay()
    assert len(state.dice_in_pyramid()) == 5  # a new leg: yellow is back in the pyramid
    hypotheses = board_hypotheses(game.start(), list(game.actions), in_play=True)
    again = next(h for h in hypotheses if h.pending and h.pending["die"] == "yellow" and h.pending["value"] == 2)
    entered_low = Amendment(4, leg[4], {**leg[4], "value": 3})
    mis_entered = board_hypotheses(game.start(), [*leg[:4], entered_low.becomes])[0].track
    assert again.track == mis_entered  # the same board both ways
    assert again.amendment is None
    assert not any(h.amendment is not None and h.track == mis_entered for h in hypotheses)
    # Checked after the fact (`vision read --expect`: no draw can be pending), it is the mis-entered die.
    checked = board_hypotheses(game.start(), list(game.actions))
    assert any(h.amendment is not None and h.amendment.becomes["value"] == 3 and h.track == mis_entered
               for h in checked)


def test_draws_not_entered_yet_the_picture_cannot_tell_apart_are_pending_without_naming_a_die():
    # Red rolled and moved before anyone typed it in: one space or two, the picture cannot tell (space 4's far
    # edge hidden). Whichever it is, a draw is still to be typed in: no alarm, and no die named that may be wrong.
    expected = {2: ["red"], 9: ["purple"]}
    one = {"player": "Ann", "type": "pyramid", "die": "red", "value": 1}
    hypotheses = [Hypothesis(expected, "the game's board"),
                  Hypothesis({3: ["red"], 9: ["purple"]}, "a draw not entered yet: red 1", pending=one),
                  Hypothesis({4: ["red"], 9: ["purple"]}, "a draw not entered yet: red 2", pending={**one, "value": 2})]
    found = camera_verdict(fake_scorer(Verdict("cannot tell", 1, 0.2, (3, 4), (2,), [1.0, 0.0, 0.2])), hypotheses,
                           {}, (), CAMELS)
    assert found.answer == "pending: a draw not entered yet" and found.matches is None
    assert found.pending == {} and found.as_json()["pending"] == {}
    assert found.unseen == ("red",) and found.track == {9: ["purple"]}  # where red stands is not told
    # Nor can it tell whether anything was rolled at all: that stays "cannot tell".
    unsure = camera_verdict(fake_scorer(Verdict("cannot tell", 1, 0.2, (2, 3), (0, 2), [0.2, 0.0, 0.2])),
                            hypotheses, {}, (), CAMELS)
    assert unsure.answer.startswith("cannot tell") and unsure.pending is None


def test_a_camel_read_on_a_space_with_a_tile_is_a_tiles_print_not_a_board_nobody_foresaw():
    # The blind reading puts white onto the game's spectator tile on 9 (a tile's pale disc looks like the white
    # camel far better than the faint white camel on top of 16 does): no camel stands on a tile, so that reading
    # is no rival of the game's board, and white counts as not seen by it.
    expected = {14: ["green"], 16: ["yellow", "white"]}
    reading = {9: ["white"], 14: ["green"], 16: ["yellow"]}

    def track_cost(track):
        return -1.5 if 9 in track else 0.0  # the tile's disc: a white camel's evidence and more

    def judge(tracks, priors):
        costs = [track_cost(track) for track in tracks]
        best = min(range(len(tracks)), key=costs.__getitem__)
        return Verdict("matches" if best == 0 else "differs", best, 1.5 if best else 0.9, (), (), costs)

    scorer = SimpleNamespace(verify=VerifyConfig(), judge=judge, track_cost=track_cost, spaces=list(range(1, 17)),
                             covered=lambda track, space: False, template=load_template("2018"))
    game = Hypothesis(expected, "the game's board", tiles=(9,))
    assert camera_verdict(scorer, [game], reading, (), CAMELS).answer == "matches"
    # Without the tile in the game, the same reading is a board nobody foresaw.
    assert camera_verdict(scorer, [Hypothesis(expected, "the game's board")], reading, (), CAMELS).answer == \
        "differs: most likely the camera's own reading of the board"


def test_the_games_board_carries_the_spaces_its_tiles_lie_on():
    log = {**TWO_DRAWS, "actions": [*TWO_DRAWS["actions"], {"player": "Ann", "type": "spectator", "space": 9,
                                                             "side": "cheer"}]}
    game = loads(json.dumps(log))
    assert board_hypotheses(game.start(), log["actions"])[0].tiles == (9,)
    assert board_hypotheses(game.start(), TWO_DRAWS["actions"])[0].tiles == ()


def depth_scorer(gain, outlines):
    """A scorer whose judgement prefers the second board by ``gain`` and that finds each camel's outline on a
    board where ``outlines`` says (board index, camel) -> rectangle."""
    def judge(tracks, priors):
        costs = [0.0, -gain, *[1.0] * (len(tracks) - 2)]
        return Verdict("differs", 1, gain, (), (), costs)

    boards = []

    def camel_outline(track, camel):
        return outlines[(boards.index(track), camel)]

    scorer = SimpleNamespace(verify=VerifyConfig(), judge=judge, track_cost=lambda t: 0.0, spaces=list(range(1, 17)),
                             space_costs=lambda track: dict.fromkeys(range(1, 17), 0.0),
                             covered=lambda track, space: False, template=load_template("2018"),
                             camel_outline=camel_outline)
    return scorer, boards


def test_a_camel_only_nearer_or_further_in_the_picture_is_no_difference_it_can_tell():
    # Yellow on top of the stack on 7 falls where a yellow camel standing on 6 would: the picture tells the two
    # apart only by how well each fits, and by less than three decisive margins it cannot tell.
    game = Hypothesis({7: ["red", "purple", "yellow"], 8: ["blue"]}, "the game's board")
    entry = Hypothesis({6: ["yellow"], 7: ["red", "purple"], 8: ["blue"]}, "Bob's pyramid ticket: yellow 2 → yellow 1",
                       Amendment(0, {"player": "Bob", "type": "pyramid", "die": "yellow", "value": 2},
                                 {"player": "Bob", "type": "pyramid", "die": "yellow", "value": 1}))
    same_place = {(0, "yellow"): (100, 50, 120, 62), (1, "yellow"): (101, 51, 121, 64)}
    scorer, boards = depth_scorer(0.88, same_place)
    boards += [game.track, entry.track]
    found = camera_verdict(scorer, [game, entry], game.track, (), CAMELS)
    assert found.answer.startswith("cannot tell") and "yellow" in found.unseen and found.most_likely is None
    # Far better explained, it is a difference...
    scorer, boards = depth_scorer(1.8, same_place)
    boards += [game.track, entry.track]
    assert camera_verdict(scorer, [game, entry], game.track, (), CAMELS).answer.startswith("differs")
    # The same place seen from nearer or further: the outline further away is the smaller one, mostly inside the
    # other (intersection over union 0.49, each outline more than half inside the other).
    scorer, boards = depth_scorer(0.88, {(0, "yellow"): (100, 50, 113, 72), (1, "yellow"): (98, 54, 109, 73)})
    boards += [game.track, entry.track]
    assert camera_verdict(scorer, [game, entry], game.track, (), CAMELS).answer.startswith("cannot tell")
    # ...and so is a camel the picture shows elsewhere, or half a body along.
    scorer, boards = depth_scorer(0.88, {(0, "yellow"): (100, 50, 120, 62), (1, "yellow"): (112, 50, 132, 62)})
    boards += [game.track, entry.track]
    assert camera_verdict(scorer, [game, entry], game.track, (), CAMELS).answer.startswith("differs")
    scorer, boards = depth_scorer(0.88, {(0, "yellow"): (100, 50, 120, 62), (1, "yellow"): (60, 70, 80, 82)})
    boards += [game.track, entry.track]
    assert camera_verdict(scorer, [game, entry], game.track, (), CAMELS).answer.startswith("differs")


CONFIRMED = {3: ["red"], 5: ["green", "yellow"], 9: ["purple"], 12: ["black", "white"], 14: ["blue"]}
"""The board the game last confirmed (the camera's picture of it is the reference)."""


def test_a_difference_seen_only_where_nothing_changed_since_the_confirmed_board_cannot_be_told() -> None:
    from companion.table.camera_verdict import SinceConfirmed

    # Nothing moved since the board was confirmed; the reader now prefers white under black on 12 (the lamp's
    # glare), which a slip would give: "differs" without the still camera's cue.
    swapped = {**CONFIRMED, 12: ["white", "black"]}
    hypotheses = [Hypothesis(CONFIRMED, "the game's board"), Hypothesis(swapped, "black and white swapped on 12")]
    judged = fake_scorer(Verdict("differs", 1, 0.9, (), (), [0.9, 0.0]))
    assert camera_verdict(judged, hypotheses, {}, (), CAMELS).answer.startswith("differs")
    still = SinceConfirmed(CONFIRMED, frozenset(range(1, 17)), frozenset())
    found = camera_verdict(judged, hypotheses, {}, (), CAMELS, since=lambda: still)
    assert found.answer == "cannot tell (space 12 not clear enough)" and found.matches is None
    assert found.unseen == ("black", "white") and found.unclear == (12,)
    assert found.track == {space: stack for space, stack in CONFIRMED.items() if space != 12}
    # The picture changed on 12 since: the difference is evidence again.
    moved = SinceConfirmed(CONFIRMED, frozenset(range(1, 17)) - {12}, frozenset())
    assert camera_verdict(judged, hypotheses, {}, (), CAMELS, since=lambda: moved).answer.startswith("differs")


def test_an_arm_over_stacks_the_game_has_not_moved_is_not_a_difference() -> None:
    from companion.table.camera_verdict import SinceConfirmed

    # An arm came in over 12 and 14 since the board was confirmed: the camera's own reading puts blue under it
    # elsewhere (the sleeve's colour), better than any board the game foresaw.
    armed = {**CONFIRMED, 13: ["blue"]}
    del armed[14]
    hypotheses = [Hypothesis(CONFIRMED, "the game's board")]
    judged = fake_scorer(Verdict("differs", 1, 2.0, (), (), [2.0, 0.0]))
    judged.track_cost = lambda track: 0.0 if track == armed else 2.0
    judged.judge = lambda tracks, priors: (Verdict("differs", 1, 2.0, (), (), [2.0, 0.0]) if len(tracks) > 1
                                           else Verdict("matches", 0, 2.0, (), (), [2.0]))
    plain = camera_verdict(judged, hypotheses, armed, (), CAMELS)
    assert plain.answer == "differs: most likely the camera's own reading of the board"
    arm = SinceConfirmed(CONFIRMED, frozenset(range(1, 12)), frozenset({12, 13, 14}))
    found = camera_verdict(judged, hypotheses, armed, (), CAMELS, since=lambda: arm)
    assert found.answer == "cannot tell (spaces 13, 14 not clear enough)" and found.matches is None
    assert found.unseen == ("blue",)


def test_a_camel_really_moved_under_an_arm_is_still_caught() -> None:
    from companion.table.camera_verdict import SinceConfirmed

    # The latest draw moved red from 3 to 5 (the game's board); a hand set it on 6 instead, reaching in over 3 to
    # 7: the picture changed there, and 5 has not received the camel the game says it should have.
    expected = {5: ["green", "yellow", "red"], 9: ["purple"], 12: ["black", "white"], 14: ["blue"]}
    slipped = {5: ["green", "yellow"], 6: ["red"], 9: ["purple"], 12: ["black", "white"], 14: ["blue"]}
    hypotheses = [Hypothesis(expected, "the game's board"), Hypothesis(slipped, "red 3")]
    judged = fake_scorer(Verdict("differs", 1, 1.5, (), (), [1.5, 0.0]))
    for still in (SinceConfirmed(CONFIRMED, frozenset(range(8, 17)), frozenset(range(3, 8))),
                  SinceConfirmed(CONFIRMED, frozenset(range(1, 17)), frozenset())):  # even where wrongly unchanged
        found = camera_verdict(judged, hypotheses, {}, (), CAMELS, since=lambda still=still: still)
        assert found.answer == "differs: most likely red 3" and found.matches is False
    # A camel moved that the game does not know of, seen only where the picture is said unchanged: at worst
    # "cannot tell", never "matches".
    bumped = {**CONFIRMED, 9: [], 10: ["purple"]}
    wrong = SinceConfirmed(CONFIRMED, frozenset(range(1, 17)), frozenset())
    found = camera_verdict(fake_scorer(Verdict("differs", 1, 1.5, (), (), [1.5, 0.0])),
                           [Hypothesis(CONFIRMED, "the game's board"), Hypothesis(bumped, "purple one further")], {},
                           (), CAMELS, since=lambda: wrong)
    assert found.answer.startswith("cannot tell") and found.matches is None
