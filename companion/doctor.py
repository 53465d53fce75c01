"""``camelup doctor``: is this machine ready to be the table's companion? Each check says pass or fail and,
when it fails, how to fix it. The exit status is 1 when something needed is broken.

On a Pi where deploy/install.sh installed the service, doctor checks what the service uses: its configuration
(/etc/camelup/config.toml) and its games (/var/lib/camelup), unless told otherwise. Everything it looks at on
the machine (devices, groups, the service, imports) comes through :class:`Machine`, so tests describe a Pi."""

from __future__ import annotations

import dataclasses
import importlib
import importlib.metadata
import socket
import sqlite3
import sys
import tomllib
import urllib.request
from collections.abc import Callable
from pathlib import Path

from companion.doctor_machine import SERVICE_USER, Check, Machine
from companion.table.config import Settings, load_settings


def doctor_settings(
    config: str | None, port: int | None = None, data: str | None = None, machine: Machine | None = None
) -> tuple[Settings, Check]:
    """The settings to check: ``config``, else the service's configuration when it is installed; and the
    service's data directory when that configuration does not name one. Also a line saying which.

    Raises:
        SettingsError: the configuration file is unreadable or wrong, naming what.
    """
    machine = machine or Machine()
    if config is None and machine.service_config.exists():
        config = str(machine.service_config)
    settings = load_settings(config, port=port, data=data)
    is_service = config is not None and Path(config) == machine.service_config
    if is_service and data is None:
        written = tomllib.loads(Path(config).read_text(encoding="utf-8"))
        if "data" not in written:  # made before install.sh wrote it: the unit's --data is the one
            settings = dataclasses.replace(settings, data=machine.service_data)
    if config is None:
        where = "none: the defaults (--config FILE to check another)"
    else:
        where = f"{config}" + (" (the service's)" if is_service else "")
    return settings, Check("configuration", True, f"{where}; games in {settings.data}")


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
        ("uvicorn", "uvicorn"),
        ("a2wsgi", "a2wsgi"),
        ("flask_limiter", "flask-limiter"),
        ("babel", "babel"),
        ("gpiozero", "gpiozero"),
        ("qrcode", "qrcode"),
        ("tomli_w", "tomli-w"),
        ("numpy", "numpy"),
        ("cv2", "opencv-python-headless"),
    ):
        try:
            importlib.import_module(module)
            checks.append(Check(f"package {package}", True, f"installed {importlib.metadata.version(package)}"))
        except importlib.metadata.PackageNotFoundError:  # imported from elsewhere, e.g. Debian's numpy
            checks.append(Check(f"package {package}", True, "installed (by the system)"))
        except Exception as error:  # a compiled module can fail with more than ImportError
            checks.append(
                Check(f"package {package}", False, f"{type(error).__name__}: {error}",
                      "reinstall: make run, or sudo deploy/install.sh")
            )
    return checks


def _real_pins(settings: Settings, simulate: bool) -> bool:
    return not simulate and settings.pyramid in ("auto", "gpio")


