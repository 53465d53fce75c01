"""The pyramid rig's configuration: pins, angles and timings from a TOML file, validated on load.

Every problem is reported with the key it concerns (``servo.open_angles.red: 200 is outside 0.0..180.0``). Keys that
are left out take the defaults below, which match the wiring in ``hardware/README.md``.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_py.pyramid import PRESETS, Die

GPIO_PINS = range(2, 28)
"""BCM numbers of the GPIO pins on the Raspberry Pi's 40-pin header."""

DEFAULTS: dict[str, Any] = {
    "edition": "2018",
    "pin_factory": "auto",
    "button": {
        "pin": 17,
        "pull_up": True,
        "debounce": 0.05,
        "lockout": 1.0,
        "hold_time": 1.0,
        "refill_hold_time": 4.0,
    },
    "led": {
        "red": 22,
        "green": 27,
        "blue": 24,
        "common": "cathode",
        "show_time": 0.6,
        "blink_on": 0.25,
        "blink_off": 0.25,
    },
    "servo": {
        "driver": "pca9685",
        "i2c_address": 0x40,
        "frequency": 50,
        "reference_clock": 25_000_000,
        "min_angle": 0,
        "max_angle": 180,
        "min_pulse_width": 0.0005,
        "max_pulse_width": 0.0025,
        "move_time": 0.4,
        "open_angle": 135,
        "closed_angle": 45,
        "channels": {},
        "open_angles": {},
        "closed_angles": {},
    },
    "colours": {},
}

PIN_FACTORIES = ("auto", "lgpio", "rpigpio", "mock")
I2C_PINS = {2: "I2C SDA", 3: "I2C SCL"}
"""The PCA9685 servo board's bus: no button or LED may use these pins."""
SERVO_DRIVERS = ("pca9685",)
REMOVED_SERVO_KEYS = ("pin", "mode", "angles")


class ConfigError(ValueError):
    """A configuration problem; the message names the key."""


@dataclass(frozen=True)
class ButtonConfig:
    pin: int
    pull_up: bool
    debounce: float
    lockout: float
    hold_time: float
    refill_hold_time: float


@dataclass(frozen=True)
class LedConfig:
    red: int
    green: int
    blue: int
    common: str
    show_time: float
    blink_on: float
    blink_off: float

    @property
    def active_high(self) -> bool:
        """A common-cathode LED lights when its pin is high; a common-anode one when it is low."""
        return self.common == "cathode"


@dataclass(frozen=True)
class ServoConfig:
    """One gate servo per die on a PCA9685 board: ``channels[die]`` is its output, each gate has its own
    calibrated open and closed angle."""

    driver: str
    i2c_address: int
    frequency: float
    reference_clock: float
    min_angle: float
    max_angle: float
    min_pulse_width: float
    max_pulse_width: float
    move_time: float
    channels: dict[str, int]
    open_angles: dict[str, float]
    closed_angles: dict[str, float]

    def pulse_width(self, angle: float) -> float:
        """The pulse (seconds) that asks the servo for ``angle``: linear between the two ends."""
        fraction = (angle - self.min_angle) / (self.max_angle - self.min_angle)
        return self.min_pulse_width + fraction * (self.max_pulse_width - self.min_pulse_width)

    def configured_angles(self) -> list[tuple[str, float]]:
        """Every angle a gate can be sent to, named ``"<die> closed"`` / ``"<die> open"`` (for the
        self-test's sweep and for calibration)."""
        return [
            (f"{die} {which}", angles[die])
            for die in self.channels
            for which, angles in (("closed", self.closed_angles), ("open", self.open_angles))
        ]


@dataclass(frozen=True)
class RigConfig:
    edition: str
    pin_factory: str
    button: ButtonConfig
    led: LedConfig
    servo: ServoConfig
    dice: tuple[Die, ...]
    source: str = "defaults"
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    def pins(self) -> dict[str, int]:
        """The GPIO pins the firmware drives directly (the servos hang off the PCA9685 on I²C)."""
        return {
            "button.pin": self.button.pin,
            "led.red": self.led.red,
            "led.green": self.led.green,
            "led.blue": self.led.blue,
        }


def _merge(defaults: Mapping[str, Any], given: Mapping[str, Any], path: str = "") -> dict[str, Any]:
    merged = dict(defaults)
    for key, value in given.items():
        where = f"{path}{key}"
        if key not in defaults:
            known = ", ".join(sorted(defaults))
            raise ConfigError(f"{where}: unknown key (known here: {known})")
        if isinstance(defaults[key], dict) and defaults[key] and not isinstance(value, dict):
            raise ConfigError(f"{where}: must be a table")
        if isinstance(defaults[key], dict) and defaults[key]:
            merged[key] = _merge(defaults[key], value, f"{where}.")
        else:
            merged[key] = value
    return merged


def _number(data: Mapping[str, Any], key: str, path: str, low: float | None = None, high: float | None = None) -> float:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{path}{key}: must be a number, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ConfigError(f"{path}{key}: {value} is outside {low}..{high}")
    return float(value)


