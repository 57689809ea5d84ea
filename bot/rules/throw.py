"""The throw check (甩牌): does a multi-unit lead stand against the real hands?

The bot knows every hand, so no challenge step is needed: a throw stands when no
other player can beat any of its units with cards of the led effective suit.
Otherwise the leader plays only the forced unit: the beatable unit whose lowest
card ranks lowest, fewer cards first between equals (RULES.md "Throw check"),
whoever holds the beating cards. The other cards go back to the hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, check_copies
from .ruleset import DEFAULT_RULES, RuleSet
from .trump import Order, Trump, order_for
from .units import Unit, counts_of, decompose_in, placements


def beats_unit(order: Order, counts: dict[Card, int], unit: Unit) -> bool:
    """Whether cards of the unit's suit (``counts``) hold a unit strictly above ``unit``.

    A higher single beats a single; a higher pair (or triple) beats a pair; a
    tractor is beaten by one at least as long and wide starting higher (a longer
    one counts through its top section).
    """
    for placed in placements(order, unit.suit, counts, unit.shape):
        if order.tier[placed[0]] > unit.low:
            return True
        break  # placements come strongest first: the first one decides
    return False


def beatable_units(
    lead: Sequence[Card],
    other_hands: Sequence[Sequence[Card]],
    trump: Trump,
    rules: RuleSet | None = None,
) -> list[Unit]:
    """The lead's units that some other hand can beat (empty: the throw stands)."""
    rules = rules or DEFAULT_RULES
    check_copies(lead, rules.decks)
    order = order_for(trump, rules)
    units = decompose_in(order, lead)
    if len(units) == 1:
        return []
    suit = units[0].suit
    tier = order.tier
    held = order.members[suit].__contains__  # a filter over a hand runs in C
    profiles = [counts_of([*filter(held, hand)]) for hand in other_hands]
    # a unit of one tier (single, pair, triple) is beaten by the highest card held at
    # least that often: one pass over each hand instead of a placement search per unit
    tops: list[dict[int, int]] = []
    for profile in profiles:
        top: dict[int, int] = {}
        for card, n in profile.items():
            for width in range(1, n + 1):
                if tier[card] > top.get(width, -1):
                    top[width] = tier[card]
        tops.append(top)
    beatable = []
    for u in units:
        if u.length == 1:
            beaten = any(top.get(u.width, -1) > u.low for top in tops)
        else:
            beaten = any(beats_unit(order, p, u) for p in profiles)
        if beaten:
            beatable.append(u)
    return beatable


def resolve_throw(
    lead: Sequence[Card],
    other_hands: Sequence[Sequence[Card]],
    trump: Trump,
    rules: RuleSet | None = None,
) -> list[Card]:
    """The lead if it stands, else only the forced unit's cards.

    ``other_hands`` are the other three players' hands. A single unit always stands.
    """
    beatable = beatable_units(lead, other_hands, trump, rules)
    if not beatable:
        return list(lead)
    forced = min(beatable, key=lambda u: (u.low, len(u.cards)))
    return list(forced.cards)
