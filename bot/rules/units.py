"""Units (single, pair, triple, tractor) and how a set of cards splits into them.

A unit is *width* identical cards on each of *length* consecutive tiers: a single
is 1×1, a pair 2×1, a triple 3×1, a tractor w×L with L ≥ 2 (three decks make
triple-tractors, 3×L). A *shape* is the pair ``(width, length)``; a *format* is the
tuple of a play's shapes, strongest first. Shapes order by cards, then width, so a
2-pair tractor (4 cards) outranks a triple (3) and a triple-tractor outranks a
3-pair tractor of the same size.

The searches here are small exhaustive searches over card multisets: plays hold at
most a few dozen cards of one suit, and exhaustive is what makes the odd cases
(several tractors through the off-suit level cards, triples in three decks) right.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import MAX_DECKS, Card, check_copies, pretty_cards
from .errors import IllegalPlay
from .ruleset import DEFAULT_RULES, RuleSet
from .trump import Order, Trump, order_for, suit_name

Shape = tuple[int, int]  # (width, length)
Format = tuple[Shape, ...]
SINGLE: Shape = (1, 1)


def shape_key(shape: Shape) -> tuple[int, int]:
    """Strength of a shape: more cards first, then wider."""
    width, length = shape
    return (width * length, width)


def format_key(fmt: Format) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((shape_key(s) for s in fmt), reverse=True))


def normalize(shapes: Sequence[Shape]) -> Format:
    return tuple(sorted(shapes, key=shape_key, reverse=True))


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit of a play. ``cards`` run from the lowest tier to the highest."""

    kind: str
    cards: tuple[Card, ...]
    width: int
    length: int
    suit: str  # effective suit: "S", "H", "D", "C" or "T" (trumps)
    low: int  # tier of the lowest card
    high: int  # tier of the highest card

    @property
    def shape(self) -> Shape:
        return (self.width, self.length)

    def __str__(self) -> str:
        return pretty_cards(reversed(self.cards))


def kind_of(shape: Shape) -> str:
    width, length = shape
    if length > 1:
        return "tractor"
    return {1: "single", 2: "pair", 3: "triple"}[width]


def make_unit(order: Order, identities: Sequence[Card], width: int) -> Unit:
    """A unit from its identities (one per tier, lowest first)."""
    tiers = [order.tier[c] for c in identities]
    cards = tuple(c for c in identities for _ in range(width))
    shape = (width, len(identities))
    return Unit(
        kind_of(shape),
        cards,
        width,
        len(identities),
        order.suit_of[identities[0]],
        min(tiers),
        max(tiers),
    )


@lru_cache(maxsize=1 << 15)
def _whole(order: Order, card: Card, width: int) -> Unit:
    """All ``width`` copies of a card as one unit (a single, pair or triple): the same value
    every time for an order, made once (hands and throws new to ``_decompose``'s cache are
    mostly made of the same few)."""
    return make_unit(order, (card,), width)


