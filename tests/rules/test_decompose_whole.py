"""``_decompose`` takes each card's copies whole when no tractor can be made, without
the exhaustive search: the same units, in the same order, as the search gives."""

from __future__ import annotations

import random

import pytest

from bot.rules import ALL_CARDS, SUITS, Trump, order_for, units
from bot.rules.ruleset import RuleSet
from bot.rules.units import _best_split, _decompose, make_unit, shape_key


def searched(order, cards):  # type: ignore[no-untyped-def]
    """The search's split of sorted ``cards`` (``_decompose`` before its short path)."""
    ids = list(dict.fromkeys(cards))
    start = tuple(cards.count(c) for c in ids)
    tier = [order.tier[c] for c in ids]
    _, split = _best_split(start, {}, tier, order.breaks[order.suit_of[ids[0]]])
    units = [make_unit(order, [ids[j] for j in chain], width) for width, chain in split]
    units.sort(key=lambda u: (shape_key(u.shape), u.high), reverse=True)
    return tuple(units)


@pytest.mark.parametrize("decks", [2, 3])
def test_whole_copies_split_as_the_search_does(decks: int, monkeypatch: pytest.MonkeyPatch) -> None:
    searches: list[object] = []

    def counted(*args):  # type: ignore[no-untyped-def]
        searches.append(args)
        return _best_split(*args)

    monkeypatch.setattr(units, "_best_split", counted)
    rng = random.Random(decks)
    rules = RuleSet(decks=decks)  # type: ignore[arg-type]
    short = 0
    for _ in range(600):
        trump = Trump(rng.choice("2579TA"), rng.choice([*SUITS, None]))
        order = order_for(trump, rules)
        suit = rng.choice(sorted(order.ranked))
        pool = [c for c in ALL_CARDS if order.suit_of[c] == suit] * decks
        if len(pool) < 4:  # the trump suit's own name holds no plain cards
            continue
        cards = tuple(
            sorted(rng.sample(pool, rng.randint(2, min(14, len(pool)))), key=order.sort_key)
        )
        if len(set(cards)) == len(cards):
            continue
        _decompose.cache_clear()
        searches.clear()
        got = _decompose(order, cards)
        if all(u.length == 1 for u in got):  # no tractor: no search
            assert not searches, cards
            short += 1
        assert got == searched(order, cards), cards
    assert short > 100  # the short path was taken, not only the search
