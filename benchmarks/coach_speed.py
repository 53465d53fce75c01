"""Issue 15's coach goal: `camelup analyse` of a whole 4-player game within 5 s on this machine, so the coach
page can show as the race ends.

Plays seeded 4-player 2018 games (expert, strong, greedy, random), then times the coach on each log with its
default settings (1000 race rollouts per board). Prints wall and CPU seconds per game (the machine is shared:
CPU seconds say what the coach itself costs). Run: .venv/bin/python benchmarks/coach_speed.py [--games N]
"""

from __future__ import annotations

import argparse
import statistics
import time

from companion.gamelog import parse_log
from companion.sim.coach import analyse_log
from companion.sim.simulate import plan, play_planned

GOAL_SECONDS = 5.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    games = plan(args.games, ["expert", "strong", "greedy", "random"], paired=False)
    walls, cpus, decisions = [], [], []
    for game in games:
        result = play_planned("2018", args.seed, game, keep_log=True)
        assert result.log is not None
        log = parse_log(result.log)
        wall, cpu = time.perf_counter(), time.process_time()
        report = analyse_log(log)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        decisions.append(sum(len(player.decisions) for player in report.players.values()))
    print(f"coach on {args.games} 4-player games ({statistics.mean(decisions):.0f} decisions each): "
          f"wall {statistics.median(walls):.2f} s median, {max(walls):.2f} s worst; "
          f"CPU {statistics.median(cpus):.2f} s median, {max(cpus):.2f} s worst (goal <= {GOAL_SECONDS:g} s)")


if __name__ == "__main__":
    main()
