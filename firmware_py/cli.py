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
from pathlib import Path
from typing import Any, TextIO

from firmware_py.config import (
    ConfigError,
    RigConfig,
    angles_toml,
    check_saveable,
    load_config,
    parse_config,
    save_angles,
)
from firmware_py.pyramid import Draw, Pyramid, Refilled, Undone

# gpiozero is imported by the commands themselves, so that building the parser (``camelup --help``,
# ``camelup replay``) does not pay for it.

def _load(args: argparse.Namespace) -> RigConfig:
    config = load_config(args.config)
    if getattr(args, "edition", None):
        config = parse_config({**_given(config.raw), "edition": args.edition}, config.source)
    return config


def _given(raw: dict[str, Any]) -> dict[str, Any]:
    """The merged configuration without the per-die tables (which belong to one edition's dice)."""
    servo = {k: v for k, v in raw["servo"].items() if k not in ("channels", "open_angles", "closed_angles")}
    return {**raw, "servo": servo, "colours": {}}


def _open(args: argparse.Namespace) -> tuple[RigConfig, Any, str]:
    from firmware_py.hardware import make_pin_factory

    config = _load(args)
    factory, name = make_pin_factory(config.pin_factory, simulate=args.simulate)
    return config, factory, name


def _describe(draw: Draw) -> str:
    colour = f" ({draw.crazy} number)" if draw.crazy else ""
    return f"leg {draw.leg} #{draw.sequence}: {draw.die} {draw.value}{colour}"


# -- simulate -------------------------------------------------------------------------------------------


