"""``camelup doctor``: is this machine ready to be the table's companion? Each check says pass or fail and,
when it fails, how to fix it. The exit status is 1 when something needed is broken."""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import socket
import sqlite3
import sys
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.config import Settings


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""
    needed: bool = True
    """A failed check that is not needed is a warning (the companion still runs)."""


def _python() -> Check:
    version = ".".join(map(str, sys.version_info[:3]))
    ok = sys.version_info >= (3, 11)
    return Check(
        "python",
        ok,
        f"Python {version}",
        "" if ok else "install Python 3.11 or newer (Raspberry Pi OS Bookworm has it)",
    )


def _packages() -> list[Check]:
    checks = []
    for module, package in (
        ("flask", "flask"),
        ("waitress", "waitress"),
        ("gpiozero", "gpiozero"),
        ("qrcode", "qrcode"),
        ("tomli_w", "tomli-w"),
    ):
        try:
            importlib.import_module(module)
            checks.append(Check(f"package {package}", True, f"installed {importlib.metadata.version(package)}"))
        except (ImportError, importlib.metadata.PackageNotFoundError):
            checks.append(Check(f"package {package}", False, "missing", "reinstall: make run, or deploy/install.sh"))
    return checks


def _gpio(settings: Settings, simulate: bool) -> list[Check]:
    from firmware_py.config import ConfigError, load_config
    from firmware_py.hardware import FactoryError, make_pin_factory

    mode = "simulated" if simulate else settings.pyramid
    if mode == "none":
        return [Check("pyramid", True, "no electronic pyramid configured (dice entered by hand)")]
    try:
        config = load_config(settings.pyramid_config)
    except ConfigError as error:
        return [
            Check("pyramid configuration", False, str(error), "fix the key it names (hardware/pyramid.example.toml)")
        ]
    try:
        factory, name = make_pin_factory(config.pin_factory, simulate=mode == "simulated")
    except FactoryError as error:
        return [Check("GPIO", False, str(error), "sudo apt install python3-lgpio, or run with --simulate")]
    checks = [
        Check(
            "GPIO pin factory",
            True,
            f"{name}" + (" (simulated pins: gpiozero's MockFactory)" if name == "mock" else ""),
        )
    ]
    if name != "mock" and not os.access("/dev/gpiochip0", os.R_OK | os.W_OK):
        checks.append(
            Check(
                "GPIO access",
                False,
                "cannot open /dev/gpiochip0",
                "add the user to the gpio group: sudo usermod -aG gpio $USER (then log in again)",
            )
        )
    from gpiozero import DigitalOutputDevice

    for key, pin in config.pins().items():
        try:
            device = DigitalOutputDevice(pin, pin_factory=factory)
            device.close()
            checks.append(Check(f"pin {key}", True, f"GPIO{pin} usable"))
        except Exception as error:  # gpiozero raises many kinds for a busy or missing pin
            checks.append(
                Check(
                    f"pin {key}",
                    False,
                    f"GPIO{pin}: {error}",
                    "is another program using it? check the wiring table in hardware/README.md",
                )
            )
    return checks


def _camera(settings: Settings) -> Check:
    """A frame from the configured camera: its size and exposure."""
    if settings.camera == "none":
        return Check("camera", True, "not configured: the board is not read (manual play)", needed=False)
    from vision.calibrate import CalibrationError, load_calibration
    from vision.sources import CameraError, open_source

    calibrated = ""
    if settings.camera_calibration:
        try:
            load_calibration(settings.camera_calibration)
        except CalibrationError as error:
            fix = "run 'camelup vision calibrate' again, or empty camera.calibration"
            return Check("camera", False, str(error), fix, needed=False)
        calibrated = f", calibrated by {settings.camera_calibration}"
    try:
        source = open_source(settings.camera, settings.camera_source)
        try:
            info = source.info()
        finally:
            source.close()
    except CameraError as error:
        return Check("camera", False, str(error), "the companion still runs without it: play is manual", needed=False)
    return Check(
        "camera", True, f"{settings.camera}: a {info.width}×{info.height} frame, exposure {info.exposure}{calibrated}"
    )


def _camera_placement(settings: Settings) -> Check:
    """The placement assistant on one frame: is the camera where the README says (markers, angle, distance,
    hidden spaces, camel size)?"""
    if settings.camera == "none":
        return Check("camera placement", True, "no camera", needed=False)
    from companion.placement_view import placement_words

    ok, detail = placement_words(settings)
    fix = "open /camera/placement on the host's device to see it live while you move the camera"
    return Check("camera placement", ok, detail, "" if ok else fix, needed=False)


def _data(settings: Settings) -> Check:
    path = Path(settings.data)
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".doctor"
        probe.write_text("ok")
        probe.unlink()
        sqlite3.connect(path / "games.sqlite3").execute("PRAGMA journal_mode=WAL").fetchone()
    except OSError as error:
        return Check(
            "data directory",
            False,
            f"{path}: {error.strerror}",
            f"make it writable for this user: sudo chown -R $USER {path}",
        )
    except sqlite3.Error as error:
        return Check(
            "data directory", False, f"{path}/games.sqlite3: {error}", "move the broken file aside and restart"
        )
    return Check("data directory", True, f"{path.resolve()} writable, database opens")


def _port(settings: Settings) -> Check:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((settings.host, settings.port))
            return Check("port", True, f"{settings.host}:{settings.port} is free")
        except OSError:
            pass
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{settings.port}/healthz", timeout=2) as response:
            if response.status == 200:
                return Check("port", True, f"{settings.port}: the companion is already running there")
    except OSError:
        pass
    return Check(
        "port",
        False,
        f"{settings.port} is used by another program",
        "choose another port (--port or port = ... in the configuration)",
    )


def _address(settings: Settings) -> Check:
    from companion.web.net import table_address

    if settings.public_url:
        return Check("address for phones", True, settings.public_url)
    address = table_address()
    if address is None:
        return Check(
            "address for phones",
            False,
            "no network interface with an IPv4 address",
            "connect the Pi to the table's Wi-Fi, or make it a hotspot: deploy/install.sh --hotspot NAME PASS",
        )
    return Check("address for phones", True, f"http://{address}:{settings.port}/")


def run_checks(settings: Settings, simulate: bool) -> list[Check]:
    checks: list[Check] = [_python(), *_packages()]
    steps: list[Callable[[], Check | list[Check]]] = [
        lambda: _gpio(settings, simulate),
        lambda: _camera(settings),
        lambda: _camera_placement(settings),
        lambda: _data(settings),
        lambda: _port(settings),
        lambda: _address(settings),
    ]
    for step in steps:
        result = step()
        checks.extend(result if isinstance(result, list) else [result])
    return checks


def report(checks: list[Check]) -> tuple[str, int]:
    lines = []
    for check in checks:
        mark = "PASS" if check.ok else ("FAIL" if check.needed else "WARN")
        lines.append(f"{mark}  {check.name}: {check.detail}")
        if not check.ok and check.fix:
            lines.append(f"      fix: {check.fix}")
    broken = [check for check in checks if not check.ok and check.needed]
    lines.append("Everything needed works." if not broken else f"{len(broken)} needed check(s) failed.")
    return "\n".join(lines), 1 if broken else 0
