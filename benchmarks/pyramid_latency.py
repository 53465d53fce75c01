"""Button press to LED colour, and press to servo release, on gpiozero's mock pins.

Targets (issue 4): median press → LED ≤ 5 ms; the servo release starts within 50 ms of the press.
Run: .venv/bin/python benchmarks/pyramid_latency.py [--presses N]
"""

from __future__ import annotations

import argparse
import statistics
import time

from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware_py.config import parse_config
from firmware_py.pyramid import Pyramid
from firmware_py.rig import PyramidRig


def wait_for(condition, timeout: float = 1.0) -> float:
    """Poll ``condition()`` every 50 µs; return the moment it held.

    The poll sleeps rather than spins: a spinning loop would hold the GIL and delay the rig's own worker
    thread by Python's 5 ms switch interval, measuring the benchmark instead of the rig.
    """
    deadline = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > deadline:
            raise TimeoutError("the rig did not react")
        time.sleep(0.00005)
    return time.perf_counter()


def measure(presses: int) -> tuple[list[float], list[float]]:
    config = parse_config({"button": {"lockout": 0.0}, "servo": {"move_time": 0.0}, "led": {"show_time": 5.0}})
    factory = MockFactory(pin_class=MockPWMPin)
    pyramid = Pyramid(config.dice, seed=1)
    rig = PyramidRig.build(pyramid, config, factory)
    button = factory.pin(config.button.pin)
    led_pins = [factory.pin(p) for p in (config.led.red, config.led.green, config.led.blue)]
    servo = factory.pin(config.servo.pin)
    to_led, to_servo = [], []
    try:
        for _ in range(presses):
            if pyramid.leg_over:
                rig.refill()
                rig.wait_idle()
            before_led = [len(pin.states) for pin in led_pins]
            before_servo = len(servo.states)
            pressed = time.perf_counter()
            button.drive_low()
            led_at = wait_for(lambda n=before_led: any(len(p.states) > k for p, k in zip(led_pins, n, strict=True)))
            servo_at = wait_for(lambda n=before_servo: len(servo.states) > n)
            to_led.append((led_at - pressed) * 1000)
            to_servo.append((servo_at - pressed) * 1000)
            button.drive_high()
            rig.wait_idle()
    finally:
        rig.close()
    return to_led, to_servo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--presses", type=int, default=500)
    args = parser.parse_args()
    to_led, to_servo = measure(args.presses)
    p95 = statistics.quantiles(to_servo, n=20)[-1]
    median_led = statistics.median(to_led)
    print(f"press -> LED colour: median {median_led:.3f} ms (target <= 5 ms) over {args.presses} presses")
    print(f"press -> servo release starts: median {statistics.median(to_servo):.3f} ms, p95 {p95:.3f} ms, "
          f"max {max(to_servo):.3f} ms (target <= 50 ms)")


if __name__ == "__main__":
    main()
