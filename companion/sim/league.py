"""``camelup league``: round-robin paired matches among any number of bots, with a rating table.

Every pair of bots plays ``deals`` deals of the dice, each deal twice with the seats swapped (so both bots
see the same dice from both seats). Games are seeded from the league's seed and their number alone: the
same seed gives the same league whatever the number of workers (as long as no bot runs over its time limit,
which depends on the machine). Ratings are OpenSkill's Plackett-Luce model, updated game by game in the
order of the plan; the head-to-head results are paired per deal, with 95% intervals.
"""

from __future__ import annotations

import csv
import itertools
import math
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.sim.bots import make_bots
from companion.sim.files import usable_directory, write_json
from companion.sim.guard import FAULTS, KINDS
from companion.sim.simulate import GamePlan, GameResult, _worker, seat_labels, wilson_interval

Z95 = 1.96


def league_plan(labels: Sequence[str], deals: int) -> list[GamePlan]:
    """Every pair of bots, ``deals`` deals each, every deal in both seatings (consecutive games)."""
    plans = []
    for pair_index, (first, second) in enumerate(itertools.combinations(labels, 2)):
        for deal in range(deals):
            deal_id = pair_index * deals + deal
            for seating in ((first, second), (second, first)):
                plans.append(GamePlan(len(plans), deal_id, seating))
    return plans


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation between order statistics (numpy's default)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal interval."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, -math.inf, math.inf)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return (mean, mean - half, mean + half)


@dataclass
class BotLine:
    games: int = 0
    wins: float = 0.0
    money: int = 0
    kinds: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    faults: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAULTS, 0))
    seconds: list[float] = field(default_factory=list)
    by_seat: dict[int, list[float]] = field(default_factory=dict)
    """Win shares by seat (0 = first to play)."""


