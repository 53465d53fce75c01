"""The engine's checks and transitions, one or more tests per numbered decision of CLARIFICATIONS.md."""

import pytest

from companion.rules import (
    EDITION_2014,
    EDITION_2018,
    DieNotInPyramidError,
    FinishBet,
    FinishCardError,
    InvalidActionError,
    LegBet,
    NoTicketLeftError,
    NotYourTurnError,
    Partnership,
    PartnershipError,
    PlaceTile,
    PyramidTicket,
    RaceOverError,
    RuleError,
    TilePlacementError,
    apply,
    legal_actions,
    new_game,
)

START_2018 = {1: ("green", "red"), 2: ("yellow",), 3: ("blue", "purple"), 14: ("black",), 16: ("white",)}
START_2014 = {1: ("blue", "green"), 2: ("orange",), 3: ("yellow", "white")}
SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def game(edition=EDITION_2018, players=("Ann", "Bob", "Cy"), track=None):
    return new_game(edition, players, track or (START_2018 if edition is EDITION_2018 else START_2014))


def play(state, *actions):
    for action in actions:
        state = apply(state, action)
    return state


def draws(state, *rolls):
    """Each roll ``(die, value[, crazy])`` taken by whoever's turn it is."""
    for roll in rolls:
        state = apply(state, PyramidTicket(state.current_player, *roll))
    return state


def refused(state, action, error=RuleError):
    with pytest.raises(error) as info:
        apply(state, action)
    return str(info.value)


# -- decision 1: the track and the finish line ---------------------------------------------------------


def test_crossing_the_finish_line_ends_the_race_at_once_with_the_position_kept():
    state = game(track={15: ("red",), 5: ("green", "yellow", "blue", "purple"), 10: ("black", "white")})
    state = draws(state, ("red", 3))
    assert state.game_over and state.current_player is None
    assert state.track.stack_at(18) == ("red",)
    assert state.leg == 1
    assert refused(state, LegBet("Bob", "red"), RaceOverError) == "the race is over: no more actions can be taken"


def test_a_crazy_camel_crossing_backwards_ends_the_race():
    state = game(track={2: ("black", "red"), 5: ("green", "yellow", "blue", "purple"), 10: ("white",)})
    state = draws(state, ("grey", 3, "white"))  # black carries red: black moves (decision 3)
    assert state.game_over
    assert state.track.stack_at(-1) == ("black", "red")
    # Decision 2: racing camels carried below space 1 are the least advanced.
    assert state.ranking()[-1] == "red"
    assert state.race_scoring.loser == "red"


# -- decision 2: ranking --------------------------------------------------------------------------------


def test_ranking_uses_position_then_height_and_skips_crazy_camels():
    state = game(track={1: ("green",), 2: ("yellow", "black", "red"), 3: ("blue", "purple"), 16: ("white",)})
    assert state.ranking() == ("purple", "blue", "red", "yellow", "green")


# -- decision 3: which crazy camel moves (through the engine) ------------------------------------------------


def test_grey_die_moves_the_crazy_camel_of_its_colour_when_no_exception_applies():
    state = draws(game(), ("grey", 2, "black"))
    assert state.track.stack_at(12) == ("black",)
    assert state.dice_out[-1].camel == "black" and state.dice_out[-1].crazy == "black"


def test_grey_die_moves_the_upper_crazy_camel_when_one_sits_on_the_other():
    state = game(track={**{k: v for k, v in START_2018.items() if k < 10}, 15: ("black", "white")})
    state = draws(state, ("grey", 1, "black"))
    assert state.track.stack_at(14) == ("white",) and state.track.stack_at(15) == ("black",)


# -- decision 4: tiles ------------------------------------------------------------------------------------


def test_tile_placement_rules():
    state = game()
    assert "space 1" in refused(state, PlaceTile("Ann", 1, "cheer"), TilePlacementError)
    assert "camels" in refused(state, PlaceTile("Ann", 3, "cheer"), TilePlacementError)
    assert "camels" in refused(state, PlaceTile("Ann", 14, "boo"), TilePlacementError)  # a crazy camel there
    assert "not on the track" in refused(state, PlaceTile("Ann", 17, "boo"), TilePlacementError)
    assert "sides" in refused(state, PlaceTile("Ann", 7, "oasis"), InvalidActionError)
    state = play(state, PlaceTile("Ann", 7, "cheer"))
    assert "already has Ann's" in refused(state, PlaceTile("Bob", 7, "boo"), TilePlacementError)
    assert "next to Ann's" in refused(state, PlaceTile("Bob", 8, "boo"), TilePlacementError)
    assert "next to Ann's" in refused(state, PlaceTile("Bob", 6, "boo"), TilePlacementError)
    state = play(state, PlaceTile("Bob", 9, "boo"))
    assert [(t.space, t.owner, t.side) for t in state.tiles] == [(7, "Ann", "cheer"), (9, "Bob", "boo")]


