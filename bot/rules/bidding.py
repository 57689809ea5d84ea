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

``Auction`` is one hand's bidding as a whole (RULES.md "Bidding", seeds 000-003): the
rank a seat shows (the level of the team that would deal if its bid decides the
deal), the dealer's side's priority with joker bidding (庄家方亮不起主牌时，换庄由对
方亮主坐庄), the first or final bidder dealing a contested hand (``first_dealer``),
overcalls deferred to the round after burying (``overcall="after_bury"``, seed 000),
and what the bidding settles. ``kitty_draw`` decides a hand nobody bid on by turning
the kitty's cards (``no_bid="kitty_draw"``, seeds 000 and 002).

In the after-bury round (000:43 可反无主，其他花色不可重复反牌) a pair (with three decks
a triple) of identical jokers overcalls to no trump above any suit, and a suit shown
once this hand cannot be shown again; no trump is the exception the seed names, so
``BJ BJ`` still overcalls ``SJ SJ`` there, as everywhere (RULES.md: BJ BJ beats SJ
SJ). Where the seeds are silent: an overcall in the round must still be strictly
stronger than the bid it beats.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .cards import BIG_JOKER, SMALL_JOKER, SUIT_NAMES, SUITS, Card, check_copies, pretty_cards
from .errors import IllegalBid
from .ruleset import DEFAULT_RULES, RuleSet
from .seats import team_of

_JOKER_FOR = {"H": BIG_JOKER, "D": BIG_JOKER, "S": SMALL_JOKER, "C": SMALL_JOKER}
# standard strengths: level cards by count, joker sets by count (RULES.md, seed 002)
_LEVEL_STRENGTH = {1: 1, 2: 2, 3: 5}
_JOKER_STRENGTH = {(SMALL_JOKER, 2): 3, (BIG_JOKER, 2): 4, (SMALL_JOKER, 3): 6, (BIG_JOKER, 3): 7}
# joker bidding, the after-bury round only: a joker set overcalls to no trump (可反无主)
_ROUND_NOTRUMP = 10
#: nobody bid (``no_bid`` redeal, or a kitty draw that matched nothing): deals at most
#: this many times more, then plays no trump, so a table that never bids still ends
MAX_REDEALS = 5


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


#: how players name a bid: 亮主 (the first), 自保 (the same seat and suit again), 反主
BidKind = Literal["declare", "reinforce", "overcall"]


def bid_kind(bid: Bid, before: Bid | None) -> BidKind:
    """What ``bid`` is, made over ``before`` (the bid standing when it was made)."""
    if before is None:
        return "declare"
    if before.seat == bid.seat and before.suit == bid.suit:
        return "reinforce"
    return "overcall"


def read_bid(
    cards: Sequence[Card], level: str, rules: RuleSet | None = None
) -> tuple[str | None, int]:
    """The suit (None: no trump) and strength that ``cards`` bid, or ``IllegalBid``."""
    rules = rules or DEFAULT_RULES
    cards = tuple(cards)
    if not cards:
        raise IllegalBid("Show at least one card to bid.", key="rules-bid-empty")
    check_copies(cards, rules.decks)
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
                joker=(_JOKER_FOR[suit],),
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
    *,
    notrump_round: bool = False,
) -> Bid:
    """The ``Bid`` that ``seat`` makes by showing ``cards``, if it may make it now.

    ``notrump_round``: the after-bury overcall round with joker bidding, where a set
    of identical jokers overcalls to no trump.
    """
    rules = rules or DEFAULT_RULES
    check_copies(cards, rules.decks)
    if notrump_round and rules.bidding == "joker" and _joker_set(cards):
        suit, strength = None, _ROUND_NOTRUMP + _JOKER_STRENGTH[(cards[0], len(cards))]
    else:
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
    bids: list[Bid] = []
    for cards in _candidates(hand, level, rules, notrump_round=False):
        try:
            bids.append(check_bid(seat, cards, level, current, rules))
        except IllegalBid:
            continue
    bids.sort(key=lambda b: b.strength)
    return bids


def _candidates(
    hand: Sequence[Card], level: str, rules: RuleSet, *, notrump_round: bool
) -> list[tuple[Card, ...]]:
    """Every set of cards from ``hand`` that reads as a bid at ``level``."""
    check_copies(hand, rules.decks)
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
    if rules.bidding == "standard" or notrump_round:
        for joker in (SMALL_JOKER, BIG_JOKER):
            for n in range(2, counts.get(joker, 0) + 1):
                options.append((joker,) * n)
    return options


def _joker_set(cards: Sequence[Card]) -> bool:
    return len(cards) >= 2 and cards[0].is_joker and all(c is cards[0] for c in cards)


