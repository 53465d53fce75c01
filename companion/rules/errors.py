"""Named rule errors. Each message says, in a player's words, which rule the action broke."""

from __future__ import annotations


class RuleError(ValueError):
    """An action the rules refuse. A refused action changes nothing."""


class InvalidActionError(RuleError):
    """The action is not something a player can do at all: unknown kind, unknown camel, bad value."""


class RaceOverError(RuleError):
    """The race has ended; no more actions are taken."""


class NotYourTurnError(RuleError):
    """Somebody other than the player whose turn it is tried to act."""


class NoTicketLeftError(RuleError):
    """Every leg ticket of that colour has been taken this leg."""


class TilePlacementError(RuleError):
    """A desert or spectator tile cannot go there."""


class DieNotInPyramidError(RuleError):
    """That die already came out of the pyramid this leg, or the roll is not on the die."""


class FinishCardError(RuleError):
    """The player has already played that finish card."""


class PartnershipError(RuleError):
    """The partnership cannot be entered (edition, player count, or a card not available)."""
