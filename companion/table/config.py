"""The companion's configuration (``camelup serve --config FILE``): a TOML file checked when loaded.

```toml
host = "0.0.0.0"          # listen on every interface, so phones on the table's Wi-Fi can connect
port = 8000
data = "data"             # where games are kept (games.sqlite3)
language = "auto"         # auto (from each browser) | en | fr
public_url = ""           # the address phones use, e.g. "http://192.168.4.1:8000"; empty: found by itself

[pyramid]
mode = "auto"             # auto (gpio on a Raspberry Pi, else simulated) | gpio | simulated | none
config = ""               # the rig's own TOML (pins, angles): see hardware/pyramid.example.toml

[camera]
mode = "none"             # none | picamera2 | webcam | files
source = ""               # webcam: device index or path (default 0); files: an image or a folder
board = "2018"            # the board the camera starts on: an edition or a template file; it then reads the
                          # edition of the game played last (both editions' markers stand in the same places)
calibration = ""          # from `camelup vision calibrate`: this table's colours for the edition (and board) it was
                          # made for; the camera starts on that edition (overrides board)
calibration_2014 = ""     # a group playing both editions: a calibration for each edition's camels (optional;
calibration_2018 = ""     # without one the camera calibrates itself for that edition from a board a game confirms)

[hotspot]                 # written by deploy/install.sh --hotspot: the table screen shows it as a QR code
ssid = ""
password = ""
```
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULTS: dict[str, Any] = {
    "host": "0.0.0.0",
    "port": 8000,
    "data": "data",
    "language": "auto",
    "public_url": "",
    "pyramid": {"mode": "auto", "config": ""},
    "camera": {"mode": "none", "source": "", "board": "2018", "calibration": "", "calibration_2014": "",
               "calibration_2018": ""},
    "hotspot": {"ssid": "", "password": ""},
}


class SettingsError(ValueError):
    """A configuration problem; the message names the key."""


@dataclass(frozen=True)
class Settings:
    host: str
    port: int
    data: Path
    language: str
    public_url: str | None
    pyramid: str
    pyramid_config: str | None
    camera: str
    camera_source: str = ""
    camera_board: str = "2018"
    camera_calibration: str | None = None
    camera_calibration_2014: str | None = None
    """A calibration file for the 2014 edition's camels (``[camera] calibration_2014``), for a group playing both."""
    camera_calibration_2018: str | None = None
    hotspot_ssid: str | None = None
    hotspot_password: str | None = None
    config_file: str | None = None
    """The configuration file these settings were read from (None: the defaults): named where a setting must change."""


def load_settings(path: str | None = None, **overrides: Any) -> Settings:
    """Defaults, then the file, then command-line ``overrides`` (those that are not ``None``).

    Raises:
        SettingsError: an unreadable file, bad TOML, an unknown key or a bad value, naming it.
    """
    data: dict[str, Any] = {}
    if path:
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as error:
            raise SettingsError(f"{path}: cannot read it ({error.strerror})") from None
        except tomllib.TOMLDecodeError as error:
            raise SettingsError(f"{path}: not valid TOML ({error})") from None
    merged = {key: dict(value) if isinstance(value, dict) else value for key, value in DEFAULTS.items()}
    for key, value in data.items():
        if key not in DEFAULTS:
            raise SettingsError(f"{key}: unknown setting (known: {', '.join(DEFAULTS)})")
        if isinstance(DEFAULTS[key], dict):
            if not isinstance(value, dict):
                raise SettingsError(f"{key}: must be a table")
            for sub in value:
                if sub not in DEFAULTS[key]:
                    raise SettingsError(f"{key}.{sub}: unknown setting (known: {', '.join(DEFAULTS[key])})")
            merged[key].update(value)
        else:
            merged[key] = value
    for key, value in overrides.items():
        if value is not None:
            if key == "pyramid":
                merged["pyramid"]["mode"] = value
            else:
                merged[key] = value

    port = merged["port"]
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise SettingsError(f"port: {port!r} is not a port number (1 to 65535)")
    if merged["language"] not in ("auto", "en", "fr"):
        raise SettingsError(f"language: must be auto, en or fr, not {merged['language']!r}")
    mode = merged["pyramid"]["mode"]
    if mode not in ("auto", "gpio", "simulated", "none"):
        raise SettingsError(f"pyramid.mode: must be auto, gpio, simulated or none, not {mode!r}")
    camera_modes = ("none", "picamera2", "webcam", "files")
    if merged["camera"]["mode"] not in camera_modes:
        raise SettingsError(f"camera.mode: must be one of {', '.join(camera_modes)}, not {merged['camera']['mode']!r}")
    for key in ("host", "data", "public_url"):
        if not isinstance(merged[key], str):
            raise SettingsError(f"{key}: must be a text")
    return Settings(
        host=merged["host"],
        port=port,
        data=Path(merged["data"]),
        language=merged["language"],
        public_url=merged["public_url"] or None,
        pyramid=mode,
        pyramid_config=merged["pyramid"]["config"] or None,
        camera=merged["camera"]["mode"],
        camera_source=str(merged["camera"]["source"]),
        camera_board=str(merged["camera"]["board"]),
        camera_calibration=str(merged["camera"]["calibration"]) or None,
        camera_calibration_2014=str(merged["camera"]["calibration_2014"]) or None,
        camera_calibration_2018=str(merged["camera"]["calibration_2018"]) or None,
        config_file=str(path) if path else None,
        hotspot_ssid=str(merged["hotspot"]["ssid"]) or None,
        hotspot_password=str(merged["hotspot"]["password"]) or None,
    )
