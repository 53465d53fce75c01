"""Starting the electronic pyramid for ``camelup serve``, and saying what is missing when it cannot start.

A Pi with no rig yet (or a rig half built, its servo board not wired) must still serve the phones and the table
screen: the companion then draws the dice itself, like the simulated pyramid, and says on the log, on the
pyramid games' pages and on ``/healthz`` what is missing and where the README tells how to fix it. ``camelup
doctor`` words the same problems with :func:`explain`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.table.service import SimulatedPyramid

if TYPE_CHECKING:
    from companion.table.config import Settings
    from companion.table.service import DiceSource

WIRING_STEP = 2
"""The step of hardware/README.md's "Building it, step by step" that wires the PCA9685 (a test keeps it so)."""
I2C_STEP = 0
"""The step that switches I²C on."""


@dataclass(frozen=True)
class RigProblem:
    """Why the rig did not start: ``what`` is missing, and the ``fix``."""

    what: str
    fix: str
    see: str = "camelup doctor says how to fix it"
    """Where a player at the table is sent for the fix (the table screen has no room for all of it)."""
    what_key: str = "rig.what.other"
    see_key: str = "rig.see.doctor"
    params: dict[str, str] = field(default_factory=dict)
    """``what`` and ``see`` as message-catalog keys and their ``{placeholders}``: the table screen says them in the
    players' language (``what``, ``fix`` and ``see`` stay English for the log, ``camelup doctor`` and /healthz)."""

    def sentence(self) -> str:
        return f"{self.what}: {self.fix}"


def resolved_mode(settings: Settings, simulate: bool = False) -> str:
    """``"none"``, ``"simulated"`` or ``"gpio"``: what ``[pyramid] mode`` means on this machine ("auto" is the
    rig on a Raspberry Pi, the simulated pyramid elsewhere)."""
    from firmware_py import hardware

    mode = "simulated" if simulate else settings.pyramid
    if mode == "auto":
        mode = "gpio" if hardware.running_on_raspberry_pi() else "simulated"
    return mode


def sees_system_packages() -> bool:
    """Whether this Python sees Debian's packages (apt's python3-lgpio, python3-libgpiod): not in a venv made
    without --system-site-packages, such as make setup's .venv."""
    config = Path(sys.prefix) / "pyvenv.cfg"
    if sys.prefix == sys.base_prefix or not config.is_file():
        return True
    return "include-system-site-packages = true" in config.read_text(errors="ignore").lower()


def _install(package: str) -> tuple[str, str, str]:
    """How to install one of the rig's Python modules here: the fix in full, in a few words, and their key."""
    if sees_system_packages():
        return (f"sudo apt install {package} (sudo deploy/install.sh installs it)", f"sudo apt install {package}",
                "rig.see.apt")
    return (f"make pi-extras in the checkout (it installs the [pi] extra into {sys.prefix}, which does not see "
            f"apt's {package}), or install the service: sudo deploy/install.sh", "make pi-extras", "rig.see.pi_extras")


def explain(error: BaseException, settings: Settings, address: int = 0x40) -> RigProblem:
    """What is missing, in a builder's words, for an error raised while starting the rig."""
    from firmware_py.config import ConfigError
    from firmware_py.hardware import APT_PACKAGES, FactoryError
    from firmware_py.servos import BusError

    if isinstance(error, ConfigError):
        where = settings.pyramid_config or "the rig's settings ([pyramid] config)"
        return RigProblem(f"the rig's settings are wrong ({error})", f"fix the key it names in {where} "
                          "(hardware/pyramid.example.toml explains each)", f"fix it in {where}",
                          "rig.what.config", "rig.see.config" if settings.pyramid_config else "rig.see.config_key",
                          {"error": str(error), "file": settings.pyramid_config or ""})
    if isinstance(error, FactoryError) and error.module:
        package = APT_PACKAGES.get(error.module, f"python3-{error.module}")
        fix, see, see_key = _install(package)
        return RigProblem(f"the Python module {error.module} (for the Pi's GPIO pins) is missing", fix, see,
                          "rig.what.gpio_module", see_key, {"module": error.module, "package": package})
    if isinstance(error, BusError) and error.cause == "device":
        return RigProblem(f"no PCA9685 servo board answers on I²C at address 0x{address:02x}",
                          f"wire the servo board as hardware/README.md says in step {WIRING_STEP} (VCC to 3.3 V, "
                          f"GND, SDA to GPIO2, SCL to GPIO3); 'i2cdetect -y 1' must then show {address:02x}",
                          f"wire it: hardware/README.md, step {WIRING_STEP}", "rig.what.no_servo_board",
                          "rig.see.wire", {"address": f"0x{address:02x}", "step": str(WIRING_STEP)})
    if isinstance(error, BusError) and error.cause == "module":
        fix, see, see_key = _install("python3-libgpiod")
        return RigProblem("the Python module gpiod (libgpiod's bindings, which the servo board's driver needs on a "
                          "Pi) is missing", fix, see, "rig.what.gpiod", see_key, {"package": "python3-libgpiod"})
    if isinstance(error, BusError) and "Permission denied" in str(error):
        return RigProblem(f"the I²C bus for the servo board cannot be opened ({error})",
                          "add this user to the i2c group (sudo usermod -aG i2c $USER, then log out and back in; "
                          "sudo deploy/install.sh does it for the service)", "the i2c group", "rig.what.i2c_bus",
                          "rig.see.i2c_group", {"error": str(error)})
    if isinstance(error, BusError):
        return RigProblem(f"the I²C bus for the servo board cannot be opened ({error})",
                          f"switch I²C on (sudo raspi-config nonint do_i2c 0, then reboot: hardware/README.md, "
                          f"step {I2C_STEP})", f"switch I²C on: hardware/README.md, step {I2C_STEP}",
                          "rig.what.i2c_bus", "rig.see.i2c_on", {"error": str(error), "step": str(I2C_STEP)})
    return RigProblem(f"the rig's pins or board cannot be used ({type(error).__name__}: {error})",
                      "is another program using them (camelup pyramid run or selftest)? Stop it; check the wiring "
                      "table in hardware/README.md", params={"error": f"{type(error).__name__}: {error}"})