def test_space_16_and_space_1_are_neighbours():
    state = game(track={1: ("green", "red"), 2: ("yellow",), 3: ("blue", "purple"), 12: ("black", "white")})
    state = play(state, PlaceTile("Ann", 16, "cheer"))
    # Space 2's neighbours are 1 and 3; 15's are 14 and 16: Bob cannot go on 15.
    assert "next to Ann's" in refused(state, PlaceTile("Bob", 15, "cheer"), TilePlacementError)
    assert 16 not in {space for space, _ in legal_actions(state).tile_spots}


def test_moving_your_own_tile_lifts_it_first_but_needs_a_new_space():
    state = play(game(players=("Ann", "Bob")), PlaceTile("Ann", 7, "cheer"), LegBet("Bob", "red"))
    assert "different space" in refused(state, PlaceTile("Ann", 7, "boo"), TilePlacementError)
    state = play(state, PlaceTile("Ann", 8, "boo"))  # next to its own old space: allowed
    assert [(t.space, t.owner, t.side) for t in state.tiles] == [(8, "Ann", "boo")]


def test_tiles_go_back_to_their_owners_at_the_end_of_the_leg():
    state = play(game(), PlaceTile("Ann", 7, "cheer"))
    state = draws(state, ("red", 1), ("green", 1), ("yellow", 1), ("blue", 1), ("purple", 1))
    assert state.leg == 2 and state.tiles == ()


# -- decision 5: landing on a tile ---------------------------------------------------------------------------


def test_landing_on_a_tile_pays_its_owner_at_once_and_moves_the_unit():
    state = play(game(), PlaceTile("Ann", 5, "cheer"))
    state = draws(state, ("purple", 2))  # Bob draws: purple 3 → 5 (Ann's tile) → 6
    assert state.money_of("Ann") == 4
    assert state.track.stack_at(6) == ("purple",)
    movement = state.last_movement
    assert (movement.landing, movement.end, movement.tile.owner) == (5, 6, "Ann")


def test_minus_tile_puts_the_unit_underneath():
    state = play(game(), PlaceTile("Ann", 4, "boo"))
    state = draws(state, ("yellow", 2))  # yellow 2 → 4 (booing) → 3, under blue and purple
    assert state.track.stack_at(3) == ("yellow", "blue", "purple")
    assert state.money_of("Ann") == 4


def test_a_tile_step_across_the_finish_line_ends_the_race():
    track = {14: ("red",), 5: ("green", "yellow", "blue", "purple"), 10: ("black", "white")}
    state = play(game(track=track), PlaceTile("Ann", 16, "cheer"))
    state = draws(state, ("red", 2))
    assert state.game_over and state.track.stack_at(17) == ("red",)
    # Ann's tile coin is paid, then the leg (Bob's pyramid ticket) is scored.
    assert state.money_by_player() == {"Ann": 4, "Bob": 4, "Cy": 3}


# -- decision 6: leg scoring ----------------------------------------------------------------------------------


def test_a_leg_ends_after_five_draws_and_is_scored_and_cleaned_up():
    state = play(game(), LegBet("Ann", "red"), LegBet("Bob", "red"), LegBet("Cy", "green"))
    assert state.tickets_left("red") == (2, 2)
    state = draws(state, ("red", 3), ("green", 1), ("yellow", 1), ("blue", 1))
    assert state.leg == 1 and len(state.dice_in_pyramid()) == 2
    state = draws(state, ("purple", 1))
    scoring = state.leg_scorings[-1]
    assert scoring.leg == 1 and state.leg == 2
    assert scoring.ranking == ("green", "yellow", "purple", "blue", "red")
    assert state.track.as_dict() == {
        4: ("red", "blue"),
        5: ("purple", "yellow", "green"),
        14: ("black",),
        16: ("white",),
    }
    # Ann: red −1, two pyramid tickets; Bob: red −1, two pyramid tickets; Cy: green 5, one pyramid ticket.
    assert [score.explain() for score in scoring.scores] == ["−1 + 1 + 1 = 1", "−1 + 1 + 1 = 1", "5 + 1 = 6"]
    assert state.money == (4, 4, 9)
    assert state.leg_tickets == () and state.pyramid_tickets == () and state.dice_out == ()
    assert state.tickets_left("red") == (5, 3, 2, 2)
    assert len(state.dice_in_pyramid()) == 6


def test_2014_leg_ends_when_all_five_dice_are_out_and_one_die_stays_in_2018():
    state = draws(game(EDITION_2014), ("blue", 1), ("green", 1), ("orange", 1), ("yellow", 1))
    assert state.dice_in_pyramid() == ("white",)
    state = draws(state, ("white", 1))
    assert state.leg == 2 and len(state.dice_in_pyramid()) == 5
    state = draws(game(), ("red", 1), ("green", 1), ("yellow", 1), ("grey", 1, "white"), ("purple", 1))
    assert state.leg == 2


