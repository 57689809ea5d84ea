# ruff: noqa: E501
"""Follow legality: check_follow (docs/RULES.md "Tricks": follow suit, match the shape).

The obligations form a ladder from the lead's own shape down to all singles; a play is
legal when it meets the highest rung the follower's hand could meet. `hand` is the
follower's whole hand before playing (it contains `play`); `lead` is a lead that stood.

The `hint` column keeps message checks loose: when a play is illegal for a reason a
player must be told, the IllegalPlay message (lower-cased) should contain one of the
listed words. None: no check on the message (wrong card count, cards not held).
"""

from __future__ import annotations

import pytest

from tests.rules._table import (
    DEFAULT,
    FIXED2,
    NOCHAIN,
    SUIT_ONLY,
    THREE,
    IllegalPlay,
    cards,
    check_follow,
    ids,
    rules,
    trump,
)

SUIT = ("spade", "♠", "suit")  # every plain lead in this table is a spade lead
TRUMP = ("trump", "主")
SHAPE = ("pair", "tractor", "triple")

# 3-pair tractor leads used by the ladder rows below (level T: K Q J are consecutive).
KQJ = "KS KS QS QS JS JS"
# A throw of tractor + pair and a throw of two tractors.
AK88 = "AS AS KS KS 8S 8S"
AK87 = "AS AS KS KS 8S 8S 7S 7S"

