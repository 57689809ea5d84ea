"""Bidding (亮主): what a set of shown cards bids, and which bids beat which.

``standard`` (seeds 001, 003): level cards of one suit bid that suit (a single, a
pair, with three decks a triple); a pair of jokers bids no trump. Strength:
single < pair < SJ SJ < BJ BJ (< triple < SJ×3 < BJ×3 with three decks). A bid is
beaten only by a strictly stronger one. The bidder may strengthen their own bid
(自保, same suit; seed 001 also allows 自反, another suit); anyone else overcalls
(反主) with level cards of another suit, or with jokers for no trump.

``joker`` (带王亮主, seeds 000 and 002): every bid shows a joker with level cards of
a suit that goes with it (BJ with ♥ ♦, SJ with ♠ ♣); strength is the number of
level cards shown; no bid of no trump; nobody overcalls themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import BIG_JOKER, SMALL_JOKER, SUIT_NAMES, SUITS, Card, pretty_cards
from .errors import IllegalBid
from .ruleset import DEFAULT_RULES, RuleSet

_JOKER_FOR = {"H": BIG_JOKER, "D": BIG_JOKER, "S": SMALL_JOKER, "C": SMALL_JOKER}
# standard strengths: level cards by count, joker sets by count (RULES.md, seed 002)
_LEVEL_STRENGTH = {1: 1, 2: 2, 3: 5}
_JOKER_STRENGTH = {(SMALL_JOKER, 2): 3, (BIG_JOKER, 2): 4, (SMALL_JOKER, 3): 6, (BIG_JOKER, 3): 7}


@dataclass(frozen=True, slots=True)
class Bid:
    """Cards shown by ``seat``; ``suit`` None means no trump."""

    seat: int
    cards: tuple[Card, ...]
    suit: str | None
    strength: int

    def describe(self) -> str:
        target = "no trump" if self.suit is None else SUIT_NAMES[self.suit]
        return f"{pretty_cards(self.cards)} for {target}"


def read_bid(
    cards: Sequence[Card], level: str, rules: RuleSet | None = None
) -> tuple[str | None, int]:
    """The suit (None: no trump) and strength that ``cards`` bid, or ``IllegalBid``."""
    rules = rules or DEFAULT_RULES
    cards = tuple(cards)
    if not cards:
        raise IllegalBid("Show at least one card to bid.", key="rules-bid-empty")
    jokers = [c for c in cards if c.is_joker]
    levels = [c for c in cards if not c.is_joker]
    if any(c.rank != level for c in levels):
        raise IllegalBid(
            f"Bids show level cards ({_level_name(level)}s) and jokers only.",
            key="rules-bid-not-level",
            level=_level_name(level),
        )
    suits = {c.suit for c in levels}
    if len(suits) > 1:
        raise IllegalBid(
            "Level cards in a bid must all be of one suit.", key="rules-bid-mixed-suits"
        )
    if rules.bidding == "joker":
        if len(jokers) != 1 or not levels:
            raise IllegalBid(
                "With joker bidding a bid shows one joker with level cards: "
                "BJ with ♥ or ♦, SJ with ♠ or ♣.",
                key="rules-bid-joker-shape",
            )
        suit = levels[0].suit
        if jokers[0] is not _JOKER_FOR[suit]:
            need = "BJ" if _JOKER_FOR[suit] is BIG_JOKER else "SJ"
            raise IllegalBid(
                f"Bid {SUIT_NAMES[suit]} with the {need}.",
                key="rules-bid-wrong-joker",
                suit=suit,
                joker=need,
            )
        return suit, len(levels)
    if jokers and levels:
        raise IllegalBid(
            "Bid either level cards of one suit or a set of jokers, not both.",
            key="rules-bid-levels-and-jokers",
        )
    if levels:
        return levels[0].suit, _LEVEL_STRENGTH[len(levels)]
    if len(set(jokers)) > 1 or len(jokers) < 2:
        raise IllegalBid(
            "No trump is bid with two (or three) identical jokers.", key="rules-bid-no-trump-jokers"
        )
    return None, _JOKER_STRENGTH[(jokers[0], len(jokers))]


def check_bid(
    seat: int,
    cards: Sequence[Card],
    level: str,
    current: Bid | None,
    rules: RuleSet | None = None,
) -> Bid:
    """The ``Bid`` that ``seat`` makes by showing ``cards``, if it may make it now."""
    rules = rules or DEFAULT_RULES
    suit, strength = read_bid(cards, level, rules)
    bid = Bid(seat, tuple(cards), suit, strength)
    if current is None:
        return bid
    if strength <= current.strength:
        raise IllegalBid(
            f"{bid.describe()} does not beat the current bid ({current.describe()}): "
            "a bid is beaten only by a stronger one.",
            key="rules-bid-too-weak",
            cards=bid.cards,
            target_suit=_bid_suit(bid.suit),
            current=current.cards,
            current_suit=_bid_suit(current.suit),
        )
    if current.seat == seat:
        if rules.bidding == "joker" and suit != current.suit:
            raise IllegalBid(
                "With joker bidding you may not overcall your own bid.",
                key="rules-bid-own-overcall",
            )
        return bid
    if suit is not None and suit == current.suit:
        raise IllegalBid(
            f"The trump suit is already {SUIT_NAMES[suit]}: overcall with another suit.",
            key="rules-bid-same-suit",
            suit=suit,
        )
    return bid


def possible_bids(
    hand: Sequence[Card],
    seat: int,
    level: str,
    current: Bid | None,
    rules: RuleSet | None = None,
) -> list[Bid]:
    """Every bid ``seat`` can make now from ``hand``, weakest first.

    A bid that strengthens the seat's own bid repeats the cards already shown.
    """
    rules = rules or DEFAULT_RULES
    counts: dict[Card, int] = {}
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    options: list[tuple[Card, ...]] = []
    for suit in SUITS:
        held = counts.get(Card(level, suit), 0)
        for n in range(1, held + 1):
            shown = (Card(level, suit),) * n
            if rules.bidding == "joker":
                if counts.get(_JOKER_FOR[suit], 0):
                    options.append((_JOKER_FOR[suit], *shown))
            else:
                options.append(shown)
    if rules.bidding == "standard":
        for joker in (SMALL_JOKER, BIG_JOKER):
            for n in range(2, counts.get(joker, 0) + 1):
                options.append((joker,) * n)
    bids: list[Bid] = []
    for cards in options:
        try:
            bids.append(check_bid(seat, cards, level, current, rules))
        except IllegalBid:
            continue
    bids.sort(key=lambda b: b.strength)
    return bids


def _level_name(level: str) -> str:
    return "10" if level == "T" else level


def _bid_suit(suit: str | None) -> str:
    """A bid's suit as an error parameter: ``none`` stands for no trump."""
    return "none" if suit is None else suit
