"""The two editions of Camel Up, as data.

Everything that differs between the 2014 and the 2018 rulebook lives in an :class:`Edition` value, so the
engine has no ``if edition == ...`` branches: it asks the edition how many tickets a colour has, which
camels run backwards, or whether partnerships exist.
"""

from __future__ import annotations

from dataclasses import dataclass

GREY_DIE = "grey"


@dataclass(frozen=True)
class Edition:
    """One edition's components and numbers (see ``CLARIFICATIONS.md``'s table)."""

    name: str
    racing_camels: tuple[str, ...]
    crazy_camels: tuple[str, ...]
    leg_ticket_values: tuple[int, ...]
    """Printed values of one colour's leg tickets, top of the stack first."""
    plus_side: str
    """The tile side that moves a unit one more space forward (oasis / cheering)."""
    minus_side: str
    """The tile side that moves a unit one space backward (mirage / booing)."""
    tile_name: str
    draws_per_leg: int = 5
    track_length: int = 16
    die_faces: tuple[int, ...] = (1, 2, 3)
    start_money: int = 3
    min_players: int = 2
    max_players: int = 8
    partnership_min_players: int | None = None
    """Partnerships exist from this many players on; ``None`` where the edition has none."""
    finish_payouts: tuple[int, ...] = (8, 5, 3, 2, 1)
    """What the 1st, 2nd, ... right finish card pays; the last value repeats for every later one."""
    wrong_finish_card: int = -1
    second_place_reward: int = 1
    other_place_reward: int = -1
    pyramid_ticket_reward: int = 1
    tile_reward: int = 1

    @property
    def camels(self) -> tuple[str, ...]:
        return self.racing_camels + self.crazy_camels

    @property
    def dice(self) -> tuple[str, ...]:
        """The dice in a full pyramid: one per racing camel, plus the grey die where there are crazy camels."""
        return self.racing_camels + ((GREY_DIE,) if self.crazy_camels else ())

    @property
    def tile_sides(self) -> tuple[str, str]:
        return (self.plus_side, self.minus_side)

    def direction(self, camel: str) -> int:
        """+1 for camels that run clockwise, -1 for the crazy camels."""
        return -1 if camel in self.crazy_camels else 1

    def finish_payout(self, nth_right_card: int) -> int:
        """What the ``nth_right_card``-th (1-based) right card on a finish pile pays."""
        payouts = self.finish_payouts
        return payouts[min(nth_right_card, len(payouts)) - 1]

    def partnerships_allowed(self, player_count: int) -> bool:
        minimum = self.partnership_min_players
        return minimum is not None and player_count >= minimum

    def __repr__(self) -> str:
        return f"EDITIONS[{self.name!r}]"


EDITION_2014 = Edition(
    name="2014",
    racing_camels=("blue", "green", "orange", "yellow", "white"),
    crazy_camels=(),
    leg_ticket_values=(5, 3, 2),
    plus_side="oasis",
    minus_side="mirage",
    tile_name="desert tile",
)

EDITION_2018 = Edition(
    name="2018",
    racing_camels=("green", "yellow", "red", "blue", "purple"),
    crazy_camels=("black", "white"),
    leg_ticket_values=(5, 3, 2, 2),
    plus_side="cheer",
    minus_side="boo",
    tile_name="spectator tile",
    partnership_min_players=6,
)

EDITIONS: dict[str, Edition] = {edition.name: edition for edition in (EDITION_2014, EDITION_2018)}
