"""The digital twin: what the physical pyramid does when the rig's code drives Adafruit's PCA9685 driver.

Checked here: each draw releases exactly the drawn die; bounces, holds and second presses release nothing;
undo and refill put dice back; a power cut at any step of a leg leaves the tray and the game agreeing once
people have done what the rig asked. And the twin is not blind: broken rigs are caught."""

import pytest

from firmware_py.config import parse_config
from firmware_py.twinsim import CUT_STEPS, TwinRun, run_legs


def clean_leg_steps(edition: str, seed: int) -> tuple[int, int]:
    """How many checkpoints and how many waits one fault-free leg passes through."""
    run = TwinRun(parse_config({"edition": edition}), seed, faults=False)
    counts = {"checkpoints": 0, "sleeps": 0}
    original = run._checkpoint

    def counting(step):
        counts["checkpoints"] += 1
        original(step)

    run.core._checkpoint = counting
    run.clock.on_sleep = lambda start, seconds: counts.__setitem__("sleeps", counts["sleeps"] + 1)
    run.leg()
    return counts["checkpoints"], counts["sleeps"]


@pytest.mark.parametrize("edition", ["2014", "2018"])
def test_each_draw_releases_exactly_the_drawn_die_and_gates_move_over_time(edition):
    run = TwinRun(parse_config({"edition": edition}), seed=5, faults=False)
    for _ in range(3):
        leg = run.game.leg
        while run.game.leg == leg:
            falls, accepted = len(run.twin.falls), run.game.total_accepted
            run.press("plain")
            if run.game.total_accepted == accepted:
                continue
            drawn = run.core.pyramid.last.die
            assert [f.die for f in run.twin.falls[falls:]] == [drawn]
            gate = run.twin.gates[drawn]
            # Its plate swung open past the chute and came back closed; it moved at a servo's speed.
            angles = [angle for _, angle in gate.track[-3:]]
            assert angles[0] == pytest.approx(gate.closed, abs=0.5)  # one tick off at most
            assert gate.angle == pytest.approx(gate.closed, abs=0.5)
            assert max(angle for _, angle in gate.track) >= gate.closed + 0.6 * (gate.opened - gate.closed)
        assert run.core.status()["state"] == "leg over"
        run.settle()
        assert run.twin.tray() == set()  # people refilled at the leg's end
        assert run.core.status()["state"] == "ready"
    assert run.report.wrong_releases == 0


@pytest.mark.parametrize("edition", ["2014", "2018"])
def test_a_power_cut_at_every_step_of_a_leg_is_reconciled(edition):
    checkpoints, sleeps = clean_leg_steps(edition, seed=11)
    assert checkpoints >= 5 * 5  # every draw passes several steps
    for k in range(1, checkpoints + 1):
        run = TwinRun(parse_config({"edition": edition}), seed=11, faults=False)
        run._cut_in = k  # the power goes at the k-th step of the leg
        run.leg()
        run.leg()
        report = run.report
        assert report.power_cuts == 1, k
        assert report.wrong_releases == 0 and report.unreconciled == 0, (k, report.problems)
    for j in range(sleeps):
        run = TwinRun(parse_config({"edition": edition}), seed=11, faults=False)
        waits = {"n": 0}

        def cut_mid_move(start, seconds, run=run, waits=waits, j=j):
            waits["n"] += 1
            if waits["n"] == j + 1:
                run.clock.now = start + seconds / 2  # half way through a gate's swing
                from firmware_py.twin import PowerCut

                raise PowerCut("sleep")

        run.clock.on_sleep = cut_mid_move
        run.leg()
        run.clock.on_sleep = None
        run.leg()
        assert run.report.wrong_releases == 0 and run.report.unreconciled == 0, (j, run.report.problems)


def test_undo_asks_for_the_die_back_and_people_put_it_back():
    run = TwinRun(parse_config({}), seed=2, faults=False)
    run.press("plain")
    run.press("plain")
    second = run.game.out[-1][0]
    run.game.undo()
    run._do(lambda: None)  # the game's sync reaches the rig
    status = run.core.status()
    assert status["put_back"] == [second] and f"Put {second} back" in status["notice"]
    assert run.core.led.current.name == f"put back {second}"
    run.settle()  # people put it back and hold the button
    assert run.twin.where[second] == "chute" and run.core.status()["notice"] is None
    assert run.report.unreconciled == 0


@pytest.mark.parametrize("edition", ["2014", "2018"])
def test_legs_with_every_fault_injected_release_nothing_wrong(edition):
    report = run_legs(parse_config({"edition": edition}), 150, seed=9)
    assert report.legs == 150
    assert report.wrong_releases == 0 and report.unreconciled == 0 and report.phantom_draws == 0, report.problems
    for injected in ("bounces", "holds", "presses_during_moves", "undos", "refusals", "refills", "power_cuts"):
        assert getattr(report, injected) > 0, injected
    assert set(CUT_STEPS) >= {"picked", "accepted", "saved", "opening", "open", "closed"}


# -- the twin catches broken rigs --------------------------------------------------------------------------


def test_the_twin_catches_gates_wired_to_the_wrong_dice():
    config = parse_config({})
    swapped = parse_config({"servo": {"channels": {"green": 1, "yellow": 0}}})
    run = TwinRun(config, seed=3, faults=False)
    run.core.gates.config = swapped.servo  # the rig opens yellow's output for green and the other way round
    for _ in range(2):
        run.leg()
    assert run.report.wrong_releases > 0


def test_the_twin_catches_a_rig_that_forgets_its_state():
    config = parse_config({})
    run = TwinRun(config, seed=4, faults=True)
    run.store.load = lambda edition, dice: None  # nothing survives a restart
    for _ in range(40):
        run.leg()
    assert run.report.unreconciled + run.report.wrong_releases > 0


def test_the_twin_catches_gates_that_do_not_wait_for_the_servo():
    config = parse_config({"servo": {"move_time": 0.01}})  # closes again before the plate has swung open
    run = TwinRun(config, seed=5, faults=False)
    run.press("plain")
    run.settle()
    assert run.twin.falls == [] and run.report.unreconciled == 1
