"""What ``camelup doctor`` looks at on the machine (:class:`Machine`: devices, groups, the service, imports; tests
pass another one) and what each of its checks says (:class:`Check`). Shared by doctor's checks of the machine and
of the rig (:mod:`companion.doctor_rig`), which import it, not each other."""

from __future__ import annotations

import grp
import importlib
import json
import os
import pwd
import subprocess
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

SERVICE_USER = "camelup"
SERVICE_CONFIG = Path("/etc/camelup/config.toml")
SERVICE_DATA = Path("/var/lib/camelup")
SERVICE_UNIT = Path("/etc/systemd/system/camelup.service")


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""
    needed: bool = True
    """A failed check that is not needed is a warning (the companion still runs)."""


def service_is_active() -> bool:
    try:
        state = subprocess.run(
            ["systemctl", "is-active", "--quiet", "camelup.service"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=10, check=False,
        )
        return state.returncode == 0
    except (OSError, subprocess.TimeoutExpired):  # no systemd here
        return False


def _make_pin_factory(name: str, simulate: bool) -> tuple[Any, str]:
    from firmware_py.hardware import make_pin_factory

    return make_pin_factory(name, simulate=simulate)


def _open_i2c_bus() -> Any:
    from firmware_py.servos import open_i2c_bus

    return open_i2c_bus()


def _service_health(port: int) -> dict[str, Any] | None:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
            answer = json.loads(response.read())
            return answer if isinstance(answer, dict) else None
    except (OSError, ValueError):
        return None


def _group_names(ids: list[int]) -> set[str]:
    names = set()
    for gid in ids:
        try:
            names.add(grp.getgrgid(gid).gr_name)
        except KeyError:
            continue
    return names


def _member_groups(user: str) -> set[str]:
    """The groups /etc/group gives ``user`` (what a new login would have)."""
    try:
        primary = pwd.getpwnam(user).pw_gid
    except KeyError:
        return set()
    return {group.gr_name for group in grp.getgrall() if user in group.gr_mem or group.gr_gid == primary}


def _owner(path: Path) -> str:
    try:
        return pwd.getpwuid(path.stat().st_uid).pw_name
    except (OSError, KeyError):
        return ""


@dataclass
class Machine:
    """What doctor looks at on this machine; tests pass another one."""

    dev: Path = Path("/dev")
    user: str = field(default_factory=lambda: pwd.getpwuid(os.geteuid()).pw_name)
    is_root: bool = field(default_factory=lambda: os.geteuid() == 0)
    session_groups: set[str] = field(default_factory=lambda: _group_names([os.getegid(), *os.getgroups()]))
    """The groups this process has now (a group added since the last login is not among them yet)."""
    all_groups: set[str] = field(default_factory=lambda: {group.gr_name for group in grp.getgrall()})
    member_groups: Callable[[str], set[str]] = _member_groups
    service_active: Callable[[], bool] = service_is_active
    service_config: Path = SERVICE_CONFIG
    service_data: Path = SERVICE_DATA
    service_unit: Path = SERVICE_UNIT
    owner: Callable[[Path], str] = _owner
    can_open: Callable[[Path], bool] = lambda path: os.access(path, os.R_OK | os.W_OK)
    import_module: Callable[[str], ModuleType] = importlib.import_module
    pin_factory: Callable[..., tuple[Any, str]] = lambda name, simulate=False: _make_pin_factory(name, simulate)
    """gpiozero's pin factory, as ``serve`` makes it (tests give mock pins named "lgpio")."""
    open_i2c_bus: Callable[[], Any] = lambda: _open_i2c_bus()
    """The I²C bus the servo board's driver uses (Blinka's on a Pi)."""
    service_health: Callable[[int], dict[str, Any] | None] = lambda port: _service_health(port)
    """The running service's /healthz (None when it does not answer)."""
