# ruff: noqa: E501
"""The throw check: resolve_throw (docs/RULES.md "Tricks", Throw check; seeds 001, 003).

A throw stands only if no other player can beat any of its units with cards of that
suit: a higher single; a higher pair or triple against a pair; a higher tractor at
least as long and wide against a tractor. Trumps never count against a plain throw.
Otherwise only the smallest beatable unit is played: the one whose lowest card ranks
lowest; between equals, the one with fewer cards. Who holds the beating cards, and
where they sit, does not matter.

`others` are the other three players' hands; `expected` is the lead itself when it
stands, else the forced unit (compared as multisets).
"""

from __future__ import annotations

import pytest

from tests.rules._table import DEFAULT, FIXED2, THREE, cards, ids, ms, resolve_throw, rules, trump

SEED = "9S 8S 8S 4S 4S"  # seed 001/003: 甩牌 98844, level T

CASES = [
    # level, trump suit ("N" = no trump), rules preset, lead, (three other hands), expected, why
    ("T", "H", DEFAULT, SEED, ("JS 2D", "3C", "5D"), "9S", "seed 001/003 甩牌 98844: a J elsewhere forces the 9"),
    ("T", "H", DEFAULT, SEED, ("QS QS 2D", "3C", "5D"), "4S 4S", "seed 001/003: QQ beats the 9, 88 and 44; the smallest, 44, is forced"),
    ("T", "H", DEFAULT, SEED, ("3C", "5S 5S 2D", "5D"), "4S 4S", "seed 001/003: 55 elsewhere forces 44"),
    ("T", "H", DEFAULT, SEED, ("JS 2D", "5S 5S", "3C"), "4S 4S", "the 9 and the 44 are both beatable: 44 ranks lowest"),
    ("T", "H", DEFAULT, SEED, ("5S 5S", "JS 2D", "3C"), "4S 4S", "same, the seats swapped: still 44"),
    ("T", "H", DEFAULT, SEED, ("6S 6S 2D", "3C", "5D"), "4S 4S", "66 beats only the 44"),
    ("T", "H", DEFAULT, SEED, ("JS JS 2D", "3C", "5D"), "4S 4S", "JJ beats the single 9 and both pairs: 44"),
    ("T", "H", DEFAULT, SEED, ("9S 7S 6S", "3S 3S 2S", "5S AD"), SEED, "an equal 9, a lower pair and lower singles: the throw stands"),
    ("T", "H", DEFAULT, SEED, ("TS TS BJ", "3H 3H", "SJ AH"), SEED, "trumps never count against a plain throw (TS is trump at level T)"),
    ("T", "H", DEFAULT, SEED, ("TS TS 2D", "JS", "3C"), "9S", "TS TS is trump and ignored; the J forces the 9"),
    ("T", "H", DEFAULT, "AS AS KS", ("QS QS", "2D", "3C"), "AS AS KS", "seed 001 甩牌 AAK stands against QQ"),
    ("T", "H", DEFAULT, "AS KS KS", ("AS QS QS", "2D", "3C"), "AS KS KS", "seed 001 甩牌 AKK: an equal A and a lower QQ do not block"),
    ("T", "H", DEFAULT, "AS QS QS JS JS", ("KS", "2D", "3C"), "AS QS QS JS JS", "seed 001 甩牌 AQQJJ: a K alone does not block"),
    ("T", "H", DEFAULT, "AS QS QS JS JS", ("KS KS", "2D", "3C"), "AS QS QS JS JS", "AQQJJ: KK is a pair, not a tractor, and cannot beat QQJJ"),
    ("T", "H", DEFAULT, "AS KS KS QS QS", ("JS JS 9S 9S", "AS", "3S 2S"), "AS KS KS QS QS", "a lower tractor and an equal A do not block (rbtying #84)"),
    ("2", "H", THREE, "AS KS KS QS QS", ("AS AS 3H 3H 3H", "6S 3S 3S 5S 3S", "4H 4H"), "AS KS KS QS QS", "rbtying #84, 3 decks: a pair AA beats neither the single A nor the tractor"),
    ("2", "H", DEFAULT, "KS 9S 9S", ("AS 3D", "TS TS 4C", "5C"), "9S 9S", "RULES.md: against K 99, an A and a TT held by different players force 99"),
    ("2", "H", DEFAULT, "KS 9S 9S", ("TS TS 4C", "AS 3D", "5C"), "9S 9S", "RULES.md: ... whoever sits first"),
    ("2", "H", DEFAULT, "KS 9S 9S", ("5C", "6D", "AS"), "KS", "only an A elsewhere: the K is forced"),
    ("2", "H", DEFAULT, "KS 9S 9S", ("QS QS", "5C", "6D"), "9S 9S", "QQ beats the pair 99 but not the K"),
    ("2", "H", DEFAULT, "AS 9S 9S", ("JS JS TS TS", "5C", "6D"), "9S 9S", "a pair inside a tractor beats a pair"),
    ("2", "H", THREE, "AS 9S 9S", ("JS JS JS", "5C", "6D"), "9S 9S", "3 decks: a higher triple beats a pair"),
    ("2", "H", THREE, "AS 9S 9S 9S", ("JS JS", "5C", "6D"), "AS 9S 9S 9S", "3 decks: a pair cannot beat a triple"),
    ("2", "H", THREE, "AS 9S 9S 9S", ("JS JS JS", "5C", "6D"), "9S 9S 9S", "3 decks: a higher triple beats a triple"),
    ("2", "H", DEFAULT, "AS 9S 9S 8S 8S", ("TS TS JS JS", "5C", "6D"), "9S 9S 8S 8S", "a higher tractor of the same length beats a tractor"),
    ("2", "H", DEFAULT, "AS 9S 9S 8S 8S", ("KS KS QS JS JS", "5C", "6D"), "AS 9S 9S 8S 8S", "higher pairs that are not a tractor cannot beat a tractor"),
    ("2", "H", DEFAULT, "AS 9S 9S 8S 8S", ("7S 7S 6S 6S 5S 5S", "4C", "6D"), "AS 9S 9S 8S 8S", "a longer but lower tractor does not beat"),
    ("2", "H", DEFAULT, "AS 7S 7S 6S 6S 5S 5S", ("KS KS QS QS", "4C", "6D"), "AS 7S 7S 6S 6S 5S 5S", "a shorter tractor cannot beat a 3-pair tractor"),
    ("2", "H", DEFAULT, "AS 7S 7S 6S 6S 5S 5S", ("JS JS TS TS 9S 9S", "4C", "6D"), "7S 7S 6S 6S 5S 5S", "a higher tractor as long beats a 3-pair tractor"),
    ("2", "H", DEFAULT, "AS 7S 7S 6S 6S", ("QS QS JS JS TS TS", "4C", "6D"), "7S 7S 6S 6S", "a longer higher tractor beats a 2-pair tractor"),
    ("2", "H", THREE, "AS 6S 6S 6S 5S 5S 5S", ("KS KS QS QS", "4C", "6D"), "AS 6S 6S 6S 5S 5S 5S", "3 decks: a pair tractor is not as wide as consecutive triples"),
    ("2", "H", DEFAULT, "AS KS", ("QS QS", "4C", "6D"), "AS KS", "a lower pair beats no single"),
    ("2", "H", DEFAULT, "AS AS QS", ("KS", "4C", "6D"), "QS", "a K beats the single Q"),
    ("2", "H", DEFAULT, "AS AS QS", ("KS KS", "4C", "6D"), "QS", "KK beats the Q (as a single), not the AA"),
    ("T", "H", DEFAULT, "AS AS 3S 3S 2S", ("4S 4S", "4C", "6D"), "2S", "44 beats the 33 and the single 2: the 2 ranks lowest"),
    ("2", "H", DEFAULT, "KS QS", ("AS", "4C", "6D"), "QS", "an A beats both singles: the lower, Q, is forced"),
    ("T", "H", DEFAULT, "JS 9S 9S", ("QS", "4C", "6D"), "JS", "level T: a Q beats the J, nothing beats 99"),
    ("T", "H", DEFAULT, "AS KS QS", ("JS JS", "4C", "6D"), "AS KS QS", "a pair of a lower rank beats no single"),
    ("T", "N", DEFAULT, "AS KS", ("TS", "4C", "6D"), "AS KS", "no trump: TS is trump, not a spade"),
    ("T", "H", DEFAULT, "BJ SJ", ("BJ", "4C", "6D"), "SJ", "trump throw: another BJ beats the SJ"),
    ("T", "H", DEFAULT, "BJ SJ", ("TH TH", "SJ", "6D"), "BJ SJ", "trump throw: an equal SJ and lower trumps do not block"),
    ("T", "H", DEFAULT, "AH KH", ("TS", "4C", "6D"), "KH", "trump throw: an off-suit level card beats AH and KH; KH is lower"),
    ("T", "H", DEFAULT, "SJ AH AH", ("TS TS", "4C", "6D"), "AH AH", "trump throw: TS TS beats the AH pair"),
    ("T", "H", DEFAULT, "SJ AH AH", ("BJ", "4C", "6D"), "SJ", "trump throw: BJ beats only the SJ"),
    ("T", "H", DEFAULT, "SJ AH AH", ("BJ TS TS", "4C", "6D"), "AH AH", "trump throw: SJ and AA both beatable, AA ranks lower"),
    ("T", "H", DEFAULT, "AH AH 3H 3H", ("TS TS", "4C", "6D"), "3H 3H", "trump throw: TS TS beats both pairs, 33 is the smallest"),
    ("T", "H", DEFAULT, "AH AH 3H 3H", ("SJ", "BJ", "6D"), "AH AH 3H 3H", "trump throw: singles cannot beat pairs"),
    ("T", "H", DEFAULT, "TS TD TD", ("TH TH", "4C", "6D"), "TS", "equal lowest cards (TS = TD): the unit with fewer cards is forced"),
    ("T", "N", DEFAULT, "SJ TS", ("TH", "4C", "6D"), "SJ TS", "no trump: level cards are equal, TH does not beat TS"),
    ("T", "N", DEFAULT, "SJ TS", ("BJ", "4C", "6D"), "TS", "no trump: BJ beats both, TS ranks lower"),
    ("T", "H", FIXED2, "2S AH", ("2H", "4C", "6D"), "AH", "fixed_two_trump: 2H beats 2S and AH, AH is lower"),
    ("T", "H", FIXED2, "2S AH", ("2D", "4C", "6D"), "AH", "fixed_two_trump: 2D equals 2S and beats only AH"),
    ("T", "H", DEFAULT, "9S 9S", ("AS AS", "4C", "6D"), "9S 9S", "a single pair is no throw: it always stands"),
    ("T", "H", DEFAULT, "2S", ("AS", "4C", "6D"), "2S", "a single card always stands"),
    ("2", "H", DEFAULT, "9S 9S 8S 8S", ("JS JS TS TS", "4C", "6D"), "9S 9S 8S 8S", "a lone tractor is no throw: it always stands"),
]


@pytest.mark.parametrize("level,suit,preset,lead,others,expected,why", CASES, ids=ids(CASES))
def test_resolve_throw(level, suit, preset, lead, others, expected, why):
    result = resolve_throw(cards(lead), [cards(h) for h in others], trump(level, suit), rules(preset))
    assert ms(result) == ms(cards(expected))