CASES = [
    # level, trump suit ("N" = no trump), rules preset, hand, lead, play, legal?, hint, why
    # --- follow suit (000, 003): all led-suit cards first, then anything; no duty to ruff
    ("T", "H", DEFAULT, "3S 4D 5C", "AS", "4D", False, SUIT, "follow suit: a spade in hand must be played"),
    ("T", "H", DEFAULT, "3S 4D 5C", "AS", "3S", True, None, "follow suit with the only spade"),
    ("T", "H", DEFAULT, "4D 5C AH", "AS", "4D", True, None, "void in spades: a discard is legal, no duty to ruff"),
    ("T", "H", DEFAULT, "4D 5C AH", "AS", "AH", True, None, "void in spades: a ruff is legal"),
    ("T", "H", DEFAULT, "TS 4D", "AS", "4D", True, None, "level T: TS is trump, holding only TS is being void in spades"),
    ("T", "H", DEFAULT, "TS 4D", "AS", "TS", True, None, "level T: TS on a spade lead is a ruff"),
    ("T", "H", DEFAULT, "AS 3H 4D", "TS", "AS", False, TRUMP, "a TS lead is a trump lead: the trump 3H must follow"),
    ("T", "H", DEFAULT, "AS 3H 4D", "TS", "3H", True, None, "a TS lead is followed with trump 3H"),
    ("T", "H", DEFAULT, "AS 4D", "TS", "AS", True, None, "void in trumps: AS is a discard on a trump lead"),
    ("T", "H", DEFAULT, "TC 4D", "3H", "4D", False, TRUMP, "the off-suit level card TC is trump and must follow a trump lead"),
    ("T", "H", DEFAULT, "2H 5S", "SJ", "5S", False, TRUMP, "a joker lead is a trump lead: 2H must follow"),
    ("T", "H", DEFAULT, "BJ 5S", "2H", "BJ", True, None, "a joker follows a trump lead"),
    ("T", "N", DEFAULT, "TH 3S", "AH", "3S", True, None, "no trump: TH is trump, so the hand is void in hearts"),
    ("T", "N", DEFAULT, "TH 3S", "TS", "3S", False, TRUMP, "no trump: a level-card lead is trump, TH must follow"),
    ("T", "H", FIXED2, "2S 4D", "AS", "4D", True, None, "fixed_two_trump: 2S is trump, the hand is void in spades"),
    ("T", "H", DEFAULT, "2S 4D", "AS", "4D", False, SUIT, "default: 2S is a plain spade and must follow"),
    ("T", "H", DEFAULT, "3S 4D 5D", "KS KS", "3S 4D", True, None, "pair lead, one spade: that spade plus anything"),
    ("T", "H", DEFAULT, "3S 4D 5D", "KS KS", "4D 5D", False, SUIT, "pair lead: the one spade must be played"),
    ("T", "H", DEFAULT, "3S 4S 5D", "KS KS", "3S 5D", False, SUIT, "pair lead: all led-suit cards before anything else"),
    ("T", "H", DEFAULT, "3S 4S 5D", "KS KS", "3S 4S", True, None, "pair lead, two unpaired spades: play both"),
    ("T", "H", DEFAULT, "3S 4S 5S 6D", "KS KS QS", "3S 4S 6D", False, SUIT, "throw of three: three spades held, all three must come"),
    # --- pairs (001 首家出对牌时, 其余家有对牌必须出对牌, 包括拖拉机中的对牌)
    ("T", "H", DEFAULT, "7S 7S 8S 3D", "KS KS", "7S 8S", False, SHAPE, "pair lead: a held pair must be played"),
    ("T", "H", DEFAULT, "7S 7S 8S 3D", "KS KS", "7S 7S", True, None, "pair lead: the pair is played"),
    ("T", "H", DEFAULT, "7S 8S 9S", "KS KS", "7S 9S", True, None, "pair lead, no pair in spades: any two spades"),
    ("T", "H", DEFAULT, "7S 7S 8S 8S 3D", "KS KS", "7S 8S", False, SHAPE, "pair lead: pairs inside a tractor count (001)"),
    ("T", "H", DEFAULT, "7S 7S 8S 8S 3D", "KS KS", "8S 8S", True, None, "pair lead: one pair out of a tractor"),
    ("T", "H", DEFAULT, "7S 7S 9S 9S", "KS KS", "7S 7S", True, None, "pair lead: any pair will do, not only the highest"),
    ("T", "H", DEFAULT, "7S 3H 3H", "KS KS", "7S 3H", True, None, "pair lead, one spade: no duty to ruff with the trump pair"),
    ("T", "H", DEFAULT, "9D 9D 7S", "KS KS", "9D 9D", False, SUIT, "a pair of another suit cannot replace the spade"),
    ("T", "H", DEFAULT, "9D 9D 4C", "KS KS", "9D 4C", True, None, "void in spades: a pair need not be kept together"),
    ("T", "H", DEFAULT, "TS TS 5H 6D", "3H 3H", "TS TS", True, None, "trump pair lead: the off-suit level pair is a trump pair"),
    ("T", "H", DEFAULT, "TS TS 5H 6D", "3H 3H", "TS 5H", False, SHAPE, "trump pair lead: the trump pair TS TS must be played"),
    ("T", "H", DEFAULT, "TS TS 5H 6D", "3H 3H", "5H 6D", False, TRUMP + SHAPE, "trump lead: trumps before 6D"),
    ("T", "H", DEFAULT, "SJ SJ 4H 5D", "3H 3H", "SJ 4H", False, SHAPE, "trump pair lead: the joker pair must be played"),
    ("T", "H", DEFAULT, "SJ SJ 4H 5D", "3H 3H", "SJ SJ", True, None, "trump pair lead: joker pair played"),
    ("T", "H", DEFAULT, "SJ BJ 4H", "3H 3H", "SJ BJ", True, None, "SJ BJ is not a pair: any two trumps"),
    ("T", "H", DEFAULT, "TS TD 4H", "3H 3H", "TS TD", True, None, "TS TD differ in suit: not a pair, any two trumps"),
    ("T", "N", DEFAULT, "TH TH SJ 5S", "TS TS", "TH SJ", False, SHAPE, "no trump: TH TH is a trump pair and must follow a level pair"),
    ("T", "N", DEFAULT, "TH TH SJ 5S", "TS TS", "TH TH", True, None, "no trump: TH TH follows TS TS"),
    # --- tractors (001, 002: 有拖拉机必须出拖拉机, 若无拖拉机, 则必须出对牌)
    ("T", "H", DEFAULT, "7S 7S 8S 8S 3S 4D", "KS KS QS QS", "7S 7S 8S 8S", True, None, "tractor lead: a held tractor is played"),
    ("T", "H", DEFAULT, "7S 7S 8S 8S 3S 4D", "KS KS QS QS", "7S 7S 8S 3S", False, SHAPE, "tractor lead: a held tractor must be played"),
    ("T", "H", DEFAULT, "7S 7S 9S 9S 3S 4D", "KS KS QS QS", "7S 7S 9S 9S", True, None, "tractor lead, no tractor: two pairs"),
    ("T", "H", DEFAULT, "7S 7S 9S 9S 3S 4D", "KS KS QS QS", "7S 7S 9S 3S", False, SHAPE, "tractor lead, no tractor: both pairs must be played"),
    ("T", "H", DEFAULT, "7S 7S 9S 3S 4S", "KS KS QS QS", "7S 7S 9S 3S", True, None, "tractor lead, one pair: the pair and two singles"),
    ("T", "H", DEFAULT, "7S 7S 9S 3S 4S", "KS KS QS QS", "7S 9S 3S 4S", False, SHAPE, "tractor lead: the one pair must be played"),
    ("T", "H", DEFAULT, "7S 7S 9S 4D 5D", "KS KS QS QS", "7S 7S 9S 4D", True, None, "tractor lead, three spades: all of them plus one"),
    ("T", "H", DEFAULT, "7S 7S 9S 4D 5D", "KS KS QS QS", "7S 9S 4D 5D", False, SUIT + SHAPE, "tractor lead: every spade must be played"),
    ("T", "H", DEFAULT, "3S 5S 7S 9S 2D", "KS KS QS QS", "3S 5S 7S 9S", True, None, "tractor lead, four single spades"),
    ("T", "H", DEFAULT, "JS JS 9S 9S 3S 4D", "KS KS QS QS", "JS JS 9S 9S", True, None, "level T: JJ99 is a tractor (002) and is played"),
    ("T", "H", DEFAULT, "JS JS 9S 9S 3S 4D", "KS KS QS QS", "JS JS 9S 3S", False, SHAPE, "level T: the tractor JJ99 may not be broken"),
    ("T", "H", DEFAULT, "7S 7S 8S 8S 4S 4S", "KS KS QS QS", "7S 7S 4S 4S", False, SHAPE, "two pairs do not replace a held tractor"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 4S 4S", "KS KS QS QS", "2S 2S 4S 4S", False, SHAPE, "2244 is no tractor: 3322 or 4433 must be played"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 4S 4S", "KS KS QS QS", "4S 4S 3S 3S", True, None, "any 2-pair tractor out of 443322"),
    ("T", "H", DEFAULT, "AS AS 2S 2S 5S", "KS KS QS QS", "AS AS 2S 2S", True, None, "AA22 is no tractor (no wrap): two pairs"),
    ("T", "H", DEFAULT, "JS JS TS TS 3S 3S 5S", "KS KS QS QS", "JS JS 3S 3S", True, None, "JJ + TS TS is no spade tractor (TS is trump): two spade pairs"),
    ("T", "H", DEFAULT, "JS JS TS TS 3S 3S 5S", "KS KS QS QS", "JS JS TS TS", False, SUIT + SHAPE, "TS is trump: spades must be used first"),
    # trump tractor leads must force trump pairs and tractors (rbtying #105)
    ("K", "S", DEFAULT, "AS AS 3S 4S 5S 6S 2S JD", "7S 7S 8S 8S 9S 9S", "3S 4S 5S 6S 2S AS", False, SHAPE, "rbtying #105: 778899 trump tractor, the trump pair AA must come"),
    ("K", "S", DEFAULT, "AS AS 3S 4S 5S 6S 2S JD", "7S 7S 8S 8S 9S 9S", "AS AS 3S 4S 5S 6S", True, None, "rbtying #105: trump pair + trump singles"),
    ("K", "S", DEFAULT, "KD KD 3S 4S 5S 6S 2S JD", "7S 7S 8S 8S 9S 9S", "3S 4S 5S 6S 2S KD", False, SHAPE, "rbtying #105: an off-suit level pair is a trump pair too"),
    ("T", "H", DEFAULT, "6H 6H 8H 9H TS 4D", "3H 3H 4H 4H", "6H 8H 9H TS", False, SHAPE, "trump tractor lead: the trump pair 66 must be played (#105)"),
    ("T", "H", DEFAULT, "6H 6H 8H 9H TS 4D", "3H 3H 4H 4H", "6H 6H 8H 9H", True, None, "trump tractor lead: trump pair + two trumps"),
    ("T", "H", DEFAULT, "SJ SJ 5H 7H 9C", "3H 3H 4H 4H", "SJ 5H 7H 9C", False, TRUMP + SHAPE, "trump tractor lead: four trumps held, joker pair included"),
    ("T", "H", DEFAULT, "SJ SJ 5H 7H 9C", "3H 3H 4H 4H", "SJ SJ 5H 7H", True, None, "trump tractor lead: all four trumps"),
    ("T", "H", DEFAULT, "AH AH TS TS 5H 6H", "3H 3H 4H 4H", "AH AH 5H 6H", False, SHAPE, "the chain tractor AA + TS TS must be played"),
    ("T", "H", DEFAULT, "AH AH TS TS 5H 6H", "3H 3H 4H 4H", "AH AH TS TS", True, None, "the chain tractor AA + TS TS follows a trump tractor"),
    ("T", "H", DEFAULT, "AH AH TS TS 5H 5H", "3H 3H 4H 4H", "AH AH 5H 5H", False, SHAPE, "default: AA + TS TS is a tractor, two other pairs do not do"),
    ("T", "H", NOCHAIN, "AH AH TS TS 5H 5H", "3H 3H 4H 4H", "AH AH 5H 5H", True, None, "trump_chain_tractors off: no tractor held, any two pairs"),
    ("T", "H", NOCHAIN, "AH AH TS TS 5H 6H", "3H 3H 4H 4H", "AH AH 5H 6H", False, SHAPE, "trump_chain_tractors off: still two pairs are owed"),
    ("T", "H", DEFAULT, "TS TS TD TD 5H 6C", "3H 3H 4H 4H", "TS TS TD TD", True, None, "two off-suit level pairs: no tractor, two pairs"),
    ("T", "H", DEFAULT, "TS TS TD TD 5H 6C", "3H 3H 4H 4H", "TS TS TD 5H", False, SHAPE, "two off-suit level pairs: both pairs are owed"),
    ("T", "N", DEFAULT, "BJ BJ TH TH TC 3S", "SJ SJ TS TS", "BJ TH TH TC", False, SHAPE, "no trump: BJ BJ and TH TH are two pairs owed to a tractor"),
    ("T", "N", DEFAULT, "BJ BJ TH TH TC 3S", "SJ SJ TS TS", "BJ BJ TH TH", True, None, "no trump: BJ BJ TH TH (not adjacent) follow as two pairs"),
    # --- the 3-pair tractor ladder: 3-tractor; 2-tractor + pair; three pairs; all pairs held, then singles
    ("T", "H", DEFAULT, "2S 2S 3S 3S 4S 4S 9D", KQJ, "2S 2S 3S 3S 4S 4S", True, None, "3-tractor lead: a held 3-tractor is played"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 4S 4S 6S 6S", KQJ, "2S 2S 3S 3S 6S 6S", False, SHAPE, "3-tractor lead: a 2-tractor + pair dodges the held 3-tractor"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 4S 4S 6S 6S", KQJ, "3S 3S 4S 4S 2S 2S", True, None, "3-tractor lead: 443322 played"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 6S 6S 8S 9S", KQJ, "2S 2S 3S 3S 6S 6S", True, None, "3-tractor lead, no 3-tractor: 2-tractor + pair"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 6S 6S 8S 9S", KQJ, "2S 2S 3S 3S 8S 9S", False, SHAPE, "3-tractor lead: the pair 66 must join the 2-tractor"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 6S 6S 8S 9S", KQJ, "2S 2S 6S 6S 8S 9S", False, SHAPE, "3-tractor lead: the 2-tractor may not be broken"),
    ("T", "H", DEFAULT, "2S 2S 4S 4S 6S 6S 8S", KQJ, "2S 2S 4S 4S 6S 6S", True, None, "3-tractor lead, no tractor: three pairs"),
    ("T", "H", DEFAULT, "2S 2S 4S 4S 6S 6S 8S", KQJ, "2S 2S 4S 4S 6S 8S", False, SHAPE, "3-tractor lead: three pairs held, three owed"),
    ("T", "H", DEFAULT, "2S 2S 4S 4S 6S 8S 9S", KQJ, "2S 2S 4S 4S 6S 8S", True, None, "3-tractor lead: both pairs held, then singles"),
    ("T", "H", DEFAULT, "2S 2S 4S 4S 6S 8S 9S", KQJ, "2S 2S 4S 6S 8S 9S", False, SHAPE, "3-tractor lead: two pairs held, both owed"),
    ("T", "H", DEFAULT, "2S 2S 4S 6S 8S 9S 7S", KQJ, "2S 2S 4S 6S 8S 9S", True, None, "3-tractor lead: one pair held, then singles"),
    ("T", "H", DEFAULT, "2S 2S 4S 6S 8S 9S 7S", KQJ, "2S 4S 6S 8S 9S 7S", False, SHAPE, "3-tractor lead: the one pair is owed"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 8S 9S 4D", KQJ, "2S 2S 3S 3S 8S 9S", True, None, "3-tractor lead: 2-tractor and no other pair: all spades"),
    ("T", "H", DEFAULT, "2S 2S 4S 6S 3D 5D 7C", KQJ, "2S 2S 4S 6S 3D 5D", True, None, "3-tractor lead, four spades: all of them, then anything"),
    ("T", "H", DEFAULT, "2S 2S 4S 6S 3D 5D 7C", KQJ, "2S 4S 6S 3D 5D 7C", False, SUIT + SHAPE, "3-tractor lead: every spade is owed"),
    ("T", "H", DEFAULT, "JS JS 9S 9S 8S 8S 3S", "AS AS KS KS QS QS", "JS JS 9S 9S 8S 8S", True, None, "level T: JJ9988 is a 3-tractor and follows AAKKQQ"),
    ("T", "H", DEFAULT, "JS JS 9S 9S 8S 8S 3S", "AS AS KS KS QS QS", "JS JS 8S 8S 9S 3S", False, SHAPE, "level T: the 3-tractor JJ9988 may not be broken"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 4S 4S", "KS KS QS QS", "2S 2S 3S 3S", True, None, "2-tractor lead: part of a longer tractor is a tractor"),
    # --- throws (multi-unit leads)
    ("T", "H", DEFAULT, "2S 3S 4S", "AS KS", "2S 4S", True, None, "throw of singles: any spades"),
    ("T", "H", DEFAULT, "2S 2S 3S 4S", "AS AS KS", "2S 3S 4S", False, SHAPE, "throw with a pair: a held pair is owed"),
    ("T", "H", DEFAULT, "2S 2S 3S 4S", "AS AS KS", "2S 2S 4S", True, None, "throw with a pair: pair + single"),
    ("T", "H", DEFAULT, "2S 3S 4S 5H", "AS AS KS", "2S 3S 4S", True, None, "throw with a pair, no pair held: three spades"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S", "AS AS KS", "2S 3S 3S", True, None, "throw with a pair: any one pair, the other card free"),
    ("T", "H", DEFAULT, "2S 3H 3H 4D", "AS AS KS", "3H 3H 4D", False, SUIT, "throw: the one spade is owed before trumps"),
    ("T", "H", DEFAULT, "2S 3H 3H 4D", "AS AS KS", "2S 3H 4D", True, None, "throw: after the spades anything, no duty to keep a trump pair"),
    ("T", "H", DEFAULT, "2S 2S 3S 4S 5S", "AS AS KS QS", "2S 3S 4S 5S", False, SHAPE, "throw AA K Q: the pair 22 is owed"),
    ("T", "H", DEFAULT, "2S 2S 3S 4S 5S", "AS AS KS QS", "2S 2S 3S 4S", True, None, "throw AA K Q: pair + two singles"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 9D", "AS AS QS QS", "2S 2S 3S 3S", True, None, "throw AA QQ: a tractor serves as two pairs"),
    ("T", "H", DEFAULT, "2S 2S 5S 7S 9S", "AS AS QS QS", "2S 2S 5S 7S", True, None, "throw AA QQ: one pair held, plus singles"),
    ("T", "H", DEFAULT, "2S 2S 5S 7S 9S", "AS AS QS QS", "2S 5S 7S 9S", False, SHAPE, "throw AA QQ: the one pair is owed"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 5S 6S", "AS KS KS QS QS", "2S 2S 3S 3S 5S", True, None, "seed throw A KKQQ: tractor + single"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 5S 6S", "AS KS KS QS QS", "2S 2S 3S 5S 6S", False, SHAPE, "seed throw A KKQQ: the held tractor is owed"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 6S 6S 7S", AK88, "2S 2S 3S 3S 6S 6S", True, None, "throw tractor + pair: held tractor + pair"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 6S 6S 7S", AK88, "2S 2S 6S 6S 7S 3S", False, SHAPE, "throw tractor + pair: the tractor may not be broken"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 6S 6S 7S", AK88, "2S 2S 3S 3S 6S 7S", False, SHAPE, "throw tractor + pair: the pair 66 is owed too"),
    ("T", "H", DEFAULT, "2S 2S 4S 4S 6S 6S 9S", AK88, "2S 2S 4S 4S 6S 6S", True, None, "throw tractor + pair, no tractor held: three pairs"),
    ("T", "H", DEFAULT, "2S 2S 4S 4S 6S 6S 9S", AK88, "2S 2S 4S 4S 6S 9S", False, SHAPE, "throw tractor + pair: three pairs held, three owed"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 5S 5S 6S 6S 9S", AK87, "2S 2S 3S 3S 5S 5S 6S 6S", True, None, "throw of two tractors: two tractors"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 4S 5S 5S 9S JS", AK87, "2S 2S 3S 3S 5S 5S 9S 4S", True, None, "throw of two tractors: one tractor + a pair held"),
    ("T", "H", DEFAULT, "2S 2S 3S 3S 4S 5S 5S 9S JS", AK87, "2S 2S 3S 3S 4S 5S 9S JS", False, SHAPE, "throw of two tractors: the pair 55 is owed"),
    ("T", "H", DEFAULT, "TS TS 3H 4D", "AH AH KH", "TS TS 3H", True, None, "trump throw AA K: trump pair TS TS + 3H"),
    ("T", "H", DEFAULT, "TS TS 3H 4D", "AH AH KH", "TS 3H 4D", False, TRUMP + SHAPE, "trump throw AA K: the trump pair and all trumps are owed"),
    ("T", "H", DEFAULT, "TS TS 3H 5H 4D", "AH AH KH", "TS 3H 5H", False, SHAPE, "trump throw AA K: the trump pair TS TS is owed"),
    # --- 3 decks: triples (刻子) and consecutive triples (连刻), ladder from seed 002
    ("T", "H", THREE, "7S 7S 7S 8S 9D", "KS KS KS", "7S 7S 7S", True, None, "3 decks, triple lead: a held triple is played"),
    ("T", "H", THREE, "7S 7S 7S 8S 9D", "KS KS KS", "7S 7S 8S", False, SHAPE, "3 decks, triple lead: a held triple is owed"),
    ("T", "H", THREE, "7S 7S 8S 9S", "KS KS KS", "7S 7S 8S", True, None, "3 decks, triple lead, no triple: pair + single (002)"),
    ("T", "H", THREE, "7S 7S 8S 9S", "KS KS KS", "7S 8S 9S", False, SHAPE, "3 decks, triple lead: the pair is owed"),
    ("T", "H", THREE, "7S 8S 9S 4D", "KS KS KS", "7S 8S 9S", True, None, "3 decks, triple lead, no pair: singles"),
    ("T", "H", THREE, "7S 7S 7S 8S 8S", "KS KS KS", "8S 8S 7S", False, SHAPE, "3 decks, triple lead: a pair may not hide the triple"),
    ("T", "H", THREE, "7S 7S 7S 8S 9D", "KS KS", "7S 8S", False, SHAPE, "3 decks, pair lead: a triple holds a pair, it cannot dodge (#301)"),
    ("T", "H", THREE, "7S 7S 7S 8S 9D", "KS KS", "7S 7S", True, None, "3 decks, pair lead: a pair out of a triple"),
    ("T", "H", THREE, "7S 7S 7S 8S 8S", "KS KS", "8S 8S", True, None, "3 decks, pair lead: a real pair next to a triple"),
    ("T", "H", THREE, "7S 7S 7S 8S 8S", "KS KS", "7S 8S", False, SHAPE, "3 decks, pair lead: two singles do not do"),
    ("2", "H", THREE, "8S 8S 8S JS QS QS", "5S 5S 6S 6S", "8S 8S 8S JS", False, SHAPE, "rbtying #301: tractor lead, triple + single does not save the pair QQ"),
    ("2", "H", THREE, "8S 8S 8S JS QS QS", "5S 5S 6S 6S", "8S 8S QS QS", True, None, "rbtying #301: two pairs (one out of the triple)"),
    ("2", "H", THREE, "3S 3S 3S TS TS 7S", "AS AS KS KS", "3S 3S 3S 7S", False, SHAPE, "rbtying #315: with 333 TT 7, 3337 dodges the pair TT"),
    ("2", "H", THREE, "3S 3S 3S TS TS 7S", "AS AS KS KS", "3S 3S TS TS", True, None, "rbtying #315: 33 TT"),
    ("2", "H", THREE, "7S 7S 7S 8S 9S TS TS", "AS AS KS KS", "7S 7S 7S 8S", False, SHAPE, "rbtying #319: 7778 saves the pair TT, not allowed"),
    ("2", "H", THREE, "7S 7S 7S 8S 9S TS TS", "AS AS KS KS", "8S 9S TS TS", False, SHAPE, "rbtying #319: the pair inside 777 is owed too"),
    ("2", "H", THREE, "7S 7S 7S 8S 9S TS TS", "AS AS KS KS", "7S 7S TS TS", True, None, "rbtying #319: 77 TT"),
    ("2", "H", THREE, "7S 7S 7S 8S 8S 8S", "AS AS KS KS", "7S 7S 8S 8S", True, None, "3 decks: a pair tractor out of consecutive triples"),
    ("2", "H", THREE, "7S 7S 7S 8S 8S 8S", "AS AS KS KS", "7S 7S 7S 8S", False, SHAPE, "3 decks: consecutive triples hold a pair tractor, it is owed"),
    ("T", "H", THREE, "2S 2S 2S 3S 3S 3S 9S", "KS KS KS QS QS QS", "2S 2S 2S 3S 3S 3S", True, None, "3 decks, 连刻 lead: 连刻 held and played"),
    ("T", "H", THREE, "2S 2S 2S 3S 3S 3S 9S", "KS KS KS QS QS QS", "2S 2S 2S 3S 3S 9S", False, SHAPE, "3 decks, 连刻 lead: the held 连刻 is owed"),
    ("T", "H", THREE, "2S 2S 3S 3S 5S 5S 5S 8S", "KS KS KS QS QS QS", "2S 2S 3S 3S 5S 8S", True, None, "3 decks, 连刻 lead, no 连刻: tractor + any two (002)"),
    ("T", "H", THREE, "2S 2S 3S 3S 5S 5S 5S 8S", "KS KS KS QS QS QS", "5S 5S 5S 2S 2S 3S", False, SHAPE, "3 decks, 连刻 lead: tractor + two ranks above triple + pair + single (002)"),
    ("T", "H", THREE, "2S 2S 2S 5S 5S 5S 8S 9S", "KS KS KS QS QS QS", "2S 2S 2S 5S 5S 5S", True, None, "3 decks, 连刻 lead, no tractor: two triples"),
    ("T", "H", THREE, "2S 2S 2S 5S 5S 5S 8S 9S", "KS KS KS QS QS QS", "2S 2S 2S 5S 5S 8S", False, SHAPE, "3 decks, 连刻 lead: two triples held, both owed"),
    ("T", "H", THREE, "2S 2S 2S 5S 5S 8S 9S", "KS KS KS QS QS QS", "2S 2S 2S 5S 5S 8S", True, None, "3 decks, 连刻 lead: triple + pair + single"),
    ("T", "H", THREE, "2S 2S 2S 5S 5S 8S 9S", "KS KS KS QS QS QS", "2S 2S 2S 5S 8S 9S", False, SHAPE, "3 decks, 连刻 lead: the pair 55 is owed with the triple"),
    ("T", "H", THREE, "2S 2S 2S 5S 8S 9S JS", "KS KS KS QS QS QS", "2S 2S 5S 8S 9S JS", False, SHAPE, "3 decks, 连刻 lead: triple + three singles before pair + four singles"),
    ("T", "H", THREE, "2S 2S 2S 5S 8S 9S JS", "KS KS KS QS QS QS", "2S 2S 2S 5S 8S 9S", True, None, "3 decks, 连刻 lead: triple + three singles"),
    ("T", "H", THREE, "2S 2S 5S 5S 8S 9S JS", "KS KS KS QS QS QS", "2S 2S 5S 5S 8S 9S", True, None, "3 decks, 连刻 lead: two pairs + two singles"),
    ("T", "H", THREE, "2S 2S 5S 5S 8S 9S JS", "KS KS KS QS QS QS", "2S 2S 5S 8S 9S JS", False, SHAPE, "3 decks, 连刻 lead: both pairs owed"),
    # --- follow_shape: suit_only (house rule: only the suit is enforced)
    ("T", "H", SUIT_ONLY, "7S 7S 8S", "KS KS", "7S 8S", True, None, "suit_only: a pair lead does not force the pair"),
    ("T", "H", SUIT_ONLY, "7S 7S 8S 8S 3S", "KS KS QS QS", "7S 7S 8S 3S", True, None, "suit_only: a tractor lead does not force the tractor"),
    ("T", "H", SUIT_ONLY, "SJ SJ 4H 5D", "3H 3H", "SJ 4H", True, None, "suit_only: a trump pair lead does not force the joker pair"),
    ("T", "H", SUIT_ONLY, "7S 4D 5D", "KS KS", "4D 5D", False, SUIT, "suit_only: the suit is still enforced"),
    ("T", "H", SUIT_ONLY, "SJ SJ 4H 5D", "3H 3H", "SJ 5D", False, TRUMP, "suit_only: trumps still follow a trump lead"),
    # --- malformed plays
    ("T", "H", DEFAULT, "7S 7S 8S", "KS KS", "7S", False, None, "a pair lead needs two cards"),
    ("T", "H", DEFAULT, "7S 8S", "KS", "7S 8S", False, None, "a single lead needs one card"),
    ("T", "H", DEFAULT, "7S 8S", "KS", "9S", False, None, "the card is not in the hand"),
    ("T", "H", DEFAULT, "7S 8S 9S", "KS KS", "7S 7S", False, None, "only one 7S in the hand"),
]


@pytest.mark.parametrize("level,suit,preset,hand,lead,play,legal,hint,why", CASES, ids=ids(CASES))
def test_follow(level, suit, preset, hand, lead, play, legal, hint, why):
    args = (cards(hand), cards(lead), cards(play), trump(level, suit), rules(preset))
    if legal:
        assert check_follow(*args) is None
        return
    with pytest.raises(IllegalPlay) as err:
        check_follow(*args)
    message = str(err.value).lower()
    assert message.strip(), "the reason must be readable by a player"
    if hint is not None:
        assert any(word in message for word in hint), message