class UnavailablePyramid(SimulatedPyramid):
    """The rig is configured but could not start: the companion draws the dice itself, and every pyramid game's
    pages say why (the ``notice`` the table screen and the host's page show)."""

    name = "unavailable"

    def __init__(self, problem: RigProblem, config: str | None = None, rng: Any = None) -> None:
        super().__init__(rng)
        self.problem = problem
        where = f" in {config}" if config else ""
        self.notice = (f"The electronic pyramid is not working: {problem.what} ({problem.see}, then restart the "
                       "companion). Until then the companion draws the dice. No rig at this table? Set mode = "
                       f"\"simulated\" under [pyramid]{where}.")
        # The same in the pages' catalogs: ``*_key`` params are keys said first (with the same params).
        self.notice_words = {"key": "rig.unavailable_in" if config else "rig.unavailable",
                             "params": {**problem.params, "config": config or "", "what_key": problem.what_key,
                                        "see_key": problem.see_key}}

    def status(self) -> dict[str, Any]:
        return {"state": "unavailable", "notice": self.notice, "notice_words": self.notice_words, "put_back": [],
                "problem": self.problem.sentence()}


def open_rig(settings: Settings) -> tuple[DiceSource, str]:
    """The rig on this machine's pins and PCA9685 (mock pins and a simulated board off a Pi).

    Raises:
        ConfigError, FactoryError, BusError, or gpiozero's errors for a pin in use.
    """
    from companion.table.pyramid_source import RigPyramid
    from firmware_py.config import load_config
    from firmware_py.hardware import make_pin_factory
    from firmware_py.pyramid import Pyramid
    from firmware_py.rig import PyramidRig
    from firmware_py.rigstate import StateFile

    rig_config = load_config(settings.pyramid_config)
    factory, factory_name = make_pin_factory(rig_config.pin_factory)
    try:
        # The rig's leg and dice out live beside the games, so the two are reconciled after any restart.
        store = StateFile(Path(settings.data) / "pyramid-state.json")
        rig = PyramidRig.build(Pyramid(rig_config.dice), rig_config, factory, store=store)
    except BaseException:
        factory.close()  # the pins claimed so far
        raise
    return RigPyramid(rig), f"gpio ({factory_name} pins)"


def make_pyramid(
    settings: Settings, simulate: bool = False, config: str | None = None
) -> tuple[DiceSource | None, str, RigProblem | None]:
    """The dice source the settings ask for, its name for the log, and what is missing when the rig could not
    start (the companion then draws the dice itself: see :class:`UnavailablePyramid`). ``config``: the
    companion's configuration file, named in the notice."""
    mode = resolved_mode(settings, simulate)
    if mode == "none":
        return None, "none", None
    if mode == "simulated":
        return SimulatedPyramid(), "simulated", None
    try:
        source, name = open_rig(settings)
    except Exception as error:  # whatever stops the rig must not stop the phones and the table screen
        problem = explain(error, settings, _address(settings))
        return UnavailablePyramid(problem, config), "unavailable (the companion draws the dice)", problem
    return source, name, None


def _address(settings: Settings) -> int:
    from firmware_py.config import ConfigError, load_config

    try:
        return load_config(settings.pyramid_config).servo.i2c_address
    except ConfigError:
        return 0x40
