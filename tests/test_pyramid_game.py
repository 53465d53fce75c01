"""The rig and the companion's game agree: across restarts, at a leg's end, after an undo, and when the game
refuses a draw. The rig runs on mock pins and a simulated PCA9685; the game is the real service and store."""

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.table.pyramid_source import RigPyramid
from companion.table.service import ApiError, Caller, GameService
from companion.table.store import Store
from firmware_py.config import parse_config
from firmware_py.pyramid import Pyramid
from firmware_py.rig import PyramidRig
from firmware_py.rigstate import StateFile
from firmware_py.servos import SimulatedPca9685Bus, open_gates
from tests.test_rig import Recorder, SteppedClock

SETTINGS = {"edition": "2014", "button": {"lockout": 0.0}, "servo": {"move_time": 0.0}}
SETUP = {"track": {"1": ["blue", "green"], "2": ["orange", "yellow", "white"]}}
HOST = Caller("host")


class Table:
    """A companion with an electronic pyramid, as `camelup serve` builds it; ``restart()`` is a power cut."""

    def __init__(self, tmp_path, seed=1):
        self.tmp_path = tmp_path
        self.seed = seed
        self.game_id = None
        self.start()

    def start(self):
        self.config = parse_config(SETTINGS)
        self.factory = MockFactory(pin_class=MockPWMPin)
        bus = SimulatedPca9685Bus(self.config.servo.i2c_address)
        self.recorder = Recorder(bus)
        gates = open_gates(self.config.servo, simulate=True, bus=bus)
        self.clock = SteppedClock()
        self.rig = PyramidRig.build(Pyramid(self.config.dice, seed=self.seed), self.config, self.factory,
                                    gates=gates, store=StateFile(self.tmp_path / "pyramid-state.json"),
                                    clock=self.clock)
        self.store = Store(self.tmp_path / "games.sqlite")
        self.service = GameService(self.store, RigPyramid(self.rig))
        self.idle()

    def restart(self):
        self.rig.close()
        self.store.close()
        self.seed += 1
        self.start()

    def idle(self):
        for _ in range(3):  # a draw's sync is queued behind the draw itself
            self.rig.wait_idle()

    def new_game(self):
        created = self.service.create({"edition": "2014", "players": ["Ann", "Bob"], "dice": "pyramid",
                                       "setup": SETUP})
        self.game_id = created["game_id"]

    def press(self):
        self.clock.offset += 1.0
        pin = self.factory.pin(self.config.button.pin)
        pin.drive_low()
        pin.drive_high()
        self.idle()

    @property
    def state(self):
        return self.service.game(self.game_id).state

    def out(self):
        return [roll.die for roll in self.state.dice_out]

    def page(self):
        return self.service.state_json(self.game_id, Caller("table"))

    def gate_moves(self, die):
        return len(self.recorder.pulses.get(self.config.servo.channels[die], []))


@pytest.fixture
def table(tmp_path):
    made = Table(tmp_path)
    yield made
    made.rig.close()
    made.store.close()


def test_button_draws_are_recorded_and_survive_a_restart_without_drawing_a_die_twice(table):
    table.new_game()
    for _ in range(3):
        table.press()
    out = table.out()
    assert len(out) == 3 and table.rig.status()["out"] == out
    for _ in range(4):  # four restarts, each with new dice luck: the first press never draws a die already out
        table.restart()
        assert table.rig.status()["out"] == out
        table.press()
        fourth = table.out()[-1]
        assert len(table.out()) == 4 and fourth not in out
        table.service.undo(table.game_id, HOST)  # take it back: the rig asks for that die back
        table.idle()
        assert table.rig.status()["put_back"] == [fourth]
        table.rig.refill()  # ... it is back
        table.idle()
        assert table.rig.status()["notice"] is None


def test_a_leg_end_shows_leg_over_until_the_dice_are_back(table):
    table.new_game()
    for _ in range(5):
        table.press()
    assert table.state.leg == 2 and table.out() == []
    status = table.rig.status()
    assert status["state"] == "leg over" and len(status["out"]) == 5  # sync did not empty the rig
    assert table.page()["pyramid"]["notice"].startswith("Leg over")
    table.press()  # nothing comes out of an unrefilled pyramid
    assert table.out() == []
    with pytest.raises(ApiError, match="Leg over"):  # nor from a phone
        table.service.act(table.game_id, HOST, {"player": table.state.current_player, "type": "pyramid"})
    table.rig.refill()
    table.idle()
    assert table.page()["pyramid"]["notice"] is None
    table.press()
    assert len(table.out()) == 1 and table.state.leg == 2


def test_an_undo_in_the_game_asks_for_the_die_back_on_the_table_screen(table):
    table.new_game()
    table.press()
    table.press()
    second = table.out()[-1]
    woken: list[None] = []
    table.service.listen(table.game_id, lambda: woken.append(None))
    table.service.undo(table.game_id, HOST)
    table.idle()
    page = table.page()
    assert page["pyramid"]["state"] == "put back"
    assert page["pyramid"]["notice"] == f"Put {second} back into the pyramid, then hold its button 4 s."
    assert len(woken) >= 2  # the undo, then the rig's notice, woke the pages
    assert table.rig.led.current.name == f"put back {second}"
    table.press()  # while the die is missing, a press draws nothing
    assert len(table.out()) == 1


def test_a_draw_from_a_phone_is_released_by_the_rig_after_the_game_stored_it(table):
    table.new_game()
    before = {die: table.gate_moves(die) for die in table.config.servo.channels}
    table.service.act(table.game_id, HOST, {"player": table.state.current_player, "type": "pyramid"})
    table.idle()
    (die,) = table.out()
    moved = [d for d in before if table.gate_moves(d) > before[d]]
    assert moved == [die] and table.rig.status()["out"] == [die]


def test_a_press_the_game_refuses_is_not_released(table):
    # No pyramid game is running: the companion refuses the draw, and no gate moves.
    before = {die: table.gate_moves(die) for die in table.config.servo.channels}
    table.press()
    assert {die: table.gate_moves(die) for die in before} == before
    assert table.rig.status()["out"] == [] and table.rig.core.refused == 1


def test_after_a_restart_the_rig_releases_what_the_game_recorded_while_it_was_off(table, tmp_path):
    table.new_game()
    table.press()
    game_id = table.game_id
    table.rig.close()  # the rig's state file is lost (a new SD card), the game's store is not
    (tmp_path / "pyramid-state.json").unlink()
    table.store.close()
    table.start()
    table.game_id = game_id
    assert table.rig.status()["out"] == table.out()  # released again: the chute is empty, the tray has it


def test_a_new_game_asks_for_the_last_games_dice_back_first(table):
    table.new_game()
    table.press()
    table.press()
    out = table.out()
    table.new_game()  # the next game starts from a full pyramid
    table.idle()
    status = table.rig.status()
    assert sorted(status["put_back"]) == sorted(out) and table.page()["pyramid"]["state"] == "put back"
    table.rig.refill()  # the dice are back
    table.idle()
    assert table.rig.status()["notice"] is None and table.rig.status()["out"] == []
    table.press()
    assert len(table.out()) == 1
