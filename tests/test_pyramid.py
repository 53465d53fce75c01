"""The pyramid's logic: legs, undo, refill, the setup roll, events, and fairness (chi-square)."""

from collections import Counter, defaultdict

import pytest

from firmware_py.pyramid import PRESETS, Draw, LegOverError, Pyramid, PyramidError, Refilled, Undone

# Chi-square critical values at p = 0.001 by degrees of freedom: a fair, seeded pyramid stays far below.
CRITICAL_0_001 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515}


def chi_square(counts: Counter, categories) -> float:
    total = sum(counts[c] for c in categories)
    expected = total / len(categories)
    return sum((counts[c] - expected) ** 2 / expected for c in categories)


def fairness_statistics(pyramid: Pyramid, draws: int) -> dict[str, tuple[float, int]]:
    """Chi-square statistic and degrees of freedom for die choice (given how many dice are inside),
    faces, and the grey die's colour, over ``draws`` draws."""
    choice = defaultdict(Counter)  # dice inside -> index of the chosen one among them
    faces, colours = Counter(), Counter()
    for _ in range(draws):
        if pyramid.leg_over:
            pyramid.refill()
        inside = pyramid.inside
        draw = pyramid.draw()
        choice[len(inside)][inside.index(draw.die)] += 1
        faces[draw.value] += 1
        if draw.crazy:
            colours[draw.crazy] += 1
    # With one die left the choice is forced: nothing to test there.
    stats = {f"choice of {n}": (chi_square(c, range(n)), n - 1) for n, c in choice.items() if n > 1}
    stats["faces"] = (chi_square(faces, (1, 2, 3)), 2)
    if colours:
        stats["grey colour"] = (chi_square(colours, ("white", "black")), 1)
    return stats


@pytest.mark.parametrize("edition", ["2014", "2018"])
def test_draws_are_fair_over_60000_seeded_draws(edition):
    stats = fairness_statistics(Pyramid(PRESETS[edition], seed=20261125), 60_000)
    assert len(stats) == (5 if edition == "2014" else 7)
    for name, (statistic, dof) in stats.items():
        assert statistic < CRITICAL_0_001[dof], f"{name}: chi-square {statistic:.1f} with {dof} degrees of freedom"


def test_the_fairness_check_catches_a_biased_pyramid():
    pyramid = Pyramid(PRESETS["2018"], seed=1)
    real_choice = pyramid._rng.choice
    # Favour the first die inside a third of the time: a subtle bias the test must see.
    pyramid._rng.choice = lambda seq: seq[0] if pyramid._rng.random() < 0.05 else real_choice(seq)
    stats = fairness_statistics(pyramid, 60_000)
    assert any(statistic > CRITICAL_0_001[dof] for statistic, dof in stats.values())


def test_a_leg_is_five_distinct_dice_then_refuses_until_refilled():
    pyramid = Pyramid(PRESETS["2018"], seed=3)
    draws = [pyramid.draw() for _ in range(5)]
    assert len({draw.die for draw in draws}) == 5
    assert len(pyramid.inside) == 1 and pyramid.leg_over
    with pytest.raises(LegOverError, match="refill"):
        pyramid.draw()
    pyramid.refill()
    assert pyramid.leg == 2 and len(pyramid.inside) == 6
    assert pyramid.draw().leg == 2


def test_2014_pyramid_empties_completely():
    pyramid = Pyramid(PRESETS["2014"], seed=3)
    assert {pyramid.draw().die for _ in range(5)} == {"blue", "green", "orange", "yellow", "white"}
    assert pyramid.inside == ()


def test_undo_puts_the_last_die_back():
    pyramid = Pyramid(PRESETS["2018"], seed=5)
    first, second = pyramid.draw(), pyramid.draw()
    assert pyramid.undo() == second
    assert second.die in pyramid.inside and first.die not in pyramid.inside
    assert pyramid.undo() == first
    with pytest.raises(PyramidError, match="nothing to undo"):
        pyramid.undo()


def test_sequence_numbers_keep_rising_across_legs_and_only_grey_has_a_colour():
    pyramid = Pyramid(PRESETS["2018"], seed=8)
    draws = []
    for _ in range(4):
        draws += [pyramid.draw() for _ in range(5)]
        pyramid.refill()
    assert [draw.sequence for draw in draws] == list(range(1, 21))
    for draw in draws:
        assert (draw.crazy is not None) == (draw.die == "grey")
        assert draw.crazy in (None, "white", "black") and draw.value in (1, 2, 3)


def test_setup_roll_rolls_every_racing_die_then_grey_twice():
    rolls = Pyramid(PRESETS["2018"], seed=9).setup_roll()
    assert [die for die, _, _ in rolls] == ["green", "yellow", "red", "blue", "purple", "grey", "grey"]
    assert Pyramid(PRESETS["2014"], seed=9).setup_roll()[-1][0] == "white"


def test_subscribers_get_every_event_in_order():
    pyramid = Pyramid(PRESETS["2014"], seed=2, clock=lambda: 42.0)
    events = pyramid.subscribe()
    draw = pyramid.draw()
    pyramid.undo()
    pyramid.refill()
    received = [events.get_nowait() for _ in range(3)]
    assert received == [draw, Undone(draw, 42.0), Refilled(1, 42.0)]
    assert isinstance(received[0], Draw) and draw.as_json() == {"leg": 1, "die": draw.die, "value": draw.value}


def test_same_seed_same_draws_and_no_seed_is_real_randomness():
    a = [Pyramid(PRESETS["2018"], seed=11).draw() for _ in range(1)]
    b = [Pyramid(PRESETS["2018"], seed=11).draw() for _ in range(1)]
    assert [(d.die, d.value) for d in a] == [(d.die, d.value) for d in b]
    import secrets

    assert isinstance(Pyramid(PRESETS["2018"])._rng, secrets.SystemRandom)
