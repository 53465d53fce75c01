"""Tournaments of bots without hardware: ``camelup simulate``.

Every game is seeded from the tournament's seed and its number alone, so the same seed gives the same
games whatever the number of workers. Seats rotate from game to game; with ``paired`` every deal of the
dice is played once in each rotation, so bots are compared on the same dice.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.sim.bots import make_bots
from companion.sim.files import usable_directory
from companion.sim.guard import GuardedBot
from companion.sim.play import play_game


@dataclass(frozen=True)
class GamePlan:
    index: int
    deal: int
    """Which deal of the dice (games with the same deal see the same dice)."""
    seating: tuple[str, ...]


@dataclass(frozen=True)
class GameResult:
    index: int
    seating: tuple[str, ...]
    money: tuple[int, ...]
    winners: tuple[str, ...]
    actions: int
    legs: int
    log: dict[str, Any] | None = None
    records: tuple[dict[str, Any], ...] = ()
    """Per seat: its actions by kind, decision times and faults (:class:`companion.sim.guard.SeatRecord`)."""


@dataclass
class BotStats:
    games: int = 0
    wins: float = 0.0
    money: int = 0
    actions: int = 0
    legs: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    faults: dict[str, int] = field(default_factory=dict)

    def add_record(self, record: dict[str, Any]) -> None:
        for kind, count in record["actions"].items():
            self.kinds[kind] = self.kinds.get(kind, 0) + count
        for fault, count in record["faults"].items():
            self.faults[fault] = self.faults.get(fault, 0) + count

    def as_json(self) -> dict[str, Any]:
        n = max(self.games, 1)
        rate = self.wins / n
        decisions = max(sum(self.kinds.values()), 1)
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": rate,
            "win_rate_95": list(wilson_interval(rate, n)),
            "mean_money": self.money / n,
            "mean_actions": self.actions / n,
            "mean_legs": self.legs / n,
            "action_mix": {kind: count / decisions for kind, count in self.kinds.items()},
            "faults": self.faults,
        }


@dataclass
class Tournament:
    edition: str
    bots: tuple[str, ...]
    seed: int
    paired: bool
    results: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0

    def stats(self) -> dict[str, BotStats]:
        stats = {label: BotStats() for label in seat_labels(self.bots)}
        for result in self.results:
            share = 1 / len(result.winners)
            records = result.records or ({"actions": {}, "faults": {}},) * len(result.seating)
            for label, money, record in zip(result.seating, result.money, records, strict=True):
                entry = stats[label]
                entry.add_record(record)
                entry.games += 1
                entry.money += money
                entry.actions += result.actions
                entry.legs += result.legs
                if label in result.winners:
                    entry.wins += share
        return stats

    def as_json(self) -> dict[str, Any]:
        return {
            "games": len(self.results),
            "edition": self.edition,
            "seed": self.seed,
            "paired": self.paired,
            "seconds": self.seconds,
            "games_per_second": len(self.results) / self.seconds if self.seconds else None,
            "bots": {label: stats.as_json() for label, stats in self.stats().items()},
        }

    def table(self) -> str:
        lines = [f"{len(self.results)} games of the {self.edition} edition, seed {self.seed}"
                 + (", paired seatings" if self.paired else "")
                 + (f", {len(self.results) / self.seconds:.0f} games/s" if self.seconds else "")]
        lines.append(f"{'bot':12} {'win rate':>9} {'95% interval':>16} {'mean money':>11} {'mean actions':>13}"
                     f" {'faults':>7}")
        for label, stats in self.stats().items():
            data = stats.as_json()
            low, high = data["win_rate_95"]
            lines.append(
                f"{label:12} {100 * data['win_rate']:8.1f}% {f'{100 * low:.1f}–{100 * high:.1f}%':>16} "
                f"{data['mean_money']:11.2f} {data['mean_actions']:13.1f} {sum(data['faults'].values()):7d}"
            )
        return "\n".join(lines)


def wilson_interval(rate: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate over ``n`` games (sensible at 0 and 1, unlike p ± 2σ)."""
    if n == 0:
        return (0.0, 1.0)
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def seat_labels(bots: Sequence[str]) -> list[str]:
    """Distinct names for the seats: ``greedy``, ``greedy#2``, ..."""
    labels = []
    for bot in bots:
        count = sum(1 for earlier in labels if earlier.split("#")[0] == bot)
        labels.append(bot if count == 0 else f"{bot}#{count + 1}")
    return labels


