"""``camelup doctor``'s checks of the dice pyramid's rig beyond its pins: the PCA9685 servo board as ``camelup
serve`` opens it, and a running service that could not start its rig. Worded by
:func:`companion.table.rig_start.explain`, as the service's own log and pages word them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.doctor_machine import SERVICE_USER, Check

if TYPE_CHECKING:
    from companion.doctor_machine import Machine
    from companion.table.config import Settings


def rig_held_broken(settings: Settings, problem: str) -> Check:
    return Check("pyramid rig", False, f"the running {SERVICE_USER} service could not start it ({problem}); it draws "
                 "the dice itself until then", "fix that, then: sudo systemctl restart camelup",
                 needed=settings.pyramid == "gpio")


def servo_board(settings: Settings, config: Any, machine: Machine) -> Check:
    """The PCA9685 as ``serve`` opens it: libgpiod's bindings (Blinka imports them on a Pi), the I²C bus and the
    board at its address. Opening it releases every output, so no servo moves."""
    from companion.table.rig_start import explain
    from firmware_py.servos import BusError, open_gates

    address = config.servo.i2c_address
    needed = settings.pyramid == "gpio"  # "auto": the companion runs without the rig and draws the dice itself
    try:
        machine.import_module("gpiod")
        bus = machine.open_i2c_bus()
        try:
            open_gates(config.servo, simulate=False, bus=bus).close()
        finally:
            getattr(bus, "deinit", lambda: None)()
    except ImportError:
        problem = explain(BusError("gpiod", cause="module"), settings, address)
        return Check("servo board", False, problem.what, problem.fix, needed=needed)
    except Exception as error:  # BusError, or whatever the bus raises
        problem = explain(error, settings, address)
        return Check("servo board", False, problem.what, problem.fix, needed=needed)
    return Check("servo board", True,
                 f"the PCA9685 answers on I²C at 0x{address:02x} (its outputs off: no servo moved)")
