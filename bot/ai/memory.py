"""Card memory: what one seat can deduce from its view, and nothing more.

Everything here is computed from a ``SeatView``: the seat's own hand, the tricks
played so far (all public), the bids (public: a bidder showed those cards), the
failed throws (public: the cards taken back are now known to be in that hand) and,
for the dealer, the kitty they buried. Hidden hands are never consulted, so a
computer player built on this cannot cheat even by accident.

The probabilities are deliberately simple (each unseen card is in a given hand with
the probability of that hand's share of the unseen cards): they are used to rank
a handful of candidate plays, not to be exact, and they must cost microseconds.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.game import SeatView
from bot.rules import TRUMP, Card, Order, partner_of
from bot.rules.units import SINGLE, Shape, decompose_in, placements

from .seen import Seen, count_by_suit, read_trick, take_off

PAIR: Shape = (2, 1)


class Memory:
    """Unseen cards, known voids and known holdings, as seen from ``view.seat``.

    ``unseen[c]`` counts the copies of ``c`` that are in another hand or (for
    everyone but the dealer) in the hidden kitty: all copies − own hand − played −
    own buried kitty. The facts are read, never changed: they may be shared with the
    seat's start of the trick (``Seen``) and its other memories.
    """

    __slots__ = (
        "_above",
        "_beat",
        "_holds",
        "_known_top",
        "_others",
        "_pairs",
        "_seen",
        "_share",
        "_tops",
        "_void",
        "by_suit",
        "decks",
        "hand_sizes",
        "kitty_hidden",
        "kitty_size",
        "known",
        "no_pairs",
        "order",
        "partner",
        "seat",
        "suit_count",
        "suit_points",
        "unseen",
        "void",
    )

    def __init__(self, view: SeatView, previous: Memory | None = None) -> None:
        """The memory of ``view``; ``previous``, this seat's memory at an earlier decision
        of the same hand, saves reading the tricks both saw again (anything else, or a
        view that does not continue it, is read from the start)."""
        assert view.seat is not None and view.trump is not None
        seen = previous._seen.follow(view) if previous is not None else None
        if seen is None:
            seen = Seen(view)
        self._seen: Seen = seen
        order = seen.order
        self.order: Order = order
        self.seat: int = view.seat
        self.partner: int = partner_of(view.seat)
        self.decks: int = view.rules.decks
        self.kitty_size: int = view.rules.kitty_size
        self.hand_sizes: tuple[int, ...] = view.hand_sizes
        self.kitty_hidden = seen.kitty_hidden
        suit_of = order.suit_of
        unseen, void, no_pairs, played_by = seen.unseen, seen.void, seen.no_pairs, seen.played_by
        if view.trick:  # the others' cards of this trick, read into copies of the start's
            # (a seat's set of voids is replaced when one is added, never changed: the
            # lists are copied, the sets shared)
            unseen = dict(unseen)
            void = list(void)
            no_pairs = list(no_pairs)
            read_trick(
                view.trick,
                None,
                suit_of,
                seen.strict,
                self.seat,
                unseen,
                void,
                no_pairs,
                None,
                None,
            )
        shows = seen.shows_with_bids(view)
        known: list[dict[Card, int]] = [{}, {}, {}, {}]
        for who in range(4):
            if who == self.seat or not shows[who]:
                continue
            left = dict(shows[who])
            # the cards it played: in the tricks completed, then in this one
            for card in [*played_by[who], *(c for w, p in view.trick if w == who for c in p)]:
                if left.get(card):
                    left[card] -= 1
            known[who] = {c: min(k, unseen[c]) for c, k in left.items() if k > 0 and unseen[c]}
            for card in known[who]:
                suit = suit_of[card]
                if suit in void[who]:  # a seat known to hold a card is not void (on a copy)
                    if void is seen.void:
                        void = list(void)
                    void[who] = void[who] - {suit}
        self.unseen: dict[Card, int] = unseen
        self.void = void
        self.no_pairs = no_pairs
        self.known = known
        # the unseen cards by suit: a start carried from an earlier decision has them,
        # less the others' cards of this trick; a new one is counted here
        if seen.by_suit is None:
            by_suit, suit_count, suit_points = count_by_suit(unseen, suit_of)
        else:
            by_suit, suit_count, suit_points = seen.by_suit
            if view.trick:
                played = {c for who, cards in view.trick if who != self.seat for c in cards}
                by_suit, suit_count, suit_points = take_off(
                    seen.by_suit, seen.unseen, unseen, played, suit_of
                )
        self.by_suit = by_suit
        self.suit_count = suit_count
        self.suit_points = suit_points
        s = self.seat
        self._others = ((s + 1) % 4, self.partner, (s + 3) % 4)
        # the probabilities below are pure functions of the facts above, asked again
        # and again while one decision's candidates are scored: each is kept per seat
        self._share: dict[str, float] = {}
        self._above: dict[tuple[str, int], int] = {}
        self._tops: dict[tuple[str, int], int | None] = {}
        self._void: list[dict[str, float]] = [{}, {}, {}, {}]
        self._holds: list[dict[tuple[str, Shape, int], float]] = [{}, {}, {}, {}]
        # the highest unit of a shape in a seat's known cards, by seat, suit and shape
        # (the tier of its top card, None if none); a suit's unseen pairs, highest first
        self._known_top: dict[tuple[int, str, Shape], int | None] = {}
        self._pairs: dict[str, list[tuple[int, int]]] = {}
        self._beat: list[dict[tuple[object, ...], float]] = [{}, {}, {}, {}]

    # --- simple facts ------------------------------------------------------------------

    @property
    def unseen_total(self) -> int:
        return sum(self.suit_count.values())

    @property
    def unseen_points(self) -> int:
        return sum(self.suit_points.values())

    def others(self) -> tuple[int, int, int]:
        return self._others

    def opponents(self) -> tuple[int, int]:
        return ((self.seat + 1) % 4, (self.seat + 3) % 4)

    def higher_unseen(self, card: Card) -> int:
        """Unseen copies of cards of the same effective suit that rank above ``card``."""
        return self.count_above(self.order.suit_of[card], self.order.tier[card])

    def count_above(self, suit: str, above: int) -> int:
        """Unseen copies of ``suit`` above tier ``above``."""
        key = (suit, above)
        count = self._above.get(key)
        if count is None:
            tier = self.order.tier
            count = 0
            for c, k in self.by_suit[suit].items():
                if tier[c] > above:
                    count += k
            self._above[key] = count
        return count

    def is_boss(self, cards: Sequence[Card]) -> bool:
        """No unseen same-suit unit of the same shape beats this unit (ruffs aside).

        With two decks ``QQ`` is boss once one A and one K of its suit have been seen:
        the unseen cards no longer hold a higher pair.
        """
        order = self.order
        if len(cards) == 1 or (len(cards) == 2 and cards[0] is cards[1]):
            # a single or a pair: the first placement below is the highest unseen
            # identity of the suit with as many copies
            top = self._top(order.suit_of[cards[0]], len(cards))
            return top is None or top <= order.tier[cards[0]]
        units = decompose_in(order, cards)
        pool = self.by_suit[units[0].suit]
        for unit in units:
            for placed in placements(order, unit.suit, pool, unit.shape):
                if order.tier[placed[-1]] > unit.high:
                    return False
                break
        return True

    def _top(self, suit: str, width: int) -> int | None:
        """The highest tier of ``suit`` with ``width`` unseen copies, None if none."""
        key = (suit, width)
        if key not in self._tops:
            tier = self.order.tier
            tiers = [tier[c] for c, k in self.by_suit[suit].items() if k >= width]
            self._tops[key] = max(tiers) if tiers else None
        return self._tops[key]

    # --- probabilities -------------------------------------------------------------------

    def share(self, seat: int, suit: str) -> float:
        """The chance that one unseen card of ``suit`` sits in ``seat``'s hand."""
        total = self._share.get(suit)
        if total is None:
            total = self.kitty_size if self.kitty_hidden else 0
            for who in self._others:
                if suit not in self.void[who]:
                    total += self.hand_sizes[who]
            self._share[suit] = total
        if seat == self.seat or suit in self.void[seat]:
            return 0.0
        return self.hand_sizes[seat] / total if total else 0.0

    def p_void(self, seat: int, suit: str) -> float:
        """Probability that ``seat`` holds no card of ``suit`` (1 when known void)."""
        cache = self._void[seat]
        value = cache.get(suit)
        if value is None:
            value = cache[suit] = self._p_void(seat, suit)
        return value

    def _p_void(self, seat: int, suit: str) -> float:
        if suit in self.void[seat] or self.hand_sizes[seat] == 0:
            return 1.0
        known = self.known[seat]
        suit_of = self.order.suit_of
        if any(suit_of[c] == suit for c in known):
            return 0.0
        count = self.suit_count[suit] - self._known_elsewhere(seat, suit)
        if count <= 0:
            return 1.0
        return (1.0 - self.share(seat, suit)) ** count

    def _known_elsewhere(self, seat: int, suit: str) -> int:
        suit_of = self.order.suit_of
        return sum(
            k
            for who in self.others()
            if who != seat
            for c, k in self.known[who].items()
            if suit_of[c] == suit
        )

    def p_holds(self, seat: int, suit: str, shape: Shape, above: int) -> float:
        """Probability that ``seat`` holds a ``shape`` unit of ``suit`` above tier ``above``."""
        cache = self._holds[seat]
        key = (suit, shape, above)
        value = cache.get(key)
        if value is None:
            value = cache[key] = self._p_holds(seat, suit, shape, above)
        return value

    def _p_holds(self, seat: int, suit: str, shape: Shape, above: int) -> float:
        width, length = shape
        if suit in self.void[seat] or self.hand_sizes[seat] < width * length:
            return 0.0
        if width > 1 and suit in self.no_pairs[seat]:
            return 0.0
        order = self.order
        tier = order.tier
        if self.known[seat]:
            key = (seat, suit, shape)
            if key in self._known_top:
                known_top = self._known_top[key]
            else:
                known_top = self._known_top[key] = _top_unit(order, suit, self.known[seat], shape)
            if known_top is not None and known_top > above:
                return 1.0
        pool = self.by_suit[suit]
        share = self.share(seat, suit)
        if share <= 0.0:
            return 0.0
        if shape == (1, 1):
            k = self.count_above(suit, above)
            return 1.0 - (1.0 - share) ** k if k else 0.0
        miss = 1.0
        per_id = share**width
        if shape == PAIR:  # the placements below, kept per suit: (top tier, spare copies)
            pairs = self._pairs.get(suit)
            if pairs is None:
                pairs = self._pairs[suit] = [
                    (tier[placed[0]], pool[placed[0]] - 1)
                    for placed in placements(order, suit, pool, PAIR)
                ]
            for top, extra in pairs:
                if top <= above:
                    break
                miss *= 1.0 - min(1.0, per_id * extra)
                if miss < 0.02:
                    break
            return 1.0 - miss
        for placed in placements(order, suit, pool, shape):
            if tier[placed[-1]] <= above:
                break
            p = 1.0
            for card in placed:
                # copies beyond the width give more ways to hold the unit
                extra = pool[card] - width + 1
                p *= min(1.0, per_id * extra)
            miss *= 1.0 - p
            if miss < 0.02:
                break
        return 1.0 - miss

    def p_beat(
        self, seat: int, led: str, top: Shape, value: int, ruffed: bool, can_ruff: bool = True
    ) -> float:
        """Probability that ``seat`` can beat the current winning play.

        ``led`` is the led effective suit, ``top`` the lead's strongest shape and
        ``value`` the winning play's strength in it (``play_value``); ``ruffed`` says
        the winning play is a trump ruff of a plain-suit lead.
        """
        cache = self._beat[seat]
        above: int | None = None
        if top == SINGLE and not ruffed and not self.known[seat]:
            # a single followed, no card of the seat known: the value counts only by the
            # unseen cards above it (``_p_holds``), so the candidates share their answers
            above = self.count_above(led, value)
            key: tuple[object, ...] = (led, above, can_ruff)
        else:
            key = (led, top, value, ruffed, can_ruff)
        p = cache.get(key)
        if p is None:
            p = cache[key] = self._p_beat(seat, led, top, value, ruffed, can_ruff, above)
        return p

    def _p_beat(
        self,
        seat: int,
        led: str,
        top: Shape,
        value: int,
        ruffed: bool,
        can_ruff: bool,
        above: int | None,
    ) -> float:
        """``p_beat``; ``above``: for a single followed by a seat with no known card, the
        unseen cards above ``value`` (its chance to follow higher, ``_p_holds``, worked
        out here: only those two facts count when the seat is not known void)."""
        void = self.p_void(seat, led)
        p_follow = 0.0
        if ruffed or void >= 1.0:
            p_follow = 0.0
        elif above is None:
            p_follow = (1.0 - void) * self.p_holds(seat, led, top, value)
        elif above:
            share = self.share(seat, led)
            if share > 0.0:
                p_follow = (1.0 - void) * (1.0 - (1.0 - share) ** above)
        p_ruff = 0.0
        if led != TRUMP and can_ruff and void > 0.0:
            above = value if ruffed else -1
            p_ruff = void * self._p_ruff_holds(seat, top, above)
        return 1.0 - (1.0 - p_follow) * (1.0 - p_ruff)

    def _p_ruff_holds(self, seat: int, top: Shape, above: int) -> float:
        # a hand void in the led suit holds relatively more trumps: count it that way
        p = self.p_holds(seat, TRUMP, top, above)
        return min(1.0, p * 1.25)


def _top_unit(order: Order, suit: str, counts: dict[Card, int], shape: Shape) -> int | None:
    """The tier of the top card of the highest ``shape`` unit of ``suit`` in ``counts``."""
    pool = {c: k for c, k in counts.items() if order.suit_of[c] == suit}
    for placed in placements(order, suit, pool, shape):
        return order.tier[placed[-1]]
    return None