def _pin(data: Mapping[str, Any], key: str, path: str) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or value not in GPIO_PINS:
        raise ConfigError(f"{path}{key}: {value!r} is not a GPIO pin (BCM numbers 2 to 27)")
    return value


def _colour(value: Any, where: str) -> tuple[float, float, float]:
    if isinstance(value, str) and len(value) == 7 and value.startswith("#"):
        try:
            return tuple(int(value[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]
        except ValueError:
            pass
    raise ConfigError(f"{where}: {value!r} is not a colour like \"#ff8000\"")


def _per_die(table: Any, key: str, what: str, names: list[str], edition: str) -> dict[str, Any]:
    """A table keyed by die name (``[servo.angles]``, ``[colours]``), checked for unknown dice."""
    if not isinstance(table, dict):
        raise ConfigError(f"{key}: must be a table of die name = {what}")
    for name in table:
        if name not in names:
            raise ConfigError(f"{key}.{name}: no such die in the {edition} pyramid ({', '.join(names)})")
    return table


def parse_config(data: Mapping[str, Any], source: str = "configuration") -> RigConfig:
    """Validate a configuration mapping (as read from TOML) over the defaults.

    Raises:
        ConfigError: naming the first key that is wrong.
    """
    servo_given = data.get("servo")
    if isinstance(servo_given, dict):
        for key in REMOVED_SERVO_KEYS:
            if key in servo_given:
                raise ConfigError(
                    f"servo.{key}: the single-servo carousel and gate were replaced by one gate servo per die on a "
                    "PCA9685 board (the carousel dropped every die it passed): see hardware/README.md and "
                    "hardware/pyramid.example.toml"
                )
    raw = _merge(DEFAULTS, data)
    if raw["edition"] not in PRESETS:
        raise ConfigError(f"edition: must be one of {', '.join(PRESETS)}, not {raw['edition']!r}")
    if raw["pin_factory"] not in PIN_FACTORIES:
        raise ConfigError(f"pin_factory: must be one of {', '.join(PIN_FACTORIES)}, not {raw['pin_factory']!r}")
    b, led, s = raw["button"], raw["led"], raw["servo"]

    if not isinstance(b["pull_up"], bool):
        raise ConfigError("button.pull_up: must be true or false")
    button = ButtonConfig(
        pin=_pin(b, "pin", "button."),
        pull_up=b["pull_up"],
        debounce=_number(b, "debounce", "button.", 0.001, 0.5),
        lockout=_number(b, "lockout", "button.", 0, 30),
        hold_time=_number(b, "hold_time", "button.", 0.1, 30),
        refill_hold_time=_number(b, "refill_hold_time", "button.", 0.1, 60),
    )
    if button.refill_hold_time <= button.hold_time:
        raise ConfigError("button.refill_hold_time: must be longer than button.hold_time")
    if led["common"] not in ("cathode", "anode"):
        raise ConfigError(f"led.common: must be \"cathode\" or \"anode\", not {led['common']!r}")
    led_config = LedConfig(
        red=_pin(led, "red", "led."),
        green=_pin(led, "green", "led."),
        blue=_pin(led, "blue", "led."),
        common=led["common"],
        show_time=_number(led, "show_time", "led.", 0, 10),
        blink_on=_number(led, "blink_on", "led.", 0.01, 5),
        blink_off=_number(led, "blink_off", "led.", 0.01, 5),
    )

    if s["driver"] not in SERVO_DRIVERS:
        raise ConfigError(f"servo.driver: must be one of {', '.join(SERVO_DRIVERS)}, not {s['driver']!r}")
    min_angle = _number(s, "min_angle", "servo.", -360, 360)
    max_angle = _number(s, "max_angle", "servo.", -360, 360)
    if min_angle >= max_angle:
        raise ConfigError("servo.max_angle: must be greater than servo.min_angle")
    min_pulse = _number(s, "min_pulse_width", "servo.", 0.0002, 0.003)
    max_pulse = _number(s, "max_pulse_width", "servo.", 0.0002, 0.003)
    if min_pulse >= max_pulse:
        raise ConfigError("servo.max_pulse_width: must be greater than servo.min_pulse_width")
    # Analog hobby servos want 50 Hz; digital ones accept up to about 333 Hz (their data sheet says).
    frequency = _number(s, "frequency", "servo.", 40, 333)
    if max_pulse > 0.9 / frequency:
        raise ConfigError(f"servo.frequency: {frequency:g} Hz leaves no room for a {max_pulse * 1000:g} ms pulse")
    address = s["i2c_address"]
    if isinstance(address, bool) or not isinstance(address, int) or not 0x40 <= address <= 0x7F:
        raise ConfigError(f"servo.i2c_address: {address!r} is not a PCA9685 address (0x40 to 0x7F)")

    dice = PRESETS[raw["edition"]]
    names = [die.name for die in dice]
    channels_given = _per_die(s["channels"], "servo.channels", "channel", names, raw["edition"])
    channels = {name: index for index, name in enumerate(names)} | channels_given
    used: dict[int, str] = {}
    for name in names:
        channel = channels[name]
        if isinstance(channel, bool) or not isinstance(channel, int) or not 0 <= channel <= 15:
            raise ConfigError(f"servo.channels.{name}: {channel!r} is not a PCA9685 channel (0 to 15)")
        if channel in used:
            raise ConfigError(f"servo.channels.{name}: channel {channel} already opens the {used[channel]} gate")
        used[channel] = name
    default_open = _number(s, "open_angle", "servo.", min_angle, max_angle)
    default_closed = _number(s, "closed_angle", "servo.", min_angle, max_angle)
    per_gate = {}
    for key, default in (("open_angles", default_open), ("closed_angles", default_closed)):
        given = _per_die(s[key], f"servo.{key}", "angle", names, raw["edition"])
        per_gate[key] = {
            name: _number({name: default, **given}, name, f"servo.{key}.", min_angle, max_angle) for name in names
        }
    for name in names:
        if per_gate["open_angles"][name] == per_gate["closed_angles"][name]:
            raise ConfigError(f"servo.open_angles.{name}: the {name} gate's open and closed angles are the same")
    servo = ServoConfig(
        driver=s["driver"],
        i2c_address=address,
        frequency=frequency,
        reference_clock=_number(s, "reference_clock", "servo.", 20e6, 30e6),
        min_angle=min_angle,
        max_angle=max_angle,
        min_pulse_width=min_pulse,
        max_pulse_width=max_pulse,
        move_time=_number(s, "move_time", "servo.", 0, 5),
        channels={name: channels[name] for name in names},
        open_angles=per_gate["open_angles"],
        closed_angles=per_gate["closed_angles"],
    )

    colours = _per_die(raw["colours"], "colours", '"#rrggbb"', names, raw["edition"])
    dice = tuple(
        Die(die.name, _colour(colours[die.name], f"colours.{die.name}"), die.faces, die.crazy_colours)
        if die.name in colours
        else die
        for die in dice
    )

    config = RigConfig(raw["edition"], raw["pin_factory"], button, led_config, servo, dice, source, raw)
    seen: dict[int, str] = dict(I2C_PINS)
    for key, pin in config.pins().items():
        if pin in seen:
            raise ConfigError(f"{key}: GPIO{pin} is already used by {seen[pin]}")
        seen[pin] = key
    return config


def load_config(path: str | Path | None) -> RigConfig:
    """Read and validate a TOML file; ``None`` gives the defaults.

    Raises:
        ConfigError: the file cannot be read, is not TOML, or a key is wrong.
    """
    if path is None:
        return parse_config({}, "defaults")
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(f"{path}: cannot read it ({error.strerror})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML ({error})") from None
    try:
        return parse_config(data, str(path))
    except ConfigError as error:
        raise ConfigError(f"{path}: {error}") from None


def angles_toml(angles: Mapping[str, float]) -> str:
    """Calibrated gate angles (named as in :meth:`ServoConfig.configured_angles`) as the TOML tables a builder
    can paste into a rig file."""
    import tomli_w

    tables: dict[str, dict[str, float]] = {"closed_angles": {}, "open_angles": {}}
    for name, angle in angles.items():
        die, which = name.rsplit(" ", 1)
        tables[f"{which}_angles"][die] = angle
    return tomli_w.dumps({"servo": {key: table for key, table in tables.items() if table}})


def check_saveable(path: str | Path) -> None:
    """Raise before any work is done if :func:`save_angles` could not write ``path``: its folder must exist and
    take a new file (the file is replaced through a temporary one beside it), and a file already there must load.

    Raises:
        ConfigError: naming the path and what to do.
    """
    import tempfile

    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        raise ConfigError(f"cannot save to {target}: there is no folder {folder} (give --save a file in a folder that "
                          "exists)")
    try:
        handle, probe = tempfile.mkstemp(prefix=f".{target.name}.", dir=folder)
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        hint = (" Run the command with sudo (the folder belongs to another user), or give --save a file you can "
                f"write and copy it over afterwards (sudo cp FILE {target})")
        raise ConfigError(f"cannot save to {target}: {error.strerror or error} in {folder}.{hint}") from None
    if target.exists():
        load_config(target)  # save_angles keeps its settings: they must load


def save_angles(path: str | Path, angles: Mapping[str, float]) -> None:
    """Write calibrated gate angles (named as in :meth:`ServoConfig.configured_angles`) into the TOML file at
    ``path``, keeping its other settings. The file is replaced atomically."""
    import tomli_w

    target = Path(path)
    data: dict[str, Any] = tomllib.loads(target.read_text(encoding="utf-8")) if target.exists() else {}
    servo = data.setdefault("servo", {})
    for name, angle in angles.items():
        die, which = name.rsplit(" ", 1)
        servo.setdefault(f"{which}_angles", {})[die] = angle
    parse_config(data, str(path))  # never write a file that would not load
    from firmware_py.durable import write_atomically

    write_atomically(target, tomli_w.dumps(data))
