"""A sampled deal as the rollout engine plays it out, every card a small integer code.

Inside, a card is a small integer (``Codes``): its group (the four plain suits in the
order players hold them, then the trumps) times ``GROUP`` plus its place in that group
by tier, so a hand sorts as players hold it, identical cards are equal numbers, and
every property is a list's item instead of a dictionary's lookup: the play-outs run
about twice as fast so (docs/computer-players.md, 2 Dec). Cards cross at the edges
(``World``, ``World.ids``, ``World.cards_of``, ``World.cards``, ``World.take_cards``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.rules import ALL_CARDS, TRUMP, Card, Order

Ids = tuple[int, ...]
# constants are ``Final``: compiled, a module's other globals are a dictionary's lookups
GROUPS: Final = ("S", "H", "C", "D", TRUMP)  # a hand's groups, in the order players hold them
TG: Final = 4  # the trumps' group
GROUP: Final = 32  # codes a group: more than the most cards of one group (21 trumps)


class Codes:
    """One trump's card codes and each code's tier, points and keys (built once per
    ``Order``): ``cheap`` orders cards to shed (low first), ``feed`` to give a partner
    (high first)."""

    __slots__ = ("card", "cheap", "code", "feed", "points", "tier")

    def __init__(self, order: Order) -> None:
        size = GROUP * len(GROUPS)
        self.card: list[Card] = [ALL_CARDS[0]] * size
        self.code: dict[Card, int] = {}
        self.tier = [0] * size
        self.points = [0] * size
        self.cheap = [0] * size
        self.feed = [0] * size
        for g, group in enumerate(GROUPS):
            members = sorted(
                (c for c in ALL_CARDS if order.suit_of[c] == group), key=order.sort_key
            )
            for i, card in enumerate(members):
                code = g * GROUP + i
                trump = group == TRUMP
                tier = order.tier[card]
                self.card[code] = card
                self.code[card] = code
                self.tier[code] = tier
                self.points[code] = card.points
                self.cheap[code] = trump * 10_000 + card.points * 100 + tier
                self.feed[code] = card.points * 1_000 + (not trump) * 100 - tier


_CODES: dict[Order, Codes] = {}


def codes_for(order: Order) -> Codes:
    codes = _CODES.get(order)
    if codes is None:
        codes = _CODES[order] = Codes(order)
    return codes


class World:
    """One sampled deal being played out; ``hands[seat][group]`` holds its card codes, low
    first, and ``sizes[seat]`` how many cards the seat has left."""

    __slots__ = (
        "att",
        "cheap",
        "code",
        "codes",
        "feed",
        "hands",
        "order",
        "points",
        "sizes",
        "tier",
    )

    def __init__(
        self, order: Order, hands: Sequence[Sequence[Card]], attackers: Sequence[bool]
    ) -> None:
        self.order = order
        self.codes = codes = codes_for(order)
        # the codes' tables one attribute away: the play-outs read them at every card
        self.code = codes.code
        self.tier = codes.tier
        self.points = codes.points
        self.cheap = codes.cheap
        self.feed = codes.feed
        self.att = tuple(attackers)
        self.hands: list[list[list[int]]] = []
        self.sizes: list[int] = []
        code = codes.code
        for hand in hands:
            by: list[list[int]] = [[], [], [], [], []]
            for c in sorted([code[card] for card in hand]):
                by[c // GROUP].append(c)
            self.hands.append(by)
            self.sizes.append(len(hand))

    def copy(self) -> World:
        """The same deal, to play out again (the expert plays every candidate on it)."""
        # built with no hands, not by ``World.__new__``, which a compiled class lacks
        other = World(self.order, (), self.att)
        other.hands = [[list(cards) for cards in by] for by in self.hands]
        other.sizes = list(self.sizes)
        return other

    def take(self, seat: int, cards: Ids) -> None:
        by = self.hands[seat]
        for c in cards:
            by[c // GROUP].remove(c)
        self.sizes[seat] -= len(cards)

    def take_cards(self, seat: int, cards: Sequence[Card]) -> None:
        self.take(seat, self.ids(cards))

    def empty(self, seat: int) -> bool:
        return not self.sizes[seat]

    def ids(self, cards: Sequence[Card]) -> Ids:
        code = self.code
        return tuple([code[card] for card in cards])

    def cards_of(self, ids: Sequence[int]) -> tuple[Card, ...]:
        card = self.codes.card
        return tuple([card[c] for c in ids])

    def cards(self, seat: int) -> list[Card]:
        """``seat``'s hand as one list (by suit, low first)."""
        return list(self.cards_of(flat(self.hands[seat])))

    # --- can a seat beat the current winner? ---------------------------------------------

    def beats_single(self, seat: int, led: int, trump: bool, tier: int) -> bool:
        by = self.hands[seat]
        cards = by[led]
        if cards:
            if trump and led != TG:
                return False
            return self.tier[cards[-1]] > tier
        if led == TG:
            return False
        trumps = by[TG]
        if not trumps:
            return False
        return not trump or self.tier[trumps[-1]] > tier

    def beats_pair(self, seat: int, led: int, trump: bool, tier: int) -> bool:
        by = self.hands[seat]
        cards = by[led]
        if len(cards) >= 2:
            if trump and led != TG:
                return False
            top = top_pair(cards)
            return top >= 0 and self.tier[top] > tier
        if cards or led == TG:
            return False
        trumps = by[TG]
        top = top_pair(trumps) if len(trumps) >= 2 else -1
        return top >= 0 and (not trump or self.tier[top] > tier)

    def safe(
        self, seat: int, leader: int, n_played: int, led: int, width: int, trump: bool, tier: int
    ) -> bool:
        """Whether ``seat``'s side keeps a trick it now wins against the seats still to play."""
        att, hands, tiers = self.att, self.hands, self.tier
        side = att[seat]
        for i in range(n_played, 4):
            other = (leader + i) % 4
            if att[other] == side:
                continue
            if width != 1:
                if self.beats_pair(other, led, trump, tier):
                    return False
                continue
            # ``beats_single``, inlined: this is the rollouts' hottest test
            by = hands[other]
            cards = by[led]
            if cards:
                if (not trump or led == TG) and tiers[cards[-1]] > tier:
                    return False
            elif led != TG:
                trumps = by[TG]
                if trumps and (not trump or tiers[trumps[-1]] > tier):
                    return False
        return True


