"""Properties of the seed-000/002 scoring variants over whole families of cases.

Kitty multipliers: every unit shape a plain suit allows with 1, 2 and 3 decks (any
width up to the deck count, any tractor length, any level and suit), alone and as
the largest unit of a throw, against RULES.md's wording of each variant. The race
to 45 (seed 000 §四): every point total, with and without the last trick.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.rules import (
    ATTACKERS,
    DEALER,
    DRAW,
    RANKS,
    Card,
    RuleSet,
    Trump,
    hand_outcome,
    kitty_multiplier,
)


def expected(variant: str, width: int, length: int) -> int:
    """RULES.md "Points and the kitty bonus", read literally for one unit."""
    cards = width * length
    if variant == "power":  # 2^n of the unit's cards, at most 64
        return min(2**cards, 64)
    if variant == "doubling":  # single 2, each further card on a tier doubles
        return 2 * 2 ** ((width - 1) * length)
    if variant == "flat":
        return 2
    # linear (002:75-79): single 2, pair 3, triple 4; 二连对 5 +1 a pair; 二连刻 6 +2 a triple
    if length == 1:
        return {1: 2, 2: 3, 3: 4}[width]
    return 5 + (length - 2) if width == 2 else 6 + 2 * (length - 2)


@st.composite
def plain_units(draw):
    """(rules, trump, unit cards, width, length) for a plain-suit unit of any shape."""
    decks = draw(st.sampled_from([1, 2, 3]))
    variant = draw(st.sampled_from(["power", "doubling", "flat", "linear"]))
    width = draw(st.integers(1, decks))
    level = draw(st.sampled_from(RANKS))
    trump_suit = draw(st.sampled_from(["S", "H", "D", "C", None]))
    suit = draw(st.sampled_from([s for s in "SHDC" if s != trump_suit]))
    ranks = [r for r in RANKS if r != level]  # the level rank is trump: skipped
    length = 1 if width == 1 else draw(st.integers(1, len(ranks)))
    start = draw(st.integers(0, len(ranks) - length))
    unit = [Card(r, suit) for r in ranks[start : start + length] for _ in range(width)]
    return (
        RuleSet(decks=decks, kitty_multiplier=variant),
        Trump(level, trump_suit),
        unit,
        width,
        length,
    )


@given(plain_units())
def test_every_unit_shape_multiplies_as_rules_md_says(case) -> None:
    rules, trump, unit, width, length = case
    assert kitty_multiplier(unit, trump, rules) == expected(rules.kitty_multiplier, width, length)


@given(plain_units(), st.data())
def test_a_throw_counts_its_largest_unit(case, data) -> None:
    """Extra singles of the same suit below the unit never change the multiplier."""
    rules, trump, unit, _width, _length = case
    order = [r for r in RANKS if r != trump.level]
    lowest = order.index(unit[0].rank)
    if lowest == 0:
        return
    below = order[: lowest - 1]  # never adjacent to the unit: no longer tractor
    extra = data.draw(st.lists(st.sampled_from(below), unique=True, max_size=3)) if below else []
    throw = unit + [Card(r, unit[0].suit) for r in extra]
    assert kitty_multiplier(throw, trump, rules) == kitty_multiplier(unit, trump, rules)


@given(st.integers(-200, 400), st.booleans())
def test_race45_over_every_total(points: int, last_trick: bool) -> None:
    winner, levels = hand_outcome(points, last_trick, RuleSet(decks=1, scoring="race45"))
    won = points >= 45 or last_trick
    assert (winner == ATTACKERS) == won
    assert (winner == DRAW) == (points == 40 and not last_trick)
    if winner == ATTACKERS:
        assert levels == (2 if points >= 45 and last_trick else 1)
    elif winner == DEALER:
        assert levels == 1
    else:
        assert levels == 0
