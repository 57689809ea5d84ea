"""Bidding: what shown cards bid, which bids beat which, and what a hand can bid now."""

from __future__ import annotations

import pytest

from bot.rules import (
    Bid,
    IllegalBid,
    RuleSet,
    bid_kind,
    check_bid,
    parse_cards,
    possible_bids,
    read_bid,
)

STANDARD = RuleSet()
JOKER = RuleSet(bidding="joker")
THREE = RuleSet(decks=3)

# cards, level, rules, expected (suit, strength) or None for illegal, why
READ = [
    ("2H", "2", STANDARD, ("H", 1), "RULES Bidding 1: a single level card declares its suit"),
    ("2H 2H", "2", STANDARD, ("H", 2), "RULES Bidding 2/3: a pair of level cards"),
    ("SJ SJ", "2", STANDARD, (None, 3), "RULES Bidding 4: SJ SJ bids no trump"),
    ("BJ BJ", "2", STANDARD, (None, 4), "RULES Bidding 4: BJ BJ beats SJ SJ"),
    ("TS", "T", STANDARD, ("S", 1), "level ten is written T"),
    ("3H", "2", STANDARD, None, "only level cards bid"),
    ("2H 2S", "2", STANDARD, None, "level cards of two suits are not a bid"),
    ("SJ", "2", STANDARD, None, "a single joker is not a bid in the standard variant"),
    ("SJ BJ", "2", STANDARD, None, "two different jokers are not a pair"),
    ("SJ 2H", "2", STANDARD, None, "standard bids do not mix jokers and level cards"),
    ("2H 2H 2H", "2", THREE, ("H", 5), "seed 002 3 decks: triple above BJ BJ"),
    ("SJ SJ SJ", "2", THREE, (None, 6), "seed 002 3 decks: SJ x3"),
    ("BJ BJ BJ", "2", THREE, (None, 7), "seed 002 3 decks: BJ x3 strongest"),
    ("BJ 5H", "5", JOKER, ("H", 1), "joker variant: BJ goes with hearts"),
    ("BJ 5D", "5", JOKER, ("D", 1), "joker variant: BJ goes with diamonds"),
    ("SJ 5S", "5", JOKER, ("S", 1), "joker variant: SJ goes with spades"),
    ("SJ 5C", "5", JOKER, ("C", 1), "joker variant: SJ goes with clubs"),
    ("SJ 5H", "5", JOKER, None, "joker variant: SJ does not go with hearts"),
    ("BJ 5S", "5", JOKER, None, "joker variant: BJ does not go with spades"),
    ("5H", "5", JOKER, None, "joker variant: a bid must show a joker"),
    ("BJ 5H 5H", "5", JOKER, ("H", 2), "joker variant: overcall shows a joker and two level cards"),
    ("BJ BJ", "5", JOKER, None, "joker variant: no direct no-trump bid"),
    ("", "2", STANDARD, None, "an empty bid"),
]


@pytest.mark.parametrize("cards,level,rules,expected,why", READ, ids=[c[-1] for c in READ])
def test_read_bid(cards: str, level: str, rules: RuleSet, expected, why: str) -> None:
    if expected is None:
        with pytest.raises(IllegalBid):
            read_bid(parse_cards(cards), level, rules)
    else:
        assert read_bid(parse_cards(cards), level, rules) == expected


def _bid(seat: int, cards: str, level: str = "2", rules: RuleSet = STANDARD) -> Bid:
    return check_bid(seat, parse_cards(cards), level, None, rules)


