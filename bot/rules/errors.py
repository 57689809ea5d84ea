"""Errors of the rules library. Their messages are written for players."""


class RulesError(ValueError):
    """Base class: something a player asked for is not allowed by the rules."""


class NotationError(RulesError):
    """Text that is not a card or a play in the notation."""


class IllegalPlay(RulesError):
    """A lead or a follow the rules forbid; the message says why, for the player."""


class IllegalBid(RulesError):
    """A bid the player's cards or the current bid do not allow."""
