"""Named rule errors. Each message says, in a player's words, which rule the action broke."""

from __future__ import annotations


class RuleError(ValueError):
    """An action the rules refuse. A refused action changes nothing.

    ``code`` names the broken rule for programs (the pages word it in their own language): it is part of the
    API and stays the same even if a class is renamed.
    """

    code = "RuleError"


class InvalidActionError(RuleError):
    """The action is not something a player can do at all: unknown kind, unknown camel, bad value."""

    code = "InvalidActionError"


class RaceOverError(RuleError):
    """The race has ended; no more actions are taken."""

    code = "RaceOverError"


class NotYourTurnError(RuleError):
    """Somebody other than the player whose turn it is tried to act."""

    code = "NotYourTurnError"


class NoTicketLeftError(RuleError):
    """Every leg ticket of that colour has been taken this leg."""

    code = "NoTicketLeftError"


class TilePlacementError(RuleError):
    """A desert or spectator tile cannot go there."""

    code = "TilePlacementError"


class DieNotInPyramidError(RuleError):
    """That die already came out of the pyramid this leg, or the roll is not on the die."""

    code = "DieNotInPyramidError"


class FinishCardError(RuleError):
    """The player has already played that finish card."""

    code = "FinishCardError"


class PartnershipError(RuleError):
    """The partnership cannot be entered (edition, player count, or a card not available)."""

    code = "PartnershipError"
