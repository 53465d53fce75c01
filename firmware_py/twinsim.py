"""Whole legs on the digital twin: a rig (its real decision code, Adafruit's real PCA9685 driver on a
simulated board), the physical pyramid, a game that accepts or refuses draws, and people who press, bounce,
hold, undo, refill and cut the power. Every die that falls is checked against the game; after every step
the tray must hold exactly the dice the game has out once people have done what the rig asked.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from firmware_py.config import RigConfig
from firmware_py.patterns import Pattern
from firmware_py.pyramid import Draw, Pyramid
from firmware_py.rig import RigCore
from firmware_py.rigstate import MemoryState
from firmware_py.servos import SimulatedPca9685Bus, open_gates
from firmware_py.twin import Fall, PowerCut, Twin, VirtualClock

CUT_STEPS = ("picked", "accepted", "saved", "opening", "open", "closed", "refilled", "sleep")


class RecordingLed:
    """An LED that remembers what it was told to show."""

    def __init__(self) -> None:
        self.current: Pattern | None = None
        self.shown: list[str] = []

    def play(self, pattern: Pattern) -> None:
        self.current = pattern
        self.shown.append(pattern.name)

    def close(self) -> None:
        pass


class SimGame:
    """The companion's game, as far as the pyramid is concerned: legs of five draws, refusals, undo."""

    def __init__(self, dice: list[str], rng: random.Random, refuse: float = 0.0) -> None:
        self.dice = dice
        self.rng = rng
        self.refuse = refuse
        self.leg = 1
        self.legs: dict[int, list[tuple[str, int, str | None]]] = {1: []}
        self.accepted = 0
        self.total_accepted = 0
        self.refused = 0
        self.changed: Callable[[], None] = lambda: None

    @property
    def out(self) -> list[tuple[str, int, str | None]]:
        return self.legs[self.leg]

    def authorize(self, draw: Draw) -> bool:
        if draw.die in {d for d, _, _ in self.out} or self.rng.random() < self.refuse:
            self.refused += 1
            return False
        self.out.append((draw.die, draw.value, draw.crazy))
        self.accepted += 1
        self.total_accepted += 1
        if len(self.out) == 5:
            self.leg += 1
            self.legs[self.leg] = []
        self.changed()
        return True

    def undo(self) -> None:
        if not self.out and self.leg > 1:
            del self.legs[self.leg]
            self.leg -= 1
        if self.out:
            self.out.pop()
            self.accepted -= 1
            self.changed()


@dataclass
class Report:
    edition: str
    legs: int = 0
    presses: int = 0
    draws: int = 0
    releases: int = 0
    wrong_releases: int = 0
    unreconciled: int = 0
    phantom_draws: int = 0
    bounces: int = 0
    holds: int = 0
    presses_during_moves: int = 0
    undos: int = 0
    refusals: int = 0
    refills: int = 0
    power_cuts: int = 0
    problems: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "problems"} | {"problems": self.problems[:10]}


