"""The gate servos: one per die, on a PCA9685 16-channel PWM board over I²C, driven by Adafruit's
``adafruit_pca9685`` library. The PCA9685 times every pulse in hardware, so a busy Pi never stretches one.

Pulse arithmetic (the chip's, which the library follows): the board's oscillator (``reference_clock``,
nominally 25 MHz) is divided by ``prescale + 1`` where ``prescale = round(clock / 4096 / frequency) - 1``;
a pulse is a whole number of those ticks. One tick is the resolution:

| frequency | tick | for which servos |
|---|---|---|
| 50 Hz | 4.88 µs (0.44° on a 0.5–2.5 ms / 180° servo) | every analog servo (SG90, MG90S) |
| 250 Hz | 0.96 µs | digital servos whose data sheet allows 250 Hz or more |

So the 1 µs target is met at 250 Hz with digital servos; at 50 Hz (the default, for the cheap analog SG90)
a step is 4.9 µs, still well under the ~10 µs an SG90 can tell apart (its dead band).

Off a Raspberry Pi (tests, ``--simulate``) the same library drives :class:`SimulatedPca9685Bus`, a register
file behind the I²C calls the library makes, so every pulse is decoded from the registers the real chip
would hold.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Protocol

from firmware_py.config import ServoConfig

PWM_REGISTER = 0x06
PRESCALE_REGISTER = 0xFE
FULL = 0x1000


def prescale_for(frequency: float, reference_clock: float) -> int:
    """The prescale value the library writes for ``frequency`` (same formula as ``PCA9685.frequency``)."""
    return int(reference_clock / 4096.0 / frequency + 0.5) - 1


def tick_seconds(servo: ServoConfig) -> float:
    """One step of the pulse width on this configuration's PCA9685 (the resolution)."""
    return (prescale_for(servo.frequency, servo.reference_clock) + 1) / servo.reference_clock


def pulse_ticks(servo: ServoConfig, seconds: float) -> int:
    """The whole number of ticks nearest to ``seconds``."""
    return round(seconds / tick_seconds(servo))


class GateDriver(Protocol):
    """Opens and closes one die's gate. ``set_angle`` sends pulses; ``release`` stops them (the servo goes
    limp and holds still, without humming)."""

    def set_angle(self, die: str, angle: float) -> None: ...
    def release(self, die: str) -> None: ...
    def pulse_width(self, die: str) -> float: ...
    def close(self) -> None: ...


class Pca9685Gates:
    """The gates on a PCA9685 through Adafruit's library. ``bus`` is an I²C bus object: Blinka's
    ``busio.I2C`` on a Pi, or :class:`SimulatedPca9685Bus`."""

    def __init__(self, config: ServoConfig, bus: Any) -> None:
        from adafruit_pca9685 import PCA9685

        self.config = config
        self.pca = PCA9685(bus, address=config.i2c_address, reference_clock_speed=int(config.reference_clock))
        self.pca.frequency = config.frequency
        self.tick = tick_seconds(config)
        for die in config.channels:
            self.release(die)

    def set_angle(self, die: str, angle: float) -> None:
        ticks = pulse_ticks(self.config, self.config.pulse_width(angle))
        # The library takes a 16-bit duty cycle and keeps its top 12 bits: ticks << 4 arrives exactly.
        self.pca.channels[self.config.channels[die]].duty_cycle = ticks << 4

    def release(self, die: str) -> None:
        self.pca.channels[self.config.channels[die]].duty_cycle = 0

    def pulse_width(self, die: str) -> float:
        """The pulse the chip sends now, read back from its registers (0 when the channel is off)."""
        on, off = self.pca.pwm_regs[self.config.channels[die]]
        if off & FULL:
            return 0.0
        return ((off - on) % 4096) / self.pca.reference_clock_speed * (self.pca.prescale_reg + 1)

    def close(self) -> None:
        for die in self.config.channels:
            self.release(die)
        self.pca.deinit()


class BusError(RuntimeError):
    """The PCA9685 cannot be reached; the message says what to check. ``cause`` says which part is missing:
    ``"device"`` (nothing answers at the board's address), ``"module"`` (the Python module gpiod that Blinka
    needs on a Pi) or ``"bus"`` (the I²C bus itself, e.g. I²C switched off)."""

    def __init__(self, message: str, cause: str = "bus") -> None:
        super().__init__(message)
        self.cause = cause


