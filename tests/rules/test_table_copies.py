"""Duplicated cards: more copies of a card than the decks hold (a forged or corrupted list).

Every public entry of the rules library that takes cards refuses such a list with
a ``RulesError`` carrying the ``rules-err-copies`` key (rendered in both
languages), never a ``KeyError`` from deep inside (``units.kind_of`` has no name
for a four-card "unit"; the bid tables have no strength for four level cards).
Checked are the cards a player claims (a lead, a play, a bid); a hand is the
table's own, dealt from the decks, and is not checked again on every call (the
follow checks are the engines' hot path). Each row: the rule set, the call, why.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.i18n import LOCALES
from bot.i18n.rules import explain
from bot.rules import (
    Auction,
    RulesError,
    check_bid,
    follow_candidates,
    kitty_multiplier,
    obligation,
    possible_bids,
    random_follow,
    read_bid,
    trick_winner,
)
from tests.rules._table import (
    DEFAULT,
    ONE,
    THREE,
    cards,
    check_follow,
    decompose,
    ids,
    resolve_throw,
    rules,
    trump,
)

T = trump("2", "S")
Call = Callable[[Any], object]

CASES: list[tuple[dict[str, Any] | None, Call, str]] = [
    (DEFAULT, lambda r: decompose(cards("AH AH AH AH"), T, r), "a four-card 'unit'"),
    (DEFAULT, lambda r: decompose(cards("AH AH AH"), T, r), "a triple with two decks"),
    (ONE, lambda r: decompose(cards("AH AH"), T, r), "a pair with one deck"),
    (THREE, lambda r: decompose(cards("BJ BJ BJ BJ"), T, r), "four jokers with three decks"),
    (THREE, lambda r: decompose(cards("AH AH AH AH KH KH KH KH"), T, r), "a 4-wide tractor"),
    (
        DEFAULT,
        lambda r: check_follow(
            cards("7H 7H 7H 7H 8H"), cards("QH QH QH QH"), cards("7H" * 4), T, r
        ),
        "a four-card lead followed from a forged hand",
    ),
    (
        DEFAULT,
        lambda r: check_follow(cards("7H 8H 9H"), cards("QH QH QH"), cards("7H 8H 9H"), T, r),
        "a forged lead, a fair follow",
    ),
    (DEFAULT, lambda r: obligation(cards("7H 8H"), cards("QH QH QH QH"), T, r), "obligation"),
    (
        DEFAULT,
        lambda r: follow_candidates(cards("7H 8H"), cards("QH QH QH QH"), T, r),
        "legal follows of a forged lead",
    ),
    (
        DEFAULT,
        lambda r: random_follow(cards("7H 8H"), cards("QH QH QH QH"), T, r),
        "a random follow of a forged lead",
    ),
    (
        DEFAULT,
        lambda r: trick_winner([cards("AH AH AH AH"), cards("3H 3H 3H 3H")], T, r),
        "a trick of forged plays",
    ),
    (
        DEFAULT,
        lambda r: resolve_throw(cards("AH AH AH AH KH"), [cards("QH")] * 3, T, r),
        "a forged throw",
    ),
    (DEFAULT, lambda r: kitty_multiplier(cards("AH AH AH AH"), T, r), "the kitty bonus"),
    (DEFAULT, lambda r: read_bid(cards("2H 2H 2H 2H"), "2", r), "four level cards bid"),
    (DEFAULT, lambda r: read_bid(cards("BJ BJ BJ"), "2", r), "three big jokers bid"),
    (DEFAULT, lambda r: check_bid(1, cards("2H 2H 2H"), "2", None, r), "check_bid"),
    (DEFAULT, lambda r: possible_bids(cards("2H 2H 2H 2H"), 0, "2", None, r), "bids from a hand"),
    (
        DEFAULT,
        lambda r: Auction(("2", "2"), None, rules=r).options(cards("SJ SJ SJ"), 0),
        "an auction's options",
    ),
]


@pytest.mark.parametrize(("preset", "call", "why"), CASES, ids=ids(CASES))
def test_more_copies_than_the_decks_hold_is_a_rules_error(
    preset: dict[str, Any] | None, call: Call, why: str
) -> None:
    with pytest.raises(RulesError) as info:
        call(rules(preset))
    assert info.value.key == "rules-err-copies", why
    for locale in LOCALES:
        assert explain(locale, info.value)
    assert explain("en-US", info.value) == str(info.value)


@pytest.mark.parametrize(
    ("preset", "text"),
    [(DEFAULT, "AH AH"), (THREE, "AH AH AH KH KH KH"), (ONE, "AH KH")],
    ids=["pair, two decks", "triple tractor, three decks", "singles, one deck"],
)
def test_as_many_copies_as_the_decks_hold_are_fine(
    preset: dict[str, Any] | None, text: str
) -> None:
    assert decompose(cards(text), T, rules(preset))
