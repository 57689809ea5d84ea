"""Following a lead: the ladder of obligations, and legal plays for computer players.

A follow is checked in three steps (RULES.md "Tricks"):

1. the right number of cards, all from the hand;
2. suit: as many cards of the led effective suit as the lead has, or all of them
   if the hand has fewer (no duty to ruff);
3. shape (``follow_shape="strict"``): walk the ladder of the lead's format from
   its own shape down to singles; the first rung the hand's led-suit cards can
   meet is the obligation, and the play must meet it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from .cards import Card, check_copies, pretty_cards
from .errors import IllegalPlay, Reason
from .ruleset import DEFAULT_RULES, RuleSet
from .trump import TRUMP, Order, Trump, order_for, suit_name
from .units import (
    SINGLE,
    Format,
    Shape,
    counts_of,
    decompose_in,
    describe,
    fit,
    format_of,
    ladder,
    placements,
)


def check_follow(
    hand: Sequence[Card],
    lead: Sequence[Card],
    play: Sequence[Card],
    trump: Trump,
    rules: RuleSet | None = None,
) -> None:
    """Raise ``IllegalPlay`` with a reason for the player unless ``play`` may follow ``lead``.

    ``hand`` is the follower's whole hand before playing.
    """
    rules = rules or DEFAULT_RULES
    order = order_for(trump, rules)
    n = len(lead)
    if n == 1 and len(play) == 1 and play[0] in hand:
        # the common case, a single led: the led suit if held, else anything
        suit_of = order.suit_of
        suit = suit_of[lead[0]]
        if suit_of[play[0]] == suit or all(suit_of[c] != suit for c in hand):
            return
    check_copies(lead, rules.decks)  # the hand is the table's; the cards played are claims
    check_copies(play, rules.decks)
    if len(play) != n:
        raise IllegalPlay(
            f"Play exactly {n} card{'s' if n != 1 else ''}: the lead has {n}.",
            key="rules-err-card-count",
            count=n,
        )
    _check_in_hand(hand, play)
    suit_of = order.suit_of
    suit = suit_of[lead[0]]
    of_suit = order.members[suit].__contains__  # a filter over a hand runs in C
    in_suit = [*filter(of_suit, hand)]
    played = [*filter(of_suit, play)]
    if len(played) < min(n, len(in_suit)):
        rest = [c for c in in_suit if c not in played] or in_suit
        held = tuple(sorted(rest, key=order.sort_key, reverse=True))
        raise IllegalPlay(
            f"Play your {suit_name(suit)} first: they were led "
            f"(you still hold {pretty_cards(held)}).",
            key="rules-err-follow-suit",
            suit=suit,
            held=held,
        )
    if rules.follow_shape != "strict" or len(in_suit) <= n or n == 1:
        return
    if n == 2 and lead[0] is lead[1] and (play[0] is play[1] or len(set(in_suit)) == len(in_suit)):
        return  # a pair led: a pair of the suit meets the duty, and without one none binds
    fmt = format_of(decompose_in(order, lead))
    obligation = _obligation(order, suit, counts_of(in_suit), fmt)
    if obligation is None:
        return
    rung, witness = obligation
    slots = [s for s in rung if s != SINGLE]
    if fit(order, suit, counts_of(played), slots) is None:
        groups = tuple(tuple(_expand(p, w)) for p, (w, _) in zip(witness, slots, strict=True))
        shown = " and ".join(pretty_cards(g) for g in groups)
        raise IllegalPlay(
            f"You must play {describe(rung, suit)}: you hold {shown}.",
            key="rules-err-follow-shape",
            need=tuple(s for s in rung if s != SINGLE),
            suit=suit,
            held=groups,
        )


def obligation(
    hand: Sequence[Card], lead: Sequence[Card], trump: Trump, rules: RuleSet | None = None
) -> Reason | None:
    """What the hand must play to follow ``lead``, in words, or None when it is free.

    For the card picker: "2 hearts, including a pair" rather than a rejection later.
    """
    rules = rules or DEFAULT_RULES
    check_copies(lead, rules.decks)
    order = order_for(trump, rules)
    n = len(lead)
    suit = order.suit_of[lead[0]]
    in_suit = [*filter(order.members[suit].__contains__, hand)]
    name = suit_name(suit)
    if not in_suit:
        return None
    if len(in_suit) <= n:
        extra = n - len(in_suit)
        tail = f", then {extra} other card{'s' if extra != 1 else ''}" if extra else ""
        held = tuple(sorted(in_suit, key=order.sort_key, reverse=True))
        return Reason(
            f"you must play all your {name} ({pretty_cards(held)}){tail}",
            "rules-duty-all",
            {"suit": suit, "held": held, "extra": extra},
        )
    if rules.follow_shape == "strict" and n > 1:
        fmt = format_of(decompose_in(order, lead))
        found = _obligation(order, suit, counts_of(in_suit), fmt)
        if found is not None:
            return Reason(
                f"you must play {n} {name}, including {describe(found[0], suit)}",
                "rules-duty-including",
                {"count": n, "suit": suit, "need": tuple(s for s in found[0] if s != SINGLE)},
            )
    text = f"you must play one of your {name}" if n == 1 else f"you must play {n} {name}"
    return Reason(text, "rules-duty-count", {"count": n, "suit": suit})


def _obligation(
    order: Order, suit: str, counts: dict[Card, int], fmt: Format
) -> tuple[Format, list[tuple[Card, ...]]] | None:
    """The first rung the hand's suit cards can meet, with the units that meet it."""
    for rung in ladder(fmt):
        slots = [s for s in rung if s != SINGLE]
        if not slots:
            return None
        witness = fit(order, suit, counts, slots)
        if witness is not None:
            return rung, witness
    return None


