"""The pyramid rig's configuration: pins, angles and timings from a TOML file, validated on load.

Every problem is reported with the key it concerns (``servo.angles.red: 200 is outside 0..180``). Keys that
are left out take the defaults below, which match the wiring in ``hardware/README.md``.
"""

from __future__ import annotations

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
    "button": {"pin": 17, "pull_up": True, "lockout": 1.0, "hold_time": 1.0, "refill_hold_time": 4.0},
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
        "pin": 18,
        "mode": "carousel",
        "min_angle": 0,
        "max_angle": 180,
        "min_pulse_width": 0.0005,
        "max_pulse_width": 0.0025,
        "move_time": 0.5,
        "angles": {},
        "open_angle": 90,
        "closed_angle": 0,
    },
    "colours": {},
}

PIN_FACTORIES = ("auto", "lgpio", "rpigpio", "mock")


class ConfigError(ValueError):
    """A configuration problem; the message names the key."""


@dataclass(frozen=True)
class ButtonConfig:
    pin: int
    pull_up: bool
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
    pin: int
    mode: str
    min_angle: float
    max_angle: float
    min_pulse_width: float
    max_pulse_width: float
    move_time: float
    angles: dict[str, float]
    open_angle: float
    closed_angle: float

    def configured_angles(self) -> list[tuple[str, float]]:
        """Every angle the servo can be sent to, named (for the self-test's sweep and calibration)."""
        if self.mode == "gate":
            return [("closed", self.closed_angle), ("open", self.open_angle)]
        return list(self.angles.items())


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
        return {
            "button.pin": self.button.pin,
            "led.red": self.led.red,
            "led.green": self.led.green,
            "led.blue": self.led.blue,
            "servo.pin": self.servo.pin,
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

    if s["mode"] not in ("carousel", "gate"):
        raise ConfigError(f"servo.mode: must be \"carousel\" or \"gate\", not {s['mode']!r}")
    min_angle = _number(s, "min_angle", "servo.", -360, 360)
    max_angle = _number(s, "max_angle", "servo.", -360, 360)
    if min_angle >= max_angle:
        raise ConfigError("servo.max_angle: must be greater than servo.min_angle")
    min_pulse = _number(s, "min_pulse_width", "servo.", 0.0002, 0.003)
    max_pulse = _number(s, "max_pulse_width", "servo.", 0.0002, 0.003)
    if min_pulse >= max_pulse:
        raise ConfigError("servo.max_pulse_width: must be greater than servo.min_pulse_width")

    dice = PRESETS[raw["edition"]]
    names = [die.name for die in dice]
    angles_given = _per_die(s["angles"], "servo.angles", "angle", names, raw["edition"])
    # A carousel spreads the dice evenly over the servo's range unless angles are calibrated.
    spread = {
        name: min_angle + (max_angle - min_angle) * index / max(1, len(names) - 1) for index, name in enumerate(names)
    }
    angles = {name: _number({**spread, **angles_given}, name, "servo.angles.", min_angle, max_angle) for name in names}
    servo = ServoConfig(
        pin=_pin(s, "pin", "servo."),
        mode=s["mode"],
        min_angle=min_angle,
        max_angle=max_angle,
        min_pulse_width=min_pulse,
        max_pulse_width=max_pulse,
        move_time=_number(s, "move_time", "servo.", 0, 5),
        angles=angles,
        open_angle=_number(s, "open_angle", "servo.", min_angle, max_angle),
        closed_angle=_number(s, "closed_angle", "servo.", min_angle, max_angle),
    )

    colours = _per_die(raw["colours"], "colours", '"#rrggbb"', names, raw["edition"])
    dice = tuple(
        Die(die.name, _colour(colours[die.name], f"colours.{die.name}"), die.faces, die.crazy_colours)
        if die.name in colours
        else die
        for die in dice
    )

    config = RigConfig(raw["edition"], raw["pin_factory"], button, led_config, servo, dice, source, raw)
    seen: dict[int, str] = {}
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


def save_angles(path: str | Path, angles: Mapping[str, float], mode: str) -> None:
    """Write calibrated servo angles into the TOML file at ``path``, keeping its other settings."""
    import tomli_w

    target = Path(path)
    data: dict[str, Any] = tomllib.loads(target.read_text(encoding="utf-8")) if target.exists() else {}
    servo = data.setdefault("servo", {})
    if mode == "gate":
        servo["closed_angle"] = angles["closed"]
        servo["open_angle"] = angles["open"]
    else:
        servo["angles"] = dict(angles)
    parse_config(data, str(path))  # never write a file that would not load
    tmp = target.with_suffix(target.suffix + ".tmp")
    tmp.write_text(tomli_w.dumps(data), encoding="utf-8")
    tmp.replace(target)