def _groups(settings: Settings, simulate: bool, machine: Machine) -> list[Check]:
    """This user's (and the service user's) membership of the groups that own the devices used."""
    wanted = {}
    if _real_pins(settings, simulate) and any(machine.dev.glob("gpiochip*")):
        wanted["gpio"] = "the pyramid's GPIO pins (/dev/gpiochip*)"
    if settings.camera in ("picamera2", "webcam"):
        wanted["video"] = "the camera (/dev/video*, /dev/media*, /dev/dma_heap/*)"
    if _real_pins(settings, simulate) and any(machine.dev.glob("i2c-*")):
        wanted["i2c"] = "the servo board on I²C (/dev/i2c-*)"
    if not wanted:
        return []
    checks = []
    if machine.is_root:
        checks.append(Check("groups", True, "running as root: every device is reachable"))
    else:
        for group, use in wanted.items():
            if group not in machine.all_groups:
                checks.append(Check(f"group {group}", False, f"no {group} group on this system", needed=False))
            elif group in machine.session_groups:
                checks.append(Check(f"group {group}", True, f"{machine.user} is in it: {use}"))
            elif group in machine.member_groups(machine.user):
                checks.append(Check(f"group {group}", False, f"{machine.user} was added to {group} after logging in",
                                    "log out and back in (or reboot) so it takes effect"))
            else:
                checks.append(Check(f"group {group}", False, f"{machine.user} is not in it, so cannot use {use}",
                                    f"sudo usermod -aG {group} {machine.user}, then log out and back in"))
    service_groups = machine.member_groups(SERVICE_USER)
    if service_groups and machine.user != SERVICE_USER:
        missing = sorted(g for g in wanted if g in machine.all_groups and g not in service_groups)
        checks.append(
            Check(f"groups of the {SERVICE_USER} service", not missing,
                  f"missing {', '.join(missing)}" if missing else f"in {', '.join(sorted(wanted))}",
                  "sudo deploy/install.sh adds them (then: sudo systemctl restart camelup)")
        )
    return checks


def _gpio(settings: Settings, simulate: bool, machine: Machine) -> list[Check]:
    from firmware_py.config import ConfigError, load_config
    from firmware_py.hardware import FactoryError

    mode = "simulated" if simulate else settings.pyramid
    if mode == "none":
        return [Check("pyramid", True, "no electronic pyramid configured (dice entered by hand)")]
    try:
        config = load_config(settings.pyramid_config)
    except ConfigError as error:
        return [
            Check("pyramid configuration", False, str(error), "fix the key it names (hardware/pyramid.example.toml)")
        ]
    chips = sorted(machine.dev.glob("gpiochip*"))
    if mode != "simulated" and chips and not any(machine.can_open(chip) for chip in chips):
        # lgpio cannot open the chip either: the fix is the group, not installing lgpio.
        return [
            Check("GPIO access", False, f"{machine.user} cannot open {chips[0]}",
                  f"add the user to the gpio group: sudo usermod -aG gpio {machine.user} (then log out and in)")
        ]
    if mode != "simulated" and machine.service_active():
        health = machine.service_health(settings.port) or {}
        if isinstance(health.get("pyramid"), dict):  # the service runs, but without its rig
            from companion.doctor_rig import rig_held_broken

            return [rig_held_broken(settings, health["pyramid"].get("problem", ""))]
        # The running companion holds the pins: claiming them here would fail with "GPIO busy".
        return [
            Check("pins", True, f"held by the running {SERVICE_USER} service, as they should be (to test them one "
                  "by one: sudo systemctl stop camelup; camelup doctor; sudo systemctl start camelup)")
        ]
    try:
        factory, name = machine.pin_factory(config.pin_factory, mode == "simulated")
    except FactoryError as error:
        if error.module:
            from companion.table.rig_start import explain

            fix = explain(error, settings).fix + ", or run with --simulate"
        else:
            fix = "on a Raspberry Pi, check /dev/gpiochip* and the gpio group; elsewhere run with --simulate"
        return [Check("GPIO", False, str(error), fix, needed=settings.pyramid == "gpio")]
    checks = [
        Check(
            "GPIO pin factory",
            True,
            f"{name}" + (" (simulated pins: gpiozero's MockFactory)" if name == "mock" else ""),
        )
    ]
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
                    "is another program using it? (sudo lsof /dev/gpiochip*); check the wiring table in "
                    "hardware/README.md",
                )
            )
    factory.close()
    if name != "mock":  # serve then opens the real PCA9685 too
        from companion.doctor_rig import servo_board

        checks.append(servo_board(settings, config, machine))
    return checks


