"""What happened: one frozen dataclass per event, returned by ``Match.apply``.

Events carry cards as ``Card`` tuples and seats and points as ints, so nobody
parses text back. Most events are public; ``Dealt``, ``KittyTaken`` and
``KittyBuried`` are meant for one seat only, which their ``to`` names (``to`` is
None for a public event). Consumers dispatch with ``match`` statements::

    match event:
        case Played(seat=seat, cards=cards): ...
        case TrickWon(winner=winner): ...

``kind`` is each event's stable name in the codec's JSON (``bot.game.codec``).
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import ClassVar

from bot.rules import Card

from .frozen import quick_init
from .views import HandResult


class _Event:
    __slots__ = ()
    kind: ClassVar[str]

    @property
    def to(self) -> int | None:
        """The only seat this event may be shown to; None when everyone may know."""
        return None

    @property
    def public(self) -> bool:
        return self.to is None


@dataclass(frozen=True, slots=True)
class MatchStarted(_Event):
    """The table started its match (the service emits it; the match starts dealt-ready)."""

    kind: ClassVar[str] = "match_started"


@dataclass(frozen=True, slots=True)
class Dealt(_Event):
    """Cards dealt to ``seat`` in one deal step (private to that seat)."""

    seat: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "dealt"

    @property
    def to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class DealProgress(_Event):
    """How many of the players' cards are out."""

    dealt: int
    total: int
    kind: ClassVar[str] = "deal_progress"


@dataclass(frozen=True, slots=True)
class BidMade(_Event):
    """A bid shown during the deal; ``suit`` None is no trump."""

    seat: int
    cards: tuple[Card, ...]
    suit: str | None
    strength: int
    kind: ClassVar[str] = "bid"


@dataclass(frozen=True, slots=True)
class Redeal(_Event):
    """Nobody bid and the rules redeal: the ``redeals``-th new deal of this hand."""

    redeals: int
    kind: ClassVar[str] = "redeal"


@dataclass(frozen=True, slots=True)
class KittyDrawn(_Event):
    """Nobody bid (``no_bid="kitty_draw"``): the kitty's cards turned up, shown to all.

    ``dealer`` is the seat the draw makes dealer, with ``suit`` as trump; None when
    no card matched a level (then a redeal, or no trump after the last one).
    """

    cards: tuple[Card, ...]
    dealer: int | None
    suit: str | None
    kind: ClassVar[str] = "kitty_drawn"


@dataclass(frozen=True, slots=True)
class TrumpSet(_Event):
    """The bidding closed: dealer and trump are settled (``bidder`` None if nobody bid)."""

    dealer: int
    level: str
    suit: str | None
    bidder: int | None
    kind: ClassVar[str] = "trump"


@dataclass(frozen=True, slots=True)
class KittyTaken(_Event):
    """The dealer picked up the kitty (private to the dealer)."""

    dealer: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "kitty_taken"

    @property
    def to(self) -> int | None:
        return self.dealer


@dataclass(frozen=True, slots=True)
class Buried(_Event):
    """The dealer buried the kitty (public: the cards are not)."""

    dealer: int
    auto: bool
    kind: ClassVar[str] = "buried"


@dataclass(frozen=True, slots=True)
class KittyBuried(_Event):
    """The cards the dealer buried (private to the dealer)."""

    dealer: int
    cards: tuple[Card, ...]
    kind: ClassVar[str] = "kitty"

    @property
    def to(self) -> int | None:
        return self.dealer


@dataclass(frozen=True, slots=True)
class OvercallRound(_Event):
    """The kitty is buried and cannot change: each player once in turn, from ``first``
    round to the dealer, may overcall (``overcall="after_bury"``)."""

    first: int
    kind: ClassVar[str] = "overcall_round"


@dataclass(frozen=True, slots=True)
class Passed(_Event):
    """``seat`` did not overcall in the round after burying."""

    seat: int
    auto: bool
    kind: ClassVar[str] = "passed"


@dataclass(frozen=True, slots=True)
class RoundOver(_Event):
    """The overcall round is over: the trump the hand is played in; the dealer leads."""

    dealer: int
    level: str
    suit: str | None
    kind: ClassVar[str] = "round_over"


@dataclass(frozen=True, slots=True)
class ThrowFailed(_Event):
    """A throw could be beaten: only ``played`` stands, ``taken_back`` returns to the hand."""

    seat: int
    attempted: tuple[Card, ...]
    played: tuple[Card, ...]
    taken_back: tuple[Card, ...]
    penalty: int
    attackers_points: int
    kind: ClassVar[str] = "throw_failed"


@quick_init
@dataclass(frozen=True, slots=True)
class Played(_Event):
    """Cards put on the trick; ``auto`` when the computer played for the seat."""

    seat: int
    cards: tuple[Card, ...]
    auto: bool
    kind: ClassVar[str] = "played"


@quick_init
@dataclass(frozen=True, slots=True)
class TrickWon(_Event):
    """The ``number``-th trick of the hand (from 1) is complete."""

    number: int
    winner: int
    points: int
    attackers_points: int
    kind: ClassVar[str] = "trick"


@dataclass(frozen=True, slots=True)
class HandScored(_Event):
    """The hand is over: its score, levels and next dealer."""

    result: HandResult
    kind: ClassVar[str] = "hand_scored"


@dataclass(frozen=True, slots=True)
class MatchOver(_Event):
    """A team won the match."""

    team: int
    levels: tuple[str, str]
    kind: ClassVar[str] = "match_over"


@dataclass(frozen=True, slots=True)
class HandStarted(_Event):
    """The next hand's deal begins."""

    hand_no: int
    dealer: int
    levels: tuple[str, str]
    kind: ClassVar[str] = "hand_started"


Event = (
    MatchStarted
    | Dealt
    | DealProgress
    | BidMade
    | Redeal
    | KittyDrawn
    | TrumpSet
    | KittyTaken
    | Buried
    | KittyBuried
    | OvercallRound
    | Passed
    | RoundOver
    | ThrowFailed
    | Played
    | TrickWon
    | HandScored
    | MatchOver
    | HandStarted
)
EVENT_TYPES: tuple[type[Event], ...] = typing.get_args(Event)