def counts_of(cards: Sequence[Card]) -> dict[Card, int]:
    counts: dict[Card, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return counts


def placements(
    order: Order, suit: str, counts: dict[Card, int], shape: Shape
) -> Iterator[tuple[Card, ...]]:
    """Every way to take a unit of ``shape`` from ``counts`` (cards of ``suit``).

    Yields the identities lowest tier first, strongest placements first, so that a
    caller after the best value can stop at the first one that works out.
    """
    width, length = shape
    by_tier: dict[int, list[Card]] = {}
    tier = order.tier
    for card, n in counts.items():
        if n >= width:
            by_tier.setdefault(tier[card], []).append(card)
    if length == 1:
        for t in sorted(by_tier, reverse=True):
            for card in by_tier[t]:
                yield (card,)
        return
    breaks = order.breaks[suit]
    for top in sorted(by_tier, reverse=True):
        for chain in _chains(by_tier, breaks, top, length):
            yield tuple(chain)


def _chains(
    by_tier: dict[int, list[Card]], breaks: frozenset[int], top: int, need: int
) -> Iterator[list[Card]]:
    """Chains of ``need`` tiers ending at ``top``, lowest first: a module function, not
    a closure calling itself (such a closure is a cycle left to the garbage collector)."""
    if need == 1:
        for card in by_tier.get(top, ()):
            yield [card]
        return
    below = top - 1
    if below not in by_tier or below in breaks:
        return
    for head in _chains(by_tier, breaks, below, need - 1):
        for card in by_tier[top]:
            yield [*head, card]


def fit(
    order: Order, suit: str, counts: dict[Card, int], slots: Sequence[Shape]
) -> list[tuple[Card, ...]] | None:
    """Disjoint placements for ``slots`` (strongest first) in ``counts``, or None.

    ``counts`` is restored before returning. Identical consecutive slots take their
    placements in strictly decreasing order (no identity can fill two slots of the
    same width with at most three decks), so no permutation is tried twice.
    """
    return _fit(order, suit, counts, slots, 0, None)


def _fit(
    order: Order,
    suit: str,
    counts: dict[Card, int],
    slots: Sequence[Shape],
    i: int,
    bound: tuple[tuple[int, int, int], ...] | None,
) -> list[tuple[Card, ...]] | None:
    if i == len(slots):
        return []
    shape = slots[i]
    width = shape[0]
    same_next = i + 1 < len(slots) and slots[i + 1] == shape
    for placed in placements(order, suit, counts, shape):
        key = tuple(order.sort_key(c) for c in placed) if (bound or same_next) else None
        if bound is not None and key is not None and key >= bound:
            continue
        for card in placed:
            counts[card] -= width
        rest = _fit(order, suit, counts, slots, i + 1, key if same_next else None)
        for card in placed:
            counts[card] += width
        if rest is not None:
            return [placed, *rest]
    return None


def decompose(cards: Sequence[Card], trump: Trump, rules: RuleSet | None = None) -> list[Unit]:
    """Split a lead into units, strongest first.

    All cards must share one effective suit. Of all the splits, the one whose
    units are largest wins, comparing the largest unit first (cards, then width):
    ``AH QH QH JH JH`` is the single ``AH`` and the tractor ``QQJJ``.
    """
    order = order_for(trump, rules)
    if not cards:
        raise IllegalPlay("Play at least one card.", key="rules-err-empty-play")
    check_copies(cards, (rules or DEFAULT_RULES).decks)
    suit = order.suit_of_play(list(cards))
    if suit is None:
        raise IllegalPlay(
            "Cards led together must all be one suit, or all trumps: "
            f"{pretty_cards(cards)} mixes suits.",
            key="rules-err-mixed-lead",
            cards=tuple(cards),
        )
    key = tuple(sorted(cards, key=order.sort_key))
    return list(_decompose(order, key))


def decompose_in(order: Order, cards: Sequence[Card]) -> tuple[Unit, ...]:
    """``decompose`` for callers that already hold the ``Order`` (one suit assumed)."""
    return _decompose(order, tuple(sorted(cards, key=order.sort_key)))


@lru_cache(maxsize=1 << 16)
def _decompose(order: Order, cards: tuple[Card, ...]) -> tuple[Unit, ...]:
    suit = order.suit_of[cards[0]]
    if len(cards) == 1:
        return (make_unit(order, cards, 1),)
    ids: list[Card] = []
    for card in cards:
        if not ids or ids[-1] is not card:
            ids.append(card)
    start = tuple(cards.count(c) for c in ids)
    if len(ids) == len(cards):  # all different (most throws): singles, no search
        singles = [_whole(order, c, 1) for c in ids]
        singles.sort(key=lambda u: u.high, reverse=True)
        return tuple(singles)
    if max(start) > MAX_DECKS:  # a caller with an Order but no rules passed a forged list
        check_copies(cards)
    tier = [order.tier[c] for c in ids]
    breaks = order.breaks[suit]
    paired = {t for t, n in zip(tier, start, strict=True) if n >= 2}
    if not any(t + 1 in paired and t not in breaks for t in paired):
        # no tractor to be made: the best split takes each card's copies whole (splitting
        # one only adds smaller units), in the order the search would list them
        units = [_whole(order, c, n) for c, n in zip(ids, start, strict=True)]
    else:
        _, split = _best_split(start, {}, tier, breaks)
        units = [make_unit(order, [ids[j] for j in chain], width) for width, chain in split]
    units.sort(key=lambda u: (shape_key(u.shape), u.high), reverse=True)
    return tuple(units)


#: a split found by ``_best_split``: its units' sort key, and its (width, card indices)
Split = tuple[tuple[tuple[int, int], ...], list[tuple[int, tuple[int, ...]]]]


def _best_split(
    state: tuple[int, ...],
    memo: dict[tuple[int, ...], Split],
    tier: list[int],
    breaks: frozenset[int],
) -> Split:
    """``_decompose``'s search: the best split of ``state`` (copies left of each card).

    A module function, not a closure calling itself: such a closure is a cycle, left
    with its memo for the garbage collector at every search.
    """
    found = memo.get(state)
    if found is not None:
        return found
    i = next((k for k, n in enumerate(state) if n), None)
    if i is None:
        return ((), [])
    options: list[tuple[int, tuple[int, ...]]] = []  # (width, identity indices)
    for width in range(1, state[i] + 1):
        options.append((width, (i,)))
        if width >= 2:
            stack: list[tuple[int, ...]] = [(i,)]
            while stack:
                chain = stack.pop()
                t = tier[chain[-1]]
                if t in breaks:
                    continue
                for j in range(chain[-1] + 1, len(tier)):
                    if tier[j] == t + 1 and state[j] >= width:
                        longer = (*chain, j)
                        options.append((width, longer))
                        stack.append(longer)
    result: Split | None = None
    for width, chain in options:
        after = list(state)
        for j in chain:
            after[j] -= width
        rest_key, rest_units = _best_split(tuple(after), memo, tier, breaks)
        unit_key = (width * len(chain), width)
        key = tuple(sorted((*rest_key, unit_key), reverse=True))
        if result is None or key > result[0]:
            result = (key, [(width, chain), *rest_units])
    assert result is not None  # a non-empty state has at least the single
    memo[state] = result
    return result


def format_of(units: Sequence[Unit]) -> Format:
    return normalize([u.shape for u in units])


@lru_cache(maxsize=4096)
def ladder(fmt: Format) -> tuple[Format, ...]:
    """The follow obligations for a lead of format ``fmt``, strongest first.

    Every format reachable by weakening one unit at a time: split a tractor in two
    (a 3-pair tractor into a 2-pair tractor and a pair), or take one card off each
    tier (a triple becomes a pair and a single, a pair two singles, a triple-tractor
    a tractor and singles). Ordered by their largest units, which reproduces the
    orders in RULES.md and seed 002 (连刻: tractor + 2, two triples, triple + pair +
    single, triple + 3 singles, two pairs + 2 singles, pair + 4 singles, singles).
    """
    seen = {fmt}
    frontier = [fmt]
    while frontier:
        current = frontier.pop()
        for i, (width, length) in enumerate(current):
            rest = current[:i] + current[i + 1 :]
            weaker: list[list[Shape]] = []
            for a in range(1, length):
                weaker.append([(width, a), (width, length - a)])
            if width >= 2:
                narrower = [SINGLE] * length
                if width > 2:
                    narrower.append((width - 1, length))
                else:
                    narrower.extend([SINGLE] * length)
                weaker.append(narrower)
            for parts in weaker:
                new = normalize([*rest, *parts])
                if new not in seen:
                    seen.add(new)
                    frontier.append(new)
    return tuple(sorted(seen, key=format_key, reverse=True))


def describe(fmt: Format, suit: str) -> str:
    """Words for the structured part of a format: ``a tractor and a pair of hearts``."""
    words: list[str] = []
    counts: dict[Shape, int] = {}
    for shape in fmt:
        if shape != SINGLE:
            counts[shape] = counts.get(shape, 0) + 1
    for shape, n in sorted(counts.items(), key=lambda kv: shape_key(kv[0]), reverse=True):
        width, length = shape
        if length > 1:
            noun = f"{length}-{'pair' if width == 2 else 'triple'} tractor"
        else:
            noun = kind_of(shape)
        words.append(f"{_count_word(n)} {noun}{'s' if n > 1 else ''}")
    if not words:
        return f"{suit_name(suit)}"
    text = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    return f"{text} of {suit_name(suit)}"


def _count_word(n: int) -> str:
    return {1: "a", 2: "two", 3: "three", 4: "four"}.get(n, str(n))
