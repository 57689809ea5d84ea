"""Units and how a lead splits into them: decompose (docs/RULES.md "Units" and
"How a lead is split into units").

Expected splits are written "kind cards; kind cards" and compared order-independently.
Where the same cards split into equally good units in more than one way (two equal
off-suit level pairs), the expected column is a tuple of the acceptable splits.
RAISES: the cards are not of one effective suit, decompose must raise IllegalPlay.
"""

from __future__ import annotations

import pytest

from tests.rules._table import (
    DEFAULT,
    FIXED2,
    NOCHAIN,
    THREE,
    IllegalPlay,
    cards,
    decompose,
    ids,
    rules,
    trump,
)

RAISES = "IllegalPlay"

CASES = [
    # level, trump suit ("N" = no trump), rules preset, cards, expected split(s), why
    ("T", "H", DEFAULT, "AS", "single AS", "one card is a single"),
    ("T", "H", DEFAULT, "AS AS", "pair AS AS", "two identical cards are a pair (003 §11)"),
    ("T", "H", DEFAULT, "AS AH", RAISES, "two suits in one lead"),
    ("T", "H", DEFAULT, "AS KS", "single AS; single KS", "two different cards are two singles"),
    (
        "T",
        "H",
        DEFAULT,
        "TS TD",
        "single TS; single TD",
        "equal level cards of different suits are not a pair",
    ),
    ("T", "H", DEFAULT, "SJ BJ", "single SJ; single BJ", "SJ and BJ are not a pair"),
    ("T", "H", DEFAULT, "SJ SJ", "pair SJ SJ", "two SJ are a pair"),
    ("T", "H", DEFAULT, "AS AS KS", "pair AS AS; single KS", "seed 001 甩牌 AAK"),
    ("T", "H", DEFAULT, "AS KS KS", "single AS; pair KS KS", "seed 001 甩牌 AKK"),
    ("T", "H", DEFAULT, "KS KS QS QS", "tractor KS KS QS QS", "seed 001 KKQQ is a tractor"),
    (
        "T",
        "H",
        DEFAULT,
        "JS JS 9S 9S",
        "tractor JS JS 9S 9S",
        "seed 001/002 JJ99: the plain suit skips the level T",
    ),
    (
        "T",
        "H",
        DEFAULT,
        "5S 5S 4S 4S 3S 3S",
        "tractor 5S 5S 4S 4S 3S 3S",
        "seed 001 554433 is a tractor",
    ),
    ("T", "H", DEFAULT, "5S 5S 4S", "pair 5S 5S; single 4S", "seed 001 554 is not a tractor"),
    ("T", "H", DEFAULT, "5S 4S 4S", "single 5S; pair 4S 4S", "seed 001 544 is not a tractor"),
    ("T", "H", DEFAULT, "5S 5S 3S 3S", "pair 5S 5S; pair 3S 3S", "seed 001 5533 is not a tractor"),
    ("T", "H", DEFAULT, "JS JS QS", "pair JS JS; single QS", "seed 001 JJQ is not a tractor"),
    ("T", "H", DEFAULT, "AS AS 2S 2S", "pair AS AS; pair 2S 2S", "seed 001 AA22: no wrap-around"),
    (
        "2",
        "H",
        DEFAULT,
        "AS AS 3S 3S",
        "pair AS AS; pair 3S 3S",
        "level 2: A and 3 are not adjacent (no wrap)",
    ),
    (
        "T",
        "H",
        DEFAULT,
        "TS TS TD TD",
        "pair TS TS; pair TD TD",
        "seed 001 两对副10: two off-suit level pairs are not a tractor",
    ),
    (
        "T",
        "H",
        DEFAULT,
        "JS JS TS TS",
        RAISES,
        "seed 001 JJ1010 in ♠ (not trump): TS is trump, mixed suits",
    ),
    (
        "T",
        "S",
        DEFAULT,
        "JS JS TS TS",
        "pair JS JS; pair TS TS",
        "JJ1010 in the trump suit: TS is not next to JS",
    ),
    (
        "T",
        "H",
        DEFAULT,
        "JH JH TH TH",
        "pair JH JH; pair TH TH",
        "trump-suit level pair is not next to the trump-suit J",
    ),
    ("T", "H", DEFAULT, "AH AH TS TS", "tractor AH AH TS TS", "seed 001 一对副10带一对主牌A"),
    ("T", "H", DEFAULT, "TS TS TH TH", "tractor TS TS TH TH", "seed 001 一对主10带一对副10"),
    ("T", "H", DEFAULT, "TH TH SJ SJ", "tractor TH TH SJ SJ", "seed 001 一对小王带一对主10"),
    ("T", "H", DEFAULT, "SJ SJ BJ BJ", "tractor SJ SJ BJ BJ", "seed 000 一对大王与一对小王"),
    (
        "T",
        "H",
        DEFAULT,
        "TD TD SJ SJ",
        "pair TD TD; pair SJ SJ",
        "an off-suit level pair is not next to SJ (TH sits between)",
    ),
    (
        "T",
        "H",
        DEFAULT,
        "AH AH TS TS TH TH",
        "tractor AH AH TS TS TH TH",
        "seed 001 一对主10带一对副10及一对主牌A",
    ),
    (
        "T",
        "H",
        DEFAULT,
        "TS TS TH TH SJ SJ BJ BJ",
        "tractor TS TS TH TH SJ SJ BJ BJ",
        "4-pair trump tractor along the chain",
    ),
    (
        "T",
        "H",
        DEFAULT,
        "AH AH KH KH TS TS",
        "tractor AH AH KH KH TS TS",
        "trump suit K A then off-suit level",
    ),
    (
        "T",
        "H",
        DEFAULT,
        "KH KH TS TS",
        "pair KH KH; pair TS TS",
        "only the trump-suit A touches the off-suit level cards",
    ),
    (
        "T",
        "H",
        DEFAULT,
        "AH AH TS TS TD TD",
        ("tractor AH AH TS TS; pair TD TD", "tractor AH AH TD TD; pair TS TS"),
        "two equal off-suit level pairs: only one joins the tractor",
    ),
    (
        "T",
        "H",
        DEFAULT,
        "TS TS TD TD TH TH",
        ("tractor TS TS TH TH; pair TD TD", "tractor TD TD TH TH; pair TS TS"),
        "two off-suit level pairs + TH TH: tractor + pair",
    ),
    (
        "T",
        "H",
        DEFAULT,
        "AH AH TS TS TD TD TH TH",
        ("tractor AH AH TS TS TH TH; pair TD TD", "tractor AH AH TD TD TH TH; pair TS TS"),
        "largest unit wins: 3-pair tractor + pair, not two 2-pair tractors",
    ),
    (
        "T",
        "H",
        DEFAULT,
        "2H 2H 3H 3H",
        "tractor 2H 2H 3H 3H",
        "trump suit plain ranks form tractors",
    ),
    (
        "T",
        "H",
        DEFAULT,
        "AH TS BJ",
        "single AH; single TS; single BJ",
        "all trump: one effective suit",
    ),
    ("T", "H", DEFAULT, "AS BJ", RAISES, "plain card and joker in one lead"),
    ("T", "H", DEFAULT, "TS AS", RAISES, "TS is trump, AS plain: mixed"),
    ("T", "H", DEFAULT, "5C 5C 4D 4D", RAISES, "two plain suits in one lead"),
    (
        "T",
        "H",
        DEFAULT,
        "AH QH QH JH JH",
        "single AH; tractor QH QH JH JH",
        "RULES.md: AH QH QH JH JH is A + tractor QQJJ (001)",
    ),
    ("T", "H", DEFAULT, "AS QS QS JS JS", "single AS; tractor QS QS JS JS", "seed 001 甩牌 AQQJJ"),
    (
        "T",
        "H",
        DEFAULT,
        "9S 8S 8S 4S 4S",
        "single 9S; pair 8S 8S; pair 4S 4S",
        "seed 001 甩牌 98844",
    ),
    (
        "T",
        "H",
        DEFAULT,
        "QS QS JS JS 9S 9S 8S",
        "tractor QS QS JS JS 9S 9S; single 8S",
        "3-pair tractor through the level rank + single",
    ),
    (
        "T",
        "H",
        DEFAULT,
        "AS AS KS KS QS QS 9S",
        "tractor AS AS KS KS QS QS; single 9S",
        "3-pair tractor + single",
    ),
    (
        "T",
        "H",
        DEFAULT,
        "AS AS KS KS 8S 8S 7S 7S",
        "tractor AS AS KS KS; tractor 8S 8S 7S 7S",
        "two tractors in one throw",
    ),
    (
        "T",
        "H",
        DEFAULT,
        "AS AS KS QS QS",
        "pair AS AS; single KS; pair QS QS",
        "AA K QQ: a single K breaks the run",
    ),
    (
        "A",
        "H",
        DEFAULT,
        "KH KH AS AS",
        "tractor KH KH AS AS",
        "level A: KH tops the trump suit and touches the off-suit A",
    ),
    (
        "A",
        "H",
        DEFAULT,
        "QH QH AS AS",
        "pair QH QH; pair AS AS",
        "level A: QH does not touch the off-suit A",
    ),
    (
        "2",
        "H",
        DEFAULT,
        "AH AH 2S 2S",
        "tractor AH AH 2S 2S",
        "level 2: trump AA + off-suit level pair",
    ),
    ("2", "H", DEFAULT, "3S 3S 4S 4S", "tractor 3S 3S 4S 4S", "level 2: plain 3344"),
    ("6", "H", DEFAULT, "5S 5S 7S 7S", "tractor 5S 5S 7S 7S", "seed 000 打6时对5和对7也为拖拉机"),
    (
        "6",
        "H",
        DEFAULT,
        "5H 5H 7H 7H",
        "tractor 5H 5H 7H 7H",
        "skipping the level rank also in the trump suit",
    ),
    (
        "T",
        "N",
        DEFAULT,
        "SJ SJ TS TS",
        "tractor SJ SJ TS TS",
        "seed 002 无主时一对小王和任一对10都是拖拉机",
    ),
    (
        "T",
        "N",
        DEFAULT,
        "SJ SJ TH TH",
        "tractor SJ SJ TH TH",
        "no trump: any level pair touches SJ SJ",
    ),
    (
        "T",
        "N",
        DEFAULT,
        "TS TS TH TH",
        "pair TS TS; pair TH TH",
        "no trump: level pairs are equal, never a tractor",
    ),
    (
        "T",
        "N",
        DEFAULT,
        "BJ BJ SJ SJ TC TC",
        "tractor BJ BJ SJ SJ TC TC",
        "no trump: BJ BJ SJ SJ + level pair",
    ),
    ("T", "N", DEFAULT, "AS AS KS KS", "tractor AS AS KS KS", "no trump: plain tractor"),
    ("T", "N", DEFAULT, "AS AS TS TS", RAISES, "no trump: TS is trump, AS plain"),
    (
        "T",
        "H",
        NOCHAIN,
        "AH AH TS TS",
        "pair AH AH; pair TS TS",
        "trump_chain_tractors off: AA + off-suit level pair is two pairs",
    ),
    (
        "T",
        "H",
        NOCHAIN,
        "TS TS TH TH",
        "pair TS TS; pair TH TH",
        "trump_chain_tractors off: level pairs do not chain",
    ),
    (
        "T",
        "H",
        NOCHAIN,
        "TH TH SJ SJ",
        "pair TH TH; pair SJ SJ",
        "trump_chain_tractors off: level pair + SJ SJ is two pairs",
    ),
    (
        "T",
        "H",
        NOCHAIN,
        "SJ SJ BJ BJ",
        "pair SJ SJ; pair BJ BJ",
        "trump_chain_tractors off: joker pairs do not chain",
    ),
    (
        "T",
        "H",
        NOCHAIN,
        "KH KH QH QH",
        "tractor KH KH QH QH",
        "trump_chain_tractors off: trump-suit KKQQ remains",
    ),
    (
        "T",
        "H",
        NOCHAIN,
        "JH JH 9H 9H",
        "tractor JH JH 9H 9H",
        "trump_chain_tractors off: trump-suit JJ99 (level skipped) remains",
    ),
    (
        "T",
        "H",
        NOCHAIN,
        "JS JS 9S 9S",
        "tractor JS JS 9S 9S",
        "trump_chain_tractors off: plain suits unaffected",
    ),
    (
        "T",
        "N",
        NOCHAIN,
        "SJ SJ TS TS",
        "pair SJ SJ; pair TS TS",
        "trump_chain_tractors off, no trump: SJ SJ + level pair is two pairs",
    ),
    (
        "T",
        "H",
        FIXED2,
        "2H 2H 3H 3H",
        "pair 2H 2H; pair 3H 3H",
        "fixed_two_trump: 2H sits above AH, not next to 3H",
    ),
    ("T", "H", FIXED2, "3S 3S 4S 4S", "tractor 3S 3S 4S 4S", "fixed_two_trump: plain 3344"),
    ("T", "H", FIXED2, "AS AS 2S 2S", RAISES, "fixed_two_trump: 2S is trump, AS plain"),
    (
        "T",
        "H",
        FIXED2,
        "AH AH 2S 2S",
        "tractor AH AH 2S 2S",
        "fixed_two_trump chain: trump A then off-suit 2 (decision)",
    ),
    (
        "T",
        "H",
        FIXED2,
        "2S 2S 2H 2H",
        "tractor 2S 2S 2H 2H",
        "fixed_two_trump chain: off-suit 2 then trump-suit 2 (decision)",
    ),
    (
        "T",
        "H",
        FIXED2,
        "2H 2H TS TS",
        "tractor 2H 2H TS TS",
        "fixed_two_trump chain: trump-suit 2 then off-suit level (decision)",
    ),
    (
        "T",
        "H",
        FIXED2,
        "2S 2S 2D 2D",
        "pair 2S 2S; pair 2D 2D",
        "fixed_two_trump: off-suit 2s are equal, never a tractor",
    ),
    (
        "T",
        "H",
        THREE,
        "KS KS KS",
        "triple KS KS KS",
        "3 decks: three identical cards are a triple (刻子)",
    ),
    ("T", "H", THREE, "KS KS KS QS", "triple KS KS KS; single QS", "3 decks: triple + single"),
    ("T", "H", THREE, "KS KS QS QS", "tractor KS KS QS QS", "3 decks: pair tractor"),
    (
        "T",
        "H",
        THREE,
        "KS KS KS QS QS QS",
        "tractor KS KS KS QS QS QS",
        "3 decks: consecutive triples (连刻) width 3 length 2",
    ),
    (
        "T",
        "H",
        THREE,
        "KS KS KS QS QS",
        "tractor KS KS QS QS; single KS",
        "3 decks: a 4-card tractor outranks a triple (largest unit first; decision)",
    ),
    (
        "T",
        "H",
        THREE,
        "5S 5S 5S 4S 4S 4S 3S 3S 3S",
        "tractor 5S 5S 5S 4S 4S 4S 3S 3S 3S",
        "3 decks: three consecutive triples",
    ),
    (
        "5",
        "H",
        THREE,
        "3S 3S 3S 4S 4S 4S",
        "tractor 3S 3S 3S 4S 4S 4S",
        "seed 002 打5时 333444 连刻",
    ),
    (
        "5",
        "H",
        THREE,
        "4S 4S 4S 6S 6S 6S",
        "tractor 4S 4S 4S 6S 6S 6S",
        "seed 002 打5时 444666 连刻 (level 5 skipped)",
    ),
    (
        "5",
        "H",
        THREE,
        "5S 5S 5S 5H 5H 5H",
        "tractor 5S 5S 5S 5H 5H 5H",
        "seed 002 副5副5副5主5主5主5",
    ),
    ("5", "H", THREE, "BJ BJ BJ SJ SJ SJ", "tractor BJ BJ BJ SJ SJ SJ", "seed 002 大王×3 小王×3"),
    ("5", "H", THREE, "AH AH AH 5S 5S 5S", "tractor AH AH AH 5S 5S 5S", "seed 002 AAA 副5副5副5"),
    ("5", "H", THREE, "5H 5H 5H SJ SJ SJ", "tractor 5H 5H 5H SJ SJ SJ", "seed 002 主5×3 小王×3"),
    ("5", "H", THREE, "5S 5S 5S 6S 6S 6S", RAISES, "seed 002 打5时 555666 不为连刻: 5S is trump"),
    (
        "5",
        "N",
        THREE,
        "5S 5S 5S 5H 5H 5H",
        "triple 5S 5S 5S; triple 5H 5H 5H",
        "seed 002 打无主时 555555 不为连刻",
    ),
]