@dataclass
class League:
    edition: str
    bots: tuple[str, ...]
    seed: int
    deals: int
    results: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0

    def _lines(self) -> dict[str, BotLine]:
        lines = {label: BotLine() for label in self.bots}
        for result in self.results:
            share = 1 / len(result.winners)
            for seat, (label, money, record) in enumerate(zip(result.seating, result.money, result.records,
                                                               strict=True)):
                line = lines[label]
                won = share if label in result.winners else 0.0
                line.games += 1
                line.wins += won
                line.money += money
                line.seconds += record["seconds"]
                line.by_seat.setdefault(seat, []).append(won)
                for kind, count in record["actions"].items():
                    line.kinds[kind] += count
                for fault, count in record["faults"].items():
                    line.faults[fault] += count
        return lines

    def ratings(self) -> dict[str, dict[str, float]]:
        """OpenSkill (Plackett-Luce) ratings after every game in plan order: mu, sigma, the 95% interval
        mu ± 1.96 sigma, and the conservative ordinal mu − 3 sigma."""
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        ratings = {label: model.rating(name=label) for label in self.bots}
        for result in sorted(self.results, key=lambda r: r.index):
            teams = [[ratings[label]] for label in result.seating]
            ranks = [1 + sum(other > money for other in result.money) for money in result.money]
            for label, (rated,) in zip(result.seating, model.rate(teams, ranks=ranks), strict=True):
                ratings[label] = rated
        return {
            label: {"mu": r.mu, "sigma": r.sigma, "low": r.mu - Z95 * r.sigma, "high": r.mu + Z95 * r.sigma,
                    "ordinal": r.ordinal()}
            for label, r in ratings.items()
        }

    def pairs(self) -> list[dict[str, Any]]:
        """Head-to-head, paired per deal: each deal is scored as the first bot's wins over its two games
        minus one (from −1 to +1), and its money minus the other's over both games."""
        deals: dict[tuple[str, str, int], list[GameResult]] = {}
        for result in self.results:
            first, second = sorted(result.seating, key=self.bots.index)
            deals.setdefault((first, second, result.index // 2), []).append(result)  # a deal: two games in a row
        by_pair: dict[tuple[str, str], tuple[list[float], list[float]]] = {}
        for (first, second, _), games in deals.items():
            wins = sum((1 / len(g.winners)) if first in g.winners else 0.0 for g in games)
            money = sum(g.money[g.seating.index(first)] - g.money[g.seating.index(second)] for g in games)
            scores, diffs = by_pair.setdefault((first, second), ([], []))
            scores.append(wins - len(games) / 2)
            diffs.append(money)
        table = []
        for (first, second), (scores, diffs) in by_pair.items():
            # One won and one lost deal are added for the interval only, so a handful of identical deals
            # does not claim certainty (the plus-two idea of Agresti and Caffo).
            score = sum(scores) / len(scores)
            _, low, high = mean_interval([*scores, -1.0, 1.0])
            low, high = max(low, -1.0), min(high, 1.0)
            money, money_low, money_high = mean_interval(diffs)
            table.append({
                "bot": first, "opponent": second, "deals": len(scores), "games": 2 * len(scores),
                "win_rate": 0.5 + score / 2, "win_rate_95": [0.5 + low / 2, 0.5 + high / 2],
                "money_diff_per_deal": money, "money_diff_95": [money_low, money_high],
                "significant": low > 0 or high < 0,
            })
        return table

    def as_json(self) -> dict[str, Any]:
        ratings = self.ratings()
        bots = {}
        for label, line in self._lines().items():
            n = max(line.games, 1)
            decisions = max(sum(line.kinds.values()), 1)
            bots[label] = {
                "rating": ratings[label],
                "games": line.games,
                "win_rate": line.wins / n,
                "win_rate_95": list(wilson_interval(line.wins / n, line.games)),
                "mean_money": line.money / n,
                "action_mix": {kind: count / decisions for kind, count in line.kinds.items()},
                "faults": line.faults,
                "decision_ms": {f"p{int(q * 100)}": 1000 * percentile(line.seconds, q) for q in (0.5, 0.9, 0.99)}
                | {"max": 1000 * max(line.seconds, default=0.0)},
                "win_rate_by_seat": {str(seat + 1): sum(w) / len(w) for seat, w in sorted(line.by_seat.items())},
            }
        seat_wins: dict[int, list[float]] = {}
        for result in self.results:
            for seat, label in enumerate(result.seating):
                seat_wins.setdefault(seat, []).append((1 / len(result.winners)) if label in result.winners else 0.0)
        return {
            "format": "camelup-league/1",
            "edition": self.edition,
            "seed": self.seed,
            "deals_per_pair": self.deals,
            "games": len(self.results),
            "seconds": self.seconds,
            "bots": bots,
            "pairs": self.pairs(),
            "win_rate_by_seat": {str(seat + 1): sum(w) / len(w) for seat, w in sorted(seat_wins.items())},
        }

    def table(self, data: dict[str, Any] | None = None) -> str:
        data = data or self.as_json()
        lines = [f"League: {len(self.bots)} bots, {data['games']} games of the {self.edition} edition "
                 f"({self.deals} deals per pair, both seatings), seed {self.seed}"]
        lines.append(f"{'#':>2} {'bot':28} {'rating (95%)':>20} {'win rate':>9} {'money':>7} "
                     f"{'leg':>5} {'tile':>5} {'pyr':>5} {'fin':>5} {'faults':>6} {'ms p50/p99':>12}")
        ranked = sorted(data["bots"].items(), key=lambda item: -item[1]["rating"]["mu"])
        for place, (label, bot) in enumerate(ranked, 1):
            r, mix, ms = bot["rating"], bot["action_mix"], bot["decision_ms"]
            rating = f"{r['mu']:.1f} ({r['low']:.1f}–{r['high']:.1f})"
            timing = f"{ms['p50']:.0f}/{ms['p99']:.0f}"
            lines.append(
                f"{place:>2} {label[:28]:28} {rating:>20} {100 * bot['win_rate']:8.1f}% {bot['mean_money']:7.1f} "
                + " ".join(f"{100 * mix[k]:4.0f}%" for k in ("leg_bet", "tile", "pyramid", "finish_card"))
                + f" {sum(bot['faults'].values()):6d} {timing:>12}"
            )
        lines.append("Head to head (paired by deal; * = the 95% interval excludes an even match):")
        for pair in data["pairs"]:
            low, high = pair["win_rate_95"]
            lines.append(f"  {pair['bot']} vs {pair['opponent']}: {100 * pair['win_rate']:.1f}% "
                         f"({100 * low:.1f}–{100 * high:.1f}%) over {pair['games']} games, money "
                         f"{pair['money_diff_per_deal']:+.1f} per deal{' *' if pair['significant'] else ''}")
        seats = ", ".join(f"seat {seat} {100 * rate:.1f}%" for seat, rate in data["win_rate_by_seat"].items())
        lines.append(f"Win rate by seat: {seats}")
        return "\n".join(lines)

    def write(self, directory: Path, data: dict[str, Any] | None = None) -> list[Path]:
        """league.json, ratings.csv (one row per bot) and pairs.csv (one row per pair)."""
        data = data or self.as_json()
        write_json(directory / "league.json", data)
        ratings = directory / "ratings.csv"
        with ratings.open("w", newline="", encoding="utf-8") as handle:
            out = csv.writer(handle)
            out.writerow(["bot", "mu", "sigma", "low_95", "high_95", "games", "win_rate", "win_low_95",
                          "win_high_95", "mean_money", *(f"mix_{k}" for k in KINDS), *(f"faults_{f}" for f in FAULTS),
                          "ms_p50", "ms_p90", "ms_p99", "win_rate_seat_1", "win_rate_seat_2"])
            for label, bot in data["bots"].items():
                r = bot["rating"]
                out.writerow([label, r["mu"], r["sigma"], r["low"], r["high"], bot["games"], bot["win_rate"],
                              *bot["win_rate_95"], bot["mean_money"], *(bot["action_mix"][k] for k in KINDS),
                              *(bot["faults"][f] for f in FAULTS), bot["decision_ms"]["p50"],
                              bot["decision_ms"]["p90"], bot["decision_ms"]["p99"],
                              bot["win_rate_by_seat"].get("1"), bot["win_rate_by_seat"].get("2")])
        pairs = directory / "pairs.csv"
        with pairs.open("w", newline="", encoding="utf-8") as handle:
            out = csv.writer(handle)
            out.writerow(["bot", "opponent", "games", "win_rate", "low_95", "high_95", "money_diff_per_deal",
                          "money_low_95", "money_high_95", "significant"])
            for pair in data["pairs"]:
                out.writerow([pair["bot"], pair["opponent"], pair["games"], pair["win_rate"], *pair["win_rate_95"],
                              pair["money_diff_per_deal"], *pair["money_diff_95"], pair["significant"]])
        return [directory / "league.json", ratings, pairs]


def run_league(
    bots: Sequence[str],
    deals: int,
    edition: str = "2018",
    seed: int = 0,
    workers: int | None = None,
    timeout: float = 5.0,
    progress: Callable[[Iterable[GameResult], int], Iterable[GameResult]] | None = None,
) -> League:
    """Play the league. ``workers`` defaults to every core.

    Raises:
        ValueError: fewer than two bots, a bot that cannot be loaded, a bad number.
    """
    if len(bots) < 2:
        raise ValueError("a league needs at least two bots")
    if deals < 1:
        raise ValueError("--deals must be at least 1")
    if not timeout > 0:
        raise ValueError("--timeout must be more than 0 seconds")
    workers = workers or os.cpu_count() or 1
    if workers < 1:
        raise ValueError("--workers must be at least 1")
    labels = seat_labels(bots)
    make_bots(list(bots))  # a bot that cannot be loaded fails here, before any game
    plans = league_plan(labels, deals)
    jobs = [(edition, seed, game, False, timeout) for game in plans]
    league = League(edition, tuple(labels), seed, deals)
    start = time.perf_counter()
    pool = multiprocessing.get_context("fork" if os.name == "posix" else "spawn").Pool(workers) if workers > 1 else None
    try:
        stream: Iterable[GameResult] = (
            pool.imap_unordered(_worker, jobs, chunksize=max(1, len(jobs) // (workers * 40)))
            if pool is not None else map(_worker, jobs)
        )
        if progress is not None:
            stream = progress(stream, len(jobs))
        league.results.extend(stream)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    league.seconds = time.perf_counter() - start
    league.results.sort(key=lambda result: result.index)
    return league


def write_league(league: League, out: str | Path) -> list[Path]:
    return league.write(usable_directory(out))
