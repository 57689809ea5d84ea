"""RuleSet: one field per variant, named and valued as docs/RULES.md's variants table."""

from __future__ import annotations

import dataclasses

import pytest

from tests.rules._table import RuleSet, ids

# every field, written out: the presets' pins (tests/test_presets.py) start from these
DEFAULTS = {
    "decks": 2,
    "bidding": "standard",
    "no_bid": "notrump",
    "first_dealer": "first_bid",
    "overcall": "deal",
    "fixed_two_trump": False,
    "trump_chain_tractors": True,
    "follow_shape": "strict",
    "throw_penalty": 10,
    "kitty_multiplier": "power",
    "points_cap": None,
    "scoring": "levels",
    "assistance": "full",
    "finish": "defend_a",
    "play_seconds": 30,
    "kitty_seconds": 60,
}


def test_defaults_match_the_variants_table():
    assert RuleSet().to_dict() == DEFAULTS


def test_ruleset_is_frozen_and_comparable():
    rs = RuleSet()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rs.decks = 3  # type: ignore[misc]
    assert RuleSet() == RuleSet()
    assert RuleSet(decks=3) != RuleSet()
    assert hash(RuleSet()) == hash(RuleSet())


VALID_CASES = [
    # field, value, why
    ("decks", 1, "1 deck variant"),
    ("decks", 3, "3 decks variant"),
    ("bidding", "joker", "带王亮主 (000, 002)"),
    ("no_bid", "redeal", "nobody bids: redeal"),
    ("fixed_two_trump", True, "2 为常主 (001)"),
    ("trump_chain_tractors", False, "no chain tractors"),
    ("follow_shape", "suit_only", "house rule: suit only"),
    ("throw_penalty", 0, "throw_penalty 0 turns the penalty off"),
    ("throw_penalty", 5, "throw_penalty any multiple of 5"),
    ("throw_penalty", 20, "throw_penalty 20"),
    ("kitty_multiplier", "doubling", "kitty doubling (002)"),
    ("kitty_multiplier", "flat", "kitty flat (003)"),
    ("points_cap", 200, "points_cap 200 (002)"),
    ("finish", "reach_a", "finish on reaching A"),
]


@pytest.mark.parametrize("field,value,why", VALID_CASES, ids=ids(VALID_CASES))
def test_valid_variant(field, value, why):
    assert getattr(RuleSet(**{field: value}), field) == value


INVALID_CASES = [
    # field, value, why
    ("decks", 4, "decks must be 1, 2 or 3"),
    ("decks", 0, "decks 0"),
    ("bidding", "auction", "unknown bidding"),
    ("no_bid", "pass", "unknown no_bid"),
    ("follow_shape", "loose", "unknown follow_shape"),
    ("throw_penalty", 7, "throw_penalty not a multiple of 5"),
    ("kitty_multiplier", "triple", "unknown kitty_multiplier"),
    ("points_cap", 150, "points_cap is None or 200"),
    ("finish", "never", "unknown finish"),
]


@pytest.mark.parametrize("field,value,why", INVALID_CASES, ids=ids(INVALID_CASES))
def test_invalid_variant(field, value, why):
    with pytest.raises(ValueError):
        RuleSet(**{field: value})
