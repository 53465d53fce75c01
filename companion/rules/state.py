"""The state of one game: an immutable value, replaced (never changed) by every action."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.rules.editions import Edition
from companion.rules.errors import InvalidActionError
from companion.rules.scoring import FinishCard, LegScoring, LegTicket, RaceScoring
from companion.rules.track import Movement, Tile, Track


@dataclass(frozen=True, slots=True)
class Roll:
    """A die that came out of the pyramid this leg, and the camel it moved."""

    die: str
    value: int
    camel: str
    crazy: str | None = None


@dataclass(frozen=True)
class GameState:
    """Everything the rules need to know about a game in progress.

    Players are named; ``money`` is aligned with ``players``. Build the first state with
    :func:`new_game` and the next ones with :func:`companion.rules.apply`.
    """

    edition: Edition
    players: tuple[str, ...]
    track: Track
    money: tuple[int, ...]
    leg: int = 1
    turn: int = 0
    """Index in ``players`` of the player whose turn it is."""
    tiles: tuple[Tile, ...] = ()
    leg_tickets: tuple[LegTicket, ...] = ()
    """Leg tickets taken this leg, in the order taken."""
    pyramid_tickets: tuple[str, ...] = ()
    """Owners of the pyramid tickets taken this leg, in order."""
    dice_out: tuple[Roll, ...] = ()
    """Dice out of the pyramid this leg, in the order drawn."""
    partnerships: tuple[tuple[str, str], ...] = ()
    winner_pile: tuple[FinishCard, ...] = ()
    """Cards on the overall-winner pile, first placed first."""
    loser_pile: tuple[FinishCard, ...] = ()
    game_over: bool = False
    last_movement: Movement | None = None
    leg_scorings: tuple[LegScoring, ...] = ()
    race_scoring: RaceScoring | None = None

    def evolve(self, **changes: object) -> GameState:
        """A copy with ``changes``: ``dataclasses.replace`` without re-running ``__init__`` (the engine
        makes one per action, and simulations make millions)."""
        new = object.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    # -- whose turn -----------------------------------------------------------------------------------
    @property
    def current_player(self) -> str | None:
        """The player whose turn it is; ``None`` once the race is over."""
        return None if self.game_over else self.players[self.turn]

    # -- money ----------------------------------------------------------------------------------------
    def money_of(self, player: str) -> int:
        return self.money[self.players.index(player)]

    def money_by_player(self) -> dict[str, int]:
        return dict(zip(self.players, self.money, strict=True))  # pragma: no mutate (same length by construction)

    # -- the track ------------------------------------------------------------------------------------
    def ranking(self) -> tuple[str, ...]:
        """Racing camels, leader first."""
        return self.track.ranking(self.edition.racing_camels)

    def tiles_by_space(self) -> dict[int, Tile]:
        return {tile.space: tile for tile in self.tiles}

    def tile_of(self, player: str) -> Tile | None:
        return next((tile for tile in self.tiles if tile.owner == player), None)

    # -- tickets and dice -----------------------------------------------------------------------------
    def tickets_left(self, camel: str) -> tuple[int, ...]:
        """Printed values of the leg tickets still on ``camel``'s stack, top first."""
        # Not mutated: every racing camel is in the map, so no caller ever gets the default.
        return self.tickets_left_by_camel().get(camel, self.edition.leg_ticket_values)  # pragma: no mutate

    def tickets_left_by_camel(self) -> dict[str, tuple[int, ...]]:
        """:meth:`tickets_left` for every racing camel at once."""
        taken = [ticket.camel for ticket in self.leg_tickets]
        values = self.edition.leg_ticket_values
        return {camel: values[taken.count(camel) :] for camel in self.edition.racing_camels}

    def dice_in_pyramid(self) -> tuple[str, ...]:
        out = {roll.die for roll in self.dice_out}
        return tuple(die for die in self.edition.dice if die not in out)

    def pyramid_tickets_left(self) -> int:
        return self.edition.draws_per_leg - len(self.pyramid_tickets)

    # -- finish cards and partnerships ----------------------------------------------------------------
    def finish_cards_in_hand(self, player: str) -> tuple[str, ...]:
        """Camels whose finish card ``player`` has not played yet (decision 8)."""
        played = {card.camel for card in self.winner_pile + self.loser_pile if card.owner == player}
        return tuple(camel for camel in self.edition.racing_camels if camel not in played)

    def partner_of(self, player: str) -> str | None:
        for first, second in self.partnerships:
            if player == first:
                return second
            if player == second:
                return first
        return None

    def winners(self) -> tuple[str, ...]:
        """Every player with the most money once the race is over; empty before."""
        return self.race_scoring.winners if self.race_scoring else ()


def new_game(edition: Edition, players: Sequence[str], track: Mapping[int, Sequence[str]]) -> GameState:
    """The state before the first action.

    ``track`` maps each space (1 to 16) to its stack, bottom first; every camel of the edition must appear
    exactly once. The order within a starting stack is free at the table, so it is given, never assumed.

    Raises:
        InvalidActionError: bad players or a bad starting track, with a message naming the problem.
    """
    players = tuple(players)
    if not edition.min_players <= len(players) <= edition.max_players:
        raise InvalidActionError(
            f"the game needs {edition.min_players} to {edition.max_players} players, not {len(players)}"
        )
    for player in players:
        if not isinstance(player, str) or not player.strip():
            raise InvalidActionError(f"a player's name must be a non-empty text, not {player!r}")
    duplicates = sorted({player for player in players if players.count(player) > 1})
    if duplicates:
        raise InvalidActionError(f"two players share the name {duplicates[0]!r}")

    seen: dict[str, int] = {}
    for space, stack in track.items():
        if not 1 <= space <= edition.track_length:
            raise InvalidActionError(f"space {space} is not on the track (1 to {edition.track_length})")
        for camel in stack:
            if camel not in edition.camels:
                raise InvalidActionError(f"there is no {camel!r} camel in the {edition.name} edition")
            if camel in seen:
                raise InvalidActionError(f"the {camel} camel is on the track twice (spaces {seen[camel]} and {space})")
            seen[camel] = space
    missing = [camel for camel in edition.camels if camel not in seen]
    if missing:
        names = ", ".join(missing)
        raise InvalidActionError(f"missing from the track: the {names} camel{'s' if len(missing) > 1 else ''}")

    return GameState(
        edition=edition,
        players=players,
        track=Track.from_mapping({space: tuple(stack) for space, stack in track.items()}),
        money=(edition.start_money,) * len(players),
    )

