"""Bots choose legal actions from what they may see; tournaments are repeatable and their logs replay."""

import json
import random

import pytest

from companion.cli import main
from companion.gamelog import parse_log
from companion.rules import EDITION_2018, HIDDEN, FinishBet, LegBet, legal_actions, new_game, view_for
from companion.sim.bots import DRAW, GreedyBot, RandomBot, StrongBot, make_bots
from companion.sim.simulate import plan, run_tournament, seat_labels, wilson_interval
from tests.gamegen import random_log

START = {1: ("green", "red"), 2: ("yellow",), 3: ("blue", "purple"), 14: ("black",), 16: ("white",)}


def test_view_hides_other_players_finish_cards_until_the_race_is_over():
    def after(camel):
        state = new_game(EDITION_2018, ["Ann", "Bob"], START)
        return FinishBet("Ann", "winner", camel), state

    views = []
    for camel in ("red", "blue"):
        action, state = after(camel)
        from companion.rules import apply

        state = apply(state, action)
        assert view_for(state, "Ann").winner_pile[0].camel == camel
        views.append(view_for(state, "Bob"))
        assert view_for(state, None).winner_pile[0].camel == HIDDEN
    assert views[0] == views[1]  # Bob cannot tell which camel Ann's card names


@pytest.mark.parametrize("bot_class", [RandomBot, GreedyBot, StrongBot])
def test_bots_only_choose_legal_actions(bot_class):
    rng = random.Random(1)
    log = random_log(random.Random(11), edition="2018", players=6, noise=0)
    game = parse_log(log)
    state = game.start()
    from companion.gamelog import action_from_json
    from companion.rules import apply

    checked = 0
    for index, obj in enumerate(game.actions):
        if index % 3 == 0 and not state.game_over:
            view = view_for(state, state.current_player)
            choice = bot_class().choose(view, legal_actions(view), rng)
            assert choice is DRAW or choice in legal_actions(state)
            checked += 1
        state = apply(state, action_from_json(obj))
    assert checked > 5


def test_greedy_takes_a_sure_five_over_a_pyramid_ticket():
    # Red alone far ahead, one draw left that cannot catch it: its 5 ticket is worth 5.
    track = {12: ("red",), 1: ("green", "yellow", "blue"), 2: ("purple",), 15: ("black", "white")}
    from companion.rules import PyramidTicket, apply

    state = new_game(EDITION_2018, ["Ann", "Bob"], track)
    for die in ("green", "yellow", "blue", "grey"):
        state = apply(state, PyramidTicket(state.current_player, die, 1, "black" if die == "grey" else None))
    choice = GreedyBot().choose(state, legal_actions(state), random.Random(0))
    assert choice == LegBet("Ann", "red")


def test_make_bots_rejects_unknown_names():
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        make_bots(["greedy", "genius"])


def test_seat_labels_and_paired_plan_rotate_seats_on_the_same_deal():
    assert seat_labels(["greedy", "random", "greedy"]) == ["greedy", "random", "greedy#2"]
    games = plan(4, ["greedy", "random"], paired=True)
    assert [g.deal for g in games] == [0, 0, 1, 1]
    assert [g.seating for g in games[:2]] == [("greedy", "random"), ("random", "greedy")]


def test_wilson_interval_is_sensible_at_zero():
    low, high = wilson_interval(0.0, 40)
    assert low == 0.0 and 0.05 < high < 0.1


def test_same_seed_same_tournament_with_one_or_two_workers(tmp_path):
    one = run_tournament(12, "2018", ["greedy", "random", "greedy"], seed=9, workers=1)
    two = run_tournament(12, "2018", ["greedy", "random", "greedy"], seed=9, workers=2, logs=tmp_path)
    assert [(r.seating, r.money, r.actions) for r in one.results] == [
        (r.seating, r.money, r.actions) for r in two.results
    ]
    logs = sorted(tmp_path.glob("game-*.json"))
    assert len(logs) == 12
    for path, result in zip(logs, two.results, strict=True):
        state = parse_log(json.loads(path.read_text())).replay()
        assert state.game_over and state.money == result.money


def test_paired_games_see_the_same_dice(tmp_path):
    run_tournament(4, "2014", ["greedy", "random"], seed=5, paired=True, logs=tmp_path)
    logs = [json.loads(path.read_text()) for path in sorted(tmp_path.glob("game-*.json"))]

    def rolls(log):
        return [(a["die"], a["value"]) for a in log["actions"] if a["type"] == "pyramid"]

    for first, second in (logs[0:2], logs[2:4]):  # one deal, both seatings
        assert first["players"] == list(reversed(second["players"]))
        assert first["setup"] == second["setup"]
        shorter = min(len(rolls(first)), len(rolls(second)))
        assert rolls(first)[:shorter] == rolls(second)[:shorter]
    assert rolls(logs[0]) != rolls(logs[2])  # another deal, other dice


def test_greedy_beats_random(tmp_path):
    tournament = run_tournament(40, "2018", ["greedy", "random"], seed=1)
    stats = tournament.as_json()["bots"]
    assert stats["greedy"]["win_rate"] > 0.7 > stats["random"]["win_rate"]


def test_simulate_command_json_and_errors(tmp_path, capsys):
    args = ["simulate", "--games", "6", "--players", "greedy,random", "--seed", "2", "--json", "--quiet"]
    assert main([*args, "--logs", str(tmp_path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 6 and set(report["bots"]) == {"greedy", "random"}
    assert set(report["bots"]["greedy"]) >= {"win_rate", "win_rate_95", "mean_money", "mean_actions"}
    assert len(list(tmp_path.glob("*.json"))) == 6
    assert main(["simulate", "--players", "greedy,wizard", "--quiet"]) == 2
    assert "unknown bot 'wizard'" in capsys.readouterr().err
    assert main(["simulate", "--players", "greedy", "--quiet"]) == 2