def test_a_die_cannot_come_out_twice_in_a_leg():
    state = draws(game(), ("red", 1))
    message = refused(state, PyramidTicket("Bob", "red", 2), DieNotInPyramidError)
    assert message == "the red die has already come out of the pyramid this leg"


def test_no_leg_ticket_left():
    state = play(game(players=("Ann", "Bob")), *[LegBet(p, "red") for p in ("Ann", "Bob", "Ann", "Bob")])
    assert refused(state, LegBet("Ann", "red"), NoTicketLeftError) == "every red leg ticket has been taken this leg"
    assert "red" not in legal_actions(state).leg_bets


# -- decision 7: end of the race ----------------------------------------------------------------------------


def test_end_of_race_scores_the_leg_then_the_winner_pile_then_the_loser_pile():
    track = {15: ("red",), 5: ("green", "yellow"), 6: ("blue", "purple"), 10: ("black", "white")}
    state = play(
        game(track=track),
        FinishBet("Ann", "winner", "red"),
        FinishBet("Bob", "winner", "red"),
        FinishBet("Cy", "loser", "green"),
        LegBet("Ann", "red"),
        FinishBet("Bob", "loser", "blue"),
    )
    state = draws(state, ("red", 2))  # Cy draws; red crosses
    assert state.game_over
    assert [s.after for s in state.leg_scorings[-1].scores] == [3 + 5, 3, 3 + 1]
    assert state.money_by_player() == {"Ann": 8 + 8, "Bob": 3 + 5 - 1, "Cy": 4 + 8}
    assert state.race_scoring.winners == ("Ann",)
    assert state.winners() == ("Ann",)


# -- decision 8: finish cards ----------------------------------------------------------------------------------


def test_each_finish_card_is_played_once_onto_either_pile():
    state = play(game(players=("Ann", "Bob")), FinishBet("Ann", "winner", "red"), LegBet("Bob", "red"))
    assert "already played the red" in refused(state, FinishBet("Ann", "loser", "red"), FinishCardError)
    assert "crazy camel" in refused(state, FinishBet("Ann", "loser", "black"), InvalidActionError)
    assert "'winner' or the 'loser'" in refused(state, FinishBet("Ann", "middle", "blue"), InvalidActionError)
    assert legal_actions(state).finish_cards == ("green", "yellow", "blue", "purple")


# -- decision 9: partnerships ----------------------------------------------------------------------------------


def test_partnerships_need_the_2018_edition_and_six_players():
    assert "2014 edition" in refused(game(EDITION_2014), Partnership("Ann", "Bob"), PartnershipError)
    five = game(players=SIX[:5])
    assert "6 or more players" in refused(five, Partnership("Ann", "Bob"), PartnershipError)
    assert legal_actions(five).partners == ()


def test_partnership_cards_must_be_available_and_return_at_the_end_of_the_leg():
    state = play(game(players=SIX), Partnership("Ann", "Cy"))
    assert state.partner_of("Cy") == "Ann"
    assert "not available" in refused(state, Partnership("Bob", "Cy"), PartnershipError)
    assert "themselves" in refused(state, Partnership("Bob", "Bob"), PartnershipError)
    assert "Ann" not in legal_actions(state).partners and "Cy" not in legal_actions(state).partners
    state = play(state, LegBet("Bob", "red"), LegBet("Cy", "green"))
    assert "not available" in refused(state, Partnership("Dee", "Ann"), PartnershipError)
    state = draws(state, ("red", 1), ("green", 1), ("yellow", 1), ("blue", 1), ("purple", 1))
    assert state.partnerships == () and state.partner_of("Ann") is None
    scoring = state.leg_scorings[-1]
    assert scoring.ranking[:2] == ("green", "red")
    # Ann has one pyramid ticket and copies Cy's green 5; Cy copies Ann's pyramid ticket.
    assert scoring.score_of("Ann").explain() == "1 + 5 = 6"
    assert scoring.score_of("Cy").explain() == "5 + 1 = 6"
    assert scoring.score_of("Bob").explain() == "1 + 1 = 2"


def test_partner_copies_the_best_positive_reward_through_the_engine():
    track = {1: ("green",), 2: ("yellow",), 3: ("blue",), 4: ("purple",), 10: ("red",), 14: ("black", "white")}
    state = play(game(players=SIX, track=track), Partnership("Ann", "Bob"), LegBet("Bob", "red"))
    state = draws(state, ("green", 1), ("yellow", 1), ("blue", 1), ("purple", 1), ("grey", 1, "black"))
    scoring = state.leg_scorings[-1]
    assert scoring.ranking[0] == "red"
    # Ann drew the grey die (white, on top of black, moved): her pyramid ticket plus Bob's red 5.
    assert state.track.stack_at(13) == ("white",)
    assert scoring.score_of("Ann").explain() == "1 + 5 = 6"
    assert scoring.score_of("Bob").explain() == "5 + 1 = 6"
    assert state.money_of("Ann") == 9