# current bid (seat, cards) or None, new bidder, new cards, rules, legal?, why
OVER = [
    (None, 1, "2S", STANDARD, True, "the first bid needs nothing to beat"),
    ((0, "2S"), 1, "2H", STANDARD, False, "a single does not beat a single"),
    (
        (0, "2S"),
        1,
        "2H 2H",
        STANDARD,
        True,
        "RULES Bidding 3: another player overcalls with a pair",
    ),
    ((0, "2S"), 1, "2S 2S", STANDARD, False, "an overcall names another suit"),
    ((0, "2S"), 0, "2S 2S", STANDARD, True, "RULES Bidding 2: the bidder reinforces (自保)"),
    ((0, "2S"), 0, "2H 2H", STANDARD, True, "seed 001: 自反, the bidder may switch with a pair"),
    ((0, "2S 2S"), 1, "2H 2H", STANDARD, False, "a reinforced bid is beaten only by jokers"),
    ((0, "2S 2S"), 1, "SJ SJ", STANDARD, True, "RULES Bidding 4: a joker pair beats a pair"),
    ((0, "SJ SJ"), 1, "BJ BJ", STANDARD, True, "RULES Bidding 4: BJ BJ beats SJ SJ"),
    ((0, "BJ BJ"), 1, "SJ SJ", STANDARD, False, "SJ SJ does not beat BJ BJ"),
    ((0, "SJ SJ"), 1, "SJ SJ", STANDARD, False, "equal bids do not beat"),
    ((0, "BJ BJ"), 1, "2H 2H 2H", THREE, True, "seed 002: a triple beats BJ BJ with 3 decks"),
    ((0, "2H 2H 2H"), 1, "SJ SJ SJ", THREE, True, "seed 002: SJ x3 beats a triple"),
    ((0, "BJ 2H"), 1, "SJ 2S 2S", JOKER, True, "seed 000: joker + two level cards overcalls"),
    ((0, "BJ 2H"), 0, "BJ 2H 2H", JOKER, True, "seed 000: 防反, the bidder adds a level card"),
    ((0, "BJ 2H"), 0, "SJ 2S 2S", JOKER, False, "seed 000: nobody overcalls themselves"),
    ((0, "BJ 2H 2H"), 1, "SJ 2S 2S", JOKER, False, "joker variant: an overcalled bid holds"),
]


@pytest.mark.parametrize("current,seat,cards,rules,legal,why", OVER, ids=[c[-1] for c in OVER])
def test_overcall(current, seat: int, cards: str, rules: RuleSet, legal: bool, why: str) -> None:
    now = None if current is None else _bid(current[0], current[1], rules=rules)
    if legal:
        assert check_bid(seat, parse_cards(cards), "2", now, rules).seat == seat
    else:
        with pytest.raises(IllegalBid) as err:
            check_bid(seat, parse_cards(cards), "2", now, rules)
        assert str(err.value)


def _shown(bids: list[Bid]) -> list[str]:
    return [" ".join(str(c) for c in b.cards) for b in bids]


def test_possible_bids_standard_lists_every_stronger_bid() -> None:
    hand = parse_cards("2H 2H SJ SJ 2S 3C BJ")
    assert _shown(possible_bids(hand, 0, "2", None)) == ["2S", "2H", "2H 2H", "SJ SJ"]
    current = _bid(1, "2C 2C")
    assert _shown(possible_bids(hand, 0, "2", current)) == ["SJ SJ"]


def test_possible_bids_reinforce_own_bid() -> None:
    hand = parse_cards("7D 7D 4S")
    current = _bid(2, "7D", level="7")
    assert _shown(possible_bids(hand, 2, "7", current)) == ["7D 7D"]
    assert _shown(possible_bids(hand, 1, "7", current)) == []  # same suit: not an overcall


def test_possible_bids_joker_variant() -> None:
    hand = parse_cards("BJ 4H 4H 4S SJ")
    assert _shown(possible_bids(hand, 0, "4", None, JOKER)) == ["SJ 4S", "BJ 4H", "BJ 4H 4H"]
    current = _bid(1, "SJ 4C", level="4", rules=JOKER)
    assert _shown(possible_bids(hand, 0, "4", current, JOKER)) == ["BJ 4H 4H"]


def test_possible_bids_one_deck_has_no_joker_pair() -> None:
    hand = parse_cards("SJ BJ 2D")
    assert _shown(possible_bids(hand, 0, "2", None, RuleSet(decks=1))) == ["2D"]


# bid, made over (None: the first), expected name, why
KINDS = [
    ((0, "2S"), None, "declare", "RULES Bidding 1: the first bid declares (亮主)"),
    ((0, "2S 2S"), (0, "2S"), "reinforce", "RULES Bidding 2: the bidder's own suit again (自保)"),
    ((1, "2H 2H"), (0, "2S"), "overcall", "RULES Bidding 3: another seat, another suit (反主)"),
    ((0, "2H 2H"), (0, "2S"), "overcall", "the bidder changing its own suit overcalls"),
    ((2, "SJ SJ"), (1, "2H 2H"), "overcall", "RULES Bidding 4: no trump over a suit (反无主)"),
    ((3, "BJ BJ"), (3, "SJ SJ"), "reinforce", "the same seat's no trump made stronger"),
]


@pytest.mark.parametrize(("bid", "before", "kind", "why"), KINDS, ids=[k[3] for k in KINDS])
def test_bid_kind_names_a_bid_as_players_do(
    bid: tuple[int, str], before: tuple[int, str] | None, kind: str, why: str
) -> None:
    made = _bid(*bid)
    assert bid_kind(made, None if before is None else _bid(*before)) == kind, why
