"""The rig's record across power cuts (firmware_py/rigstate.py), field by field: everything saved comes back,
and every file that cannot be used is refused with a message that says why (the rig shows it on the table).
Written from mutation testing's survivors: each test fails if one field or one check were dropped."""

import json

import pytest

from firmware_py.pyramid import PRESETS, Draw, Pyramid, PyramidError, Undone
from firmware_py.rigstate import FORMAT, MemoryState, RigRecord, StateError, StateFile, names_in_words, parse_record

DICE = [die.name for die in PRESETS["2018"]]


def a_record():
    """A leg under way: two dice out (one the grey die, with its colour), one gate opening, one die to put back."""
    out = [Draw(3, 11, "red", 2, None, 0.0), Draw(3, 12, "grey", 1, "black", 0.0)]
    return RigRecord("2018", leg=3, sequence=12, out=out, releasing="grey", put_back=["blue"])


@pytest.mark.parametrize("store_kind", ["file", "memory"])
def test_everything_saved_comes_back_after_a_restart(tmp_path, store_kind):
    store = StateFile(tmp_path / "a" / "b" / "state.json") if store_kind == "file" else MemoryState()
    record = a_record()
    store.save(record)  # the file's folders do not exist yet: they are made
    again = store.load("2018", DICE)
    assert again == record
    assert again.out[1].crazy == "black" and again.out[0].leg == 3 and again.out[1].sequence == 12


def test_the_file_is_json_a_person_can_read_line_by_line(tmp_path):
    store = StateFile(tmp_path / "state.json")
    store.save(a_record())
    text = (tmp_path / "state.json").read_text(encoding="utf-8")
    assert json.loads(text)["format"] == FORMAT
    assert len(text.splitlines()) > 10  # one value a line, not one long line


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(format=99), "unknown format 99"),
        (lambda d: d.pop("leg"), "damaged ('leg')"),
        (lambda d: d["out"][0].update(value="two"), "damaged (invalid literal for int()"),
        (lambda d: d.update(put_back=["blue", "pink"]), "names dice this pyramid does not have: pink"),
        (lambda d: d.update(releasing="gold"), "names dice this pyramid does not have: gold"),
        (lambda d: (d["out"][0].update(die="teal"), d.update(put_back=["azure"])),
         "names dice this pyramid does not have: azure, teal"),
    ],
)
def test_a_damaged_or_foreign_record_is_refused_saying_why(change, words):
    data = a_record().as_json()
    change(data)
    with pytest.raises(StateError) as refused:
        parse_record(data, DICE)
    assert words in str(refused.value)


def test_a_file_that_cannot_be_read_or_is_for_the_other_dice_is_refused_saying_why(tmp_path):
    assert StateFile(tmp_path / "none.json").load("2018", DICE) is None  # no file yet: a full pyramid
    folder = tmp_path / "folder.json"
    folder.mkdir()
    with pytest.raises(StateError, match=r"folder.json: cannot read it \(Is a directory\)"):
        StateFile(folder).load("2018", DICE)
    StateFile(tmp_path / "state.json").save(a_record())
    with pytest.raises(StateError, match=r"state.json: saved for the 2018 dice, not the 2014 ones"):
        StateFile(tmp_path / "state.json").load("2014", [die.name for die in PRESETS["2014"]] + DICE)
    (tmp_path / "bad.json").write_text('{"format": 7}')
    with pytest.raises(StateError, match=r"bad.json: .*unknown format 7"):
        StateFile(tmp_path / "bad.json").load("2018", DICE)


def test_dice_are_named_in_words():
    assert names_in_words(["blue"]) == "blue"
    assert names_in_words(["blue", "red"]) == "blue and red"
    assert names_in_words(["blue", "red", "green", "grey"]) == "blue, red, green and grey"


# -- the pyramid itself (firmware_py/pyramid.py) -------------------------------------------------------------------
def test_only_the_grey_die_prints_a_colour():
    grey = Draw(1, 1, "grey", 2, "white", 0.0)
    assert grey.as_json() == {"leg": 1, "die": "grey", "value": 2, "crazy": "white"}


