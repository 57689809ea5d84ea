"""Actions: the only way anything changes a match.

Players act from their seat (0-3); the clock owner (the table service) acts as
``SYSTEM`` to deal cards, close the bidding window and start the next hand. Every
action is a small frozen value that turns into a JSON object and back, so the
ordered list of accepted actions is a complete, replayable record of a match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from bot.rules import Card, format_cards, parse_cards

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


@dataclass(frozen=True, slots=True)
class Play:
    """Lead or follow with these cards."""

    cards: tuple[Card, ...]
    kind: ClassVar[str] = "play"


@dataclass(frozen=True, slots=True)
class NextHand:
    """Start the next hand after the summary has been shown."""

    kind: ClassVar[str] = "next_hand"


Action = Deal | EndBidding | Declare | Bury | Play | NextHand
_WITH_CARDS = {"declare": Declare, "bury": Bury, "play": Play}


def action_to_dict(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": action.kind}
    if isinstance(action, Deal):
        data["count"] = action.count
    elif isinstance(action, Declare | Bury | Play):
        data["cards"] = format_cards(action.cards)
    return data


def action_from_dict(data: dict[str, Any]) -> Action:
    kind = data.get("kind")
    if kind == "deal":
        return Deal(int(data.get("count", 1)))
    if kind == "end_bidding":
        return EndBidding()
    if kind == "next_hand":
        return NextHand()
    if kind in _WITH_CARDS:
        return _WITH_CARDS[kind](tuple(parse_cards(data["cards"])))
    raise ValueError(f"unknown action kind {kind!r}")


def play(text: str) -> Play:
    """``Play`` from notation: ``play("AH AH KH")``."""
    return Play(tuple(parse_cards(text)))


def declare(text: str) -> Declare:
    return Declare(tuple(parse_cards(text)))


def bury(text: str) -> Bury:
    return Bury(tuple(parse_cards(text)))
