"""Game logs and ``camelup replay``: the format, its errors, exit statuses and export."""

import copy
import json
import subprocess
import sys

import pytest

from companion.cli import main
from companion.gamelog import FORMAT, LogError, loads, make_log, parse_log, summary
from companion.rules import LegBet, PyramidTicket

SPEC_EXAMPLE = {
    "format": "camelup-game-log/1",
    "edition": "2018",
    "players": ["Ann", "Bob", "Cy"],
    "setup": {"track": {"1": ["green", "red"], "3": ["yellow", "blue", "purple"], "14": ["black"], "16": ["white"]}},
    "actions": [
        {"player": "Ann", "type": "leg_bet", "camel": "red"},
        {"player": "Bob", "type": "spectator", "space": 7, "side": "cheer"},
        {"player": "Cy", "type": "pyramid", "die": "red", "value": 2},
        {"player": "Ann", "type": "pyramid", "die": "grey", "value": 1, "crazy": "black"},
        {"player": "Bob", "type": "finish_bet", "pile": "winner", "camel": "blue"},
    ],
}


def with_changes(**changes):
    log = copy.deepcopy(SPEC_EXAMPLE)
    log.update(changes)
    return log


def refusal(log) -> LogError:
    with pytest.raises(LogError) as info:
        parse_log(log).replay()
    return info.value


def test_the_spec_example_replays():
    state = parse_log(SPEC_EXAMPLE).replay()
    out = summary(state)
    assert out["edition"] == "2018" and out["leg"] == 1 and out["game_over"] is False
    # red (carrying nothing: it is on top of green) moves 1 → 3 onto purple; black moves 14 → 13.
    assert out["track"] == {
        "1": ["green"],
        "3": ["yellow", "blue", "purple", "red"],
        "13": ["black"],
        "16": ["white"],
    }
    assert out["ranking"] == ["red", "purple", "blue", "yellow", "green"]
    assert out["money"] == {"Ann": 3, "Bob": 3, "Cy": 3}
    assert out["next_player"] == "Cy"
    assert out["tiles"] == [{"space": 7, "owner": "Bob", "side": "cheer"}]


@pytest.mark.parametrize(
    ("log", "index", "words"),
    [
        ([], 0, "must be a JSON object"),
        (with_changes(format="camelup/2"), 0, "'format' must be"),
        (with_changes(edition="2020"), 0, "'edition' must be one of"),
        (with_changes(players="Ann"), 0, "'players' must be a list"),
        (with_changes(players=["Ann"]), 0, "2 to 8 players"),
        (with_changes(players=["Ann", "Ann"]), 0, "share the name"),
        ({k: v for k, v in SPEC_EXAMPLE.items() if k != "setup"}, 0, "no 'setup'"),
        (with_changes(setup={"track": []}), 0, "'setup' must be an object"),
        (with_changes(setup={"track": {"x": ["red"]}}), 0, "space number"),
        (with_changes(setup={"track": {"1": "red"}}), 0, "must list camel names"),
        (with_changes(setup={"track": {"1": ["green", "red", "green"], "3": ["yellow", "blue", "purple"],
                                       "14": ["black"], "16": ["white"]}}), 0, "on the track twice"),
        (with_changes(setup={"track": {"17": ["green", "red", "yellow", "blue", "purple", "black", "white"]}}),
         0, "not on the track"),
        (with_changes(actions={}), 0, "'actions' must be a list"),
        (with_changes(actions=[["leg_bet"]]), 1, "must be a JSON object"),
        (with_changes(actions=[{"player": "Ann", "type": "dance"}]), 1, "unknown action type \"dance\""),
        (with_changes(actions=[{"player": "Ann", "type": "leg_bet"}]), 1, "needs 'camel'"),
        (with_changes(actions=[{"player": 7, "type": "leg_bet", "camel": "red"}]), 1, "'player' must be a text"),
        (with_changes(actions=[{"player": "Ann", "type": "spectator", "space": "7", "side": "cheer"}]), 1,
         "'space' must be a whole number, not \"7\""),
        (with_changes(actions=[{"player": "Ann", "type": "pyramid", "die": "red", "value": 2.5}]), 1,
         "'value' must be a whole number"),
        (with_changes(actions=[{"player": "Ann", "type": "pyramid", "die": "grey", "value": 2, "crazy": 1}]), 1,
         "'crazy' must be a text"),
        (with_changes(actions=[*SPEC_EXAMPLE["actions"][:2], {"player": "Ann", "type": "leg_bet", "camel": "red"}]),
         3, "it is Cy's turn, not Ann's"),
        (with_changes(actions=[*SPEC_EXAMPLE["actions"][:3], {"player": "Ann", "type": "pyramid", "die": "red",
                                                               "value": 1}]), 4, "already come out"),
    ],
)
def test_malformed_logs_name_the_problem_and_the_action(log, index, words):
    error = refusal(log)
    assert error.action == index
    assert words in error.message


