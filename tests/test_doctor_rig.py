"""`camelup doctor` opens the rig the way `camelup serve` does: lgpio's pins, then the PCA9685 on I²C (with
libgpiod's bindings, which Blinka imports on a Pi). A Pi with no servo board wired is told what to wire, not
"Everything needed works"; a running service that could not start its rig says so; and a camera the service
holds is not sent to its ribbon cable. The machine is a :class:`companion.doctor.Machine` built here."""

import dataclasses
import types
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.doctor import Machine, report, run_checks
from companion.table.config import load_settings
from firmware_py.servos import SimulatedPca9685Bus

ROOT = Path(__file__).resolve().parents[1]


def _no_module(name):
    raise ImportError(f"No module named {name!r}", name=name)


@pytest.fixture
def pi(tmp_path):
    """A Pi with lgpio (mock pins stand in) and an I²C bus with nothing at 0x40, the service not running."""
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "dma_heap").mkdir()
    for node in ("gpiochip0", "i2c-1", "dma_heap/system"):
        (dev / node).write_text("")
    data = tmp_path / "var/lib/camelup"
    data.mkdir(parents=True)
    return Machine(
        dev=dev, user="pi", is_root=False, session_groups={"pi", "gpio", "i2c", "video"},
        all_groups={"pi", "gpio", "video", "i2c"}, member_groups=lambda user: {"pi", "gpio", "i2c", "video"},
        service_active=lambda: False, service_config=tmp_path / "etc/config.toml", service_data=data,
        service_unit=tmp_path / "etc/camelup.service", owner=lambda path: "camelup", can_open=lambda path: True,
        import_module=lambda name: types.SimpleNamespace(__version__="2.2.1", __file__=f"/usr/lib/{name}.py"),
        pin_factory=lambda name, simulate=False: (MockFactory(pin_class=MockPWMPin), "mock" if simulate else "lgpio"),
        open_i2c_bus=lambda: SimulatedPca9685Bus(0x41),
        service_health=lambda port: None,
    )


def doctor(machine, pyramid="auto", camera="none", simulate=False):
    settings = dataclasses.replace(load_settings(None), camera=camera, pyramid=pyramid, data=machine.service_data)
    checks = [c for c in run_checks(settings, simulate, machine) if c.name not in ("port", "address for phones")]
    text, status = report(checks)
    return {check.name: check for check in checks}, text, status


def test_no_servo_board_is_a_warning_with_the_wiring_step_not_everything_works(pi):
    checks, text, status = doctor(pi)
    board = checks["servo board"]
    assert not board.ok and not board.needed, "auto: the companion runs and draws the dice itself"
    assert "no PCA9685 servo board answers on I²C at address 0x40" in board.detail
    assert "hardware/README.md says in step 2" in board.fix
    assert "Everything needed works." not in text and "WARN  servo board" in text and status == 0


def test_a_rig_asked_for_by_name_fails_without_its_board(pi):
    checks, text, status = doctor(pi, pyramid="gpio")
    assert not checks["servo board"].ok and checks["servo board"].needed
    assert "FAIL  servo board" in text and status == 1


def test_the_servo_board_answering_passes(pi):
    pi.open_i2c_bus = lambda: SimulatedPca9685Bus(0x40)
    checks, text, _ = doctor(pi)
    assert checks["servo board"].ok and "answers on I²C at 0x40" in checks["servo board"].detail
    assert text.endswith("Everything needed works.")


def test_gpiod_missing_names_the_package_not_the_wiring(pi, monkeypatch):
    pi.import_module = lambda name: _no_module(name) if name == "gpiod" else types.SimpleNamespace()
    pi.open_i2c_bus = lambda: SimulatedPca9685Bus(0x40)
    monkeypatch.setattr("companion.table.rig_start.sees_system_packages", lambda: True)  # the service's venv
    checks, _, _ = doctor(pi)
    board = checks["servo board"]
    assert not board.ok and "gpiod" in board.detail and "sudo apt install python3-libgpiod" in board.fix
    assert "wire" not in board.fix
    monkeypatch.setattr("companion.table.rig_start.sees_system_packages", lambda: False)  # make setup's .venv
    checks, _, _ = doctor(pi)
    assert "make pi-extras" in checks["servo board"].fix, "apt's package would not reach this venv"


def test_i2c_switched_off_says_how_to_switch_it_on(pi):
    from firmware_py.servos import BusError

    def closed_bus():
        raise BusError("the I²C bus cannot be opened ([Errno 2] No such file or directory: '/dev/i2c-1')")

    pi.open_i2c_bus = closed_bus
    checks, _, _ = doctor(pi)
    assert "raspi-config nonint do_i2c 0" in checks["servo board"].fix

    def refused_bus():
        raise BusError("the I²C bus cannot be opened ([Errno 13] Permission denied: '/dev/i2c-1')")

    pi.open_i2c_bus = refused_bus
    checks, _, _ = doctor(pi)
    assert "sudo usermod -aG i2c" in checks["servo board"].fix and "raspi-config" not in checks["servo board"].fix


def test_mock_pins_need_no_servo_board(pi):
    checks, _, _ = doctor(pi, simulate=True)
    assert "servo board" not in checks and checks["GPIO pin factory"].ok


def test_a_running_service_without_its_rig_says_what_it_misses(pi):
    pi.service_active = lambda: True
    pi.service_health = lambda port: {"ok": True, "status": "ok", "pyramid": {
        "state": "unavailable", "problem": "no PCA9685 servo board answers on I²C at address 0x40: wire it"}}
    checks, _, _ = doctor(pi)
    rig = checks["pyramid rig"]
    assert not rig.ok and "could not start it (no PCA9685" in rig.detail and "systemctl restart camelup" in rig.fix
    assert "pins" not in checks, "not 'held by the service, as they should be'"
    pi.service_health = lambda port: {"ok": True, "status": "ok"}
    checks, _, _ = doctor(pi)
    assert checks["pins"].ok and "held by the running camelup service" in checks["pins"].detail


def test_the_camera_held_by_the_service_is_not_sent_to_its_ribbon_cable(pi):
    pi.service_active = lambda: True
    checks, text, _ = doctor(pi, pyramid="none", camera="picamera2")
    placement = checks["camera placement"]
    assert checks["camera"].ok and placement.ok
    assert "the running camelup service holds the camera" in placement.detail
    assert "/camera/placement" in placement.detail
    assert "ribbon" not in text and "Everything needed works." in text
