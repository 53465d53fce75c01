"""The league: paired round robin, repeatable, ratings and tables written as JSON and CSV."""

import csv
import json
import random

import numpy as np
import pytest

from companion.cli import main
from companion.sim.league import league_plan, percentile, run_league


def test_every_pair_plays_each_deal_in_both_seatings():
    plans = league_plan(["a", "b", "c"], deals=2)
    assert len(plans) == 3 * 2 * 2
    pairs = {frozenset(p.seating) for p in plans}
    assert pairs == {frozenset("ab"), frozenset("ac"), frozenset("bc")}
    for first, second in zip(plans[::2], plans[1::2], strict=True):
        assert first.deal == second.deal and first.seating == second.seating[::-1]
    assert len({p.deal for p in plans}) == 6


def test_percentile_agrees_with_numpy():
    rng = random.Random(3)
    for size in (1, 2, 7, 100):
        values = [rng.expovariate(1.0) for _ in range(size)]
        for q in (0.0, 0.5, 0.9, 0.99, 1.0):
            assert percentile(values, q) == pytest.approx(float(np.percentile(values, 100 * q)))


def test_same_seed_same_league_with_one_or_two_workers():
    one = run_league(["greedy", "random", "greedy"], deals=2, edition="2014", seed=4, workers=1)
    two = run_league(["greedy", "random", "greedy"], deals=2, edition="2014", seed=4, workers=2)
    assert [(r.seating, r.money) for r in one.results] == [(r.seating, r.money) for r in two.results]
    a, b = one.as_json(), two.as_json()
    assert {k: v["rating"] for k, v in a["bots"].items()} == {k: v["rating"] for k, v in b["bots"].items()}
    assert set(a["bots"]) == {"greedy", "random", "greedy#2"}


def test_league_command_prints_and_writes_the_tables(tmp_path, capsys):
    out = tmp_path / "league"
    args = ["league", "--players", "greedy,random", "--deals", "6", "--seed", "1", "--workers", "1",
            "--out", str(out), "--quiet", "--edition", "2014"]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "rating (95%)" in printed and "greedy vs random" in printed
    data = json.loads((out / "league.json").read_text())
    greedy, random_bot = data["bots"]["greedy"], data["bots"]["random"]
    assert greedy["rating"]["mu"] > random_bot["rating"]["mu"]
    assert greedy["rating"]["low"] < greedy["rating"]["mu"] < greedy["rating"]["high"]
    assert greedy["games"] == random_bot["games"] == 12
    assert sum(greedy["action_mix"].values()) == pytest.approx(1.0)
    assert set(greedy["decision_ms"]) == {"p50", "p90", "p99", "max"}
    assert set(data["win_rate_by_seat"]) == {"1", "2"}
    (pair,) = data["pairs"]
    assert pair["games"] == 12 and pair["win_rate"] > 0.5
    rows = list(csv.DictReader((out / "ratings.csv").open()))
    assert {row["bot"] for row in rows} == {"greedy", "random"}
    assert float(rows[0]["mu"]) == pytest.approx(data["bots"][rows[0]["bot"]]["rating"]["mu"])
    assert len(list(csv.DictReader((out / "pairs.csv").open()))) == 1


def test_league_command_errors_are_sentences(tmp_path, capsys):
    assert main(["league", "--players", "greedy", "--out", str(tmp_path)]) == 2
    assert "at least two bots" in capsys.readouterr().err
    target = tmp_path / "file"
    target.write_text("")
    assert main(["league", "--players", "greedy,random", "--out", str(target)]) == 2
    assert "is a file, not a directory" in capsys.readouterr().err
    assert main(["league", "--players", "greedy,nobot", "--out", str(tmp_path / "x")]) == 2
    assert "unknown bot 'nobot'" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()  # refused input changes nothing
