"""Leg scoring and end-of-race scoring, each with a breakdown ticket by ticket and card by card.

A screen can show why every player got what they got, like the rulebook's example
``5 + 2 + 1 − 1 + 1 + 1 = 9`` (:meth:`PlayerLegScore.explain`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.rules.editions import Edition


@dataclass(frozen=True, slots=True)
class LegTicket:
    camel: str
    value: int
    owner: str


@dataclass(frozen=True, slots=True)
class FinishCard:
    owner: str
    camel: str


@dataclass(frozen=True, slots=True)
class Reward:
    """One line of a player's leg scoring."""

    source: str
    """``"leg_ticket"``, ``"pyramid_ticket"`` or ``"partner"`` (a reward copied from the partner)."""
    amount: int
    camel: str | None = None
    printed: int | None = None
    """The printed value of a leg ticket."""
    place: int | None = None
    """The ticket camel's place in the leg's ranking (1 = leader)."""
    partner: str | None = None
    copied: Reward | None = None
    """For a partner reward: the partner's reward that was copied."""

    def describe(self) -> str:
        if self.source == "pyramid_ticket":
            return f"pyramid ticket: {self.amount:+d}"
        if self.source == "partner" and self.copied is not None:
            return f"from partner {self.partner} ({self.copied.describe()}): {self.amount:+d}"
        place = {1: "first", 2: "second"}.get(self.place or 0, "not first or second")
        return f"{self.camel} leg ticket {self.printed} ({self.camel} {place}): {self.amount:+d}"


def _signed(amount: int) -> str:
    """A number as the rulebook prints it, with a real minus sign."""
    return f"−{-amount}" if amount < 0 else str(amount)


@dataclass(frozen=True, slots=True)
class PlayerLegScore:
    player: str
    rewards: tuple[Reward, ...]
    before: int
    after: int

    @property
    def net(self) -> int:
        return sum(reward.amount for reward in self.rewards)

    def explain(self) -> str:
        """The sum as a player would write it: ``5 + 2 + 1 − 1 + 1 + 1 = 9``."""
        if not self.rewards:
            return "0"
        first, *rest = (reward.amount for reward in self.rewards)
        terms = [_signed(first)]
        terms += [f"{'−' if amount < 0 else '+'} {abs(amount)}" for amount in rest]
        return f"{' '.join(terms)} = {_signed(self.net)}"


@dataclass(frozen=True, slots=True)
class LegScoring:
    leg: int
    ranking: tuple[str, ...]
    scores: tuple[PlayerLegScore, ...]

    def score_of(self, player: str) -> PlayerLegScore:
        return next(score for score in self.scores if score.player == player)


@dataclass(frozen=True, slots=True)
class CardPayout:
    """One finish card turned over at the end of the race."""

    pile: str
    owner: str
    camel: str
    right: bool
    amount: int
    before: int
    after: int
    nth_right: int | None = None


@dataclass(frozen=True, slots=True)
class RaceScoring:
    winner: str
    loser: str
    payouts: tuple[CardPayout, ...]
    """The winner pile card by card in the order placed, then the loser pile likewise."""
    final_money: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]
    """Every player with the most money (ties share the win)."""


def _ticket_reward(edition: Edition, ticket: LegTicket, ranking: Sequence[str]) -> Reward:
    place = ranking.index(ticket.camel) + 1
    if place == 1:
        amount = ticket.value
    elif place == 2:
        amount = edition.second_place_reward
    else:
        amount = edition.other_place_reward
    return Reward("leg_ticket", amount, camel=ticket.camel, printed=ticket.value, place=place)


def score_leg(
    edition: Edition,
    leg: int,
    players: Sequence[str],
    money: Sequence[int],
    ranking: Sequence[str],
    leg_tickets: Sequence[LegTicket],
    pyramid_tickets: Sequence[str],
    partnerships: Sequence[tuple[str, str]],
) -> LegScoring:
    """Score a leg (decision 6): rewards are added up first, then the net is applied once, floored at 0.

    A player in a partnership adds the partner's best single ticket reward when it is positive.
    """
    own: dict[str, list[Reward]] = {player: [] for player in players}
    for ticket in leg_tickets:
        own[ticket.owner].append(_ticket_reward(edition, ticket, ranking))
    for owner in pyramid_tickets:
        own[owner].append(Reward("pyramid_ticket", edition.pyramid_ticket_reward))

    partner_of = {}
    for first, second in partnerships:
        partner_of[first] = second
        partner_of[second] = first

    scores = []
    for player, before in zip(players, money, strict=True):  # pragma: no mutate (one amount per player)
        rewards = list(own[player])
        partner = partner_of.get(player)
        if partner is not None and own[partner]:
            best = max(own[partner], key=lambda reward: reward.amount)
            if best.amount > 0:  # pragma: no mutate (no reward is ever 0: >= is the same test)
                rewards.append(Reward("partner", best.amount, partner=partner, copied=best))
        net = sum(reward.amount for reward in rewards)
        scores.append(PlayerLegScore(player, tuple(rewards), before, max(0, before + net)))
    return LegScoring(leg, tuple(ranking), tuple(scores))


def score_race(
    edition: Edition,
    players: Sequence[str],
    money: Sequence[int],
    ranking: Sequence[str],
    winner_pile: Sequence[FinishCard],
    loser_pile: Sequence[FinishCard],
) -> RaceScoring:
    """End-of-race scoring (decision 7): the winner pile, then the loser pile, card by card in the order
    the cards were placed. A right card pays 8, 5, 3, 2, then 1; a wrong one costs 1, never below 0."""
    winner, loser = ranking[0], ranking[-1]
    balance = dict(zip(players, money, strict=True))  # pragma: no mutate (one amount per player)
    payouts = []
    for pile, cards, target in (("winner", winner_pile, winner), ("loser", loser_pile, loser)):
        right_so_far = 0
        for card in cards:
            before = balance[card.owner]
            if card.camel == target:
                right_so_far += 1
                amount = edition.finish_payout(right_so_far)
                nth = right_so_far
            else:
                amount = edition.wrong_finish_card
                nth = None
            after = max(0, before + amount)
            balance[card.owner] = after
            payouts.append(CardPayout(pile, card.owner, card.camel, nth is not None, amount, before, after, nth))
    best = max(balance.values())
    return RaceScoring(
        winner=winner,
        loser=loser,
        payouts=tuple(payouts),
        final_money=tuple(balance.items()),
        winners=tuple(player for player in players if balance[player] == best),
    )
