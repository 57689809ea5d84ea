"""Burying the kitty (扣底): keep trumps and winners, make voids, bury points with care.

The dealer holds hand + kitty (33 cards with two decks) and buries as many as the
kitty had. Each candidate burial is "void these whole side suits, fill the rest
with the cheapest side cards". A void is worth a lot with trumps to ruff, and its
value must be counted for the whole suit at once, or a card-by-card chooser never
sees it. Cards cost what they are worth in hand (an A or a card nothing unseen
beats a lot, low singles little, pairs and tractors more), trumps are buried only
when nothing else is left, and a point card costs its points times the expected
kitty multiplier times the chance of losing the last trick, minus the chance it
would be lost in play anyway: points are buried only by a dealer strong enough to
keep the last trick (the default multiplier reaches 64×).
"""

from __future__ import annotations

from itertools import combinations

from bot.game import Bury, SeatView
from bot.rules import ALL_CARDS, BIG_JOKER, SMALL_JOKER, TRUMP, Card, Trump, order_for
from bot.rules.units import counts_of, decompose_in

_MULTIPLIER = {"power": 3.0, "doubling": 2.8, "flat": 2.0, "linear": 2.5}  # typical kitty factor


def choose_bury(view: SeatView) -> Bury:
    """The cards to bury: ``view.hand`` holds hand and kitty."""
    rules = view.rules
    trump = view.trump or Trump(view.level, None)
    order = order_for(trump, rules)
    size = rules.kitty_size
    hand = list(view.hand)
    suit_of, tier = order.suit_of, order.tier
    by_suit: dict[str, list[Card]] = {}
    for card in sorted(hand, key=order.sort_key):
        by_suit.setdefault(suit_of[card], []).append(card)
    trumps = by_suit.pop(TRUMP, [])
    held = counts_of(hand)
    unseen = {c: rules.decks - held.get(c, 0) for c in ALL_CARDS}
    n_trumps = len(trumps)
    lose_last = 0.45 - 0.025 * (n_trumps - 8)
    lose_last -= 0.06 * held.get(BIG_JOKER, 0) + 0.04 * held.get(SMALL_JOKER, 0)
    lose_last = min(0.6, max(0.05, lose_last))
    point_risk = _MULTIPLIER[rules.kitty_multiplier] * lose_last

    structure: dict[Card, float] = {}
    for cards in by_suit.values():
        for unit in decompose_in(order, cards):
            if unit.width >= 2:
                for card in set(unit.cards):
                    structure[card] = 1.0 + (1.5 if unit.length >= 2 else 0.0)

    def cost(card: Card) -> float:
        higher = sum(
            k
            for c, k in unseen.items()
            if k and suit_of[c] == suit_of[card] and tier[c] > tier[card]
        )
        value = 4.0 / (1 + higher)
        if card in structure:
            value += structure[card] + 0.6 * value
        if card.points:
            lost_anyway = 0.5 if higher else 0.1
            value += card.points * (point_risk - lost_anyway)
        return value

    costs = {c: cost(c) for c in set(hand) if suit_of[c] != TRUMP}
    void_value = 2.0 + 0.5 * min(max(n_trumps - 4, 0), 12)
    side_total = sum(len(v) for v in by_suit.values())
    if side_total <= size:
        # not enough side cards: bury them all and the cheapest trumps
        chosen = [c for v in by_suit.values() for c in v]
        rest = sorted(trumps, key=lambda c: (c.points > 0, tier[c], c in structure))
        chosen += rest[: size - len(chosen)]
        return Bury(tuple(chosen))

    best: tuple[float, list[Card]] | None = None
    suits = list(by_suit)
    for r in range(len(suits) + 1):
        for voided in combinations(suits, r):
            chosen = [c for s in voided for c in by_suit[s]]
            if len(chosen) > size:
                continue
            pool = [c for s in suits if s not in voided for c in by_suit[s]]
            pool.sort(key=lambda c: (costs[c], tier[c]))
            fill = pool[: size - len(chosen)]
            if len(chosen) + len(fill) < size:
                continue
            total = sum(costs[c] for c in chosen) + sum(costs[c] for c in fill)
            # a suit emptied by the fill counts as a void too
            left = {suit_of[c] for c in pool[size - len(chosen) :]}
            voids = len(suits) - len(left)
            total -= void_value * voids if n_trumps >= 4 else 0.0
            if best is None or total < best[0] - 1e-9:
                best = (total, chosen + fill)
    assert best is not None
    return Bury(tuple(best[1]))
