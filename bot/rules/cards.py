"""Cards and the notation: the one place where text becomes cards and back.

A card is a rank and a suit (``AH``, ``TS``, ``5C``) or a joker (``SJ``, ``BJ``).
Cards are interned: ``Card("A", "H") is Card("A", "H")``, so they hash and compare
at the speed of object identity, which the engines' hot paths (follow checks,
trick winners, the AI's card memory) rely on.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import ClassVar

from .errors import NotationError, RulesError

RANKS = "23456789TJQKA"
SUITS = "SHDC"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
JOKER = "J"  # the suit letter of both jokers: "SJ" and "BJ" read as rank + suit


class Card:
    """One playing card; two decks hold two identical copies of each card.

    ``rank`` is one of ``RANKS`` (or ``"S"``/``"B"`` for the jokers) and ``suit``
    one of ``SUITS`` (or ``"J"`` for the jokers). Use ``parse_cards`` for text.
    """

    __slots__ = ("_text", "rank", "suit")
    _interned: ClassVar[dict[tuple[str, str], Card]] = {}
    rank: str
    suit: str
    _text: str

    def __new__(cls, rank: str, suit: str) -> Card:
        card = cls._interned.get((rank, suit))
        if card is not None:
            return card
        valid = (suit in SUITS and rank in RANKS) or (suit == JOKER and rank in "SB")
        if not valid:
            raise NotationError(
                f"{rank}{suit} is not a card.", key="rules-err-bad-card", token=f"{rank}{suit}"
            )
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "_text", rank + suit)
        cls._interned[(rank, suit)] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[str, str]]:
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    @property
    def is_joker(self) -> bool:
        return self.suit == JOKER

    @property
    def points(self) -> int:
        return CARD_POINTS.get(self.rank, 0) if self.suit != JOKER else 0

    @property
    def pretty(self) -> str:
        """Rank and suit symbol for players: ``A♥``, ``10♠``; a joker by its English name,
        ``BJ`` (``bot.i18n.rules.card_text`` names it in each language: 大王)."""
        if self.suit == JOKER:
            return self._text
        rank = "10" if self.rank == "T" else self.rank
        return rank + SUIT_SYMBOLS[self.suit]


CARD_POINTS = {"5": 5, "T": 10, "K": 10}
SMALL_JOKER = Card("S", JOKER)
BIG_JOKER = Card("B", JOKER)
ALL_CARDS: tuple[Card, ...] = (
    *(Card(r, s) for s in SUITS for r in RANKS),
    SMALL_JOKER,
    BIG_JOKER,
)

# every card's points by identity (cards are interned): ``points`` runs for every trick,
# and the engine adds a trick of four single cards straight from it
POINTS_OF: dict[Card, int] = {
    card: CARD_POINTS.get(card.rank, 0) if card.suit != JOKER else 0 for card in ALL_CARDS
}

# a suit written as a symbol or a word (the longer words first) becomes a lower-case
# letter: one that may also come before its ranks (``♥A``, 红桃A), where a Latin one
# may not (``SJ`` is the small joker, not the jack of spades)
_SUIT_WORDS = {
    **{"♠": "s", "♥": "h", "♦": "d", "♣": "c", "♤": "s", "♡": "h", "♢": "d", "♧": "c"},
    **{"黑桃": "s", "红桃": "h", "红心": "h", "方块": "d", "方片": "d", "梅花": "c", "草花": "c"},
    **{"黑": "s", "红": "h", "方": "d", "梅": "c", "草": "c"},
}
_NAMES = {"大王": "BJ", "小王": "SJ", "大鬼": "BJ", "小鬼": "SJ"}
_TOKEN = re.compile(r"[^\s,;、]+")  # 、 too: Chinese lists cards with it (AH、KH)
_CARD = re.compile(r"(SJ|BJ)|(10|[2-9TJQKA])([SHDCshdc])")  # on upper-cased Latin letters
_LED = re.compile(r"([shdc])((?:10|[2-9TJQKA])+)")  # ♥A, 红桃AA, ♥KKQQ, ♥10♥10
_RANK = re.compile(r"10|[2-9TJQKA]")


def _parse_token(token: str) -> list[Card]:
    """One token: a card, or cards written without spaces (``AHKH``, ``10♥10♥``), or a
    suit before its ranks (``♥A``, 红桃A; ``♥AA``, 红桃KKQQ: each rank of that suit)."""
    text = token.upper()
    if not text.isascii():  # a symbol, a Chinese name (the logs' notation never has one)
        text = text.replace("\ufe0f", "").replace("\ufe0e", "")
        for name, code in _NAMES.items():
            text = text.replace(name, code)
        for word, suit in _SUIT_WORDS.items():
            text = text.replace(word, suit)
    cards: list[Card] = []
    pos = 0
    while pos < len(text):
        if found := _CARD.match(text, pos):
            joker, rank, suit = found.groups()
            if joker:
                cards.append(SMALL_JOKER if joker == "SJ" else BIG_JOKER)
            else:
                cards.append(Card("T" if rank == "10" else rank, suit.upper()))
        elif found := _LED.match(text, pos):
            suit = found[1].upper()
            cards += [Card("T" if r == "10" else r, suit) for r in _RANK.findall(found[2])]
        else:
            raise NotationError(
                f"'{token}' is not a card: write rank and suit, like AH, 10S, 5C, ♥A or "
                "红桃A, and SJ/BJ (小王/大王) for the jokers.",
                key="rules-err-notation",
                token=token,
            )
        pos = found.end()
    return cards


def parse_cards(text: str) -> list[Card]:
    """Parse a play written in the notation (``"AH ah 10h BJ"``), in the given order.

    Case-insensitive; accepts ``10`` for ``T``, suit symbols (with or without the
    emoji variation selector phones add), 大王/小王 (and 大鬼/小鬼), cards run together
    (``AHKH``), and a suit symbol or its Chinese name before its ranks as players in
    China write them (``♥A``, 红桃A, 黑10, ``♥KKQQ``); full-width characters (ＡＨ) and
    Chinese separators (，；、). Raises ``NotationError`` (a ``ValueError``) naming the
    bad token.
    """
    if not text.isascii():
        # full-width letters, digits and separators as Chinese keyboards type them (ＡＨ,
        # １０♥, AH，KH) become ASCII; invisible marks a paste carries (U+200B) go
        text = "".join(c for c in unicodedata.normalize("NFKC", text) if not _invisible(c))
    return [card for token in _TOKEN.findall(text) for card in _parse_token(token)]


def _invisible(ch: str) -> bool:
    return unicodedata.category(ch) == "Cf"


def format_cards(cards: Iterable[Card]) -> str:
    """The canonical text of cards, in the given order: ``"TH AH BJ"``."""
    return " ".join(card._text for card in cards)


def pretty_cards(cards: Iterable[Card], big: str = "BJ", small: str = "SJ") -> str:
    """Cards with suit symbols, as players read them: ``7♥7♥``, the jokers named ``big``
    and ``small``. A joker named in Latin letters stands apart (``SJ SJ``, ``A♥ BJ``),
    or two would read as one word; 大王大王 needs no space."""
    text, apart = "", False
    for card in cards:
        if card.suit == JOKER:
            name = big if card.rank == "B" else small
            latin = name.isascii()
            text += (" " if text and (latin or apart) else "") + name
            apart = latin
        else:
            text += (" " if apart else "") + card.pretty
            apart = False
    return text


def points(cards: Iterable[Card]) -> int:
    """Point value: every 5 is 5, every ten and king 10 (jokers are worth nothing)."""
    return sum(map(POINTS_OF.__getitem__, cards))


def deck(decks: int = 2) -> list[Card]:
    """``decks`` full decks with jokers, in a fixed order (shuffle it yourself)."""
    return [card for _ in range(decks) for card in ALL_CARDS]


MAX_DECKS = 3  # the most decks a RuleSet plays with


def check_copies(cards: Sequence[Card], decks: int = MAX_DECKS) -> None:
    """Refuse more copies of a card than ``decks`` decks hold (a forged or corrupted list).

    Checked where cards enter the library, so that the engines below may count on
    it: a four-card "unit" has no name and four level cards no bid strength, and a
    ``KeyError`` from deep inside would tell a player nothing.
    """
    if len(cards) <= decks:
        return
    # a play of a few cards is counted faster without building a Counter (the hot path)
    counts = (
        Counter(cards).items() if len(cards) > 12 else ((c, cards.count(c)) for c in set(cards))
    )
    for card, count in counts:
        if count > decks:
            raise RulesError(
                f"{card.pretty} is there {count} times, but {decks} deck{'s' if decks > 1 else ''}"
                f" hold{'' if decks > 1 else 's'} only {decks} of each card.",
                key="rules-err-copies",
                cards=(card,),
                count=count,
                decks=decks,
            )


def remove_cards(hand: list[Card], cards: Iterable[Card]) -> list[Card]:
    """The hand without ``cards`` (a multiset difference); raises if one is missing."""
    left = list(hand)
    for card in cards:
        try:
            left.remove(card)
        except ValueError:
            raise NotationError(
                f"You don't hold {card.pretty}.", key="rules-err-not-held", cards=(card,)
            ) from None
    return left


def contains(hand: Iterable[Card], cards: Iterable[Card]) -> bool:
    """Whether the multiset ``hand`` contains the multiset ``cards``."""
    if isinstance(hand, list | tuple) and isinstance(cards, list | tuple) and len(cards) <= 4:
        # a play or a bid of a few cards (every lead of a pair asks): counting each in
        # the hand runs in C, three times cheaper than building the hand's multiset
        return all(hand.count(card) >= cards.count(card) for card in cards)
    have: dict[Card, int] = {}
    for card in hand:
        have[card] = have.get(card, 0) + 1
    for card in cards:
        left = have.get(card, 0)
        if not left:
            return False
        have[card] = left - 1
    return True