def _camera_libraries(settings: Settings, machine: Machine) -> list[Check]:
    """numpy, OpenCV and picamera2 imported into one process, as the companion does: one numpy for both."""
    if settings.camera != "picamera2":
        return []
    from vision.sources import explain_picamera2_failure

    loaded = []
    for module in ("numpy", "cv2", "picamera2"):
        try:
            imported = machine.import_module(module)
        except Exception as error:  # ValueError "numpy.dtype size changed", ImportError, AttributeError...
            detail = explain_picamera2_failure(error) if module == "picamera2" else f"{type(error).__name__}: {error}"
            return [Check("camera libraries", False, detail, "see the README: \"The camera does not start\"",
                          needed=False)]
        version = getattr(imported, "__version__", "")
        where = Path(getattr(imported, "__file__", "") or ".").parent
        loaded.append(f"{module} {version} ({where})".replace(" ()", ""))
    return [Check("camera libraries", True, "; ".join(loaded))]


def _dma_heap(settings: Settings, machine: Machine) -> list[Check]:
    """libcamera (picamera2) allocates its frame buffers from /dev/dma_heap/*."""
    if settings.camera != "picamera2":
        return []
    heaps = sorted(machine.dev.glob("dma_heap/*"))
    if not heaps:
        return [Check("camera buffers", False, f"no {machine.dev / 'dma_heap'}: libcamera needs it",
                      "use Raspberry Pi OS Bookworm or later", needed=False)]
    refused = [heap.name for heap in heaps if not machine.can_open(heap)]
    if refused:
        return [Check("camera buffers", False, f"{machine.user} cannot open {', '.join(refused)} in "
                      f"{machine.dev / 'dma_heap'}",
                      f"add the user to the video group: sudo usermod -aG video {machine.user} (then log out and in)",
                      needed=False)]
    return [Check("camera buffers", True, f"{', '.join(h.name for h in heaps)} in {machine.dev / 'dma_heap'}")]


def _service(machine: Machine) -> list[Check]:
    """The installed systemd service, when there is one."""
    if not machine.service_unit.exists():
        return []
    unit = machine.service_unit.read_text(encoding="utf-8", errors="replace")
    checks = []
    if "DeviceAllow=/dev/dma_heap" in unit or "DeviceAllow=char-dma_heap" not in unit:
        checks.append(Check("service unit", False, f"{machine.service_unit} keeps the camera from its buffers "
                            "(/dev/dma_heap)", "sudo deploy/install.sh (installs the current unit)", needed=False))
    if machine.service_active():
        checks.append(Check("service", True, "running (logs: journalctl -u camelup)"))
    else:
        checks.append(Check("service", False, "installed but not running",
                            "sudo systemctl start camelup; if it stops again: journalctl -u camelup", needed=False))
    return checks


def _camera_source_fix(settings: Settings, config: str | None) -> str:
    """Where to put the camera right: the source it could not open, and the file that names it."""
    where = f"in {config}" if config else "in the configuration file (none is in use: give one with --config FILE)"
    if settings.camera == "files":
        what = (f"put a colour photo of the board (or a folder of them) at {settings.camera_source}, or name one "
                if settings.camera_source else "name an image file or a folder of them ")
    else:
        what = f"check that the {settings.camera} camera is connected, or name another "
    return (f"{what}as source under [camera] {where}; or set mode = \"none\" there to play without it "
            "(the companion runs without a camera: play is by hand)")


def _calibration_settings(settings: Settings) -> str:
    """The calibration settings in use, as written under [camera]: what an error about one of them is about."""
    named = {"calibration": settings.camera_calibration, "calibration_2014": settings.camera_calibration_2014,
             "calibration_2018": settings.camera_calibration_2018}
    return "[camera] " + (", ".join(f'{name} = "{path}"' for name, path in named.items() if path)
                          or f'board = "{settings.camera_board}"')


def _board_set(settings: Settings) -> bool:
    """Whether the configuration file sets board under [camera] (not the default: nothing there to override)."""
    if not settings.config_file:
        return False
    try:
        with open(settings.config_file, "rb") as file:
            return "board" in tomllib.load(file).get("camera", {})
    except (OSError, tomllib.TOMLDecodeError):
        return False


