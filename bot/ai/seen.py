"""What a seat has read from the completed tricks of a hand: the start of its card memory.

Why apart from ``memory``: a ``Seen`` is made once and carried from decision to decision
of a hand (only the tricks completed since are read), never changed once made, where a
``Memory`` is each decision's own, with the current trick and the probabilities.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.game import Phase, SeatView, TrickRecord
from bot.rules import ALL_CARDS, POINTS_OF, TRUMP, Card, order_for
from bot.rules.units import counts_of

SUITS_ALL = ("S", "H", "D", "C", TRUMP)
# unseen copies by suit and card, unseen cards and points by suit (see ``Seen.per_suit``)
PerSuit = tuple[dict[str, dict[Card, int]], dict[str, int], dict[str, int]]


class Seen:
    """What a seat has read from the completed tricks of a hand (``Memory``'s start).

    ``unseen`` here counts all copies − the hand as it was when the current trick
    began − the known kitty − the completed tricks' cards: the current trick's cards
    of the others are taken off per decision. A memory keeps its ``Seen`` and the
    next decision's memory reads only the tricks completed since (``follow``), or
    reads everything again when the view is not the same hand seen later: a new
    hand, another table (one suggesting player serves them all), a restored one.
    Never changed once made (but for ``bid_shows`` and ``by_suit``, filled once when first
    asked, the same each time): a later ``Seen`` is a copy, so a memory in use (or in another
    thread) is never touched.
    """

    __slots__ = (
        "bid_shows",
        "by_suit",
        "held",
        "key",
        "kitty_hidden",
        "no_pairs",
        "order",
        "played_by",
        "shows",
        "strict",
        "tricks",
        "unseen",
        "void",
    )

    def __init__(self, view: SeatView | None) -> None:
        if view is None:
            return  # a copy, filled by ``follow`` (compiled classes have no bare ``__new__``)
        assert view.seat is not None and view.trump is not None
        self.order = order_for(view.trump, view.rules)
        self.key = _key(view)
        self.strict = view.rules.follow_shape == "strict"
        self.tricks = view.tricks
        self.held = held = _held(view)
        unseen: dict[Card, int] = dict.fromkeys(ALL_CARDS, view.rules.decks)
        for card, k in held.items():
            unseen[card] -= k
        # the dealer knows the kitty once it is buried (in the kitty phase it is in hand)
        self.kitty_hidden = not (view.kitty is not None and view.phase == Phase.PLAY)
        if not self.kitty_hidden and view.kitty is not None:
            for card in view.kitty:
                unseen[card] -= 1
        self.unseen = unseen
        self.void: list[set[str]] = [set(), set(), set(), set()]
        self.no_pairs: list[set[str]] = [set(), set(), set(), set()]
        self.played_by: list[list[Card]] = [[], [], [], []]
        self.shows: list[dict[Card, int]] = [{}, {}, {}, {}]
        self.bid_shows: list[dict[Card, int]] | None = None
        self.by_suit: PerSuit | None = None
        self._read(view.tricks, None)

    def per_suit(self) -> PerSuit:
        """The unseen cards by suit (those held, in ``unseen``'s order), their count and
        points: made when first asked, by the next start (``follow``), which carries
        them on by the cards of the tricks since."""
        if self.by_suit is None:
            self.by_suit = count_by_suit(self.unseen, self.order.suit_of)
        return self.by_suit

    def shows_with_bids(self, view: SeatView) -> list[dict[Card, int]]:
        """``shows`` with what the bids showed (the bids are part of ``key``: made once)."""
        shows = self.bid_shows
        if shows is None:
            shows = self.shows
            # bids show cards; a dealer may have buried them, so only non-dealers count
            for bid in view.bids:
                if bid.seat != view.dealer and bid.seat != view.seat:
                    if shows is self.shows:
                        shows = [dict(d) for d in shows]
                    _merge_max(shows[bid.seat], counts_of(list(bid.cards)))
            self.bid_shows = shows
        return shows

    def _read(self, tricks: Sequence[TrickRecord], skip: int | None) -> None:
        suit_of = self.order.suit_of
        for record in tricks:
            read_trick(
                record.plays,
                record.attempted,
                suit_of,
                self.strict,
                skip,
                self.unseen,
                self.void,
                self.no_pairs,
                self.played_by,
                self.shows,
            )

    def follow(self, view: SeatView) -> Seen | None:
        """This start moved on to ``view``, or None if ``view`` does not continue it."""
        tricks = view.tricks
        done = len(self.tricks)
        if (
            len(tricks) < done
            or _key(view) != self.key
            or (tricks[:done] != self.tricks if done else False)
        ):
            return None
        assert view.seat is not None
        seat = view.seat
        # the hand when this start was made = the hand now + what I played since
        now = _held(view)
        held = dict(now)
        newer = tricks[done:]
        for record in newer:
            for who, cards in record.plays:
                if who == seat:
                    for card in cards:
                        held[card] = held.get(card, 0) + 1
        if held != self.held:
            return None
        if not newer:
            return self
        later = Seen(None)
        later.order, later.key, later.strict = self.order, self.key, self.strict
        later.kitty_hidden = self.kitty_hidden
        later.tricks = tricks
        later.held = now
        later.unseen = dict(self.unseen)
        later.void = list(self.void)  # the sets are replaced, not changed (``read_trick``)
        later.no_pairs = list(self.no_pairs)
        later.played_by = [list(p) for p in self.played_by]
        # the shown cards change only by a failed throw: otherwise kept as they are
        throws = any(record.attempted is not None for record in newer)
        later.shows = [dict(d) for d in self.shows] if throws else self.shows
        later.bid_shows = None if throws else self.bid_shows
        # my own cards of those tricks were counted as held, not as unseen
        later._read(newer, seat)
        # the others' cards of those tricks leave the unseen ones by suit too
        played = {c for r in newer for who, cards in r.plays if who != seat for c in cards}
        later.by_suit = take_off(
            self.per_suit(), self.unseen, later.unseen, played, self.order.suit_of
        )
        return later


def count_by_suit(unseen: dict[Card, int], suit_of: dict[Card, str]) -> PerSuit:
    """The unseen copies by suit and card (in ``unseen``'s order), by suit, and their points."""
    by_suit: dict[str, dict[Card, int]] = {s: {} for s in SUITS_ALL}
    suit_count = dict.fromkeys(SUITS_ALL, 0)
    suit_points = dict.fromkeys(SUITS_ALL, 0)
    for card, k in unseen.items():
        if k > 0:
            suit = suit_of[card]
            by_suit[suit][card] = k
            suit_count[suit] += k
            suit_points[suit] += k * POINTS_OF[card]
    return by_suit, suit_count, suit_points


def take_off(
    per_suit: PerSuit,
    before: dict[Card, int],
    after: dict[Card, int],
    cards: set[Card],
    suit_of: dict[Card, str],
) -> PerSuit:
    """``per_suit`` of the unseen copies ``before``, made that of ``after``, which differs
    from it only in ``cards``; the suits changed are copies (a start's are shared)."""
    by_suit, suit_count, suit_points = dict(per_suit[0]), dict(per_suit[1]), dict(per_suit[2])
    copied: set[str] = set()
    for card in cards:
        suit, now = suit_of[card], after[card]
        if suit not in copied:
            copied.add(suit)
            by_suit[suit] = dict(by_suit[suit])
        if now > 0:
            by_suit[suit][card] = now
        else:
            by_suit[suit].pop(card, None)
        gone = max(before[card], 0) - max(now, 0)  # only copies above none were counted
        suit_count[suit] -= gone
        suit_points[suit] -= gone * POINTS_OF[card]
    return by_suit, suit_count, suit_points


def _key(view: SeatView) -> tuple[object, ...]:
    """What must not change between two decisions of one hand of one seat."""
    return (
        view.seat,
        view.hand_no,
        view.phase,
        view.trump,
        view.rules,
        view.dealer,
        view.bids,
        view.kitty,
    )


def _held(view: SeatView) -> dict[Card, int]:
    """The hand as it was when the current trick began."""
    held = counts_of(view.hand)
    for who, cards in view.trick:
        if who == view.seat:
            for card in cards:
                held[card] = held.get(card, 0) + 1
    return held


def read_trick(
    plays: Sequence[tuple[int, tuple[Card, ...]]],
    attempted: tuple[Card, ...] | None,
    suit_of: dict[Card, str],
    strict: bool,
    skip: int | None,
    unseen: dict[Card, int],
    void: list[set[str]],
    no_pairs: list[set[str]],
    played_by: list[list[Card]] | None,
    shows: list[dict[Card, int]] | None,
) -> None:
    """One trick's facts: its cards leave the unseen ones (but ``skip``'s, held already),
    a follow short of the led suit shows a void, an unpaired follow of a paired lead
    (strict shape) shows no pairs there, a failed throw shows the cards taken back.

    A seat's set in ``void`` or ``no_pairs`` is replaced by a larger one, never changed:
    the sets may be shared with an earlier start or memory (only the lists are copies)."""
    lead = plays[0][1]
    led = suit_of[lead[0]]
    n = len(lead)
    paired_lead = n > 1 and len(set(lead)) < n
    for i, (who, cards) in enumerate(plays):
        if who != skip:
            for card in cards:
                unseen[card] -= 1
        if played_by is not None:
            played_by[who].extend(cards)
        if i == 0:
            if attempted is not None and shows is not None:
                # the cards taken back after a failed throw are in that hand
                back = _minus(attempted, cards)
                _merge_max(shows[who], counts_of(back), add=True)
            continue
        in_suit = [c for c in cards if suit_of[c] == led]
        if len(in_suit) < n:
            if led not in void[who]:
                void[who] = void[who] | {led}
        elif (
            strict
            and paired_lead
            and led not in no_pairs[who]
            and len(set(in_suit)) == len(in_suit)
        ):
            no_pairs[who] = no_pairs[who] | {led}


def _minus(cards: Iterable[Card], taken: Iterable[Card]) -> list[Card]:
    left = list(cards)
    for card in taken:
        if card in left:
            left.remove(card)
    return left


def _merge_max(into: dict[Card, int], counts: dict[Card, int], add: bool = False) -> None:
    for card, k in counts.items():
        into[card] = into.get(card, 0) + k if add else max(into.get(card, 0), k)
