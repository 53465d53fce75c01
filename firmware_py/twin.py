"""The digital twin: the physical pyramid in simulation, so tests assert what the hardware would do.

It listens to the simulated PCA9685's registers (written by Adafruit's real driver), turns each channel's
pulse into a target angle, and moves each gate's plate toward it at the servo's speed on a virtual clock.
A die lies in its chute until its gate's plate has swung far enough to uncover the chute; then it falls into
the tray. Unpowered servos stay where they are (the plate carries the die's weight along the servo's axis,
so nothing pushes it open). People are modelled too: they put dice back into the chutes of their colour.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_py.config import ServoConfig
from firmware_py.servos import SimulatedPca9685Bus

SERVO_SPEED = 600.0
"""Degrees per second: an SG90 turns 60° in 0.1 s at 5 V."""
UNCOVERED = 0.7
"""The share of the way from closed to open after which the plate has uncovered the whole chute and the die has
fallen (0.68 for the dimensions in hardware/mechanism.toml: 61° of a 90° swing; a test keeps them in step)."""


class PowerCut(Exception):
    """The twin cut the power: the rig's memory is gone, the world (dice, gate positions, files) stays."""


class VirtualClock:
    """Time that passes only when someone sleeps. ``on_sleep(start, seconds)`` may raise :class:`PowerCut`
    (the clock then stops part way)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.on_sleep: Callable[[float, float], None] | None = None

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        if self.on_sleep is not None:
            self.on_sleep(self.now, seconds)
        self.now += seconds

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Gate:
    die: str
    closed: float
    opened: float
    angle: float
    target: float
    powered: bool = False
    since: float = 0.0
    track: list[tuple[float, float]] = field(default_factory=list)
    """(time, angle) whenever the gate was told something: its position over time."""

    def fraction(self) -> float:
        return (self.angle - self.closed) / (self.opened - self.closed)


@dataclass(frozen=True)
class Fall:
    die: str
    time: float


class Twin:
    """The physical pyramid: where every die is (``"chute"`` or ``"tray"``) and where every gate is."""

    def __init__(self, config: ServoConfig, clock: Callable[[], float]) -> None:
        self.config = config
        self.clock = clock
        self.where: dict[str, str] = {die: "chute" for die in config.channels}
        self.gates = {
            die: Gate(die, config.closed_angles[die], config.open_angles[die],
                      config.closed_angles[die], config.closed_angles[die])
            for die in config.channels
        }
        self.by_channel = {channel: die for die, channel in config.channels.items()}
        self.falls: list[Fall] = []
        self.on_fall: Callable[[Fall], None] | None = None
        self.bus: SimulatedPca9685Bus | None = None

    def attach(self, bus: SimulatedPca9685Bus) -> SimulatedPca9685Bus:
        """Listen to ``bus`` (a new one after each power cut: the board forgets its registers)."""
        self.settle()
        for gate in self.gates.values():
            gate.powered = False
        bus.on_write = self._written
        self.bus = bus
        return bus

    def _written(self, channel: int) -> None:
        die = self.by_channel.get(channel)
        if die is None or self.bus is None:
            return
        self.settle()
        gate = self.gates[die]
        width = self.bus.pulse_width(channel, self.config.reference_clock)
        if width == 0:
            gate.powered = False  # limp: the plate stays where it is
        else:
            c = self.config
            angle = c.min_angle + (width - c.min_pulse_width) / (c.max_pulse_width - c.min_pulse_width) * (
                c.max_angle - c.min_angle
            )
            gate.target, gate.powered = angle, True
        gate.track.append((self.clock(), gate.angle))

    def settle(self) -> None:
        """Move every powered gate on to now; a chute uncovered with its die inside drops the die."""
        now = self.clock()
        for gate in self.gates.values():
            if gate.powered and gate.angle != gate.target:
                step = SERVO_SPEED * (now - gate.since)
                gap = gate.target - gate.angle
                gate.angle = gate.target if abs(gap) <= step else gate.angle + step * (1 if gap > 0 else -1)
            gate.since = now
            self._maybe_fall(gate.die)

    def _maybe_fall(self, die: str) -> None:
        if self.where[die] == "chute" and self.gates[die].fraction() >= UNCOVERED:
            self.where[die] = "tray"
            fall = Fall(die, self.clock())
            self.falls.append(fall)
            if self.on_fall is not None:
                self.on_fall(fall)

    # -- people ---------------------------------------------------------------------------------------------
    def put_back(self, die: str) -> None:
        """Someone drops ``die`` into its chute (straight through, if its gate is open)."""
        self.settle()
        self.where[die] = "chute"
        self._maybe_fall(die)

    def tray(self) -> set[str]:
        self.settle()
        return {die for die, place in self.where.items() if place == "tray"}

    def gate_positions(self) -> dict[str, float]:
        self.settle()
        return {die: gate.angle for die, gate in self.gates.items()}