def _camera(settings: Settings, machine: Machine, config: str | None = None) -> Check:
    """A frame from the configured camera: its size and exposure, and that it has colour."""
    if settings.camera == "none":
        return Check("camera", True, "not configured: the board is not read (manual play)", needed=False)
    from companion.table.camera_edition import camera_setup
    from companion.table.camera_words import text
    from vision.board import TemplateError
    from vision.calibrate import CalibrationError, reading_colours
    from vision.sources import open_source

    try:
        # What it reads each edition's board with: it follows the edition of the game played last.
        found = camera_setup(settings.camera_board, settings.camera_calibration,
                             {"2014": settings.camera_calibration_2014, "2018": settings.camera_calibration_2018},
                             Path(settings.data), config or settings.config_file)
    except (TemplateError, CalibrationError) as error:
        fix = "run 'camelup vision calibrate' again, or empty the calibration setting it names under [camera]"
        return Check("camera", False, f"{_calibration_settings(settings)}: {error}", fix, needed=False)
    if found.unchecked:
        checked = ", ".join(found.editions) or "none: the camera is off"
        return Check("camera", False, "; ".join(found.unchecked[edition] for edition in sorted(found.unchecked))
                     + f" (games checked: {checked})",
                     "fix or empty the [camera] setting it names, as it says (the other edition's games are checked)",
                     needed=False)
    first, editions = found.first, found.editions
    ways = {"file": "calibrated by {file}", "learnt": "with what it learnt at this table ({file})",
            "usual": "with the camels' usual colours until it calibrates itself from a board a game confirms"}
    calibrated = (", reads the board of each game's edition (starts on " + first
                  + ", or on the edition of a race still in play): ") + "; ".join(
        f"{edition} {ways[found.source].format(file=found.calibration_file or found.learnt_from)}"
        + (f" (camel size {found.colours.camel_size.describe(brief=True)})" if found.source == "file" else "")
        + (f"; {text(found.note)}" if found.note else "")
        for edition, found in sorted(editions.items()))
    if (settings.camera_calibration and _board_set(settings)
            and first != reading_colours(settings.camera_board).template.edition):
        calibrated += f"; the calibration overrides board = \"{settings.camera_board}\" under [camera]"
    if settings.camera in ("picamera2", "webcam") and machine.service_active():
        return Check("camera", True, f"in use by the running {SERVICE_USER} service: the table screen shows what it "
                     "sees (to test it here: sudo systemctl stop camelup first)" + calibrated)
    from vision.image_file import COLOURLESS, colourless

    try:
        source = open_source(settings.camera, settings.camera_source)
        try:
            info = source.info()
            frame = source.read()
        finally:
            source.close()
    except Exception as error:  # CameraError says what to check; anything else still must not crash doctor
        return Check("camera", False, str(error), _camera_source_fix(settings, config), needed=False)
    if colourless(frame):
        # The companion would open it and then read nothing: the camels differ only in colour.
        fix = ("use a colour camera, or set the camera to colour (not its monochrome / greyscale / night mode)"
               if settings.camera != "files" else f"give colour photos as source under [camera] in "
               f"{config or 'the configuration file'} (a colour camera, not a greyscale copy)")
        return Check("camera", False, f"{settings.camera}: a {info.width}×{info.height} frame, but {COLOURLESS}",
                     fix, needed=False)
    return Check(
        "camera", True, f"{settings.camera}: a {info.width}×{info.height} frame, exposure {info.exposure}{calibrated}"
    )


