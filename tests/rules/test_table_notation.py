"""Notation: parse_cards / format_cards / Card (docs/RULES.md "Notation")."""

from __future__ import annotations

import pytest

from tests.rules._table import Card, IllegalPlay, format_cards, ids, parse_cards

PARSE_CASES = [
    # text, canonical output of format_cards(parse_cards(text)), why
    ("AH", "AH", "canonical card parses to itself"),
    ("ah", "AH", "parsing is case-insensitive (lower case)"),
    ("aH Ah", "AH AH", "parsing is case-insensitive (mixed case)"),
    ("TH", "TH", "T is ten"),
    ("th", "TH", "lower-case t is ten"),
    ("10h", "TH", "10 is accepted for T"),
    ("10H 10s", "TH TS", "10 for T in several suits"),
    ("A♠", "AS", "suit symbol ♠"),
    ("K♥", "KH", "suit symbol ♥"),
    ("5♦", "5D", "suit symbol ♦"),
    ("2♣", "2C", "suit symbol ♣"),
    ("10♥", "TH", "README example 10♥ with a suit symbol"),
    ("a♠", "AS", "README example a♠ lower-case rank with a symbol"),
    ("BJ", "BJ", "big joker 大王"),
    ("SJ", "SJ", "small joker 小王"),
    ("bj sj", "BJ SJ", "jokers are case-insensitive"),
    ("Sj bJ", "SJ BJ", "jokers in mixed case"),
    ("JS SJ", "JS SJ", "JS is the jack of spades, SJ the small joker"),
    ("AH ah 10h BJ", "AH AH TH BJ", "brief example: AH ah 10h BJ"),
    ("ah 10h bj", "AH TH BJ", "API example: format keeps the order"),
    ("ah 10h 10♥ bj", "AH TH TH BJ", "README example with a symbol"),
    ("AH,KH", "AH KH", "commas separate cards"),
    ("AH, KH ,QH", "AH KH QH", "commas and spaces together"),
    ("AH   KH", "AH KH", "several spaces between cards"),
    ("  AH KH  ", "AH KH", "leading and trailing spaces"),
    ("BJ 2C AH", "BJ 2C AH", "format keeps the given order, no sorting"),
    (
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "every rank",
    ),
    ("AS AH AD AC", "AS AH AD AC", "every suit letter"),
    ("", "", "empty string parses to no cards"),
    ("   ", "", "whitespace only parses to no cards"),
    ("A♥\ufe0f 10♠\ufe0f", "AH TS", "emoji suits from phones carry U+FE0F"),
    ("AHKH", "AH KH", "cards run together without spaces"),
    ("10h10s", "TH TS", "tens run together"),
    ("sjbj", "SJ BJ", "jokers run together"),
    ("AH\tKH\nQH", "AH KH QH", "tabs and newlines separate cards"),
    ("大王 小王", "BJ SJ", "Chinese joker names"),
    ("大鬼 小鬼", "BJ SJ", "the jokers' other Chinese names"),
    ("♥A", "AH", "a suit symbol before its rank"),
    ("♠J", "JS", "a symbol before J is the jack of spades, not the small joker"),
    ("♥10♥10", "TH TH", "suits before their ranks, run together"),
    ("♥KKQQ", "KH KH QH QH", "ranks after one symbol share its suit"),
    ("红桃A 黑桃10 方块3 梅花5", "AH TS 3D 5C", "the suits' Chinese names before their ranks"),
    ("红心Q 方片K 草花2", "QH KD 2C", "the suits' other Chinese names"),
    ("黑J 红A 方9 梅7 草8", "JS AH 9D 7C 8C", "the one-character names"),
    ("红桃AA", "AH AH", "a pair under one Chinese suit name"),
    ("A♥K♥ ♥A", "AH KH AH", "symbol after and before in one play"),
    ("A♥\ufe0f ♥\ufe0fK", "AH KH", "the emoji selector on a symbol before its rank"),
    ("ＡＨ １０Ｈ ｂｊ", "AH TH BJ", "full-width letters and digits, as Chinese keyboards type"),
    ("Ｑ♠ 红桃Ａ", "QS AH", "full-width ranks with a symbol or a Chinese suit name"),
    ("AH、KH、QH", "AH KH QH", "the Chinese list comma separates cards"),
    ("BJ，BJ；SJ", "BJ BJ SJ", "full-width comma and semicolon separate cards"),
    ("A\u200bH K\u2060H", "AH KH", "invisible marks a paste carries are dropped"),
]


@pytest.mark.parametrize("text,expected,why", PARSE_CASES, ids=ids(PARSE_CASES))
def test_parse_and_format(text, expected, why):
    parsed = parse_cards(text)
    assert all(isinstance(c, Card) for c in parsed)
    assert format_cards(parsed) == expected
    assert [str(c) for c in parsed] == (expected.split() if expected else [])


BAD_CASES = [
    # text, why
    ("1H", "rank 1 does not exist"),
    ("ZZ", "garbage"),
    ("AX", "unknown suit X"),
    ("11H", "rank 11 does not exist"),
    ("0H", "rank 0 does not exist"),
    ("H", "suit without a rank"),
    ("A", "rank without a suit"),
    ("10", "10 without a suit"),
    ("JB", "JB is neither a jack of a suit nor a joker"),
    ("AHH", "trailing characters on a card"),
    ("BJJ", "trailing characters on a joker"),
    ("AH 1H", "one bad card spoils the play"),
    ("AH, XX", "bad card after a comma"),
    ("A H", "rank and suit split by a space"),
    ("1♥", "rank 1 with a suit symbol"),
    ("X♠", "unknown rank with a suit symbol"),
    ("HA", "a Latin suit letter before its rank (SJ would be the small joker)"),
    ("♥", "a suit symbol without a rank"),
    ("红桃", "a Chinese suit name without a rank"),
    ("♥AK♥", "a symbol left over after the ranks it led"),
    ("红桃X", "unknown rank after a Chinese suit name"),
]


@pytest.mark.parametrize("text,why", BAD_CASES, ids=ids(BAD_CASES))
def test_parse_rejects(text, why):
    with pytest.raises(ValueError):
        parse_cards(text)


def test_every_card_round_trips():
    deck = [r + s for s in "SHDC" for r in "23456789TJQKA"] + ["SJ", "BJ"]
    assert len(deck) == 54
    for text in deck:
        (card,) = parse_cards(text)
        assert str(card) == text
        assert format_cards([card]) == text
        assert parse_cards(text.lower()) == [card]
    assert format_cards(parse_cards(" ".join(deck))) == " ".join(deck)


def test_card_is_a_hashable_value():
    a, b, c = parse_cards("AH ah KH")
    assert a == b
    assert hash(a) == hash(b)
    assert a != c
    assert len({a, b, c}) == 2
    assert parse_cards("TH") == parse_cards("10h") == parse_cards("10♥")
    assert parse_cards("JS") != parse_cards("SJ")


def test_format_empty():
    assert format_cards([]) == ""
    assert parse_cards("") == []


def test_illegal_play_is_a_value_error():
    assert issubclass(IllegalPlay, ValueError)