@dataclass(frozen=True, slots=True)
class Auction:
    """One hand's bids so far, and what they allow and settle.

    ``levels`` are the two teams' levels (team 0: seats 0 and 2). ``dealer`` is None
    while the deal is contested (the first hand, or after a race45 draw), else the
    seat that deals unless a bid takes the deal over; ``start`` is the seat the deal
    starts from. ``round`` is True during the overcall round after burying.
    """

    levels: tuple[str, str]
    dealer: int | None
    bids: tuple[Bid, ...] = ()
    rules: RuleSet = DEFAULT_RULES
    round: bool = False
    start: int = 0

    @property
    def holder(self) -> Bid | None:
        """The bid that decides who deals (and the hand's level), or None before any bid."""
        holder: Bid | None = None
        for i, bid in enumerate(self.bids):
            if holder is None or _replace(self, i).takes_deal(bid.seat):
                holder = bid
        return holder

    def takes_deal(self, seat: int) -> bool:
        """Whether a bid by ``seat`` now would decide the deal rather than only the suit.

        The first bid always does. In a contested hand later bids do only with
        ``first_dealer="final_bid"``. With joker bidding and a known dealer, a bid of
        the dealer's side takes the deal back from the attackers at any time.
        """
        holder = self.holder
        if holder is None:
            return True
        if self.dealer is None:
            return self.rules.first_dealer == "final_bid" and not self.round
        dealer_team = team_of(self.dealer)
        return (
            self.rules.bidding == "joker"
            and not self.round
            and team_of(seat) == dealer_team
            and team_of(holder.seat) != dealer_team
        )

    @property
    def level(self) -> str:
        """The hand's level rank as the bids stand: the level of the team that would deal.

        Before any bid that is the dealer's team (``start``'s team in a contested hand).
        """
        holder = self.holder
        if self.dealer is not None and (self.rules.bidding == "standard" or holder is None):
            return self.levels[team_of(self.dealer)]
        return self.levels[team_of(self.start if holder is None else holder.seat)]

    def rank_for(self, seat: int) -> str:
        """The level-card rank ``seat`` must show: that of the team that would deal."""
        if self.dealer is not None and self.rules.bidding == "standard":
            return self.levels[team_of(self.dealer)]
        if self.takes_deal(seat):
            return self.levels[team_of(seat)]
        return self.level

    @property
    def deferred(self) -> bool:
        """Overcalls wait for the round after burying (from the second hand on)."""
        return self.rules.overcall == "after_bury" and self.dealer is not None and not self.round

    def check(self, seat: int, cards: Sequence[Card]) -> Bid:
        """The ``Bid`` ``seat`` makes by showing ``cards`` now, or ``IllegalBid``."""
        rules = self.rules
        rank = self.rank_for(seat)
        top = self.bids[-1] if self.bids else None
        if top is not None and self.takes_deal(seat) and self.dealer is not None:
            top = None  # the dealer's side's priority: earlier bids are withdrawn
        bid = check_bid(seat, cards, rank, top, rules, notrump_round=self.round)
        reinforces = top is not None and top.seat == seat and bid.suit == top.suit
        if top is not None and self.deferred and not self.takes_deal(seat) and not reinforces:
            raise IllegalBid(
                "Overcalls wait until the dealer has buried the kitty; "
                "then each player in turn may overcall once.",
                key="rules-bid-overcall-after-bury",
            )
        if self.round and bid.suit is not None and any(b.suit == bid.suit for b in self.bids):
            raise IllegalBid(  # 其他花色不可重复反牌: a suit, not no trump
                f"{SUIT_NAMES[bid.suit].capitalize()} was already shown this hand: choose another.",
                key="rules-bid-shown-before",
                suit=bid.suit,
            )
        return bid

    def options(self, hand: Sequence[Card], seat: int) -> list[Bid]:
        """Every bid ``seat`` can make now from ``hand``, weakest first."""
        bids: list[Bid] = []
        for cards in _candidates(hand, self.rank_for(seat), self.rules, notrump_round=self.round):
            try:
                bids.append(self.check(seat, cards))
            except IllegalBid:
                continue
        bids.sort(key=lambda b: b.strength)
        return bids

    def settle(self) -> tuple[int | None, str, str | None]:
        """(the dealer, the hand's level rank, the trump suit) the bids decide.

        The dealer is None only when nobody bid on a contested hand; the suit is that
        of the last (strongest) bid, None for no trump or no bid.
        """
        holder = self.holder
        top = self.bids[-1] if self.bids else None
        if holder is None or top is None:
            return self.dealer, self.level, None
        if self.dealer is not None and (
            self.rules.bidding == "standard" or team_of(holder.seat) == team_of(self.dealer)
        ):
            return self.dealer, self.level, top.suit
        return holder.seat, self.level, top.suit


def _replace(auction: Auction, count: int) -> Auction:
    """The auction as it stood before its ``count``-th bid (rounds are never replayed)."""
    return Auction(
        auction.levels, auction.dealer, auction.bids[:count], auction.rules, False, auction.start
    )


def kitty_draw(
    kitty: Sequence[Card], levels: tuple[str, str], dealer: int
) -> tuple[tuple[Card, ...], int | None, str | None]:
    """Turn the kitty's cards up one at a time until one decides the deal (抽牌对点).

    Returns the cards turned, the seat that deals (None: no card matched, redeal)
    and the trump suit. A card whose rank is a team's level decides: the dealer's
    team (checked first, so it wins when both teams are at that level) keeps
    ``dealer``; the attackers' team deals from the dealer's next seat. Jokers match
    nothing. The caller puts the turned cards back into the kitty.
    """
    for i, card in enumerate(kitty):
        if card.is_joker:
            continue
        if card.rank == levels[team_of(dealer)]:
            return tuple(kitty[: i + 1]), dealer, card.suit
        if card.rank == levels[1 - team_of(dealer)]:
            return tuple(kitty[: i + 1]), (dealer + 1) % 4, card.suit
    return tuple(kitty), None, None


def _level_name(level: str) -> str:
    return "10" if level == "T" else level


def _bid_suit(suit: str | None) -> str:
    """A bid's suit as an error parameter: ``none`` stands for no trump."""
    return "none" if suit is None else suit