def cmd_simulate(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Play ``--legs`` legs on the digital twin: the rig's own code, Adafruit's PCA9685 driver on a simulated
    board, and the physical dice, gates and tray. Each draw says which die the mechanism released."""
    out = out or sys.stdout
    from firmware_py.twinsim import TwinRun, run_legs

    config = _load(args)
    if args.faults:
        report = run_legs(config, args.legs, seed=args.seed or 1, progress=_progress(args.legs, args.json))
        print(json.dumps(report.as_json()) if args.json else _faults_text(report.as_json()), file=out)
        return 0 if report.wrong_releases == report.unreconciled == report.phantom_draws == 0 else 1
    run = TwinRun(config, args.seed if args.seed is not None else 0, faults=False)
    for _ in range(args.legs):
        leg = run.game.leg
        while run.game.leg == leg:
            falls, drawn = len(run.twin.falls), run.game.total_accepted
            run.press("plain")
            if run.game.total_accepted == drawn:
                continue  # the press came too soon after the last one: nothing was drawn
            draw = run.core.pyramid.last
            released = [fall.die for fall in run.twin.falls[falls:]]
            if args.json:
                print(json.dumps({**draw.as_json(), "released": released}), file=out)
            else:
                print(f"{_describe(draw)} -> released {', '.join(released) or 'nothing'}", file=out)
        run.settle()
    return 0


def _progress(total: int, quiet: bool) -> Any:
    from tqdm import tqdm

    bar = tqdm(total=total, unit="leg", file=sys.stderr, disable=quiet or None)
    return lambda done: bar.update(done - bar.n)


def _faults_text(report: dict[str, Any]) -> str:
    lines = [f"{report['legs']} legs of the {report['edition']} pyramid on the digital twin, with faults injected:"]
    for key in ("presses", "draws", "releases", "bounces", "holds", "presses_during_moves", "undos", "refusals",
                "refills", "power_cuts"):
        lines.append(f"  {key.replace('_', ' '):22} {report[key]}")
    for key in ("wrong_releases", "unreconciled", "phantom_draws"):
        lines.append(f"  {key.replace('_', ' '):22} {report[key]}   (must be 0)")
    lines += [f"  problem: {problem}" for problem in report["problems"]]
    return "\n".join(lines)


# -- run ------------------------------------------------------------------------------------------------


def cmd_run(args: argparse.Namespace, keys: TextIO | None = None, out: TextIO | None = None) -> int:
    from firmware_py.rig import PyramidRig
    from firmware_py.rigstate import StateFile

    keys = keys or sys.stdin
    out = out or sys.stdout
    config, factory, factory_name = _open(args)
    pyramid = Pyramid(config.dice, seed=args.seed if args.simulate else None)
    events = pyramid.subscribe()
    rig = PyramidRig.build(pyramid, config, factory, store=StateFile(args.state))
    status = rig.status()
    print(
        f"Pyramid ready ({config.edition} dice, {factory_name} pins, config: {config.source}, state: {args.state}).\n"
        f"Press the button (GPIO{config.button.pin}) or Enter to draw; 'u' undo, 'r' refill, 'q' quit. "
        f"Once the leg is over, holding the button {config.button.refill_hold_time:g} s refills.",
        file=out,
        flush=True,
    )
    if status["notice"]:
        print(status["notice"], file=out, flush=True)
    if status["problem"]:
        print(status["problem"], file=out, flush=True)
    rig.on_status(lambda s: s["notice"] and print(s["notice"], file=out, flush=True))
    stop = threading.Event()

    def printer() -> None:
        while not stop.is_set():
            try:
                event = events.get(timeout=0.2)
            except Exception:
                continue
            if isinstance(event, Draw):
                print(_describe(event), file=out, flush=True)
            elif isinstance(event, Undone):
                print(f"undone: {event.draw.die} {event.draw.value} goes back into the pyramid", file=out, flush=True)
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
        rig.wait_idle()
        stop.set()
        thread.join()
        while not events.empty():  # what the printer had not reached yet
            event = events.get_nowait()
            if isinstance(event, Draw):
                print(_describe(event), file=out, flush=True)
        rig.close()
    return 0


# -- selftest -------------------------------------------------------------------------------------------


def cmd_selftest(
    args: argparse.Namespace, out: TextIO | None = None, keys: TextIO | None = None, interactive: bool | None = None
) -> int:
    """Light every die's colour and move every gate, naming each while it shows, then wait for a press.

    On mock pins every colour and pulse is checked on the pins and the simulated board. On real pins the program
    can only check what it sent (the LED's pins, the PCA9685's registers): the builder's eyes check the rest, so
    each colour and gate is named while it shows and, at a terminal (``interactive``), the builder is asked."""
    from firmware_py.hardware import GpioButton, GpioRgbLed
    from firmware_py.patterns import READY_PATTERN, Pattern
    from firmware_py.servos import open_gates, pulse_ticks, tick_seconds

    out = out or sys.stdout
    keys = keys or sys.stdin
    config, factory, factory_name = _open(args)
    mock = factory_name == "mock"
    if interactive is None:
        interactive = not mock and keys.isatty()
    answers = iter(keys)

    def seen(question: str) -> bool:
        """The builder's answer (Enter or y: yes); True when nobody is asked."""
        if not interactive:
            return True
        print(f"  {question} [Y/n] ", end="", file=out, flush=True)
        return next(answers, "y").strip().lower() not in ("n", "no")

    print(f"Self-test on {factory_name} pins (config: {config.source})", file=out, flush=True)
    results: list[tuple[str, bool, str]] = []
    led = GpioRgbLed(config.led, factory)
    button = GpioButton(config.button, factory)
    gates = None
    try:
        # LED: every die's colour, named while it shows, checked on the pins' duty cycles.
        wrong, unseen = [], []
        for die in config.dice:
            led.play(Pattern(die.name, ((die.led_colour, 0.0),), then=die.led_colour))
            print(f"LED: showing {die.name}", file=out, flush=True)
            if tuple(round(c, 3) for c in led.led.color) != tuple(round(c, 3) for c in die.led_colour):
                wrong.append(die.name)
            time.sleep(args.step)
            if not seen(f"did the LED look {die.name}?"):
                unseen.append(die.name)
        led.play(READY_PATTERN)
        names = ", ".join(d.name for d in config.dice)
        pins = f"GPIO{config.led.red} (red), GPIO{config.led.green} (green), GPIO{config.led.blue} (blue)"
        if wrong:
            results.append(("LED", False, f"{', '.join(wrong)} not shown: check {pins}, the resistors, and "
                            f"led.common = \"{config.led.common}\""))
        elif unseen:
            results.append(("LED", False, f"you did not see {', '.join(unseen)} as named: two colours swapped are two "
                            f"wires swapped ({pins}); a colour missing is its wire or resistor; everything inverted "
                            f"is led.common (now \"{config.led.common}\")"))
        elif mock:
            results.append(("LED", True, f"colours {names} shown (checked on the mock pins)"))
        elif interactive:
            results.append(("LED", True, f"you saw {names}, each as named"))
        else:
            results.append(("LED", True, f"sent {names} in that order; confirm by eye that each looked as named "
                            "(run it at a terminal to be asked)"))
        # Gates: open and close each one, named while it moves, every pulse read back from the PCA9685's registers.
        servo = config.servo
        tick = tick_seconds(servo)
        try:
            gates = open_gates(servo, simulate=mock)
        except Exception as error:
            results.append(("gates", False, str(error)))
        else:
            bad, still = [], []
            for die in servo.channels:  # closed, open, closed again: one gate at a time
                print(f"gate {die} (PCA9685 output {servo.channels[die]}): closed, open, closed", file=out, flush=True)
                for which, angle in (("closed", servo.closed_angles[die]), ("open", servo.open_angles[die]),
                                     ("closed", servo.closed_angles[die])):
                    gates.set_angle(die, angle)
                    time.sleep(args.step)
                    sent = gates.pulse_width(die)
                    if abs(sent - pulse_ticks(servo, servo.pulse_width(angle)) * tick) > 1e-9 or abs(
                        sent - servo.pulse_width(angle)
                    ) > tick / 2 + 1e-9:
                        bad.append(f"{die} {which} (sent {sent * 1e6:.1f} µs)")
                gates.release(die)
                if not seen(f"did the {die} gate (output {servo.channels[die]}) open and close?"):
                    still.append(f"{die} (output {servo.channels[die]})")
            hz = servo.reference_clock / 4096 / round(servo.reference_clock / 4096 / servo.frequency)
            pulses = f"pulses exact to {tick * 1e6:.2f} µs at {hz:.2f} Hz"
            if bad:
                results.append(("gates", False, f"{', '.join(bad)} not sent: check the PCA9685 (I²C on GPIO2/3, V+ 5 V "
                                "supply, common ground)"))
            elif still:
                results.append(("gates", False, f"the board took every pulse but {', '.join(still)} did not move: that "
                                "servo's plug (brown wire to GND, on the output named), the servo, or the V+ supply"))
            elif mock:
                results.append(("gates", True, f"opened and closed {len(servo.channels)} gates; {pulses}"))
            else:
                results.append(("gates", True, f"the PCA9685 took every pulse ({pulses}, read back from its "
                                "registers)" + ("; you saw each gate move" if interactive else "; confirm by eye "
                                "that each gate named above moved (a servo on the wrong output moves out of turn)")))
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
        for part in (button, gates, led):
            if part is not None:
                part.close()
    for part, ok, detail in results:
        print(f"{'PASS' if ok else 'FAIL'}  {part}: {detail}", file=out)
    return 0 if all(ok for _, ok, _ in results) else 1


# -- calibrate ------------------------------------------------------------------------------------------


def cmd_calibrate(args: argparse.Namespace, keys: TextIO | None = None, out: TextIO | None = None) -> int:
    """Step each gate to its closed and open angle and save them: '+'/'-' step, '.'/',' the smallest step
    (one tick of the PCA9685), '+N'/'-N', '=A', Enter accepts."""
    from firmware_py.servos import open_gates, pulse_ticks, tick_seconds

    keys = keys or sys.stdin
    out = out or sys.stdout
    save = args.save or args.config or "pyramid.toml"
    check_saveable(save)  # before the builder steps through every angle, not after
    config, _, factory_name = _open(args)
    servo = config.servo
    # One tick of pulse, in degrees: the smallest step that changes what the chip sends.
    per_degree = (servo.max_pulse_width - servo.min_pulse_width) / (servo.max_angle - servo.min_angle)
    smallest = tick_seconds(servo) / per_degree
    step = max(args.step_degrees, smallest)
    gates = open_gates(servo, simulate=factory_name == "mock")
    chosen: dict[str, float] = {}
    print(
        f"Calibrate each gate: '+' or '-' moves {step:g}°, '.' or ',' moves {smallest:.3f}° (one "
        f"{tick_seconds(servo) * 1e6:.2f} µs step), '+10' or '-10' moves 10°, '=90' goes to 90°, Enter keeps the "
        "angle, 'q' quits without saving.",
        file=out,
        flush=True,
    )
    lines = iter(keys)
    try:
        for name, angle in servo.configured_angles():
            die = name.rsplit(" ", 1)[0]
            while True:
                gates.set_angle(die, angle)
                print(f"{name}: {angle:.3f}° ({gates.pulse_width(die) * 1e6:.1f} µs)  > ", end="", file=out, flush=True)
                line = next(lines, "q").strip()
                if line == "":
                    chosen[name] = round(angle, 4)
                    print(file=out)
                    break
                if line == "q":
                    print("\nnothing saved", file=out)
                    return 1
                try:
                    if line in ("+", "-"):
                        target = angle + (step if line == "+" else -step)
                    elif line in (".", ","):
                        # Exactly one tick more or less than what the chip sends now.
                        ticks = pulse_ticks(servo, servo.pulse_width(angle)) + (1 if line == "." else -1)
                        target = servo.min_angle + (ticks * tick_seconds(servo) - servo.min_pulse_width) / per_degree
                    elif line.startswith("="):
                        target = float(line[1:])
                    else:
                        target = angle + float(line)
                except ValueError:
                    print(f"\n'{line}' is not a step: use +, -, ., ',', +N, -N, =A or Enter", file=out)
                    continue
                angle = min(servo.max_angle, max(servo.min_angle, target))
            gates.release(die)
    except KeyboardInterrupt:
        print(f"\nstopped: nothing saved. The angles chosen so far:\n{angles_toml(chosen)}", file=out)
        return 1
    finally:
        gates.close()
    try:
        save_angles(save, chosen)
    except (ConfigError, OSError) as error:
        reason = error if isinstance(error, ConfigError) else f"{error.strerror or error} ({error.filename or save})"
        print(f"NOT SAVED to {save}: {reason}.\nYour angles are not lost: paste these lines into {save} (sudo nano "
              f"{save}), replacing the tables of the same name, or run calibrate again with --save on a file you can "
              f"write:\n\n{angles_toml(chosen)}", file=out)
        return 1
    print(f"saved {len(chosen)} angles to {save}", file=out)
    return 0


# -- parser ---------------------------------------------------------------------------------------------


def cmd_drawings(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """Write the builder's drawings from the mechanism's dimensions and the rig configuration; say what does not
    fit."""
    from firmware_py.drawings import check, load_mechanism, resistors, write_all

    out = out or sys.stdout
    config = _load(args)
    mechanism = args.mechanism or _find_mechanism()
    try:
        dimensions = load_mechanism(mechanism)
    except (OSError, ValueError) as error:
        raise ConfigError(f"{mechanism}: cannot use it ({error})") from None
    target = args.out or str(Path(mechanism).parent)  # beside the dimensions they are drawn from
    try:
        written = write_all(target, mechanism, config)
    except OSError as error:
        raise ConfigError(f"cannot write the drawings into {target} ({error.strerror or error}): give --out a "
                          "folder you can write") from None
    for path in written:
        print(f"wrote {path}", file=out)
    for colour, r in resistors(dimensions).items():
        print(f"LED {colour}: {r['ohms']} Ω gives {r['ma']:.1f} mA ({r['min_ma']:.1f} to {r['max_ma']:.1f} mA over "
              "the forward voltage's spread)", file=out)
    problems = check(dimensions)
    for problem in problems:
        print(f"does not fit: {problem}", file=out)
    return 1 if problems else 0


MECHANISM_PLACES = (Path("hardware/mechanism.toml"), Path(__file__).resolve().parents[1] / "hardware/mechanism.toml",
                    Path("/opt/camelup/hardware/mechanism.toml"))
"""Where ``drawings`` looks for the dimensions: here (a checkout), beside this package, the Pi's install."""


def _find_mechanism() -> str:
    for place in MECHANISM_PLACES:
        if place.is_file():
            return str(place)
    raise ConfigError(f"no mechanism.toml found (looked at {', '.join(map(str, MECHANISM_PLACES))}): give "
                      "--mechanism FILE")


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
    run.add_argument("--state", metavar="FILE", default="pyramid-state.json",
                     help="where the rig keeps its leg and the dice out across restarts")
    run.set_defaults(run=cmd_run)

    selftest = sub.add_parser("selftest", help="light every colour and move every gate, naming each as it shows "
                              "(at a terminal it asks whether you saw it), then wait for a press")
    common(selftest)
    selftest.add_argument("--timeout", type=float, default=15.0, help="seconds to wait for the button")
    selftest.add_argument("--step", type=float, default=1.0,
                          help="seconds per colour and per gate position, each named as it shows")
    selftest.set_defaults(run=cmd_selftest)

    calibrate = sub.add_parser("calibrate", help="step each gate servo interactively and save its angles")
    common(calibrate)
    calibrate.add_argument("--save", metavar="FILE",
                           help="TOML file to write the angles to (default: the --config file, else pyramid.toml); "
                           "its folder must be writable: /etc/camelup/pyramid.toml needs sudo")
    calibrate.add_argument("--step-degrees", type=float, default=5.0)
    calibrate.set_defaults(run=cmd_calibrate)

    simulate = sub.add_parser("simulate", help="play whole legs on the digital twin and say what each draw released")
    common(simulate)
    simulate.add_argument("--legs", type=int, default=1)
    simulate.add_argument("--edition", choices=("2014", "2018"))
    simulate.add_argument("--seed", type=int)
    simulate.add_argument("--faults", action="store_true",
                          help="inject bounces, holds, undos, refusals and power cuts; print the counts (exit 1 if "
                          "any die was wrongly released or the rig and game stayed apart)")
    simulate.add_argument("--json", action="store_true",
                          help='one JSON line per draw: {"leg", "die", "value", "released": [dice that fell]}')
    simulate.set_defaults(run=cmd_simulate)


    drawings = sub.add_parser("drawings", help="write the mechanism and wiring drawings from the dimensions")
    drawings.add_argument("--config", metavar="FILE", help="rig configuration (TOML) for the pins and channels")
    drawings.add_argument("--mechanism", metavar="FILE",
                          help="the mechanism's dimensions (default: hardware/mechanism.toml here, else the "
                          "project's, else /opt/camelup/hardware/mechanism.toml on the Pi)")
    drawings.add_argument("--out", metavar="DIR", help="where to write them (default: the mechanism file's folder)")
    drawings.set_defaults(run=cmd_drawings, simulate=True)


def run_pyramid_command(args: argparse.Namespace) -> int:
    """Run a parsed ``pyramid`` command, turning configuration and pin problems into clear messages."""
    if getattr(args, "legs", 1) < 1:
        print("camelup pyramid: --legs must be at least 1", file=sys.stderr)
        return 2
    from firmware_py.hardware import FactoryError
    from firmware_py.servos import BusError

    try:
        return args.run(args)
    except (ConfigError, FactoryError, BusError) as error:
        print(f"camelup pyramid: {error}", file=sys.stderr)
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware_py")
    add_pyramid_parser(parser.add_subparsers(dest="command", required=True))
    return run_pyramid_command(parser.parse_args(["pyramid", *(argv if argv is not None else sys.argv[1:])]))
