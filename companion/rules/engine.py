"""Checking and applying actions, and answering "what may this player do now?".

``apply(state, action)`` is the only way a game moves on: it checks the action against every rule and
returns the next state, or raises a :class:`~companion.rules.errors.RuleError` and changes nothing (the
state is immutable). ``legal_actions(state)`` is built from the same checks, so the UI and the bots never
re-implement a rule.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from functools import cached_property

from companion.rules.actions import PILES, Action, FinishBet, LegBet, Partnership, PlaceTile, PyramidTicket
from companion.rules.editions import GREY_DIE
from companion.rules.errors import (
    DieNotInPyramidError,
    FinishCardError,
    InvalidActionError,
    NoTicketLeftError,
    NotYourTurnError,
    PartnershipError,
    RaceOverError,
    RuleError,
    TilePlacementError,
)
from companion.rules.scoring import FinishCard, LegTicket, score_leg, score_race
from companion.rules.state import GameState, Roll
from companion.rules.track import Tile, crazy_camel_to_move, move_camel

# -- checks ---------------------------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_turn(state: GameState, player: str) -> None:
    if state.game_over:
        raise RaceOverError("the race is over: no more actions can be taken")
    if player not in state.players:
        raise InvalidActionError(f"there is no player named {player!r} in this game")
    if player != state.players[state.turn]:
        raise NotYourTurnError(f"it is {state.players[state.turn]}'s turn, not {player}'s")


def _check_racing_camel(state: GameState, camel: object, what: str) -> None:
    edition = state.edition
    if camel in edition.crazy_camels:
        raise InvalidActionError(f"the {camel} camel is a crazy camel: nobody can bet on it ({what})")
    if camel not in edition.racing_camels:
        raise InvalidActionError(
            f"{camel!r} is not a racing camel of the {edition.name} edition ({', '.join(edition.racing_camels)})"
        )


def _check_leg_bet(state: GameState, action: LegBet) -> None:
    _check_racing_camel(state, action.camel, "leg ticket")
    if not state.tickets_left(action.camel):
        raise NoTicketLeftError(f"every {action.camel} leg ticket has been taken this leg")


def _tile_refusal(
    state: GameState, player: str, space: int, occupied: Collection[int] | None = None
) -> RuleError | None:
    """Why ``player``'s tile may not go on ``space`` now (decision 4), or ``None`` if it may.

    ``occupied`` (the spaces with camels) can be passed in when asking about many spaces at once.
    """
    edition = state.edition
    name = edition.tile_name
    if not _is_int(space) or not 1 <= space <= edition.track_length:
        return TilePlacementError(f"space {space!r} is not on the track (1 to {edition.track_length})")
    if space == 1:
        return TilePlacementError(f"a {name} may never go on space 1")
    for tile in state.tiles:
        if tile.owner == player and tile.space == space:
            return TilePlacementError(
                f"your {name} is already on space {space}: moving it needs a different space "
                "(the side cannot be flipped without moving)"
            )
    if space in occupied if occupied is not None else state.track.occupied(space):
        return TilePlacementError(f"space {space} has camels on it: a {name} needs an empty space")
    length = edition.track_length
    neighbours = ((space - 2) % length + 1, space % length + 1)
    for tile in state.tiles:
        if tile.owner == player:
            continue  # your own tile is lifted first
        if tile.space == space:
            return TilePlacementError(f"space {space} already has {tile.owner}'s {name} on it")
        if tile.space in neighbours:
            return TilePlacementError(
                f"space {space} is next to {tile.owner}'s {name} on space {tile.space}: tiles may not be adjacent"
            )
    return None


def _check_tile(state: GameState, action: PlaceTile) -> None:
    edition = state.edition
    if action.side not in edition.tile_sides:
        raise InvalidActionError(
            f"a {edition.tile_name} has the sides {edition.plus_side!r} and {edition.minus_side!r}, not {action.side!r}"
        )
    refusal = _tile_refusal(state, action.player, action.space)
    if refusal is not None:
        raise refusal


def _check_pyramid(state: GameState, action: PyramidTicket) -> None:
    edition = state.edition
    if action.die not in edition.dice:
        raise InvalidActionError(
            f"there is no {action.die!r} die in the {edition.name} pyramid ({', '.join(edition.dice)})"
        )
    if action.die not in state.dice_in_pyramid():
        raise DieNotInPyramidError(f"the {action.die} die has already come out of the pyramid this leg")
    if not _is_int(action.value) or action.value not in edition.die_faces:
        faces = ", ".join(map(str, edition.die_faces))
        raise DieNotInPyramidError(f"a die shows {faces}, not {action.value!r}")
    if action.die == GREY_DIE:
        if action.crazy is None:
            raise InvalidActionError(
                f"the grey die's number is {' or '.join(edition.crazy_camels)}: say which ('crazy' is missing)"
            )
        if action.crazy not in edition.crazy_camels:
            raise InvalidActionError(
                f"the grey die's number is {' or '.join(edition.crazy_camels)}, not {action.crazy!r}"
            )
    elif action.crazy is not None:
        raise InvalidActionError(f"only the grey die has a crazy colour; the {action.die} die has none")


def _check_finish_bet(state: GameState, action: FinishBet) -> None:
    if action.pile not in PILES:
        raise InvalidActionError(f"a finish card goes on the 'winner' or the 'loser' pile, not {action.pile!r}")
    _check_racing_camel(state, action.camel, "finish card")
    if action.camel not in state.finish_cards_in_hand(action.player):
        raise FinishCardError(f"{action.player} has already played the {action.camel} finish card")


def _check_partnership(state: GameState, action: Partnership) -> None:
    edition = state.edition
    if edition.partnership_min_players is None:
        raise PartnershipError(f"there are no partnerships in the {edition.name} edition")
    if not edition.partnerships_allowed(len(state.players)):
        raise PartnershipError(
            f"partnerships need {edition.partnership_min_players} or more players, this game has {len(state.players)}"
        )
    partner = action.partner
    if partner not in state.players:
        raise InvalidActionError(f"there is no player named {partner!r} in this game")
    if partner == action.player:
        raise PartnershipError("a player cannot enter a partnership with themselves")
    for who in (action.player, partner):
        other = state.partner_of(who)
        if other is not None:
            raise PartnershipError(
                f"{who}'s partnership card is not available: {who} is already partnered with {other} this leg"
            )


_CHECKS = {
    LegBet: _check_leg_bet,
    PlaceTile: _check_tile,
    PyramidTicket: _check_pyramid,
    FinishBet: _check_finish_bet,
    Partnership: _check_partnership,
}


def check(state: GameState, action: Action) -> None:
    """Raise the :class:`RuleError` that refuses ``action`` now, or return if it is legal."""
    check_kind = _CHECKS.get(type(action))
    if check_kind is None:
        raise InvalidActionError(f"{action!r} is not an action of the game")
    _check_turn(state, action.player)
    check_kind(state, action)


def is_legal(state: GameState, action: Action) -> bool:
    try:
        check(state, action)
    except RuleError:
        return False
    return True


# -- applying -------------------------------------------------------------------------------------------


def _next_turn(state: GameState) -> int:
    return (state.turn + 1) % len(state.players)


def _apply_pyramid(state: GameState, action: PyramidTicket) -> GameState:
    edition = state.edition
    # The grey die names a colour; decision 3 says which crazy camel that really moves.
    camel = crazy_camel_to_move(state.track, action.crazy, edition) if action.die == GREY_DIE else action.die
    track, movement = move_camel(state.track, camel, action.value, edition, state.tiles_by_space())
    money = list(state.money)
    if movement.tile is not None:
        money[state.players.index(movement.tile.owner)] += edition.tile_reward
    state = state.evolve(
        track=track,
        money=tuple(money),
        pyramid_tickets=(*state.pyramid_tickets, action.player),
        dice_out=(*state.dice_out, Roll(action.die, action.value, camel, action.crazy)),
        last_movement=movement,
        turn=_next_turn(state),
    )
    if movement.crossed_finish:
        return _end_race(state)
    if len(state.dice_out) == edition.draws_per_leg:
        return _end_leg(state)
    return state


def _score_current_leg(state: GameState) -> GameState:
    scoring = score_leg(
        state.edition,
        state.leg,
        state.players,
        state.money,
        state.ranking(),
        state.leg_tickets,
        state.pyramid_tickets,
        state.partnerships,
    )
    return state.evolve(
        money=tuple(score.after for score in scoring.scores),
        leg_scorings=(*state.leg_scorings, scoring),
    )


def _end_leg(state: GameState) -> GameState:
    """Score the leg, then clean up: tickets, tiles, dice and partnership cards go back."""
    state = _score_current_leg(state)
    return state.evolve(
        leg=state.leg + 1,
        tiles=(),
        leg_tickets=(),
        pyramid_tickets=(),
        dice_out=(),
        partnerships=(),
    )


def _end_race(state: GameState) -> GameState:
    """The leg in progress is scored as it stands, then the finish piles (decision 7)."""
    state = _score_current_leg(state)
    scoring = score_race(
        state.edition, state.players, state.money, state.ranking(), state.winner_pile, state.loser_pile
    )
    return state.evolve(
        money=tuple(money for _, money in scoring.final_money),
        race_scoring=scoring,
        game_over=True,
    )


def apply(state: GameState, action: Action) -> GameState:
    """Check ``action`` and return the state after it (with any leg or race scoring it triggers).

    Raises:
        RuleError: a subclass naming the broken rule; ``state`` is unchanged (it is immutable).
    """
    check(state, action)
    if isinstance(action, PyramidTicket):
        return _apply_pyramid(state, action)
    turn = _next_turn(state)
    if isinstance(action, LegBet):
        ticket = LegTicket(action.camel, state.tickets_left(action.camel)[0], action.player)
        return state.evolve(leg_tickets=(*state.leg_tickets, ticket), turn=turn)
    if isinstance(action, PlaceTile):
        tiles = [tile for tile in state.tiles if tile.owner != action.player]
        tiles.append(Tile(action.space, action.player, action.side))
        return state.evolve(tiles=tuple(sorted(tiles, key=lambda tile: tile.space)), turn=turn)
    if isinstance(action, FinishBet):
        card = FinishCard(action.player, action.camel)
        if action.pile == "winner":
            return state.evolve(winner_pile=(*state.winner_pile, card), turn=turn)
        return state.evolve(loser_pile=(*state.loser_pile, card), turn=turn)
    return state.evolve(partnerships=(*state.partnerships, (action.player, action.partner)), turn=turn)


# -- what may the player do now? ------------------------------------------------------------------------


class LegalActions:
    """What the player whose turn it is may do now, as the engine's checks answer it.

    Supports ``in``, ``len`` and iteration over concrete actions (a pyramid ticket appears once for every
    roll the dice still inside could show). Each kind of action is worked out when first asked for.
    """

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.player = state.current_player

    @cached_property
    def leg_bets(self) -> tuple[str, ...]:
        """Camels whose top leg ticket can be taken."""
        if self.player is None:
            return ()
        return tuple(camel for camel, left in self.state.tickets_left_by_camel().items() if left)

    @cached_property
    def tile_spots(self) -> tuple[tuple[int, str], ...]:
        """``(space, side)`` pairs where the player's tile can go."""
        if self.player is None:
            return ()
        state, player = self.state, self.player
        edition = state.edition
        occupied = {space for space, _ in state.track}
        spaces = [
            space
            for space in range(2, edition.track_length + 1)
            if _tile_refusal(state, player, space, occupied) is None
        ]
        return tuple((space, side) for space in spaces for side in edition.tile_sides)

    @cached_property
    def dice(self) -> tuple[str, ...]:
        """Dice still in the pyramid; a pyramid ticket can be taken when this is not empty."""
        return () if self.player is None else self.state.dice_in_pyramid()

    @cached_property
    def finish_cards(self) -> tuple[str, ...]:
        """Camels whose finish card the player still holds (each can go on either pile)."""
        return () if self.player is None else self.state.finish_cards_in_hand(self.player)

    @cached_property
    def partners(self) -> tuple[str, ...]:
        state, player = self.state, self.player
        if player is None or not state.edition.partnerships_allowed(len(state.players)):
            return ()
        return tuple(
            other for other in state.players if other != player and is_legal(state, Partnership(player, other))
        )

    def pyramid_rolls(self) -> Iterator[PyramidTicket]:
        if self.player is None:
            return
        edition = self.state.edition
        for die in self.dice:
            for value in edition.die_faces:
                if die == GREY_DIE:
                    for colour in edition.crazy_camels:
                        yield PyramidTicket(self.player, die, value, colour)
                else:
                    yield PyramidTicket(self.player, die, value)

    def __iter__(self) -> Iterator[Action]:
        yield from self.pyramid_rolls()
        yield from self.other_than_pyramid()

    def other_than_pyramid(self) -> Iterator[Action]:
        """Every legal action except taking a pyramid ticket."""
        player = self.player
        if player is None:
            return
        for camel in self.leg_bets:
            yield LegBet(player, camel)
        for space, side in self.tile_spots:
            yield PlaceTile(player, space, side)
        for camel in self.finish_cards:
            for pile in PILES:
                yield FinishBet(player, pile, camel)
        for partner in self.partners:
            yield Partnership(player, partner)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, action: object) -> bool:
        return isinstance(action, tuple(_CHECKS)) and is_legal(self.state, action)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return f"<LegalActions for {self.player}: {len(self)} actions>"


def legal_actions(state: GameState) -> LegalActions:
    """Everything the player whose turn it is may do now (nothing once the race is over)."""
    return LegalActions(state)
