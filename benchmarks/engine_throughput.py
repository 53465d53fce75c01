"""How fast the rules engine plays: whole random 4-player games per second, and replays per second.

Run: .venv/bin/python benchmarks/engine_throughput.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import time

from companion.gamelog import parse_log
from companion.sim.bots import RandomBot
from companion.sim.play import play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(1)
    seats = [(name, RandomBot()) for name in ("Ann", "Bob", "Cy", "Dee")]
    for edition in ("2014", "2018"):
        start = time.perf_counter()
        games = [play_game(edition, seats, rng) for _ in range(args.games)]
        played = time.perf_counter() - start
        actions = sum(len(game.log.actions) for game in games)
        start = time.perf_counter()
        for game in games:
            parse_log(game.log.to_json()).replay()
        replayed = time.perf_counter() - start
        print(f"{edition}: {args.games / played:.0f} random 4-player games/s "
              f"({actions / played:.0f} actions/s incl. legal_actions), "
              f"replay {actions / replayed:.0f} actions/s")


if __name__ == "__main__":
    main()