def test_a_log_that_is_not_json_is_a_json_error():
    with pytest.raises(json.JSONDecodeError):
        loads("{not json")


def test_export_then_replay_gives_the_same_state():
    state = parse_log(SPEC_EXAMPLE).replay()
    log = make_log("2018", ["Ann", "Bob", "Cy"], {1: ["green", "red"], 3: ["yellow", "blue", "purple"],
                                                  14: ["black"], 16: ["white"]},
                   [LegBet("Ann", "red")])
    exported = json.loads(json.dumps(log.to_json()))
    assert exported["format"] == FORMAT and exported["actions"] == [SPEC_EXAMPLE["actions"][0]]
    again = parse_log(json.loads(json.dumps(parse_log(SPEC_EXAMPLE).to_json()))).replay()
    assert summary(again) == summary(state)
    assert parse_log(exported).replay().leg_tickets[0].camel == "red"


def test_pyramid_action_round_trips_the_crazy_colour():
    log = make_log("2018", ["A", "B"], {1: ["green", "red", "yellow", "blue", "purple"], 15: ["black", "white"]},
                   [PyramidTicket("A", "grey", 2, "white")])
    assert log.actions[0] == {"player": "A", "type": "pyramid", "die": "grey", "value": 2, "crazy": "white"}


# -- the command ------------------------------------------------------------------------------------------


def run_replay(tmp_path, capsys, *logs, raw=None):
    paths = []
    for index, log in enumerate(logs):
        path = tmp_path / f"log{index}.json"
        path.write_text(raw[index] if raw and raw[index] is not None else json.dumps(log))
        paths.append(str(path))
    status = main(["replay", *paths])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return status, lines


def test_replay_prints_one_line_per_log_and_exits_0(tmp_path, capsys):
    status, lines = run_replay(tmp_path, capsys, SPEC_EXAMPLE, SPEC_EXAMPLE)
    assert status == 0 and len(lines) == 2
    assert set(lines[0]) >= {"edition", "leg", "game_over", "track", "ranking", "money", "next_player"}


def test_replay_exits_1_with_the_index_of_the_first_bad_action(tmp_path, capsys):
    bad = with_changes(actions=[*SPEC_EXAMPLE["actions"], {"player": "Cy", "type": "leg_bet", "camel": "pink"}])
    status, lines = run_replay(tmp_path, capsys, SPEC_EXAMPLE, bad)
    assert status == 1
    assert lines[1]["action"] == 6 and "pink" in lines[1]["error"]
    assert set(lines[1]) == {"error", "action"}


def test_replay_exits_2_for_a_file_that_is_not_json_or_missing(tmp_path, capsys):
    status, lines = run_replay(tmp_path, capsys, SPEC_EXAMPLE, None, raw=[None, "{oops"])
    assert status == 2
    assert lines[0]["next_player"] == "Cy" and "not JSON" in lines[1]["error"]
    status = main(["replay", str(tmp_path / "missing.json")])
    captured = capsys.readouterr()
    assert status == 2 and "cannot read" in captured.err


def test_replay_reads_standard_input_in_a_real_process():
    result = subprocess.run(
        [sys.executable, "-m", "companion.cli", "replay", "-"],
        input=json.dumps(SPEC_EXAMPLE),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["ranking"][0] == "red"


def test_play_command_plays_a_whole_game_and_writes_a_replayable_log(tmp_path, capsys):
    log_path = tmp_path / "game.json"
    assert main(["play", "--seed", "7", "--edition", "2014", "--log", str(log_path)]) == 0
    out = capsys.readouterr().out
    assert "The race is over" in out and "Leg 1 scoring" in out
    assert main(["replay", str(log_path)]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["game_over"] is True and replayed["next_player"] is None
    final_line = next(line for line in out.splitlines() if line.startswith("Final money:"))
    for player, money in replayed["money"].items():
        assert f"{player} {money}" in final_line


def test_replay_accepts_a_byte_order_mark(tmp_path, capsys):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(SPEC_EXAMPLE).encode())
    assert main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["next_player"] == "Cy"
