"""``camelup pyramid run | selftest | calibrate | simulate`` (also ``python -m firmware_py``).

Standalone: nothing here imports the companion, so a hobbyist can run the rig on its own.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any, TextIO

from firmware_py.config import ConfigError, RigConfig, load_config, parse_config, save_angles
from firmware_py.pyramid import Draw, Pyramid, Refilled, Undone

# gpiozero is imported by the commands themselves, so that building the parser (``camelup --help``,
# ``camelup replay``) does not pay for it.

PWM_PERIOD = 0.02
"""A hobby servo's pulse period (50 Hz), what gpiozero's AngularServo uses."""


def _open(args: argparse.Namespace, overrides: dict[str, Any] | None = None) -> tuple[RigConfig, Any, str]:
    from firmware_py.hardware import make_pin_factory

    config = load_config(args.config)
    if overrides or getattr(args, "edition", None):
        data = dict(config.raw)
        if getattr(args, "edition", None):
            data["edition"] = args.edition
        for key, value in (overrides or {}).items():
            data[key] = {**data[key], **value}
        config = parse_config(data, config.source)
    factory, name = make_pin_factory(config.pin_factory, simulate=args.simulate)
    return config, factory, name


def _describe(draw: Draw) -> str:
    colour = f" ({draw.crazy} number)" if draw.crazy else ""
    return f"leg {draw.leg} #{draw.sequence}: {draw.die} {draw.value}{colour}"


# -- simulate -------------------------------------------------------------------------------------------


def cmd_simulate(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Press the (mock) button for every draw of ``--legs`` legs, refilling after each."""
    out = out or sys.stdout
    from firmware_py.rig import PyramidRig

    args.simulate = True
    config, factory, _ = _open(args, {"button": {"lockout": 0}, "servo": {"move_time": 0}})
    pyramid = Pyramid(config.dice, seed=args.seed)
    events = pyramid.subscribe()
    rig = PyramidRig.build(pyramid, config, factory)
    button_pin = factory.pin(config.button.pin)
    try:
        for _ in range(args.legs):
            for _ in range(pyramid.draws_per_leg):
                button_pin.drive_low()
                button_pin.drive_high()
                rig.wait_idle()
                draw = events.get(timeout=5)
                assert isinstance(draw, Draw)
                print(json.dumps(draw.as_json()) if args.json else _describe(draw), file=out)
            rig.refill()
            rig.wait_idle()
            events.get(timeout=5)  # the refill
    finally:
        rig.close()
    return 0


# -- run ------------------------------------------------------------------------------------------------


def cmd_run(args: argparse.Namespace, keys: TextIO | None = None, out: TextIO | None = None) -> int:
    from firmware_py.rig import PyramidRig

    keys = keys or sys.stdin
    out = out or sys.stdout
    config, factory, factory_name = _open(args)
    pyramid = Pyramid(config.dice, seed=args.seed if args.simulate else None)
    events = pyramid.subscribe()
    rig = PyramidRig.build(pyramid, config, factory)
    print(
        f"Pyramid ready ({config.edition} dice, {factory_name} pins, config: {config.source}).\n"
        f"Press the button (GPIO{config.button.pin}) or Enter to draw; 'u' undo, 'r' refill, 'q' quit. "
        f"Once the leg is over, holding the button {config.button.refill_hold_time:g} s refills.",
        file=out,
        flush=True,
    )
    stop = threading.Event()

    def printer() -> None:
        while not stop.is_set():
            try:
                event = events.get(timeout=0.2)
            except Exception:
                continue
            if isinstance(event, Draw):
                print(_describe(event), file=out, flush=True)
                if pyramid.leg_over:
                    print(f"leg {event.leg} is over: refill the pyramid ('r' or a long press)", file=out, flush=True)
            elif isinstance(event, Undone):
                print(f"undone: {event.draw.die} {event.draw.value} is back in the pyramid", file=out, flush=True)
            elif isinstance(event, Refilled):
                print(f"refilled: leg {event.leg}", file=out, flush=True)

    thread = threading.Thread(target=printer, daemon=True)
    thread.start()
    try:
        for line in keys:
            key = line.strip().lower()
            if key == "q":
                break
            {"": rig.press, "u": rig.undo, "r": rig.refill}.get(key, lambda: None)()
            rig.wait_idle()
    except KeyboardInterrupt:
        pass
    finally:
        time.sleep(0.3)  # let the printer catch up
        stop.set()
        thread.join()
        rig.close()
    return 0


