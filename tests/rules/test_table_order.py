"""Trump order and effective suit, seen through trick_winner on single-card tricks.

docs/RULES.md "Levels, trump and card order": level T, trump ♥ gives
BJ > SJ > TH > (TS = TD = TC) > AH > KH > ... > 2H; off-suit level cards are equal
(first played wins); no trump: BJ > SJ > all level cards equal; fixed_two_trump:
BJ > SJ > TH > T other > 2H > 2 other > AH ... 3H.
"""

from __future__ import annotations

import pytest

from tests.rules._table import DEFAULT, FIXED2, cards, ids, rules, trick_winner, trump

CASES = [
    # level, trump suit ("N" = no trump), rules preset, plays (plays[0] leads), winner index, why
    ("T", "H", DEFAULT, ("SJ", "BJ"), 1, "BJ > SJ"),
    ("T", "H", DEFAULT, ("BJ", "SJ"), 0, "SJ does not beat BJ"),
    ("T", "H", DEFAULT, ("TH", "SJ"), 1, "SJ > trump-suit level card TH"),
    ("T", "H", DEFAULT, ("TS", "TH"), 1, "trump-suit level TH > off-suit level TS"),
    ("T", "H", DEFAULT, ("TS", "TD", "TC"), 0, "off-suit level cards are equal: first played wins"),
    ("T", "H", DEFAULT, ("TD", "TS", "TH"), 2, "TH beats the equal TD, TS"),
    ("T", "H", DEFAULT, ("AH", "TC"), 1, "off-suit level card TC > trump-suit AH"),
    (
        "T",
        "H",
        DEFAULT,
        ("AH", "TD", "TS"),
        1,
        "among equal off-suit level cards the first played wins",
    ),
    ("T", "H", DEFAULT, ("KH", "AH"), 1, "trump suit: AH > KH"),
    ("T", "H", DEFAULT, ("2H", "3H"), 1, "trump suit: 3H > 2H"),
    ("T", "H", DEFAULT, ("9H", "JH"), 1, "trump suit: JH > 9H with the level T taken out"),
    ("T", "H", DEFAULT, ("AS", "2H"), 1, "the lowest trump ruffs a plain A"),
    ("T", "H", DEFAULT, ("AS", "TS"), 1, "TS is trump at level T: it ruffs a spade lead"),
    ("T", "H", DEFAULT, ("TS", "AS"), 0, "a TS lead is a trump lead: the plain AS cannot win"),
    ("T", "H", DEFAULT, ("TS", "AH"), 0, "TS > AH"),
    ("T", "H", DEFAULT, ("TS", "2H"), 0, "TS > 2H"),
    ("T", "H", DEFAULT, ("9S", "JS"), 1, "plain suit: J > 9 (001 副牌 A K Q J 9 8)"),
    ("T", "H", DEFAULT, ("AS", "KS", "QS", "JS"), 0, "plain suit: A is highest"),
    (
        "T",
        "H",
        DEFAULT,
        ("2S", "AD"),
        0,
        "a card of another plain suit is a discard and never wins",
    ),
    (
        "T",
        "H",
        DEFAULT,
        ("5C", "6C", "AD", "7C"),
        3,
        "highest card of the led suit wins, the discard does not",
    ),
    ("T", "H", DEFAULT, ("3H", "AS"), 0, "trump lead: a plain card cannot win"),
    ("T", "H", DEFAULT, ("AS", "3H", "4H", "2H"), 2, "over-ruff by a higher trump"),
    ("T", "H", DEFAULT, ("AS", "3H", "3H"), 1, "equal trumps: the first ruff keeps the trick"),
    (
        "T",
        "H",
        DEFAULT,
        ("AS", "TD", "TS", "TC"),
        1,
        "equal off-suit level ruffs: the first keeps the trick",
    ),
    ("T", "H", DEFAULT, ("AS", "TD", "TH"), 2, "TH over-ruffs the off-suit TD"),
    ("T", "N", DEFAULT, ("AH", "TH"), 1, "no trump: level cards are trump (002)"),
    ("T", "N", DEFAULT, ("TC", "TH"), 0, "no trump: all level cards are equal, first played wins"),
    ("T", "N", DEFAULT, ("TS", "SJ", "TD"), 1, "no trump: SJ > level cards"),
    ("T", "N", DEFAULT, ("SJ", "BJ", "TH"), 1, "no trump: BJ > SJ"),
    (
        "T",
        "N",
        DEFAULT,
        ("AH", "KH", "AS"),
        0,
        "no trump: every suit is plain, AS is a discard on hearts",
    ),
    ("T", "N", DEFAULT, ("KS", "AS", "3D", "2C"), 1, "no trump: plain A beats plain K"),
    ("T", "N", DEFAULT, ("AS", "2C"), 0, "no trump, no fixed 2: 2C is a plain discard"),
    (
        "A",
        "S",
        DEFAULT,
        ("KS", "AD"),
        1,
        "level A: an off-suit A is trump above KS, the top of the trump suit",
    ),
    ("A", "S", DEFAULT, ("AH", "KH"), 0, "level A: AH is trump, the plain KH cannot win"),
    ("A", "S", DEFAULT, ("QH", "KH"), 1, "level A: K tops a plain suit"),
    ("2", "D", DEFAULT, ("AD", "2S"), 1, "level 2: 2S is trump above AD"),
    ("2", "D", DEFAULT, ("2S", "2D"), 1, "level 2: trump-suit 2D > off-suit 2S"),
    ("2", "D", DEFAULT, ("AS", "2S"), 1, "level 2: 2S is trump, it ruffs a spade lead"),
    ("2", "D", DEFAULT, ("3S", "4S", "AS"), 2, "level 2: plain spades A..3"),
    ("T", "H", FIXED2, ("AH", "2S"), 1, "fixed_two_trump: 2 other > AH (001 2 为常主)"),
    ("T", "H", FIXED2, ("2S", "2H"), 1, "fixed_two_trump: 2H > 2 other"),
    ("T", "H", FIXED2, ("2H", "TC"), 1, "fixed_two_trump: T other > 2H"),
    ("T", "H", FIXED2, ("TC", "2H"), 0, "fixed_two_trump: 2H < T other"),
    (
        "T",
        "H",
        FIXED2,
        ("2S", "2D", "2C"),
        0,
        "fixed_two_trump: off-suit 2s are equal, first played wins",
    ),
    ("T", "H", FIXED2, ("AS", "2S"), 1, "fixed_two_trump: 2S is trump, it ruffs a spade lead"),
    ("T", "H", DEFAULT, ("AS", "2S"), 0, "without fixed_two_trump 2S is the lowest plain spade"),
    ("T", "H", FIXED2, ("3S", "4S"), 1, "fixed_two_trump: plain suits run A..3"),
    ("T", "H", FIXED2, ("SJ", "TH"), 0, "fixed_two_trump: jokers stay on top"),
    ("T", "N", FIXED2, ("AS", "2C"), 1, "fixed_two_trump in no trump: every 2 is still trump"),
    ("T", "N", FIXED2, ("2C", "TS"), 1, "fixed_two_trump in no trump: level cards > 2s"),
]


@pytest.mark.parametrize("level,suit,preset,plays,winner,why", CASES, ids=ids(CASES))
def test_single_card_order(level, suit, preset, plays, winner, why):
    assert trick_winner([cards(p) for p in plays], trump(level, suit), rules(preset)) == winner
