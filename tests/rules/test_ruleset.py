"""RuleSet: one field per variant of RULES.md, validated, with derived sizes."""

from __future__ import annotations

import pytest

from bot.rules import RuleSet

# field, value, why
BAD = [
    ("decks", 4, "RULES: 1, 2 or 3 decks"),
    ("decks", True, "a bool is not a deck count"),
    ("bidding", "auction", "bidding: standard or joker"),
    ("no_bid", "pass", "no_bid: notrump or redeal"),
    ("fixed_two_trump", "yes", "fixed_two_trump is a bool"),
    ("follow_shape", "loose", "follow_shape: strict or suit_only"),
    ("throw_penalty", 7, "throw_penalty: a multiple of 5"),
    ("throw_penalty", -10, "throw_penalty: not negative"),
    ("kitty_multiplier", "triple", "kitty_multiplier: power, doubling or flat"),
    ("points_cap", 150, "points_cap: none or 200"),
    ("finish", "never", "finish: defend_a or reach_a"),
    ("play_seconds", 0, "timers need at least a few seconds"),
]


@pytest.mark.parametrize("field,value,why", BAD, ids=[c[-1] for c in BAD])
def test_bad_values_are_refused(field: str, value: object, why: str) -> None:
    with pytest.raises(ValueError):
        RuleSet(**{field: value})


# decks, hand, kitty, total points, step, why
SIZES = [
    (1, 12, 6, 100, 20, "RULES deal table: 1 deck"),
    (2, 25, 8, 200, 40, "RULES deal table: 2 decks"),
    (3, 39, 6, 300, 60, "RULES deal table: 3 decks"),
]


@pytest.mark.parametrize("decks,hand,kitty,total,step,why", SIZES, ids=[c[-1] for c in SIZES])
def test_sizes(decks: int, hand: int, kitty: int, total: int, step: int, why: str) -> None:
    rules = RuleSet(decks=decks)
    assert (rules.hand_size, rules.kitty_size, rules.total_points, rules.step) == (
        hand,
        kitty,
        total,
        step,
    )
    assert 4 * hand + kitty == 54 * decks


def test_round_trip_through_dict() -> None:
    rules = RuleSet(decks=3, bidding="joker", points_cap=200, throw_penalty=0)
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert rules.replace(decks=2).decks == 2


def test_unknown_field_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown rule fields: colour"):
        RuleSet.from_dict({"colour": "red"})


def test_defaults_match_rules_md() -> None:
    assert RuleSet() == RuleSet(
        decks=2,
        bidding="standard",
        no_bid="notrump",
        fixed_two_trump=False,
        trump_chain_tractors=True,
        follow_shape="strict",
        throw_penalty=10,
        kitty_multiplier="power",
        points_cap=None,
        finish="defend_a",
        play_seconds=30,
        kitty_seconds=60,
    )


# field, text typed, value read, why
TYPED = [
    ("decks", " 3 ", 3, "numbers are whole numbers"),
    ("fixed_two_trump", "ON", True, "yes/no fields take on/off"),
    ("trump_chain_tractors", "no", False, "and yes/no"),
    ("points_cap", "none", None, "an optional number takes none"),
    ("points_cap", "200", 200, "or its one value"),
    ("kitty_multiplier", "Flat", "flat", "choices in any case"),
    ("throw_penalty", "20", 20, "free numbers"),
]


@pytest.mark.parametrize("field,text,value,why", TYPED, ids=[c[-1] for c in TYPED])
def test_parse_field_reads_typed_values(field: str, text: str, value: object, why: str) -> None:
    parsed = RuleSet.parse_field(field, text)
    assert parsed == value and type(parsed) is type(value)
    assert getattr(RuleSet().replace(**{field: parsed}), field) == value


# field, text, words the message must contain
REFUSED = [
    ("decks", "banana", "whole number"),
    ("decks", "4", "one of 1, 2, 3"),
    ("fixed_two_trump", "maybe", "yes or no"),
    ("bidding", "auction", "one of standard, joker"),
    ("points_cap", "150", "one of 200, none"),
    ("colour", "red", "no rule called 'colour'"),
]


@pytest.mark.parametrize("field,text,words", REFUSED, ids=[c[0] + "=" + c[1] for c in REFUSED])
def test_parse_field_refuses_with_a_sentence(field: str, text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        RuleSet.parse_field(field, text)


def test_choices_come_from_the_field_types() -> None:
    assert RuleSet.choices("decks") == (1, 2, 3)
    assert RuleSet.choices("points_cap") == (200, None)
    assert RuleSet.choices("fixed_two_trump") == (False, True)
    assert RuleSet.choices("throw_penalty") is None