class TwinRun:
    """One rig and its physical twin, driven step by step on a virtual clock."""

    def __init__(self, config: RigConfig, seed: int, faults: bool = True) -> None:
        self.config = config
        self.rng = random.Random(seed)
        self.faults = faults
        self.clock = VirtualClock()
        self.twin = Twin(config.servo, self.clock)
        self.twin.on_fall = self._fell
        self.store = MemoryState()
        names = [die.name for die in config.dice]
        self.game = SimGame(names, self.rng, refuse=0.03 if faults else 0.0)
        self.game.changed = lambda: self._pending.append((self.game.leg, tuple(self.game.out)))
        self.report = Report(config.edition)
        self._pending: list[tuple[int, tuple[tuple[str, int, str | None], ...]]] = []
        self._cut_in: int | None = None
        self._boots = 0
        self.core: RigCore = self._boot()

    # -- power ----------------------------------------------------------------------------------------------
    def _boot(self) -> RigCore:
        """Start the rig from what survives a power cut: the state file, the game, the physical world."""
        while True:
            self._boots += 1
            bus = self.twin.attach(SimulatedPca9685Bus(self.config.servo.i2c_address))
            gates = open_gates(self.config.servo, simulate=True, bus=bus)
            pyramid = Pyramid(self.config.dice, seed=self.rng.randrange(2**32), clock=self.clock)
            core = RigCore(pyramid, self.config, RecordingLed(), gates, self.store, self.clock, self.clock.sleep,
                           checkpoint=self._checkpoint)
            core.authorize = self.game.authorize
            self.core = core
            try:
                core.start()
                self._pending = [(self.game.leg, tuple(self.game.out))]  # the companion syncs at start
                self._flush()
                return core
            except PowerCut:
                self.report.power_cuts += 1

    def _checkpoint(self, step: str) -> None:
        if self._cut_in is not None:
            self._cut_in -= 1
            if self._cut_in <= 0:
                self._cut_in = None
                raise PowerCut(step)

    def _sleep_hook(self, start: float, seconds: float) -> None:
        if self._cut_in is not None and self._cut_in <= 1 and self.rng.random() < 0.5:
            self._cut_in = None
            self.clock.now = start + seconds * self.rng.random()  # part way through a move
            raise PowerCut("sleep")

    def _do(self, action: Callable[[], object]) -> None:
        """Run one call into the rig, then the reconciliations the game asked for; a power cut reboots."""
        try:
            action()
            self._flush()
        except PowerCut:
            self.report.power_cuts += 1
            self._boot()

    def _flush(self) -> None:
        while self._pending:
            leg, out = self._pending.pop(0)
            self.core.reconcile(leg, out)

    # -- what falls -----------------------------------------------------------------------------------------
    def _fell(self, fall: Fall) -> None:
        self.report.releases += 1
        core = self.core
        wanted = {d for d, _, _ in self.game.legs.get(core.pyramid.leg, [])}
        if fall.die != core.releasing or fall.die not in wanted:
            self.report.wrong_releases += 1
            self.report.problems.append(
                f"leg {core.pyramid.leg}: {fall.die} fell (releasing {core.releasing}, game out {sorted(wanted)})"
            )

    # -- people -----------------------------------------------------------------------------------------------
    def button(self, edges: list[tuple[float, bool]]) -> None:
        """Press and release at times after now, as a worker thread would deliver them (late if busy)."""
        start, cuts = self.clock.now, self.report.power_cuts
        for offset, pressed in edges:
            at = start + offset
            self._run_until(at)
            if self.report.power_cuts != cuts:
                break  # the rig is rebooting: the rest of this gesture is lost
            self._do(lambda at=at, pressed=pressed: (self.core.tick(at), self.core.edge(pressed, at)))
        if self.report.power_cuts != cuts:
            self.clock.advance(30.0)  # a Raspberry Pi takes this long to start again

    def _run_until(self, at: float) -> None:
        while True:
            deadline = self.core.next_deadline()
            if deadline is None or deadline > at or deadline < self.clock.now:
                break
            self.clock.now = deadline
            self._do(lambda deadline=deadline: self.core.tick(deadline))
        self.clock.now = max(self.clock.now, at)

    def bounce(self, at: float, pressed: bool, count: int) -> list[tuple[float, bool]]:
        """A contact that chatters ``count`` times within a few ms before it settles ``pressed``."""
        edges = []
        for i in range(count):
            edges += [(at + 0.001 * (2 * i), not pressed), (at + 0.001 * (2 * i + 1), pressed)]
        return edges

    def press(self, kind: str) -> None:
        """One press as people make them: ``plain``, ``bouncy``, ``hold``, ``double``, ``during move``."""
        r = self.report
        r.presses += 1
        before = self.game.accepted
        hold = {"hold": self.config.button.hold_time + self.rng.random() * 4}.get(kind, 0.12)
        edges = [(0.0, True)]
        if kind in ("bouncy", "hold"):
            edges += self.bounce(0.0005, True, self.rng.randrange(1, 4))
            r.bounces += 1
        edges += [(hold, False)]
        if kind == "hold":
            r.holds += 1
        if kind in ("bouncy", "hold"):
            edges += self.bounce(hold + 0.0005, False, self.rng.randrange(1, 5))
        if kind == "double":
            edges += [(hold + 0.15, True), (hold + 0.25, False)]
        if kind == "during move":
            edges += [(hold + 0.05, True), (hold + 0.1, False)]
            r.presses_during_moves += 1
        self.button(edges)
        if self.game.accepted - before > 1:
            r.phantom_draws += self.game.accepted - before - 1
            r.problems.append(f"one {kind} press gave {self.game.accepted - before} draws")
        self.clock.advance(self.config.button.lockout + self.rng.random())

    def long_press(self) -> None:
        """Hold the button past the refill time, then let go with a bouncing release."""
        hold = self.config.button.refill_hold_time + 0.2 + self.rng.random()
        before = self.game.accepted
        self.button([(0.0, True), (hold, False), *self.bounce(hold + 0.0005, False, self.rng.randrange(1, 5))])
        if self.game.accepted != before:
            self.report.phantom_draws += 1
            self.report.problems.append("a long press drew a die")
        self.clock.advance(self.config.button.lockout + 0.3)

    def settle(self) -> None:
        """People do what the rig asks (put dice back, refill), then the tray must match the game."""
        for _ in range(4):
            status = self.core.status()
            if status["state"] == "put back":
                for die in status["put_back"]:
                    self.twin.put_back(die)
            elif status["state"] == "leg over":
                for die in sorted(self.twin.tray()):
                    self.twin.put_back(die)
                self.report.refills += 1
            else:
                break
            self.long_press()
        tray, game = self.twin.tray(), {d for d, _, _ in self.game.out}
        status = self.core.status()
        if tray != game or status["notice"] is not None:
            self.report.unreconciled += 1
            self.report.problems.append(f"tray {sorted(tray)} but game out {sorted(game)} ({status['state']})")

    # -- a whole leg ------------------------------------------------------------------------------------------
    def leg(self) -> None:
        """Play until the game's leg ends, with faults injected when ``faults``."""
        start_leg = self.game.leg
        kinds = ["plain", "bouncy", "hold", "double", "during move"]
        weights = [5, 2, 1, 1, 1] if self.faults else [1, 0, 0, 0, 0]
        steps = 0
        while self.game.leg == start_leg and steps < 60:
            steps += 1
            if self.faults and self.rng.random() < 0.08:
                self.clock.on_sleep = self._sleep_hook
                self._cut_in = self.rng.randrange(1, 9)
            if self.faults and self.rng.random() < 0.06:
                self.report.undos += 1
                self.game.undo()
                self._do(lambda: None)
            else:
                self.press(self.rng.choices(kinds, weights)[0])
            if self.faults:
                self._cut_in = None  # a cut that did not come during this step is not carried over
            self.settle()
        self.report.legs += 1
        self.report.draws = self.game.total_accepted
        self.report.refusals = self.game.refused


def run_legs(config: RigConfig, legs: int, seed: int = 1, faults: bool = True,
             progress: Callable[[int], None] | None = None) -> Report:
    """Play ``legs`` legs on the twin and report what fell and what disagreed."""
    run = TwinRun(config, seed, faults)
    for index in range(legs):
        run.leg()
        if progress is not None:
            progress(index + 1)
    return run.report