def top_pair(cards: list[int]) -> int:
    """The highest card held twice in ``cards`` (sorted low to high), or -1."""
    for i in range(len(cards) - 1, 0, -1):
        if cards[i] == cards[i - 1]:
            return cards[i]
    return -1


def low_pair(cards: list[int]) -> int:
    """The lowest card held twice in ``cards`` (sorted low to high), or -1."""
    for i in range(1, len(cards)):
        if cards[i] == cards[i - 1]:
            return cards[i]
    return -1


def pairs_in(cards: list[int]) -> list[int]:
    out: list[int] = []
    i = len(cards) - 1
    while i > 0:
        if cards[i] == cards[i - 1]:
            out.append(cards[i])
            i -= 2
        else:
            i -= 1
    return out


def flat(by: list[list[int]]) -> list[int]:
    return [c for cards in by for c in cards]


def pair_options(w: World, by: list[list[int]], led: int) -> list[Ids]:
    """A seat's follows to a pair led in suit ``led`` (by group: ``by``), as the play-outs
    choose among them: the led suit's pairs, else the two cheapest cards to shed (``World.cheap``: a
    low card without points before a lower ten), the two best to feed and the top two
    (and, void, the trump pairs): as the heuristic sheds, where the lowest two by rank
    gave away a ten the heuristic keeps. In that order, without repeats."""
    cards = by[led]
    cheap, feed = w.cheap, w.feed
    if len(cards) >= 2:
        pairs = pairs_in(cards)
        if pairs:
            return [(p, p) for p in pairs]
        return unique([two_low(cards, cheap), (cards[-1], cards[-2]), two_high(cards, feed)])
    rest = [c for g in range(5) if g != led for c in by[g]]
    low = two_low(rest, cheap)
    high = two_high(rest, feed)
    if len(cards) == 1:
        return unique([(cards[0], low[0]), (cards[0], high[0])])
    options = [low, high]
    trumps = by[TG]
    if trumps and led != TG:
        options += [(p, p) for p in pairs_in(trumps)]
    return unique(options)


def two_low(cards: list[int], key: list[int]) -> Ids:
    """The first two of ``sorted(cards, key=key.__getitem__)`` (``cards`` has two or
    more), without sorting: the play-outs ask at every pair they follow."""
    first = second = -1
    k1 = k2 = 1 << 30
    for card in cards:
        k = key[card]
        if k < k1:
            first, second, k1, k2 = card, first, k, k1
        elif k < k2:
            second, k2 = card, k
    return (first, second)


def two_high(cards: list[int], key: list[int]) -> Ids:
    """The last two of ``sorted(cards, key=key.__getitem__)``, the last first."""
    first = second = -1
    k1 = k2 = -(1 << 30)
    for card in cards:
        k = key[card]
        if k >= k1:
            first, second, k1, k2 = card, first, k, k1
        elif k >= k2:
            second, k2 = card, k
    return (first, second)


def unique(options: list[Ids]) -> list[Ids]:
    """``options`` without repeats, in order (a few tuples: cheaper than hashing them)."""
    out: list[Ids] = []
    for option in options:
        if option not in out:
            out.append(option)
    return out
