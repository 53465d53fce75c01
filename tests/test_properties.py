"""Properties over many random games of both editions, and agreement with the reference implementation."""

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.gamelog import LogError, action_from_json, parse_log, summary
from companion.rules import EDITIONS, PyramidTicket, RuleError, apply
from tests.gamegen import noisy_action, random_log
from tests.reference_rules import replay as reference_replay

SPEC_KEYS = ("edition", "leg", "game_over", "track", "ranking", "money", "next_player")
seeds = st.integers(min_value=0, max_value=2**32 - 1)
fast = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def states_of(log):
    """Every state of a legal log, first to last."""
    game = parse_log(log)
    state = game.start()
    yield state, None
    for obj in game.actions:
        action = action_from_json(obj)
        state = apply(state, action)
        yield state, action


def check_invariants(state, edition):
    camels = list(state.track.camels())
    assert Counter(camels) == Counter(edition.camels), "every camel on the track exactly once"
    for space, stack in state.track:
        assert stack, f"space {space} is listed but empty"
    off_track = [space for space, _ in state.track if not 1 <= space <= edition.track_length]
    assert not off_track or state.game_over, "only a finished race has a unit past the line"
    assert len(off_track) <= 1
    assert all(money >= 0 for money in state.money), "money never below 0"
    assert len(state.dice_out) < edition.draws_per_leg or state.game_over
    assert len({roll.die for roll in state.dice_out}) == len(state.dice_out), "no die twice in a leg"
    assert len(state.pyramid_tickets) == len(state.dice_out)
    for camel in edition.racing_camels:
        assert len(state.tickets_left(camel)) <= len(edition.leg_ticket_values)
    assert set(state.ranking()) == set(edition.racing_camels)


@fast
@given(seed=seeds, edition=st.sampled_from(["2014", "2018"]))
def test_random_legal_games_keep_every_invariant(seed, edition):
    log = random_log(random.Random(seed), edition=edition, noise=0)
    rules = EDITIONS[edition]
    draws_this_leg = 0
    previous = None
    for state, action in states_of(log):
        check_invariants(state, rules)
        if isinstance(action, PyramidTicket):
            draws_this_leg += 1
            if state.game_over:
                assert state.last_movement.crossed_finish
            elif state.leg != previous.leg:
                assert draws_this_leg == rules.draws_per_leg, "a leg ends after exactly 5 draws"
                assert state.leg == previous.leg + 1
                draws_this_leg = 0
        previous = state
    assert previous.game_over, "random play ends the race"
    assert previous.race_scoring.winner == previous.ranking()[0]


@fast
@given(seed=seeds)
def test_replaying_an_exported_log_gives_the_same_state(seed):
    log = random_log(random.Random(seed), noise=0)
    state = parse_log(log).replay()
    exported = json.loads(json.dumps(parse_log(log).to_json()))
    assert parse_log(exported).replay() == state


@fast
@given(seed=seeds, data=st.data())
def test_an_illegal_action_leaves_the_state_unchanged(seed, data):
    log = random_log(random.Random(seed), noise=0)
    states = [state for state, _ in states_of(log) if not state.game_over]
    state = data.draw(st.sampled_from(states))
    rng = random.Random(data.draw(seeds))
    for _ in range(20):
        obj = noisy_action(state, rng)
        before = repr(state)
        try:
            apply(state, action_from_json(obj))
        except RuleError as error:
            assert str(error), "a refusal says what rule was broken"
            assert repr(state) == before


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds)
def test_engine_agrees_with_the_reference_implementation(seed):
    """Legal games of both editions (2 to 8 players, tiles, crazy camels, partnerships, wild setups) and
    games that end in a broken action: same final state on every key of the spec, same refused action."""
    log = random_log(random.Random(seed), noise=0.01)
    expected = reference_replay(log)
    try:
        out = summary(parse_log(log).replay())
        got = {key: out[key] for key in SPEC_KEYS}
    except LogError as error:
        got = {"action": error.action}
    assert got == expected
