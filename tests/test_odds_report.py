"""What ``camelup odds`` prints (companion/odds/report.py, odds/race.py): the table word for word from a report
whose numbers are known, and the report's parts each computed for the right player, rollouts and seed. Found
by mutation testing: no test read the printed table, and several of the report's wirings could break unseen."""

import math

import pytest

from companion.odds import exact_leg_odds
from companion.odds.race import RaceOdds, race_odds
from companion.odds.report import odds_report, odds_table
from companion.rules import EDITION_2018, FinishBet, LegBet, PlaceTile, apply, new_game

REPORT = {
    "leg": {"red": {"first": 0.5, "second": 0.25}, "blue": {"first": 0.125, "second": 0.0}},
    "leg_ticket_ev": {"red": 2.25, "blue": None},
    "pyramid_ticket_ev": 1.0,
    "race_ends_this_leg": 0.0625,
    "draws_left_in_leg": 1,
    "player": "Ann",
    "tile_ev": {"7": {"cheer": 0.5, "boo": -0.25}, "12": {"cheer": 1.75}, "9": {"boo": 0.75}},
    "tile_ev_where_it_is": 0.125,
    "race": {"red": {"win": 0.6, "lose": 0.1, "win_95": 0.01, "lose_95": 0.005},
             "blue": {"win": 0.05, "lose": 0.5, "win_95": 0.004, "lose_95": 0.0125}},
    "rollouts": 400,
    "finish_card_ev": {"red": {"winner": 3.5, "loser": -0.75}},
}


def test_the_table_reads_as_written():
    assert odds_table(REPORT).splitlines() == [
        "Leg odds (exact, 1 draw left in the leg; race ends this leg: 6.2%)",
        "camel      first  second  top ticket EV          race win       race lose",
        "red        50.0%   25.0%          +2.25       60.0% ± 1.0     10.0% ± 0.5",
        "blue       12.5%    0.0%              —        5.0% ± 0.4     50.0% ± 1.2",
        "pyramid ticket EV: +1.00",
        "best tile spots for Ann (net of the tile where it is now, worth +0.12 left there): "
        "space 12 cheer +1.75, space 9 boo +0.75, space 7 cheer +0.50",
        "Ann's finish cards: red (winner +3.50, loser -0.75)",
        "(race odds from 400 rollouts; ± is the 95% interval)",
        "(EVs are coins before the floor at 0 EP; a partner's copied reward is not counted)",
    ]


def test_without_race_odds_or_a_tile_on_the_track_the_table_says_less():
    bare = {key: value for key, value in REPORT.items() if key not in ("race", "rollouts", "finish_card_ev")}
    lines = odds_table({**bare, "draws_left_in_leg": 3, "tile_ev_where_it_is": 0.0}).splitlines()
    assert lines[0].startswith("Leg odds (exact, 3 draws left in the leg;")
    assert lines[1] == "camel      first  second  top ticket EV"
    assert lines[5] == "best tile spots for Ann: space 12 cheer +1.75, space 9 boo +0.75, space 7 cheer +0.50"
    assert not any("rollouts" in line or "finish cards" in line for line in lines)


@pytest.fixture
def state():
    state = new_game(EDITION_2018, ["Ann", "Bob"], {1: ("green", "red"), 3: ("yellow", "blue", "purple"),
                                                    14: ("black",), 16: ("white",)})
    for action in (FinishBet("Ann", "winner", "red"), PlaceTile("Bob", 8, "cheer"), LegBet("Ann", "red")):
        state = apply(state, action)
    return state  # Bob to act; Ann has a card on the winner pile


def test_the_report_values_the_player_to_act_with_its_own_rollouts_and_seed(state):
    report = odds_report(state, rollouts=300, seed=5)
    assert report["player"] == "Bob" and report["rollouts"] == 300
    # Bob's tile is on 8: he may move it anywhere free (beside it too), not onto a camel or where it is.
    assert set(report["tile_ev"]) == {str(space) for space in range(2, 17) if space not in (3, 8, 14, 16)}
    race = race_odds(state, 300, 5)
    assert {camel: r["win"] for camel, r in report["race"].items()} == race.win
    assert report["race"]["red"]["win_95"] == race.interval(race.win["red"])
    leg = exact_leg_odds(state)
    assert report["leg"]["red"] == {"first": leg.first["red"], "second": leg.second["red"]}
    assert "green" in report["finish_card_ev"] and "red" in report["finish_card_ev"]  # Bob holds every card


def test_the_player_asked_for_is_valued_from_what_they_know(state):
    ann = odds_report(state, rollouts=200, seed=1, player="Ann")
    assert ann["player"] == "Ann" and "red" not in ann["finish_card_ev"]  # her red card is on the pile
    assert "tile_ev" in ann and odds_report(state, rollouts=0, tiles=False).get("tile_ev") is None
    assert "race" not in odds_report(state, rollouts=0)


