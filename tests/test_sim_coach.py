"""The coach prices every decision from what the player could know, against the exact odds."""

import json
import random

import pytest

from companion.cli import main
from companion.gamelog import make_log, parse_log
from companion.odds import exact_leg_odds, leg_ticket_evs, tile_evs
from companion.rules import EDITION_2018, LegBet, PlaceTile, PyramidTicket, apply, new_game
from companion.sim.coach import analyse_log
from companion.sim.simulate import plan, play_planned

FAR_AHEAD = {12: ("red",), 1: ("green", "yellow", "blue"), 2: ("purple",), 15: ("black", "white")}


def log_of(track, actions, players=("Ann", "Bob")):
    return parse_log(make_log("2018", list(players), track, actions).to_json())


def test_a_pyramid_ticket_instead_of_a_sure_five_costs_four():
    from companion.rules import FinishBet

    # Bob has played his red finish card (red's race win would otherwise be worth more than the ticket).
    actions = [PyramidTicket("Ann", "green", 1), FinishBet("Bob", "loser", "red"), PyramidTicket("Ann", "yellow", 1),
               PyramidTicket("Bob", "blue", 1), PyramidTicket("Ann", "grey", 1, "black")]
    actions.append(PyramidTicket("Bob", "purple", 1))  # red's 5 was sure: red cannot be caught this leg
    report = analyse_log(log_of(FAR_AHEAD, actions), rollouts=200)
    decision = report.players["Bob"].decisions[-1]
    assert decision.index == 6 and decision.done.ev == 1.0
    assert decision.best.what == "the top red leg ticket (5)"
    assert decision.cost == pytest.approx(4.0, abs=1e-12)
    worst = [d.in_words() for d in report.players["Bob"].worst()]
    assert worst[0].startswith("leg 1, action 2: Bob took the red finish card on the loser pile")  # 7 coins
    assert "leg 1, action 6: Bob took a pyramid ticket (+1.00); the top red leg ticket (5) was worth +5.00" in worst


def test_tickets_and_tiles_are_priced_as_the_odds_module_prices_them():
    state = new_game(EDITION_2018, ["Ann", "Bob"], FAR_AHEAD)
    actions = [PyramidTicket("Ann", "green", 2), LegBet("Bob", "purple"), PlaceTile("Ann", 9, "cheer"),
               PlaceTile("Bob", 6, "boo"), PlaceTile("Ann", 10, "boo")]
    states = [state]
    for action in actions:
        states.append(apply(states[-1], action))
    report = analyse_log(log_of(FAR_AHEAD, actions), rollouts=200)
    bob_bet = report.players["Bob"].decisions[0]
    assert bob_bet.done.ev == pytest.approx(leg_ticket_evs(states[1], exact_leg_odds(states[1]))["purple"])
    ann_moves_tile = report.players["Ann"].decisions[-1]
    assert ann_moves_tile.done.ev == pytest.approx(tile_evs(states[4])[(10, "boo")], abs=1e-12)  # net of 9
    assert ann_moves_tile.best.ev >= ann_moves_tile.done.ev


def test_skill_plus_luck_is_the_money_won_and_the_coach_is_repeatable():
    result = play_planned("2018", 3, plan(1, ["strong", "greedy", "random", "expert"], False)[0], keep_log=True)
    log = parse_log(result.log)
    first, second = analyse_log(log, rollouts=300, seed=2), analyse_log(log, rollouts=300, seed=2)
    assert first.as_json() == second.as_json()
    decisions = 0
    for name, player in first.players.items():
        assert player.final_money == result.money[result.seating.index(name)]
        assert player.skill + player.luck == pytest.approx(player.final_money - player.start_money)
        assert all(d.cost >= 0 and d.best.ev >= d.done.ev - 1e-9 for d in player.decisions)
        decisions += len(player.decisions)
    assert decisions == len(log.actions)
    # random plays worse than expert by the coach's measure
    per_decision = {name: p.cost / len(p.decisions) for name, p in first.players.items()}
    assert per_decision["random"] > per_decision["expert"]


def test_analyse_command_text_json_and_errors(tmp_path, capsys):
    result = play_planned("2014", 1, plan(1, ["greedy", "random"], False)[0], keep_log=True)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(result.log))
    assert main(["analyse", str(path), "--rollouts", "200"]) == 0
    out = capsys.readouterr().out
    assert "total cost" in out and "Most expensive" in out
    assert main(["analyse", str(path), "--rollouts", "200", "--json", "--player", "random"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data["players"]) == ["random"] and data["decisions"]
    assert {"done", "best", "cost"} <= set(data["decisions"][0])
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe\x00")
    for args, words in [([str(bad)], "not UTF-8"), ([str(tmp_path / "none.json")], "cannot read"),
                        ([str(path), "--player", "Zed"], "no player named 'Zed'")]:
        assert main(["analyse", *args]) == 2
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err
    log = json.loads(path.read_text())
    log["actions"].insert(0, {"player": "Nobody", "type": "leg_bet", "camel": "blue"})
    path.write_text(json.dumps(log))
    assert main(["analyse", str(path)]) == 2
    assert "action 1" in capsys.readouterr().err


def test_the_coach_uses_only_what_the_player_could_know():
    # Bob's hidden finish card must not change how Ann's options are priced.
    from companion.rules import FinishBet

    prices = []
    for camel in ("red", "green"):
        actions = [PyramidTicket("Ann", "green", 1), FinishBet("Bob", "winner", camel), LegBet("Ann", "red")]
        report = analyse_log(log_of(FAR_AHEAD, actions), rollouts=200, seed=random.Random(0).randrange(10))
        prices.append(report.players["Ann"].decisions[-1].as_json())
    assert prices[0] == prices[1]
