"""The ``league`` and ``analyse`` commands (their parsers and runners; ``companion.cli`` only adds them)."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Iterable
from typing import Any

from companion.sim.progress import bar


def add_sim_parsers(commands: Any, league: Callable[[argparse.Namespace], int],
                    analyse: Callable[[argparse.Namespace], int]) -> None:
    parser = commands.add_parser(
        "league",
        help="round-robin paired matches among bots, with a rating table (JSON and CSV too)",
        description="Every pair of bots plays --deals deals of the dice, each in both seatings. Bots: random, "
        "greedy, strong, expert, module:Class, path/to/bot.py[:Class], exec:COMMAND (a program speaking "
        "camelup-bot/1, see the README). Prints OpenSkill ratings with 95% intervals, win rates, mean money, "
        "action mix, faults, decision times and seat effects, and writes league.json, ratings.csv and "
        "pairs.csv into --out. The same --seed gives the same league whatever --workers is.",
    )
    parser.add_argument("--players", required=True, help="comma-separated bots, at least two")
    parser.add_argument("--deals", type=int, default=20, help="deals per pair (each played in both seatings)")
    parser.add_argument("--edition", choices=("2014", "2018"), default="2018")
    parser.add_argument("--seed", type=int, help="league seed (default: random, printed)")
    parser.add_argument("--workers", type=int, help="processes (default: every core)")
    parser.add_argument("--timeout", type=float, default=5.0,
                        help="seconds a bot may take for one decision (then it plays a pyramid ticket, counted)")
    parser.add_argument("--out", default="league", metavar="DIR", help="where to write the JSON and CSV files")
    parser.add_argument("--json", action="store_true", help="print the JSON instead of the table")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=league)

    coach = commands.add_parser(
        "analyse",
        help="the coach: what every decision of a game log cost, per player",
        description="For every decision in the log: the expected value of what was done and of the best legal "
        "alternative at that moment (exact leg EVs; finish cards by seeded Monte Carlo with 95% intervals), "
        "each player's total cost, their three most expensive decisions in words, and luck versus skill.",
    )
    coach.add_argument("file", metavar="LOG", help="a game log ('-' reads standard input)")
    coach.add_argument("--rollouts", type=int, default=1000, help="race rollouts per position with finish cards")
    coach.add_argument("--seed", type=int, default=1, help="seed for the race rollouts")
    coach.add_argument("--player", help="only this player's decisions")
    coach.add_argument("--json", action="store_true", help="print JSON instead of text")
    coach.set_defaults(run=analyse)


def run_league_command(args: argparse.Namespace) -> int:
    from companion.sim.bots import make_bots
    from companion.sim.files import usable_directory
    from companion.sim.league import run_league

    bots = [name.strip() for name in args.players.split(",") if name.strip()]
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)

    def progress(results: Iterable[Any], total: int) -> Iterable[Any]:
        return bar(results, total, unit="game", desc="league", quiet=args.quiet)

    try:
        if len(bots) >= 2:
            make_bots(bots)  # a bad bot is said before anything is made on disk
        out = usable_directory(args.out)
        league = run_league(bots, args.deals, args.edition, seed, args.workers, args.timeout, progress)
    except ValueError as error:
        print(f"camelup league: {error}", file=sys.stderr)
        return 2
    data = league.as_json()
    try:
        paths = league.write(out, data)
    except OSError as error:
        print(f"camelup league: cannot write into {out}: {error.strerror or error}", file=sys.stderr)
        return 2
    print(json.dumps(data) if args.json else league.table(data))
    print(f"written: {', '.join(str(path) for path in paths)} (seed {seed})", file=sys.stderr)
    return 0


def run_analyse_command(args: argparse.Namespace) -> int:
    from companion.gamelog import LogError, loads
    from companion.sim.coach import analyse_log, coach_text

    name = args.file
    try:
        if name == "-":
            text = sys.stdin.read()
        else:
            with open(name, encoding="utf-8-sig") as handle:
                text = handle.read()
        log = loads(text)
        log.replay()
    except OSError as error:
        print(f"camelup analyse: cannot read {name}: {error.strerror or error}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"camelup analyse: {name} is not UTF-8 text: is it a game log?", file=sys.stderr)
        return 2
    except json.JSONDecodeError as error:
        print(f"camelup analyse: {name} is not JSON: {error.msg} at line {error.lineno}", file=sys.stderr)
        return 2
    except LogError as error:
        print(f"camelup analyse: {name}: action {error.action}: {error.message}", file=sys.stderr)
        return 2
    if args.rollouts < 1:
        print("camelup analyse: --rollouts must be at least 1", file=sys.stderr)
        return 2
    if args.player is not None and args.player not in log.players:
        print(f"camelup analyse: no player named {args.player!r} (players: {', '.join(log.players)})",
              file=sys.stderr)
        return 2
    report = analyse_log(log, rollouts=args.rollouts, seed=args.seed)
    if args.player is not None:
        report = report.only(args.player)
    print(json.dumps(report.as_json()) if args.json else coach_text(report))
    return 0