def _camera_placement(settings: Settings, machine: Machine | None = None) -> Check:
    """The placement assistant on one frame: is the camera where the README says (markers, angle, distance,
    hidden spaces, camel size), and is its picture sharp and well exposed?"""
    if settings.camera == "none":
        return Check("camera placement", True, "no camera", needed=False)
    if settings.camera in ("picamera2", "webcam") and machine is not None and machine.service_active():
        # The service holds the camera: opening it here would fail as if the camera were broken.
        return Check("camera placement", True, "not checked here: the running camelup service holds the camera; "
                     "open the placement assistant (/camera/placement) from the host's page (the Camera box's "
                     "\"Place the camera\" link) to check it live, and take the calibration photo there", needed=False)
    from companion.table.placement_view import placement_words

    ok, detail = placement_words(settings)
    if detail.startswith("no frame to check"):  # the camera's own line says what to do
        return Check("camera placement", False, detail, "put the camera right first (the camera line above)",
                     needed=False)
    fix = ("open the placement assistant (/camera/placement) from the host's page, the Camera box's \"Place the "
           "camera\" link, to see it live while you move the camera")
    return Check("camera placement", ok, detail, "" if ok else fix, needed=False)


def _data(settings: Settings, machine: Machine) -> Check:
    path = Path(settings.data)
    if machine.user != SERVICE_USER and path.resolve() == machine.service_data.resolve():
        # The service's own games: look, but create nothing (a file made by root or by you would lock it out).
        if not path.exists():
            return Check("data directory", False, f"{path} is not there yet",
                         "sudo deploy/install.sh makes it (the service's first start too)")
        owner = machine.owner(path)
        if owner != SERVICE_USER:
            return Check("data directory", False, f"{path} belongs to {owner or 'nobody'}, not {SERVICE_USER}",
                         f"sudo chown -R {SERVICE_USER}:{SERVICE_USER} {path}")
        return Check("data directory", True, f"{path}: the service's games, owned by {SERVICE_USER}")
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
    except sqlite3.OperationalError as error:
        if "locked" in str(error):
            # The companion holds its database exclusively while it runs: in use, not broken.
            return Check("data directory", True, f"{path.resolve()} writable; the database is in use by a running "
                         "companion (stop it to have the database opened here too)")
        return Check(
            "data directory", False, f"{path}/games.sqlite3: {error}", "move the broken file aside and restart"
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
    from companion.table.web.net import table_address

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
    from companion.table.web.net import loopback

    if loopback(settings.host):  # as serve says: bound there, the table's address does not answer
        return Check("address for phones", False, f"listening on {settings.host} only: phones cannot join "
                     f"(http://{address}:{settings.port}/ would not answer)", "set host = \"0.0.0.0\" in the "
                     "configuration (or --host 0.0.0.0)", needed=False)
    return Check("address for phones", True, f"http://{address}:{settings.port}/")


def run_checks(
    settings: Settings, simulate: bool, machine: Machine | None = None, config: str | None = None
) -> list[Check]:
    """``config``: the configuration file as given (None: the service's when it is installed), named in fixes."""
    machine = machine or Machine()
    if config is None and machine.service_config.exists():
        config = str(machine.service_config)
    checks: list[Check] = [_python(), *_packages()]
    libraries = _camera_libraries(settings, machine)  # when they fail, opening the camera would say it again
    steps: list[Callable[[], Check | list[Check]]] = [
        lambda: _service(machine),
        lambda: _groups(settings, simulate, machine),
        lambda: _gpio(settings, simulate, machine),
        lambda: libraries,
        lambda: _dma_heap(settings, machine),
        lambda: _camera(settings, machine, config) if all(check.ok for check in libraries) else [],
        lambda: _camera_placement(settings, machine) if all(check.ok for check in libraries) else [],
        lambda: _data(settings, machine),
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
    warned = [check.name for check in checks if not check.ok and not check.needed]
    if broken:
        lines.append(f"{len(broken)} needed check(s) failed.")
    elif warned:
        # Honest: play needs none of these, but they do not work.
        lines.append(f"Everything needed to play works; {_names(warned)} {'does' if len(warned) == 1 else 'do'} not "
                     "(see WARN above).")
    else:
        lines.append("Everything needed works.")
    return "\n".join(lines), 1 if broken else 0


def _names(names: list[str]) -> str:
    """``["camera", "camera placement"]`` → "the camera and the camera placement"."""
    named = [f"the {name}" for name in names]
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