# -- decision 10: turns -------------------------------------------------------------------------------------


def test_turns_go_round_the_seating_without_a_break_between_legs():
    state = game(players=("Ann", "Bob"))
    with pytest.raises(NotYourTurnError, match="it is Ann's turn, not Bob's"):
        apply(state, LegBet("Bob", "red"))
    state = draws(state, ("red", 1), ("green", 1), ("yellow", 1), ("blue", 1), ("purple", 1))
    # Ann drew the fifth die: Bob starts leg 2.
    assert state.leg == 2 and state.current_player == "Bob"


def test_unknown_player_is_named():
    assert refused(game(), LegBet("Zed", "red"), InvalidActionError) == "there is no player named 'Zed' in this game"


# -- decision 11: setup -------------------------------------------------------------------------------------


def test_setup_order_is_kept_exactly_as_given():
    state = game(track={1: ("red", "green"), 2: ("yellow",), 3: ("purple", "blue"), 15: ("white", "black")})
    assert state.track.stack_at(1) == ("red", "green")
    assert state.track.stack_at(15) == ("white", "black")
    assert state.money == (3, 3, 3)


@pytest.mark.parametrize(
    ("players", "track", "message"),
    [
        (["Ann"], START_2018, "2 to 8 players"),
        (["Ann", "Ann"], START_2018, "share the name"),
        (["Ann", ""], START_2018, "non-empty"),
        (["Ann", "Bob"], {**START_2018, 2: ("yellow", "red")}, "on the track twice"),
        (["Ann", "Bob"], {k: v for k, v in START_2018.items() if k != 16}, "missing from the track: the white camel"),
        (["Ann", "Bob"], {**START_2018, 2: ("pink",)}, "no 'pink' camel"),
        (["Ann", "Bob"], {**START_2018, 17: ()}, "space 17 is not on the track"),
        (["Ann", "Bob"], {**START_2018, 0: ("orange",)}, "not on the track"),
    ],
)
def test_bad_setups_are_named(players, track, message):
    with pytest.raises(InvalidActionError, match=message):
        new_game(EDITION_2018, players, track)


# -- refusals change nothing; legality can be asked -------------------------------------------------------------


def test_a_refused_action_leaves_the_state_unchanged():
    state = play(game(), LegBet("Ann", "red"))
    snapshot = state
    for action in (
        LegBet("Ann", "red"),
        PlaceTile("Bob", 3, "cheer"),
        PyramidTicket("Bob", "grey", 2, "red"),
        PyramidTicket("Bob", "red", 4),
        PyramidTicket("Bob", "red", 2, "black"),
        FinishBet("Bob", "winner", "white"),
    ):
        with pytest.raises(RuleError):
            apply(state, action)
        assert state == snapshot


def test_every_listed_legal_action_is_accepted_and_listing_matches_contains():
    state = play(game(players=SIX), PlaceTile("Ann", 7, "cheer"), FinishBet("Bob", "winner", "red"))
    legal = legal_actions(state)
    actions = list(legal)
    assert len(legal) == len(actions) == len(set(actions))
    for action in actions:
        assert action in legal
        apply(state, action)  # does not raise
    assert PlaceTile("Cy", 8, "cheer") not in legal
    assert LegBet("Dee", "red") not in legal  # not Dee's turn
    # 5 dice × 3 faces + grey × 3 faces × 2 colours
    assert len(list(legal.pyramid_rolls())) == 15 + 6


def test_nothing_is_legal_once_the_race_is_over():
    state = draws(game(track={16: ("red",), 5: ("green", "yellow", "blue", "purple"), 10: ("black", "white")}),
                  ("red", 1))
    assert list(legal_actions(state)) == [] and legal_actions(state).player is None


def test_bad_die_values_and_colours_are_refused_with_clear_words():
    state = game()
    assert refused(state, PyramidTicket("Ann", "red", 4)) == "a die shows 1, 2, 3, not 4"
    assert refused(state, PyramidTicket("Ann", "red", True)) == "a die shows 1, 2, 3, not True"
    assert "grey die's number is black or white" in refused(state, PyramidTicket("Ann", "grey", 1))
    assert "no 'orange' die" in refused(state, PyramidTicket("Ann", "orange", 1))
    assert "only the grey die" in refused(state, PyramidTicket("Ann", "red", 1, "black"))
    assert "no 'grey' die" in refused(game(EDITION_2014), PyramidTicket("Ann", "grey", 1, "black"))