def open_i2c_bus() -> Any:
    """Blinka's I²C bus on the Pi's GPIO2/GPIO3. Imported here, not at the top: Blinka's ``board`` module
    refuses to import off a Raspberry Pi."""
    try:
        import board
        import busio

        return busio.I2C(board.SCL, board.SDA)
    except ImportError as error:
        # On a Pi, Blinka's pins import libgpiod's bindings (gpiod), which Blinka does not install itself.
        if error.name == "gpiod" or "libgpiod" in str(error):
            raise BusError(
                "the Python module gpiod (libgpiod's bindings, which Adafruit's Blinka needs for the Pi's I²C pins) "
                "is missing: sudo apt install python3-libgpiod (deploy/install.sh does), or use --simulate",
                cause="module",
            ) from None
        raise BusError(f"the I²C bus cannot be opened ({error}): reinstall (make setup, or sudo deploy/install.sh), "
                       "or use --simulate") from None
    except Exception as error:  # Blinka raises NotImplementedError, ValueError or RuntimeError off a Pi
        raise BusError(
            f"the I²C bus cannot be opened ({error}): enable I²C (sudo raspi-config nonint do_i2c 0) and check the "
            "PCA9685's SDA on GPIO2 and SCL on GPIO3, or use --simulate"
        ) from None


def open_gates(config: ServoConfig, simulate: bool, bus: Any = None) -> Pca9685Gates:
    """The gates on the real PCA9685, or on a simulated one (``simulate``, or an explicit ``bus``)."""
    if bus is None:
        bus = SimulatedPca9685Bus(config.i2c_address) if simulate else open_i2c_bus()
    try:
        return Pca9685Gates(config, bus)
    except (ValueError, OSError) as error:  # the library's "No I2C device at address", or a write not answered
        raise BusError(
            f"{error}: check the PCA9685's wiring (VCC 3.3 V, GND, SDA GPIO2, SCL GPIO3) and servo.i2c_address",
            cause="device",
        ) from None


class SimulatedPca9685Bus:
    """A PCA9685 behind the I²C calls Adafruit's library makes: writes land in a 256-byte register file
    (auto-increment, as on the chip), reads come from it. ``on_write(channel)`` is called after every write
    that touches a channel's registers (the digital twin listens there)."""

    def __init__(self, address: int = 0x40, on_write: Callable[[int], None] | None = None) -> None:
        self.address = address
        self.registers = bytearray(256)
        self.on_write = on_write
        self._lock = threading.Lock()
        self.writes = 0

    def try_lock(self) -> bool:
        return self._lock.acquire(blocking=False)

    def unlock(self) -> None:
        self._lock.release()

    def _check(self, address: int) -> None:
        if address != self.address:
            raise OSError(121, f"no device at 0x{address:x}")

    def writeto(self, address: int, buffer: bytes, *, start: int = 0, end: int | None = None) -> None:
        self._check(address)
        data = bytes(buffer[start:end])
        if not data:
            return  # the library probes with an empty write
        register, payload = data[0], data[1:]
        for offset, value in enumerate(payload):
            self.registers[(register + offset) % 256] = value
        self.writes += 1
        if self.on_write is not None and payload:
            first = max(register, PWM_REGISTER)
            last = min(register + len(payload) - 1, PWM_REGISTER + 4 * 16 - 1)
            for channel in range((first - PWM_REGISTER) // 4, (last - PWM_REGISTER) // 4 + 1):
                if 0 <= channel < 16:
                    self.on_write(channel)

    def readfrom_into(self, address: int, buffer: bytearray, *, start: int = 0, end: int | None = None) -> None:
        self._check(address)
        end = len(buffer) if end is None else end
        buffer[start:end] = bytes(end - start)

    def writeto_then_readfrom(
        self, address: int, out_buffer: bytes, in_buffer: bytearray, *, out_start: int = 0,
        out_end: int | None = None, in_start: int = 0, in_end: int | None = None,
    ) -> None:
        self._check(address)
        register = out_buffer[out_start]
        in_end = len(in_buffer) if in_end is None else in_end
        for offset in range(in_end - in_start):
            in_buffer[in_start + offset] = self.registers[(register + offset) % 256]

    # -- what the chip would send -------------------------------------------------------------------------
    def channel_registers(self, channel: int) -> tuple[int, int]:
        base = PWM_REGISTER + 4 * channel
        r = self.registers
        return r[base] | r[base + 1] << 8, r[base + 2] | r[base + 3] << 8

    def pulse_width(self, channel: int, reference_clock: float = 25e6) -> float:
        """Seconds high per period on ``channel`` (0 when off), decoded as the chip's counter would."""
        on, off = self.channel_registers(channel)
        if off & FULL:
            return 0.0
        ticks = 4096 if on & FULL else (off - on) % 4096
        return ticks * (self.registers[PRESCALE_REGISTER] + 1) / reference_clock

    def frequency(self, reference_clock: float = 25e6) -> float:
        return reference_clock / 4096 / (self.registers[PRESCALE_REGISTER] + 1)

