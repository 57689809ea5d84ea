# ruff: noqa: E501
"""Winning the trick: trick_winner (docs/RULES.md "Tricks", Winning the trick).

The highest play of the led shape wins; ties go to the first played. A ruff must be
all trump and match the shape; a throw is ruffed only by trumps holding at least as
many tractors and pairs. Several ruffs compare by their strongest unit of the lead's
strongest shape (for an all-singles lead, the highest card). Discards never win.
plays[0] is the (resolved) lead; the expected value is the index of the winning play.
"""

from __future__ import annotations

import pytest

from tests.rules._table import (
    DEFAULT,
    FIXED2,
    NOCHAIN,
    THREE,
    cards,
    ids,
    resolve_throw,
    rules,
    trick_winner,
    trump,
)

CASES = [
    # level, trump suit ("N" = no trump), rules preset, plays (plays[0] leads), winner index, why
    # --- singles and pairs in suit, ruffs of pairs
    ("T", "H", DEFAULT, ("KS", "AS"), 1, "a higher single of the led suit wins"),
    ("T", "H", DEFAULT, ("AS", "AS"), 0, "equal cards: the first played wins (001, 002)"),
    ("T", "H", DEFAULT, ("KS KS", "AS AS"), 1, "a higher pair of the led suit wins"),
    ("T", "H", DEFAULT, ("KS KS", "QS QS", "AS AS"), 2, "the highest pair of the led suit wins"),
    ("T", "H", DEFAULT, ("KS KS", "AS QS"), 0, "two singles never beat a pair"),
    ("T", "H", DEFAULT, ("KS KS", "2H 2H"), 1, "a plain pair is ruffed by a trump pair (000)"),
    ("T", "H", DEFAULT, ("KS KS", "2H 3H"), 0, "two unpaired trumps do not ruff a pair (000)"),
    ("T", "H", DEFAULT, ("KS KS", "SJ BJ"), 0, "SJ BJ is not a pair: no ruff"),
    ("T", "H", DEFAULT, ("KS KS", "TS TD"), 0, "TS TD is not a pair: no ruff"),
    ("T", "H", DEFAULT, ("KS KS", "2H 2H", "3H 3H"), 2, "over-ruff with a higher trump pair"),
    ("T", "H", DEFAULT, ("KS KS", "3H 3H", "2H 2H"), 1, "a lower trump pair does not over-ruff"),
    ("T", "H", DEFAULT, ("KS KS", "TS TS", "TD TD"), 1, "equal off-suit level pairs: the first ruff keeps it"),
    ("T", "H", DEFAULT, ("KS KS", "TS TS", "TH TH"), 2, "trump-suit level pair over-ruffs an off-suit level pair"),
    ("T", "H", DEFAULT, ("KS KS", "AS AS", "2H 2H"), 2, "a trump pair beats a higher plain pair"),
    ("T", "H", DEFAULT, ("KS KS", "AS 3H"), 0, "a mixed play never wins"),
    ("T", "H", DEFAULT, ("3S 3S", "AD AD"), 0, "a pair of another plain suit is a discard and never wins"),
    ("T", "H", DEFAULT, ("3H 3H", "AS AS"), 0, "a plain pair never beats a trump pair lead"),
    ("T", "H", DEFAULT, ("3H 3H", "TS TS", "SJ SJ", "BJ BJ"), 3, "trump pair lead: BJ BJ > SJ SJ > TS TS"),
    ("T", "H", DEFAULT, ("3H 3H", "TS TD"), 0, "trump pair lead: TS TD is not a pair"),
    # --- tractors
    ("T", "H", DEFAULT, ("QS QS JS JS", "AS AS KS KS"), 1, "a higher tractor of the led suit wins"),
    ("T", "H", DEFAULT, ("QS QS JS JS", "AS AS 2S 2S"), 0, "AA22 is not a tractor"),
    ("T", "H", DEFAULT, ("QS QS JS JS", "AS AS 8S 8S"), 0, "two higher pairs do not beat a tractor"),
    ("T", "H", DEFAULT, ("8S 8S 7S 7S", "JS JS 9S 9S"), 1, "level T: JJ99 is a tractor above 8877"),
    ("T", "H", DEFAULT, ("QS QS JS JS", "3H 3H 4H 4H"), 1, "a tractor is ruffed by a trump tractor (000)"),
    ("T", "H", DEFAULT, ("QS QS JS JS", "3H 3H 5H 5H"), 0, "two trump pairs do not ruff a tractor (000)"),
    ("T", "H", DEFAULT, ("QS QS JS JS", "AH AH TS TS"), 1, "the chain tractor AA + TS TS ruffs"),
    ("T", "H", DEFAULT, ("QS QS JS JS", "TS TS TD TD"), 0, "two off-suit level pairs are not a tractor: no ruff"),
    ("T", "H", DEFAULT, ("QS QS JS JS", "3H 3H 4H 4H", "TS TS TH TH"), 2, "over-ruff with a higher trump tractor"),
    ("T", "H", DEFAULT, ("QS QS JS JS", "TS TS TH TH", "SJ SJ BJ BJ"), 2, "SJ SJ BJ BJ over-ruffs TS TS TH TH"),
    ("T", "H", DEFAULT, ("QS QS JS JS", "TS TS TH TH", "3H 3H 4H 4H"), 1, "a lower trump tractor does not over-ruff"),
    ("T", "H", DEFAULT, ("5H 5H 4H 4H", "AH AH KH KH"), 1, "trump tractor lead beaten by a higher trump tractor"),
    ("T", "H", DEFAULT, ("5H 5H 4H 4H", "AH AH KS KS"), 0, "half trump, half plain never wins"),
    ("T", "H", DEFAULT, ("5H 5H 4H 4H", "TS TS TD TD"), 0, "trump tractor lead: two level pairs are no tractor"),
    ("T", "H", DEFAULT, ("3H 3H 4H 4H", "TS TS TH TH"), 1, "off-suit level pair + trump-suit level pair is a tractor"),
    ("T", "H", DEFAULT, ("KS KS QS QS JS JS", "3H 3H 4H 4H 5H 5H"), 1, "a 3-pair tractor is ruffed by a 3-pair trump tractor"),
    ("T", "H", DEFAULT, ("KS KS QS QS JS JS", "3H 3H 4H 4H 8H 8H"), 0, "a 3-pair tractor is not ruffed by a 2-pair tractor + pair"),
    ("T", "N", DEFAULT, ("3S 3S 4S 4S", "SJ SJ TS TS"), 1, "no trump: SJ SJ + a level pair is a tractor (002)"),
    ("T", "N", DEFAULT, ("3S 3S 4S 4S", "TS TS TH TH"), 0, "no trump: two level pairs are not a tractor"),
    ("T", "N", DEFAULT, ("3S 3S 4S 4S", "AD AD KD KD"), 0, "no trump: a tractor of another plain suit is a discard"),
    ("T", "H", NOCHAIN, ("3S 3S 4S 4S", "AH AH TS TS"), 0, "trump_chain_tractors off: AA + TS TS is no tractor"),
    ("T", "H", NOCHAIN, ("3S 3S 4S 4S", "SJ SJ BJ BJ"), 0, "trump_chain_tractors off: SJ SJ BJ BJ is no tractor"),
    ("T", "H", NOCHAIN, ("3S 3S 4S 4S", "TS TS TH TH"), 0, "trump_chain_tractors off: level pairs do not chain"),
    ("T", "H", NOCHAIN, ("3S 3S 4S 4S", "KH KH QH QH"), 1, "trump_chain_tractors off: trump-suit KKQQ still ruffs"),
    ("T", "H", FIXED2, ("4S 4S 5S 5S", "2H 2H 3H 3H"), 0, "fixed_two_trump: 2H sits above AH, 2233 is no tractor"),
    ("T", "H", DEFAULT, ("4S 4S 5S 5S", "2H 2H 3H 3H"), 1, "default: 2H 2H 3H 3H is a trump tractor"),
    # --- throws: ruffs need at least as many tractors and pairs; over-ruffs by the strongest unit
    ("T", "H", DEFAULT, ("AS KS 5S 5S 4S 4S", "9H 9H 8H 8H 7H 2H"), 1, "seed 001/003: trump 99 88 7 2 ruffs A K 55 44"),
    ("T", "H", DEFAULT, ("AS AS 5S 5S 4S 4S", "9H 9H 8H 8H 7H 2H"), 0, "seed 001/003: 99 88 7 2 does not ruff AA 55 44"),
    ("T", "H", DEFAULT, ("5S 4S 4S", "9H 7H 7H", "4H 8H 8H"), 2, "seed 001/003: against 5 44, 9 77 ruffs and 4 88 over-ruffs"),
    ("T", "H", DEFAULT, ("5S 4S 4S", "4H 8H 8H", "9H 7H 7H"), 1, "against 5 44, 88 is not over-ruffed by 9 77"),
    ("T", "H", DEFAULT, ("5S 6S 7S", "9H 7H 7H", "8H 8H 4H"), 1, "seed 001/003: against 5 6 7, 9 77 is not over-ruffed by 8 8 4"),
    ("T", "H", DEFAULT, ("5S 6S 7S", "8H 8H 4H", "9H 7H 7H"), 2, "against 5 6 7 the highest single decides: 9 beats 8"),
    ("T", "H", DEFAULT, ("5S 6S 7S", "9H 7H 7H", "TS 3H 4H"), 2, "against singles the highest card decides: TS over-ruffs"),
    ("T", "H", DEFAULT, ("5S 4S 4S", "9H TS TS", "AH TD TD"), 1, "strongest pairs equal (TS TS = TD TD): the first ruff keeps it"),
    ("T", "H", DEFAULT, ("5S 4S 4S", "9H 8H 7H"), 0, "three trump singles do not ruff a throw holding a pair"),
    ("T", "H", DEFAULT, ("5S 4S 4S", "9H 8H 7S"), 0, "a ruff must be all trump"),
    ("T", "H", DEFAULT, ("AS KS", "BJ 3S"), 0, "a throw is not ruffed by trump + plain"),
    ("T", "H", DEFAULT, ("AS KS", "BJ 3H"), 1, "two trumps ruff a throw of two singles"),
    ("T", "H", DEFAULT, ("AS KS", "AS KS"), 0, "a throw followed by equal cards: the first played wins"),
    ("T", "H", DEFAULT, ("AS AS KS", "2H 2H 3H", "AD AD KD"), 1, "the lead's shape in another plain suit is a discard"),
    ("T", "H", DEFAULT, ("AS AS QS QS 9S", "3H 3H 5H 5H 2H"), 1, "two trump pairs + single ruff two pairs + single"),
    ("T", "H", DEFAULT, ("AS AS QS QS 9S", "3H 3H 5H 5H 2H", "6H 6H 7H 7H 4H"), 2, "over-ruff: 77 beats 55 (pairs inside a tractor count)"),
    ("T", "H", DEFAULT, ("AS AS QS QS 9S", "8H 8H 2H 2H 3H", "6H 6H 7H 7H 4H"), 1, "88 beats 77: no over-ruff"),
    ("T", "H", DEFAULT, ("AS AS QS QS 9S", "3H 3H 5H 7H 2H"), 0, "one trump pair does not ruff two pairs"),
    ("T", "H", DEFAULT, ("KS KS QS QS 8S 8S", "4H 4H 5H 5H 6H 6H"), 1, "a 3-pair trump tractor holds tractor + pair"),
    ("T", "H", DEFAULT, ("KS KS QS QS 8S 8S", "4H 4H 5H 5H 6H 6H", "7H 7H 8H 8H 2H 2H"), 2, "over-ruff by the strongest tractor: 8877 beats 6655"),
    ("T", "H", DEFAULT, ("KS KS QS QS 8S 8S", "4H 4H 5H 5H 6H 6H", "2H 2H 3H 3H 9H 9H"), 1, "3322 is below 6655: the higher extra pair 99 does not help"),
    ("T", "H", DEFAULT, ("KS KS QS QS 8S 8S", "9H 9H 7H 7H 4H 4H"), 0, "three trump pairs without a tractor do not ruff tractor + pair"),
    ("T", "H", DEFAULT, ("AS AS KS KS 8S 8S 7S 7S", "3H 3H 4H 4H 6H 6H 7H 7H"), 1, "two tractors ruffed by two trump tractors"),
    ("T", "H", DEFAULT, ("AS AS KS KS 8S 8S 7S 7S", "3H 3H 4H 4H 6H 6H 8H 8H"), 0, "one tractor + two pairs do not ruff two tractors"),
    ("2", "C", DEFAULT, ("8D 8D JD QD", "5C 5C AC 2S", "3S 3S 7C 8C", "6C 6C 2C 2C"), 3, "rbtying #397: 66 2C2C over-ruffs 55 A 2S (several parses)"),
    ("7", "S", DEFAULT, ("AH KH", "2S 4S", "3S 5S"), 2, "rbtying #36: a singles throw ruffed twice, the highest card decides"),
    ("2", "S", DEFAULT, ("AH KH", "2S 4S", "3S 5S"), 1, "level 2: 2S is the trump-suit level card, highest of both ruffs"),
    ("5", "D", DEFAULT, ("AC KC", "5S AD", "SJ 5H"), 2, "rbtying #259: SJ 5 over-ruffs 5 AD"),
    ("2", "S", DEFAULT, ("TH", "2S", "3S", "SJ"), 3, "rbtying #251: SJ beats the trump-suit 2"),
    # --- 3 decks
    ("T", "H", THREE, ("KS KS KS", "AS AS AS"), 1, "3 decks: a higher triple of the led suit wins"),
    ("T", "H", THREE, ("KS KS KS", "AS AS QS"), 0, "3 decks: pair + single does not beat a triple"),
    ("T", "H", THREE, ("KS KS KS", "3H 3H 3H"), 1, "3 decks: a triple is ruffed by a trump triple"),
    ("T", "H", THREE, ("KS KS KS", "3H 3H 4H"), 0, "3 decks: trump pair + single does not ruff a triple"),
    ("T", "H", THREE, ("KS KS KS", "3H 3H 3H", "4H 4H 4H"), 2, "3 decks: over-ruff with a higher trump triple"),
    ("T", "H", THREE, ("KS KS KS QS QS QS", "3H 3H 3H 4H 4H 4H"), 1, "3 decks: consecutive triples ruffed by trump consecutive triples"),
    ("T", "H", THREE, ("KS KS KS QS QS QS", "3H 3H 4H 4H 5H 5H"), 0, "3 decks: a pair tractor does not ruff consecutive triples"),
]


@pytest.mark.parametrize("level,suit,preset,plays,winner,why", CASES, ids=ids(CASES))
def test_trick_winner(level, suit, preset, plays, winner, why):
    assert trick_winner([cards(p) for p in plays], trump(level, suit), rules(preset)) == winner


def test_winner_after_failed_throw():
    """A failed throw becomes its forced unit; the trick is judged against that unit only
    (rbtying #347: take-backs corrupting the trick winner)."""
    t, rs = trump("T", "H"), rules(None)
    lead = resolve_throw(cards("AS 4S 4S"), [cards("6S 6S 2D"), cards("3C"), cards("5D")], t, rs)
    assert sorted(str(c) for c in lead) == ["4S", "4S"]
    plays = [lead, cards("6S 6S"), cards("KS 3S"), cards("2S 2S")]
    assert trick_winner(plays, t, rs) == 1
