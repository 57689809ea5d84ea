"""The trump: which cards are trumps, and the order of every card under it.

An ``Order`` is the compiled view of a ``Trump`` under a ``RuleSet``. It gives each
card an *effective suit* (``"T"`` for every trump, else the card's own suit) and a
*tier* inside that suit: a higher tier beats a lower one, equal tiers are equal
cards (the off-suit level cards), and two tiers form a tractor step when they are
consecutive and linked. Everything else in the rules asks the ``Order``; orders are
cached, so compiling one per trick costs a dictionary lookup.

With ``fixed_two_trump`` the 2s sit between the trump suit's ace and the level
cards (``… AH < 2 other < 2H < T other < TH …``) and chain into tractors like any
other consecutive trump tiers (``AH AH 2S 2S``, ``2S 2S 2H 2H``, ``2H 2H TS TS``);
equal tiers (two off-suit 2s, two off-suit level cards) never do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from .cards import ALL_CARDS, BIG_JOKER, RANKS, SMALL_JOKER, SUIT_NAMES, SUITS, Card
from .errors import NotationError
from .ruleset import DEFAULT_RULES, RuleSet

TRUMP = "T"  # the effective suit of every trump card
LEVELS = RANKS  # a team's level runs 2 .. A


@dataclass(frozen=True, slots=True)
class Trump:
    """This hand's level rank (级牌) and trump suit; ``suit=None`` is no trump (无主)."""

    level: str
    suit: str | None

    def __post_init__(self) -> None:
        level = "T" if self.level == "10" else str(self.level).upper()
        if level not in RANKS:
            raise NotationError(
                f"'{self.level}' is not a level: use 2-9, T (ten), J, Q, K or A.",
                key="rules-err-bad-level",
                token=str(self.level),
            )
        object.__setattr__(self, "level", level)
        if self.suit is not None:
            suit = str(self.suit).upper()
            if suit not in SUITS:
                raise NotationError(
                    f"'{self.suit}' is not a suit: use S, H, D, C or None.",
                    key="rules-err-bad-suit",
                    token=str(self.suit),
                )
            object.__setattr__(self, "suit", suit)

    def __str__(self) -> str:
        level = "10" if self.level == "T" else self.level
        if self.suit is None:
            return f"{level} no trump"
        return f"{level}, trump {SUIT_NAMES[self.suit]}"


def suit_name(suit: str) -> str:
    """Plain English for an effective suit: ``hearts`` or ``trumps``."""
    return "trumps" if suit == TRUMP else SUIT_NAMES[suit]


