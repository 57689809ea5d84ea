"""Errors of the rules library, written for players in any language.

Every error carries a message key and its parameters, and an English text as its
``str()`` for people who use the library on its own. The bot renders the key in
the player's language through its catalogs (``bot.i18n.explain``); the rules stay
free of catalogs and I/O. Parameters follow one convention so that a renderer
needs no knowledge of the individual errors:

* ``int``: a number (Fluent picks the plural form);
* a tuple of ``Card``: cards, shown with suit symbols (``7♥7♥``);
* a tuple of tuples of ``Card``: groups of cards, shown as a list (``7♥7♥ and 9♥9♥``);
* a name ending in ``suit``: an effective suit code, ``S`` ``H`` ``D`` ``C``,
  ``T`` (trumps) or ``none`` (no trump), shown as the suit's name;
* a name ending in ``need``: a format, a tuple of ``(width, length)`` shapes (a
  pair is ``(2, 1)``, a 3-pair tractor ``(2, 3)``), shown as words;
* any other ``str``: shown as it is (a token the player typed, a card code).
"""

from __future__ import annotations

from dataclasses import dataclass, field

Param = object


@dataclass(frozen=True)
class Reason:
    """A sentence for a player that is not an error (what a follow must contain)."""

    text: str
    key: str
    params: dict[str, Param] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text


class RulesError(ValueError):
    """Base class: something a player asked for is not allowed by the rules."""

    def __init__(self, text: str, *, key: str, **params: Param) -> None:
        super().__init__(text)
        self.key = key
        self.params = params


class NotationError(RulesError):
    """Text that is not a card or a play in the notation."""


class IllegalPlay(RulesError):
    """A lead or a follow the rules forbid; the message says why, for the player."""


class IllegalBid(RulesError):
    """A bid the player's cards or the current bid do not allow."""