KINDS = {"single": 1, "pair": 2, "triple": 3}


def _split_key(units) -> list[tuple[str, list[str]]]:
    return sorted((u.kind, sorted(str(c) for c in u.cards)) for u in units)


def _expected_key(text: str) -> list[tuple[str, list[str]]]:
    out = []
    for part in text.split(";"):
        kind, _, rest = part.strip().partition(" ")
        out.append((kind, sorted(rest.split())))
    return sorted(out)


@pytest.mark.parametrize("level,suit,preset,text,expected,why", CASES, ids=ids(CASES))
def test_decompose(level, suit, preset, text, expected, why):
    played = cards(text)
    if expected == RAISES:
        with pytest.raises(IllegalPlay):
            decompose(played, trump(level, suit), rules(preset))
        return
    units = decompose(played, trump(level, suit), rules(preset))
    alternatives = (expected,) if isinstance(expected, str) else expected
    assert _split_key(units) in [_expected_key(e) for e in alternatives]
    assert sorted(str(c) for u in units for c in u.cards) == sorted(str(c) for c in played)
    for u in units:
        distinct = len(set(u.cards))
        if u.kind == "tractor":
            assert distinct >= 2
            assert u.length == distinct
            assert u.width * u.length == len(u.cards)
            assert u.width in (2, 3)
        else:
            assert u.kind in KINDS
            assert (u.width, u.length) == (KINDS[u.kind], 1)
            assert len(u.cards) == u.width