# -- selftest -------------------------------------------------------------------------------------------


def cmd_selftest(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from firmware_py.hardware import GpioButton, GpioRgbLed, GpioServo
    from firmware_py.patterns import READY_PATTERN, Pattern

    out = out or sys.stdout
    config, factory, factory_name = _open(args)
    mock = factory_name == "mock"
    print(f"Self-test on {factory_name} pins (config: {config.source})", file=out)
    results: list[tuple[str, bool, str]] = []
    led = GpioRgbLed(config.led, factory)
    servo = GpioServo(config.servo, factory)
    button = GpioButton(config.button, factory)
    try:
        # LED: every die's colour, checked on the pins' duty cycles.
        wrong = []
        for die in config.dice:
            led.play(Pattern(die.name, ((die.led_colour, 0.0),), then=die.led_colour))
            if tuple(round(c, 3) for c in led.led.color) != tuple(round(c, 3) for c in die.led_colour):
                wrong.append(die.name)
            time.sleep(args.step)
        led.play(READY_PATTERN)
        results.append((
            "LED",
            not wrong,
            f"colours {', '.join(d.name for d in config.dice)} shown"
            + ("" if mock else " (check each by eye)")
            if not wrong
            else f"{', '.join(wrong)} not shown: check GPIO{config.led.red}/{config.led.green}/{config.led.blue}, "
            f"the resistors, and led.common = \"{config.led.common}\"",
        ))
        # Servo: sweep every configured angle and read back the pulse width.
        pin = factory.pin(config.servo.pin)
        bad = []
        for name, angle in config.servo.configured_angles():
            servo.move_to(angle)
            time.sleep(args.step)
            span = config.servo.max_angle - config.servo.min_angle
            expected = config.servo.min_pulse_width + (angle - config.servo.min_angle) / span * (
                config.servo.max_pulse_width - config.servo.min_pulse_width
            )
            if abs(pin.state * PWM_PERIOD - expected) > 2e-5:
                bad.append(name)
        servo.detach()
        results.append((
            "servo",
            not bad,
            f"swept {len(config.servo.configured_angles())} angles" + ("" if mock else " (check the release moves)")
            if not bad
            else f"angles {', '.join(bad)} not reached: check the signal wire on GPIO{config.servo.pin} and the "
            "servo's own 5 V supply with a common ground",
        ))
        # Button: wait for a press.
        pressed = threading.Event()
        button.on_press(pressed.set)
        print(f"Press the button within {args.timeout:g} s ...", file=out, flush=True)
        if mock:
            threading.Timer(0.05, lambda: (factory.pin(config.button.pin).drive_low(),
                                           factory.pin(config.button.pin).drive_high())).start()
        ok = pressed.wait(args.timeout)
        wiring = "between the pin and GND" if config.button.pull_up else "between the pin and 3.3 V"
        results.append((
            "button",
            ok,
            "press seen"
            if ok
            else f"no press on GPIO{config.button.pin}: check the button is wired {wiring}",
        ))
    finally:
        for part in (button, servo, led):
            part.close()
    for part, ok, detail in results:
        print(f"{'PASS' if ok else 'FAIL'}  {part}: {detail}", file=out)
    return 0 if all(ok for _, ok, _ in results) else 1


# -- calibrate ------------------------------------------------------------------------------------------


def cmd_calibrate(args: argparse.Namespace, keys: TextIO | None = None, out: TextIO | None = None) -> int:
    """Step the servo to each release angle and save them: '+'/'-' step, '+N'/'-N', '=A', Enter accepts."""
    from firmware_py.hardware import GpioServo

    keys = keys or sys.stdin
    out = out or sys.stdout
    config, factory, _ = _open(args)
    servo_config = config.servo
    servo = GpioServo(servo_config, factory)
    chosen: dict[str, float] = {}
    print(
        "Calibrate the release: '+' or '-' moves by the step, '+10' or '-10' by 10 degrees, '=90' goes to 90, "
        "Enter keeps the angle, 'q' quits without saving.",
        file=out,
        flush=True,
    )
    lines = iter(keys)
    try:
        for name, angle in servo_config.configured_angles():
            while True:
                servo.move_to(angle)
                print(f"{name}: {angle:g}°  > ", end="", file=out, flush=True)
                line = next(lines, "q").strip()
                if line == "":
                    chosen[name] = angle
                    print(file=out)
                    break
                if line == "q":
                    print("\nnothing saved", file=out)
                    return 1
                try:
                    if line in ("+", "-"):
                        target = angle + (args.step_degrees if line == "+" else -args.step_degrees)
                    elif line.startswith("="):
                        target = float(line[1:])
                    else:
                        target = angle + float(line)
                except ValueError:
                    print(f"\n'{line}' is not a step: use +, -, +N, -N, =A or Enter", file=out)
                    continue
                angle = min(servo_config.max_angle, max(servo_config.min_angle, target))
            servo.detach()
    finally:
        servo.close()
    save_angles(args.save, chosen, servo_config.mode)
    print(f"saved {len(chosen)} angles to {args.save}", file=out)
    return 0


# -- parser ---------------------------------------------------------------------------------------------


def add_pyramid_parser(commands: Any) -> None:
    """Add ``pyramid`` and its subcommands to an argparse subparsers object."""
    pyramid = commands.add_parser("pyramid", help="the electronic dice pyramid (real or simulated pins)")
    sub = pyramid.add_subparsers(dest="pyramid_command", metavar="SUBCOMMAND", required=True)

    def common(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--config", metavar="FILE", help="rig configuration (TOML); defaults: hardware/README.md")
        parser.add_argument("--simulate", action="store_true", help="run on gpiozero's mock pins")

    run = sub.add_parser("run", help="run the rig: print each draw, keep legs, refill by long press or key")
    common(run)
    run.add_argument("--seed", type=int, help="seed for the dice (only with --simulate)")
    run.set_defaults(run=cmd_run)

    selftest = sub.add_parser("selftest", help="light every colour, sweep the servo, wait for a press")
    common(selftest)
    selftest.add_argument("--timeout", type=float, default=15.0, help="seconds to wait for the button")
    selftest.add_argument("--step", type=float, default=0.4, help="seconds per colour and per angle")
    selftest.set_defaults(run=cmd_selftest)

    calibrate = sub.add_parser("calibrate", help="step the servo interactively and save the release angles")
    common(calibrate)
    calibrate.add_argument("--save", metavar="FILE", default="pyramid.toml", help="TOML file to write the angles to")
    calibrate.add_argument("--step-degrees", type=float, default=5.0)
    calibrate.set_defaults(run=cmd_calibrate)

    simulate = sub.add_parser("simulate", help="draw whole legs on mock pins and print each draw")
    common(simulate)
    simulate.add_argument("--legs", type=int, default=1)
    simulate.add_argument("--edition", choices=("2014", "2018"))
    simulate.add_argument("--seed", type=int)
    simulate.add_argument("--json", action="store_true", help='one JSON line per draw: {"leg", "die", "value"}')
    simulate.set_defaults(run=cmd_simulate)


def run_pyramid_command(args: argparse.Namespace) -> int:
    """Run a parsed ``pyramid`` command, turning configuration and pin problems into clear messages."""
    if getattr(args, "legs", 1) < 1:
        print("camelup pyramid: --legs must be at least 1", file=sys.stderr)
        return 2
    from firmware_py.hardware import FactoryError

    try:
        return args.run(args)
    except (ConfigError, FactoryError) as error:
        print(f"camelup pyramid: {error}", file=sys.stderr)
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware_py")
    add_pyramid_parser(parser.add_subparsers(dest="command", required=True))
    return run_pyramid_command(parser.parse_args(["pyramid", *(argv if argv is not None else sys.argv[1:])]))
