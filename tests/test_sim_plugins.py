"""Bots from files, modules and other programs; the guard turns their failures into counted pyramid tickets."""

import json
import random
import sys
import textwrap
from pathlib import Path

import pytest

from companion.cli import main
from companion.gamelog import parse_log
from companion.rules import HIDDEN
from companion.sim.bots import make_bots
from companion.sim.plugins import SubprocessBot
from companion.sim.simulate import run_tournament

ROOT = Path(__file__).resolve().parents[1]
LEADER = ROOT / "examples" / "bots" / "leader.py"


def script(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


def faults(tournament, label):
    return tournament.as_json()["bots"][label]["faults"]


def test_python_bots_by_file_and_by_module_play_whole_games(tmp_path, monkeypatch):
    body = """
        from companion.sim.bots import DRAW

        class Cautious:
            name = "cautious"
            def choose(self, view, legal, rng):
                return DRAW
    """
    path = script(tmp_path, "cautious_bot.py", body)
    monkeypatch.syspath_prepend(str(tmp_path))
    tournament = run_tournament(4, "2014", [str(path), "cautious_bot:Cautious", "greedy"], seed=3, logs=tmp_path / "l")
    stats = tournament.as_json()["bots"]
    for label in (str(path), "cautious_bot:Cautious"):
        assert stats[label]["action_mix"]["pyramid"] == 1.0
        assert sum(stats[label]["faults"].values()) == 0
    for log in (tmp_path / "l").glob("*.json"):
        assert parse_log(json.loads(log.read_text())).replay().game_over


def test_unloadable_bots_are_refused_in_words(tmp_path, capsys):
    two = script(tmp_path, "two.py", """
        class A:
            def choose(self, view, legal, rng): ...
        class B:
            def choose(self, view, legal, rng): ...
    """)
    broken = script(tmp_path, "broken.py", "raise RuntimeError('no config')\n")
    cases = {
        str(two): "exactly one class with a choose method (found: A, B)",
        f"{two}:C": "has no class 'C'",
        str(broken): "loading", "nosuchmodule_xyz:Bot": "cannot import",
        str(tmp_path / "missing.py"): "no bot file", "wizard": "unknown bot 'wizard'",
    }
    for spec, words in cases.items():
        with pytest.raises(ValueError) as error:
            make_bots([spec])
        assert words in str(error.value)
    assert main(["simulate", "--players", f"greedy,{broken}", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "no config" in err and "Traceback" not in err
    assert len(make_bots([f"{two}:B"])) == 1


def test_the_example_python_bot_file_plays_without_faults():
    spec = str(ROOT / "examples" / "bots" / "tile_lover.py")
    tournament = run_tournament(2, "2018", [spec, "greedy"], seed=6, paired=True)
    stats = tournament.as_json()["bots"][spec]
    assert sum(stats["faults"].values()) == 0 and stats["action_mix"]["tile"] > 0


def test_the_example_program_bot_plays_by_the_protocol(tmp_path):
    spec = f"exec:{sys.executable} {LEADER}"
    tournament = run_tournament(4, "2018", [spec, "greedy"], seed=1, paired=True, logs=tmp_path)
    stats = tournament.as_json()["bots"][spec]
    assert sum(stats["faults"].values()) == 0
    assert stats["action_mix"]["leg_bet"] > 0.1 and stats["action_mix"]["pyramid"] > 0.1
    for log in tmp_path.glob("*.json"):
        assert parse_log(json.loads(log.read_text())).replay().game_over


def test_a_program_bot_sees_only_what_its_seat_may_know(tmp_path):
    seen = tmp_path / "seen.jsonl"
    bot = script(tmp_path, "recorder.py", f"""
        import json, sys
        with open({str(seen)!r}, "a") as out:
            for line in sys.stdin:
                out.write(line)
                out.flush()
                request = json.loads(line)
                cards = [a for a in request["legal"] if a["type"] == "finish_bet"]
                print(json.dumps(cards[0] if cards else {{"type": "pyramid"}}), flush=True)
    """)
    run_tournament(2, "2018", [f"exec:{sys.executable} {bot}", f"exec:{sys.executable} {bot}"], seed=2)
    requests = [json.loads(line) for line in seen.read_text().splitlines()]
    checked = 0
    for request in requests:
        assert request["protocol"] == "camelup-bot/1" and 0 <= request["seed"] < 2**32
        assert {"type": "pyramid"} in request["legal"]
        for card in request["state"]["winner_pile"] + request["state"]["loser_pile"]:
            if card["owner"] == request["you"]:
                assert card["camel"] != HIDDEN
            else:
                assert card["camel"] == HIDDEN
                checked += 1
    assert checked > 0


@pytest.mark.parametrize(("body", "fault", "words"), [
    ("import sys\nsys.stdin.readline()\nraise SystemExit('out of ideas')\n", "crash", "out of ideas"),
    ("import sys, time\nfor line in sys.stdin:\n    time.sleep(5)\n", "timeout", "no answer within"),
    ("import sys\nfor line in sys.stdin:\n    print('{\"type\": \"leg_bet\", \"camel\": \"pink\"}', flush=True)\n",
     "illegal", "pink"),
    ("import sys\nfor line in sys.stdin:\n    print('hello', flush=True)\n", "illegal", "not JSON"),
])
def test_failing_program_bots_play_pyramid_tickets_and_are_counted(tmp_path, monkeypatch, body, fault, words):
    monkeypatch.setattr(SubprocessBot, "startup_seconds", 0.0)
    bot = script(tmp_path, "bad.py", body)
    spec = f"exec:{sys.executable} {bot}"
    tournament = run_tournament(1, "2014", [spec, "greedy"], seed=4, timeout=0.2)
    stats = tournament.as_json()["bots"][spec]
    assert stats["faults"][fault] > 0
    assert stats["action_mix"]["pyramid"] == 1.0  # every faulty decision became a pyramid ticket
    assert tournament.results[0].records[0]["fault_examples"][fault].find(words) >= 0


def test_a_slow_starting_program_gets_extra_time_for_its_first_decision_only(tmp_path):
    bot = script(tmp_path, "slow.py", """
        import json, sys, time
        time.sleep(0.6)  # a slow interpreter start
        for line in sys.stdin:
            print(json.dumps({"type": "pyramid"}), flush=True)
    """)
    spec = f"exec:{sys.executable} {bot}"
    tournament = run_tournament(1, "2014", [spec, "greedy"], seed=4, timeout=0.5)
    assert sum(faults(tournament, spec).values()) == 0


def test_failing_python_bots_are_counted_too(tmp_path):
    bot = script(tmp_path, "flaky.py", """
        from companion.rules import LegBet

        class Flaky:
            calls = 0
            def choose(self, view, legal, rng):
                self.calls += 1
                if self.calls % 2:
                    raise KeyError("oops")
                return LegBet(legal.player, "pink")
    """)
    tournament = run_tournament(1, "2014", [str(bot), "greedy"], seed=4)
    found = faults(tournament, str(bot))
    assert found["crash"] > 0 and found["illegal"] > 0


def test_a_python_bot_over_its_time_has_its_answer_thrown_away(tmp_path):
    bot = script(tmp_path, "slow_python.py", """
        import time
        from companion.rules import LegBet

        class Slow:
            calls = 0
            def choose(self, view, legal, rng):
                self.calls += 1
                if self.calls == 1:
                    time.sleep(0.3)
                    return LegBet(legal.player, legal.leg_bets[0])
                return next(iter(legal.other_than_pyramid()))
    """)
    tournament = run_tournament(1, "2014", [str(bot), "greedy"], seed=4, timeout=0.1)
    record = tournament.results[0].records[0]
    assert record["faults"]["timeout"] == 1 and "limit 0.1 s" in record["fault_examples"]["timeout"]
    assert max(record["seconds"]) >= 0.3



def test_every_listed_legal_action_is_accepted_back_and_nothing_else():
    from companion.gamelog import action_from_json
    from companion.rules import apply, legal_actions, view_for
    from companion.sim.bots import DRAW
    from companion.sim.protocol import AnswerError, legal_to_json, parse_answer, request
    from tests.gamegen import random_log

    checked = 0
    for seed, players in ((1, 6), (2, 3)):
        game = parse_log(random_log(random.Random(seed), edition="2018", players=players, noise=0))
        state = game.start()
        for obj in game.actions:
            view = view_for(state, state.current_player)
            legal = legal_actions(view)
            listed = legal_to_json(legal)
            assert len(listed) == 1 + sum(1 for _ in legal.other_than_pyramid())
            for item in listed:
                choice = parse_answer(json.dumps(item), legal)
                assert choice is DRAW or choice in legal_actions(state)
            assert json.loads(request(view, legal, 7))["state"]["players"] == list(state.players)
            with pytest.raises(AnswerError):
                parse_answer(json.dumps({"type": "leg_bet", "camel": "red", "player": "Nobody"}), legal)
            checked += 1
            state = apply(state, action_from_json(obj))
    assert checked > 20
