"""Issue 3's figures: exact leg odds, race rollouts per second, whole simulated games per second.

Targets on this 2-core machine: exact leg odds at the 2018 reference leg start <= 30 ms; >= 20,000 race
rollouts/s on one core; >= 200 whole 4-player greedy games/s on one core, nearly double with 2 workers.
Run: .venv/bin/python benchmarks/odds_and_simulation.py [--quick]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.odds import exact_leg_odds
from companion.odds.race import rollout
from companion.rules import EDITION_2014, EDITION_2018, PyramidTicket, apply, new_game
from companion.sim.simulate import run_tournament

# Blue then green on 5, red on 6, yellow then purple on 7, black on 13, white on 14 (bottom first).
REFERENCE_2018 = {5: ("blue", "green"), 6: ("red",), 7: ("yellow", "purple"), 13: ("black",), 14: ("white",)}
START_2014 = {1: ("blue", "green"), 2: ("orange",), 3: ("yellow", "white")}


def timed_ms(function, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repeats (for a smoke run)")
    args = parser.parse_args()
    repeats = 3 if args.quick else 9

    start_2018 = new_game(EDITION_2018, ["Ann", "Bob", "Cy", "Dee"], REFERENCE_2018)
    purple = exact_leg_odds(start_2018).first["purple"]
    ms = timed_ms(lambda: exact_leg_odds(start_2018), repeats)
    print(f"exact leg odds, 2018 reference leg start: {ms:.1f} ms median (target <= 30 ms); "
          f"P(purple first) {purple:.4f}")
    after_one = apply(start_2018, PyramidTicket("Ann", "red", 2))
    ms = timed_ms(lambda: exact_leg_odds(after_one), repeats)
    print(f"exact leg odds, same position after red 2: {ms:.1f} ms median")
    start_2014 = new_game(EDITION_2014, ["Ann", "Bob", "Cy", "Dee"], START_2014)
    ms = timed_ms(lambda: exact_leg_odds(start_2014), repeats)
    print(f"exact leg odds, 2014 leg start: {ms:.1f} ms median")

    rng = random.Random(1)
    count = 5_000 if args.quick else 30_000
    begin = time.perf_counter()
    for _ in range(count):
        rollout(start_2018, rng)
    rate = count / (time.perf_counter() - begin)
    print(f"race rollouts from the 2018 reference position: {rate:,.0f}/s on one core (target >= 20,000/s)")

    games = 60 if args.quick else 300
    bots = ["greedy"] * 4
    one = run_tournament(games, "2018", bots, seed=1, workers=1)
    two = run_tournament(games, "2018", bots, seed=1, workers=2)
    print(f"whole 4-player greedy games (2018): {games / one.seconds:.0f}/s with 1 worker, "
          f"{games / two.seconds:.0f}/s with 2 workers (target >= 200/s on one core)")


if __name__ == "__main__":
    main()