def test_a_race_probability_interval_shrinks_with_the_rollouts():
    odds = RaceOdds({"red": 0.5}, {"red": 0.5}, 400)
    assert odds.interval(0.5) == pytest.approx(1.96 * math.sqrt(0.25 / 400))
    assert odds.interval(0.0) == pytest.approx(1.96 * math.sqrt(1e-12 / 400))
    assert RaceOdds({}, {}, 1600).interval(0.2) == pytest.approx(odds.interval(0.2) / 2)


def test_a_finished_race_is_certain_with_no_rollouts_and_no_interval(state):
    over = state.evolve(game_over=True)
    odds = race_odds(over, 50, 3)
    ranking = over.ranking()
    assert odds.win == {camel: float(camel == ranking[0]) for camel in EDITION_2018.racing_camels}
    assert odds.lose == {camel: float(camel == ranking[-1]) for camel in EDITION_2018.racing_camels}
    assert odds.rollouts == 0 and odds.interval(0.5) == 0.0  # certain: no sampling, no interval


def test_every_race_and_tile_number_in_the_report_is_the_one_computed_for_that_player(state):
    from companion.odds import tile_evs
    from companion.odds.leg import tile_ev_where_it_is

    asked: list = []

    def progress(spots):
        asked.append(list(spots))
        return spots

    report = odds_report(state, rollouts=200, seed=9, progress=progress)
    race = race_odds(state, 200, 9)
    assert report["race"] == {camel: {"win": race.win[camel], "lose": race.lose[camel],
                                      "win_95": race.interval(race.win[camel]),
                                      "lose_95": race.interval(race.lose[camel])} for camel in race.win}
    expected: dict = {}
    for (space, side), ev in tile_evs(state, "Bob").items():
        expected.setdefault(str(space), {})[side] = ev
    assert report["tile_ev"] == expected and asked and len(asked[0]) == sum(map(len, expected.values()))
    assert report["tile_ev_where_it_is"] == tile_ev_where_it_is(state, "Bob") > 0  # his tile on 8 earns


def test_after_the_race_no_draws_are_left_and_no_tile_is_valued(state):
    over = state.evolve(game_over=True)
    report = odds_report(over, rollouts=0)
    assert report["draws_left_in_leg"] == 0 and "tile_ev" not in report


def test_a_table_without_the_tile_left_where_it_is_says_nothing_about_it():
    report = {key: value for key, value in REPORT.items() if key != "tile_ev_where_it_is"}
    line = next(line for line in odds_table(report).splitlines() if line.startswith("best tile spots"))
    assert line == "best tile spots for Ann: space 12 cheer +1.75, space 9 boo +0.75, space 7 cheer +0.50"
    wide = {**REPORT, "race": {**REPORT["race"], "red": {**REPORT["race"]["red"], "win_95": 0.1}}}
    assert "60.0% ± 10.0" in odds_table(wide)
    # The race odds stand under their headers, right-aligned like the leg odds.
    header, row = odds_table(wide).splitlines()[1:3]
    assert len(row) == len(header) and row.endswith("10.0% ± 0.5") and header.endswith("race lose")


def test_a_finish_card_is_valued_by_how_many_others_may_be_right_before_it():
    from companion.odds.race import finish_card_evs

    eight = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "Me"]
    state = new_game(EDITION_2018, eight, {1: ("green", "red"), 3: ("yellow", "blue", "purple"),
                                           14: ("black",), 16: ("white",)})
    for player in eight[:7]:  # seven hidden cards on the winner pile before mine
        state = apply(state, FinishBet(player, "winner", "green"))
    win = {"green": 0.3, "yellow": 0.2, "red": 0.2, "blue": 0.2, "purple": 0.1}
    odds = RaceOdds(win, dict.fromkeys(win, 0.2), 1000)
    evs = finish_card_evs(state, "Me", odds)

    def by_hand(p, others):  # ours is the (1 + k)-th right card, k ~ Binomial(others, p); 8 5 3 2 1 then 1s
        payouts = [8, 5, 3, 2, 1, 1, 1, 1]
        right = sum(math.comb(others, k) * p**k * (1 - p) ** (others - k) * payouts[k] for k in range(others + 1))
        return p * right - (1 - p)

    assert evs["red"]["winner"] == pytest.approx(by_hand(0.2, 7))
    assert evs["red"]["loser"] == pytest.approx(by_hand(0.2, 0))
    assert evs["green"]["winner"] == pytest.approx(by_hand(0.3, 7))


def test_a_race_odds_of_one_rollout_and_of_a_finished_race_are_whole():
    state = new_game(EDITION_2018, ["Ann", "Bob"], {1: ("green", "red"), 3: ("yellow", "blue", "purple"),
                                                   14: ("black",), 16: ("white",)})
    one = race_odds(state, 1, 4)
    assert sorted(one.win.values()) == [0.0, 0.0, 0.0, 0.0, 1.0] and sorted(one.lose.values())[-1] == 1.0