@pytest.mark.parametrize("edition", ["2014", "2018"])
def test_each_die_lights_the_led_in_its_own_colour(edition):
    colours = {die.name: die.led_colour for die in PRESETS[edition]}
    assert len(set(colours.values())) == len(colours)  # no two dice look alike
    for name, channel in (("red", 0), ("green", 1), ("blue", 2)):
        if name in colours:
            rgb = colours[name]
            assert rgb[channel] == max(rgb) > 0 and sorted(rgb)[1] < rgb[channel]


def test_taking_back_any_die_of_the_leg_tells_subscribers_which_and_when():
    pyramid = Pyramid(PRESETS["2018"], seed=3, clock=lambda: 7.5)
    first, second, third = pyramid.draw(), pyramid.draw(), pyramid.draw()
    events = pyramid.subscribe()
    assert pyramid.take_back(second.die) == second
    assert events.get_nowait() == Undone(second, 7.5)
    assert pyramid.drawn == (first, third)
    with pytest.raises(PyramidError) as refused:
        pyramid.take_back(second.die)
    assert str(refused.value) == f"the {second.die} die is not out of the pyramid"


def test_undo_with_nothing_out_says_so():
    with pytest.raises(PyramidError) as refused:
        Pyramid(PRESETS["2014"], seed=1).undo()
    assert str(refused.value) == "no die has come out this leg: nothing to undo"


def test_a_pyramid_that_cannot_work_is_refused_saying_why():
    with pytest.raises(ValueError) as refused:
        Pyramid([])
    assert str(refused.value) == "a pyramid needs at least one die"
    with pytest.raises(ValueError) as refused:
        Pyramid(PRESETS["2014"], draws_per_leg=0)
    assert str(refused.value) == "draws_per_leg must be 1 to 5, not 0"
    single = Pyramid(PRESETS["2014"], draws_per_leg=1, seed=2)  # one draw a leg is a pyramid too
    single.draw()
    assert single.leg_over


def test_a_pick_is_numbered_and_timed_as_the_next_draw_and_commit_keeps_its_time():
    ticks = iter([10.0, 20.0, 30.0, 40.0])
    pyramid = Pyramid(PRESETS["2018"], seed=4, clock=lambda: next(ticks))
    assert pyramid.draw().time == 10.0
    pyramid.refill()  # leg 2 (the refill's moment is 20.0)
    first = pyramid.draw()
    assert (first.leg, first.sequence, first.time) == (2, 2, 30.0)  # the pick's leg, number and moment
    picked = pyramid.pick()
    assert (picked.leg, picked.sequence, picked.time) == (2, 3, 40.0)
    assert pyramid.commit(picked) == picked  # taken out as picked: same number, same moment
    with pytest.raises(PyramidError) as refused:
        pyramid.commit(picked)
    assert str(refused.value) == f"the {picked.die} die is not inside the pyramid"
    with pytest.raises(PyramidError) as refused:
        pyramid.pick(among=[first.die, picked.die])
    assert str(refused.value) == "none of those dice is inside the pyramid"


def test_after_the_legs_last_die_both_pick_and_commit_say_refill():
    pyramid = Pyramid(PRESETS["2014"], draws_per_leg=2, seed=6)
    pyramid.draw()
    pyramid.draw()
    for attempt in (pyramid.pick, lambda: pyramid.commit(Draw(1, 9, pyramid.inside[0], 1, None, 0.0))):
        with pytest.raises(PyramidError) as refused:
            attempt()
        assert str(refused.value) == "the leg is over (2 dice are out): refill the pyramid"


def test_a_memory_state_starts_empty_and_counts_its_saves():
    memory = MemoryState()
    assert memory.load("2018", DICE) is None and memory.saves == 0
    memory.save(a_record())
    memory.save(a_record())
    assert memory.saves == 2 and memory.load("2018", DICE) == a_record()