def _check_in_hand(hand: Sequence[Card], play: Sequence[Card]) -> None:
    for card in set(play):
        held = hand.count(card)
        if held < play.count(card):
            if held == 0:
                raise IllegalPlay(
                    f"You don't hold {card.pretty}.", key="rules-err-not-held", cards=(card,)
                )
            raise IllegalPlay(
                f"You hold only {held} {card.pretty}.",
                key="rules-err-held-only",
                count=held,
                cards=(card,),
            )


def _expand(identities: tuple[Card, ...], width: int) -> list[Card]:
    return [c for c in reversed(identities) for _ in range(width)]


# --- legal plays, generated by intent --------------------------------------------


def follow_candidates(
    hand: Sequence[Card],
    lead: Sequence[Card],
    trump: Trump,
    rules: RuleSet | None = None,
    limit: int = 64,
) -> list[list[Card]]:
    """A varied set of legal follows (never empty, never illegal), at most ``limit``.

    Not every legal play (an 8-card throw followed from 12 suit cards has 495), but
    the ones a player chooses between: each way of meeting the obligation, filled
    with the lowest, highest, most and fewest points cards; when short of the suit,
    ruffs that match the lead and discards.
    """
    rules = rules or DEFAULT_RULES
    check_copies(lead, rules.decks)
    order = order_for(trump, rules)
    n = len(lead)
    suit = order.suit_of[lead[0]]
    in_suit = [*filter(order.members[suit].__contains__, hand)]
    out: list[list[Card]] = []
    seen: set[tuple[Card, ...]] = set()

    def add(play: list[Card]) -> None:
        key = tuple(sorted(play, key=order.sort_key))
        if key not in seen and len(out) < limit:
            seen.add(key)
            out.append(play)

    if len(in_suit) >= n:
        for core in _cores(order, suit, in_suit, lead, rules, limit):
            rest = _minus(in_suit, core)
            for fill in _fills(order, rest, n - len(core)):
                add(core + fill)
        return out
    # short of the suit: all of it, then ruffs or discards from the rest
    others = _minus(hand, in_suit)
    need = n - len(in_suit)
    if suit != TRUMP and not in_suit:
        trumps = [c for c in others if order.suit_of[c] == TRUMP]
        if len(trumps) >= n:
            fmt = format_of(decompose_in(order, lead))
            slots = [s for s in fmt if s != SINGLE]
            for core in _placements_all(order, TRUMP, trumps, slots, limit // 2):
                rest = _minus(trumps, core)
                for fill in _fills(order, rest, n - len(core)):
                    add(core + fill)
    for fill in _fills(order, others, need):
        add(in_suit + fill)
    return out


def random_follow(
    hand: Sequence[Card],
    lead: Sequence[Card],
    trump: Trump,
    rules: RuleSet | None = None,
    rng: random.Random | None = None,
) -> list[Card]:
    """One legal follow chosen at random (the random-legal baseline player)."""
    rules = rules or DEFAULT_RULES
    check_copies(lead, rules.decks)
    rng = rng or random.Random()
    order = order_for(trump, rules)
    n = len(lead)
    suit = order.suit_of[lead[0]]
    in_suit = [*filter(order.members[suit].__contains__, hand)]
    if len(in_suit) <= n:
        others = _minus(hand, in_suit)
        return in_suit + rng.sample(others, n - len(in_suit))
    if n == 1:
        return [rng.choice(in_suit)]
    core: list[Card] = []
    if rules.follow_shape == "strict" and n == 2 and lead[0] is lead[1]:
        # a pair led (the common case past singles): one of the suit's pairs, else any two
        pairs = [card for card, k in counts_of(in_suit).items() if k >= 2]
        if not pairs:
            return rng.sample(in_suit, 2)
        card = pairs[int(rng.random() * len(pairs))]
        return [card, card]
    if rules.follow_shape == "strict":
        fmt = format_of(decompose_in(order, lead))
        found = _obligation(order, suit, counts_of(in_suit), fmt)
        if found is not None:
            rung, _ = found
            slots = [s for s in rung if s != SINGLE]
            options = _placements_all(order, suit, in_suit, slots, 16)
            core = rng.choice(options)
    rest = _minus(in_suit, core)
    return core + rng.sample(rest, n - len(core))


def _cores(
    order: Order, suit: str, in_suit: list[Card], lead: Sequence[Card], rules: RuleSet, limit: int
) -> list[list[Card]]:
    """The structured part of each way to meet the obligation (empty when free)."""
    if rules.follow_shape != "strict" or len(lead) == 1:
        return [[]]
    fmt = format_of(decompose_in(order, lead))
    found = _obligation(order, suit, counts_of(in_suit), fmt)
    if found is None:
        return [[]]
    slots = [s for s in found[0] if s != SINGLE]
    return _placements_all(order, suit, in_suit, slots, limit) or [[]]


def _placements_all(
    order: Order, suit: str, cards: list[Card], slots: list[Shape], limit: int
) -> list[list[Card]]:
    """Up to ``limit`` distinct disjoint placements of ``slots`` in ``cards``."""
    results: list[list[Card]] = []
    _walk(order, suit, counts_of(cards), slots, limit, results, 0, [], None)
    return results


def _walk(
    order: Order,
    suit: str,
    counts: dict[Card, int],
    slots: list[Shape],
    limit: int,
    results: list[list[Card]],
    i: int,
    taken: list[Card],
    bound: tuple[tuple[int, int, int], ...] | None,
) -> None:
    """``_placements_all``'s search from slot ``i``: a module function, not a closure
    calling itself (such a closure is a cycle left to the garbage collector)."""
    if len(results) >= limit:
        return
    if i == len(slots):
        results.append(list(taken))
        return
    shape = slots[i]
    width = shape[0]
    same_next = i + 1 < len(slots) and slots[i + 1] == shape
    for placed in list(placements(order, suit, counts, shape)):
        key = tuple(order.sort_key(c) for c in placed)
        if bound is not None and key >= bound:
            continue
        for card in placed:
            counts[card] -= width
        more = taken + [c for c in placed for _ in range(width)]
        _walk(order, suit, counts, slots, limit, results, i + 1, more, key if same_next else None)
        for card in placed:
            counts[card] += width
        if len(results) >= limit:
            return


def _fills(order: Order, pool: list[Card], k: int) -> list[list[Card]]:
    """A few ways to add ``k`` free cards from ``pool``: by intent, not every subset."""
    if k == 0:
        return [[]]
    if len(pool) <= k:
        return [list(pool)]
    if len(pool) <= 8 and k <= 2:
        return [list(c) for c in combinations(pool, k)]

    # cheap: non-trump before trump, low before high, no points before points
    def cheap(c: Card) -> tuple[bool, bool, int]:
        return (order.suit_of[c] == TRUMP, c.points > 0, order.tier[c])

    lowest = sorted(pool, key=cheap)[:k]
    highest = sorted(pool, key=lambda c: (order.suit_of[c] == TRUMP, order.tier[c]))[-k:]
    richest = sorted(pool, key=lambda c: (-c.points, order.suit_of[c] == TRUMP, order.tier[c]))[:k]
    singles = sorted(pool, key=order.sort_key)
    spread = [singles[i * len(singles) // k] for i in range(k)]
    return [lowest, highest, richest, spread]


def _minus(cards: Sequence[Card], taken: Sequence[Card]) -> list[Card]:
    left = list(cards)
    for card in taken:
        left.remove(card)
    return left
