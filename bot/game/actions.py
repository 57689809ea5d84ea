"""Actions: the only way anything changes a match.

Players act from their seat (0-3); the clock owner (the table service) acts as
``SYSTEM`` to deal cards, close the bidding window and start the next hand. Every
action is a small frozen value that ``bot.game.codec`` turns into a JSON object
and back, so the ordered list of accepted actions is a complete, replayable record of a match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.rules import Card, parse_cards

from .frozen import quick_init

SYSTEM = -1  # the actor for clock-driven actions


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal the next ``count`` cards, one at a time in seat order."""

    count: int = 1
    kind: ClassVar[str] = "deal"


@dataclass(frozen=True, slots=True)
class EndBidding:
    """The bidding window after the deal has run out: settle trump and dealer."""

    kind: ClassVar[str] = "end_bidding"


@dataclass(frozen=True, slots=True)
class Declare:
    """Show level cards (and jokers) to bid trump: 亮主, 自保, 反主."""

    cards: tuple[Card, ...]
    kind: ClassVar[str] = "declare"


@dataclass(frozen=True, slots=True)
class Bury:
    """The dealer buries this many cards as the new kitty."""

    cards: tuple[Card, ...]
    kind: ClassVar[str] = "bury"


@quick_init
@dataclass(frozen=True, slots=True)
class Play:
    """Lead or follow with these cards."""

    cards: tuple[Card, ...]
    kind: ClassVar[str] = "play"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to overcall in the round after burying (``overcall="after_bury"``)."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class NextHand:
    """Start the next hand after the summary has been shown."""

    kind: ClassVar[str] = "next_hand"


Action = Deal | EndBidding | Declare | Bury | Play | Pass | NextHand


def play(text: str) -> Play:
    """``Play`` from notation: ``play("AH AH KH")``."""
    return Play(tuple(parse_cards(text)))


def declare(text: str) -> Declare:
    return Declare(tuple(parse_cards(text)))


def bury(text: str) -> Bury:
    return Bury(tuple(parse_cards(text)))
