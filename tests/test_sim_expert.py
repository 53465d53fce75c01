"""The expert bot: legal choices only, exact and net values, and a look-ahead that is consistent with the odds."""

import random

import pytest

from companion.gamelog import action_from_json, parse_log
from companion.odds import tile_evs
from companion.rules import EDITION_2018, LegBet, PlaceTile, PyramidTicket, apply, legal_actions, new_game, view_for
from companion.sim.bots import DRAW
from companion.sim.expert import ExpertBot
from tests.gamegen import random_log

FAR_AHEAD = {12: ("red",), 1: ("green", "yellow", "blue"), 2: ("purple",), 15: ("black", "white")}


def test_expert_only_chooses_legal_actions_along_a_six_player_game():
    log = random_log(random.Random(21), edition="2018", players=6, noise=0)
    game = parse_log(log)
    state = game.start()
    rng = random.Random(2)
    checked = 0
    for obj in game.actions:
        if not state.game_over:
            view = view_for(state, state.current_player)
            choice = ExpertBot().choose(view, legal_actions(view), rng)
            assert choice is DRAW or choice in legal_actions(state)
            checked += 1
        state = apply(state, action_from_json(obj))
    assert checked > 5


def test_expert_takes_a_sure_five():
    state = new_game(EDITION_2018, ["Ann", "Bob"], FAR_AHEAD)
    for die in ("green", "yellow", "blue", "grey"):
        state = apply(state, PyramidTicket(state.current_player, die, 1, "black" if die == "grey" else None))
    assert ExpertBot().choose(state, legal_actions(state), random.Random(0)) == LegBet("Ann", "red")


def test_expert_values_tiles_net_of_its_own_tile_exactly():
    track = {7: ("red",), 3: ("green",), 4: ("yellow",), 5: ("blue",), 6: ("purple",), 14: ("black", "white")}
    state = new_game(EDITION_2018, ["Ann", "Bob"], track)
    for die in ("green", "yellow"):
        state = apply(state, PyramidTicket(state.current_player, die, 1))
    state = apply(state, PlaceTile("Ann", 9, "cheer"))
    state = apply(state, PlaceTile("Bob", 12, "boo"))
    bot = ExpertBot()
    legal = legal_actions(state)
    options = bot.tile_options(state, legal, bot.leg_odds(state, random.Random(0)), best_so_far=-10)
    exact = tile_evs(state)
    assert len(options) == bot.tile_candidates
    for value, choice in options:
        assert value == pytest.approx(exact[(choice.space, choice.side)], abs=1e-12)


@pytest.mark.parametrize("draws_done", [2, 3])
def test_a_roll_never_leaves_the_next_player_worse_off_on_average(draws_done):
    # Ticket EVs now are the average of the EVs after the next roll, so the next player's best after a
    # pyramid ticket is at least their best now (more so when the roll tells them much).
    state = new_game(EDITION_2018, ["Ann", "Bob"], {5: ("blue", "green"), 6: ("red",), 7: ("yellow", "purple"),
                                                    13: ("black",), 14: ("white",)})
    for die in ("blue", "grey", "red")[:draws_done]:
        state = apply(state, PyramidTicket(state.current_player, die, 2, "white" if die == "grey" else None))
    bot = ExpertBot()
    after = bot.after_draw(state, state.current_player)
    assert after is not None
    assert after >= bot.next_player_best(state) - 1e-9