def plan(games: int, bots: Sequence[str], paired: bool) -> list[GamePlan]:
    labels = seat_labels(bots)
    seats = len(labels)
    plans = []
    for index in range(games):
        rotation = index % seats
        deal = index // seats if paired else index
        plans.append(GamePlan(index, deal, tuple(labels[rotation:] + labels[:rotation])))
    return plans


def play_planned(edition: str, seed: int, game: GamePlan, keep_log: bool, timeout: float = 5.0) -> GameResult:
    """Play one planned game. Dice and bot choices have separate seeded streams (string seeds are hashed
    the same way in every process). Every bot plays behind a guard (:mod:`companion.sim.guard`): a crash,
    a decision slower than ``timeout`` seconds or an illegal answer becomes a pyramid ticket, counted."""
    dice_rng = random.Random(f"camelup:{seed}:{game.deal}:dice")
    bot_rng = random.Random(f"camelup:{seed}:{game.index}:bots")
    bots = [GuardedBot(bot, timeout) for bot in make_bots([label.split("#")[0] for label in game.seating])]
    try:
        played = play_game(edition, list(zip(game.seating, bots, strict=True)), dice_rng, bot_rng)
    finally:
        for bot in bots:
            bot.close()
    state = played.state
    return GameResult(
        index=game.index,
        seating=game.seating,
        money=state.money,
        winners=state.winners(),
        actions=played.actions,
        legs=state.leg,
        log=played.log.to_json() if keep_log else None,
        records=tuple(bot.record.as_json() for bot in bots),
    )


def _worker(job: tuple[str, int, GamePlan, bool, float]) -> GameResult:
    return play_planned(*job)


def run_tournament(
    games: int,
    edition: str,
    bots: Sequence[str],
    seed: int,
    workers: int = 1,
    paired: bool = False,
    logs: Path | None = None,
    progress: Callable[[Iterable[GameResult], int], Iterable[GameResult]] | None = None,
    timeout: float = 5.0,
) -> Tournament:
    """Play ``games`` games. ``progress(results, total)`` may wrap the stream of results (a progress bar).

    Raises:
        ValueError: an unknown bot, a bad number of games, workers or seats.
    """
    if games < 1:
        raise ValueError("--games must be at least 1")
    if workers < 1:
        raise ValueError("--workers must be at least 1")
    if not 2 <= len(bots) <= 8:
        raise ValueError(f"a game needs 2 to 8 players, not {len(bots)}")
    make_bots(list(bots))  # unknown names fail here, before any work
    keep_log = logs is not None
    if logs is not None:
        logs = usable_directory(logs)  # a bad directory is said before any game is played
    if not timeout > 0:
        raise ValueError("--timeout must be more than 0 seconds")
    jobs = [(edition, seed, game, keep_log, timeout) for game in plan(games, bots, paired)]
    tournament = Tournament(edition, tuple(bots), seed, paired)
    start = time.perf_counter()
    pool = multiprocessing.get_context("fork" if os.name == "posix" else "spawn").Pool(workers) if workers > 1 else None
    try:
        stream: Iterable[GameResult] = (
            pool.imap_unordered(_worker, jobs, chunksize=max(1, games // (workers * 20)))
            if pool is not None
            else map(_worker, jobs)
        )
        if progress is not None:
            stream = progress(stream, games)
        for result in stream:
            if logs is not None and result.log is not None:
                target = logs / f"game-{result.index + 1:05d}.json"
                tmp = target.with_suffix(".tmp")
                tmp.write_text(json.dumps(result.log, indent=1) + "\n", encoding="utf-8")
                tmp.replace(target)
            tournament.results.append(result if logs is None else _without_log(result))
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    tournament.seconds = time.perf_counter() - start
    tournament.results.sort(key=lambda result: result.index)
    return tournament


def _without_log(result: GameResult) -> GameResult:
    return GameResult(result.index, result.seating, result.money, result.winners, result.actions, result.legs,
                      records=result.records)