class Order:
    """Effective suits and tiers of every card under one trump and rule set."""

    __slots__ = (
        "breaks",
        "members",
        "ranked",
        "single_power",
        "sort_key",
        "suit_of",
        "tier",
        "trump",
    )

    def __init__(self, trump: Trump, fixed_two_trump: bool, chain: bool) -> None:
        self.trump = trump
        self.suit_of: dict[Card, str] = {}
        self.tier: dict[Card, int] = {}
        # breaks[suit]: tiers t for which t -> t+1 is NOT a tractor step
        self.breaks: dict[str, frozenset[int]] = {}
        level, tsuit = trump.level, trump.suit
        two_is_trump = fixed_two_trump and level != "2"

        def plain_ranks() -> list[str]:
            return [r for r in RANKS if r != level and not (two_is_trump and r == "2")]

        for suit in SUITS:
            if suit == tsuit:
                continue
            for i, rank in enumerate(plain_ranks()):
                card = Card(rank, suit)
                self.suit_of[card] = suit
                self.tier[card] = i
            self.breaks[suit] = frozenset()

        # trumps, weakest first: trump-suit plain ranks, [2s], level cards, jokers
        layers: list[list[Card]] = []
        if tsuit is not None:
            layers.extend([Card(r, tsuit)] for r in plain_ranks())
        top_plain = len(layers) - 1  # the trump suit's top plain tier (-1 in no trump)
        if two_is_trump:
            layers.append([Card("2", s) for s in SUITS if s != tsuit])
            if tsuit is not None:
                layers.append([Card("2", tsuit)])
        layers.append([Card(level, s) for s in SUITS if s != tsuit])
        if tsuit is not None:
            layers.append([Card(level, tsuit)])
        layers.append([SMALL_JOKER])
        layers.append([BIG_JOKER])
        for tier, cards in enumerate(layers):
            for card in cards:
                self.suit_of[card] = TRUMP
                self.tier[card] = tier
        if chain:
            self.breaks[TRUMP] = frozenset()
        else:
            # without the chain only the trump suit's own consecutive ranks link
            self.breaks[TRUMP] = frozenset(range(max(top_plain, 0), len(layers)))
        assert len(self.suit_of) == len(ALL_CARDS)
        # every card of a suit, strongest first, for generators and displays
        self.ranked: dict[str, tuple[Card, ...]] = {}
        for suit in (*SUITS, TRUMP):
            members = [c for c in ALL_CARDS if self.suit_of[c] == suit]
            members.sort(key=lambda c: (self.tier[c], _suit_bias(c, tsuit)), reverse=True)
            self.ranked[suit] = tuple(members)
        # the same as sets: picking a hand's cards of a suit with ``filter`` or testing
        # for them with ``isdisjoint`` runs in C, where a comprehension costs a lookup
        # and a comparison per card in Python (every follow of every simulation asks)
        self.members: dict[str, frozenset[Card]] = {
            suit: frozenset(cards) for suit, cards in self.ranked.items()
        }
        # sort_key(card) sorts a hand the way players hold it: plain suits (alternating
        # colours, ♠ ♥ ♣ ♦), then trumps, low to high, the jokers last. A dictionary's
        # lookup: every sort of every decomposition and hand display goes through it.
        keys = {
            card: (
                4 if self.suit_of[card] == TRUMP else _DISPLAY_SUITS.index(self.suit_of[card]),
                self.tier[card],
                _suit_bias(card, tsuit),
            )
            for card in ALL_CARDS
        }
        self.sort_key: Callable[[Card], tuple[int, int, int]] = keys.__getitem__
        # single_power[led][card]: what a single card is worth in a trick led in ``led``
        # (a trump above every card of the led suit, another suit -1), so a trick of
        # single cards is won by the first of its highest values: a few C calls for the
        # most common trick of every hand played or searched
        ceiling = len(self.tier)
        self.single_power: dict[str, dict[Card, int]] = {
            led: {
                card: self.tier[card] + ceiling
                if self.suit_of[card] == TRUMP
                else self.tier[card]
                if self.suit_of[card] == led
                else -1
                for card in ALL_CARDS
            }
            for led in self.ranked
        }

    def is_trump(self, card: Card) -> bool:
        return self.suit_of[card] == TRUMP

    def linked(self, suit: str, tier: int) -> bool:
        """Whether a pair at ``tier`` and one at ``tier + 1`` make a tractor step."""
        return tier not in self.breaks[suit]

    def suit_of_play(self, cards: list[Card]) -> str | None:
        """The one effective suit of ``cards``, or None when they mix suits."""
        suits = {self.suit_of[c] for c in cards}
        return suits.pop() if len(suits) == 1 else None


_DISPLAY_SUITS = "SHCD"


def _suit_bias(card: Card, trump_suit: str | None) -> int:
    """Orders equal-tier cards (off-suit level cards) in a fixed suit order."""
    if card.suit == trump_suit:
        return 4
    return _DISPLAY_SUITS.index(card.suit) if card.suit in _DISPLAY_SUITS else 5


@lru_cache(maxsize=512)
def _compiled(trump: Trump, fixed_two_trump: bool, chain: bool) -> Order:
    return Order(trump, fixed_two_trump, chain)


def order_for(trump: Trump, rules: RuleSet | None = None) -> Order:
    """The compiled order for a trump under the given rules (cached).

    A hand asks for the same order thousands of times with the same two objects:
    the last answer is kept by identity (one tuple, swapped whole, so threads
    never see a torn entry) before the hashing cache is consulted.
    """
    global _last
    rules = rules or DEFAULT_RULES
    last = _last
    if last[0] is trump and last[1] is rules and last[2] is not None:
        return last[2]
    order = _compiled(trump, rules.fixed_two_trump, rules.trump_chain_tractors)
    _last = (trump, rules, order)
    return order


_last: tuple[Trump | None, RuleSet | None, Order | None] = (None, None, None)
