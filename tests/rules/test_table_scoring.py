"""Points, the kitty multiplier and level outcomes (docs/RULES.md "Points and the kitty
bonus" and "Level changes")."""

from __future__ import annotations

import pytest

from bot.rules import trick_side
from tests.rules._table import (
    CAP200,
    DEFAULT,
    DOUBLING,
    FLAT,
    LINEAR3,
    NOCHAIN,
    ONE,
    RACE,
    THREE,
    cards,
    hand_outcome,
    ids,
    kitty_multiplier,
    league_change,
    level_outcome,
    points,
    rules,
    trump,
)

POINT_CASES = [
    # cards, points, why
    ("", 0, "no cards, no points"),
    ("5S", 5, "every 5 is 5 points (001, 003)"),
    ("TS", 10, "every 10 is 10 points"),
    ("KS", 10, "every K is 10 points"),
    ("AS", 0, "an A is no point card"),
    ("BJ SJ", 0, "jokers are no point cards"),
    ("2S 3S 4S 6S 7S 8S 9S JS QS AS", 0, "no other rank scores"),
    ("5S TS KS", 25, "5 + 10 + 10"),
    ("5H 5H TD TD KC KC", 50, "pairs of point cards in several suits"),
    ("TH TH TS TD", 40, "level cards keep their points (level T)"),
]


@pytest.mark.parametrize("text,expected,why", POINT_CASES, ids=ids(POINT_CASES))
def test_points(text, expected, why):
    assert points(cards(text)) == expected


SIDE_CASES = [
    # winner, dealer, side, why
    (1, 0, "attackers", "an attacker's trick: its points count for the attackers"),
    (3, 2, "attackers", "the dealer's other opponent"),
    (0, 0, "dealer", "the dealer's own trick keeps its points from the attackers"),
    (2, 0, "dealer", "the dealer's partner's trick too"),
    (1, None, "dealer", "no dealer yet: nothing is scored"),
]


@pytest.mark.parametrize("winner,dealer,side,why", SIDE_CASES, ids=ids(SIDE_CASES))
def test_trick_side(winner, dealer, side, why):
    assert trick_side(winner, dealer) == side


@pytest.mark.parametrize("decks,total", [(1, 100), (2, 200), (3, 300)])
def test_points_of_whole_decks(decks, total):
    deck = [r + s for s in "SHDC" for r in "23456789TJQKA"] + ["SJ", "BJ"]
    assert points(cards(" ".join(deck * decks))) == total


KITTY_CASES = [
    # level, trump suit, rules preset, last trick's (resolved) lead, multiplier, why
    ("T", "H", DEFAULT, "AS", 2, "power: single ×2"),
    ("T", "H", DEFAULT, "4S 4S", 4, "power: pair ×4 (seed 000 对子44 为4倍)"),
    ("T", "H", DEFAULT, "4S 4S 5S 5S", 16, "power: seed 001 4455 抠底 16 倍"),
    ("T", "H", DEFAULT, "4S 4S 5S 5S 6S 6S", 64, "power: seed 001 445566 抠底 64 倍"),
    (
        "T",
        "H",
        DEFAULT,
        "AS AS KS KS QS QS JS JS",
        64,
        "power: 2^8 capped at 64 (seed 000/001 最大64倍)",
    ),
    ("T", "H", THREE, "5S 5S 5S", 8, "power, 3 decks: seed 001 555 抠底 8 倍"),
    ("T", "H", THREE, "4S 4S 4S 5S 5S 5S", 64, "power, 3 decks: seed 001 444555 抠底 64 倍"),
    ("T", "H", THREE, "4S 4S 4S 5S 5S 5S 6S 6S 6S", 64, "power, 3 decks: 2^9 capped at 64"),
    (
        "2",
        "H",
        DEFAULT,
        "AS KS QS JS TS 9S 8S 7S 7S",
        4,
        "power: seed 001 甩牌 AKQJT9877 counts the pair 77, ×4",
    ),
    ("2", "H", DEFAULT, "AS KS QS JS", 2, "power: seed 001 甩牌 AKQJ counts a single, ×2"),
    ("2", "H", DEFAULT, "AS AS JS JS", 4, "power: seed 001 甩牌 AAJJ counts a pair, ×4"),
    ("2", "H", DEFAULT, "AS KS KS QS QS", 16, "power: throw A + KKQQ counts the tractor"),
    (
        "2",
        "H",
        DEFAULT,
        "AS AS KS KS QS QS 9S 9S 8S 8S",
        64,
        "power: throw 3-tractor + 2-tractor counts the largest unit",
    ),
    ("T", "H", DEFAULT, "SJ SJ BJ BJ", 16, "power: a trump joker tractor"),
    ("T", "H", DEFAULT, "AH AH TS TS", 16, "power: the chain tractor AA + TS TS"),
    (
        "T",
        "H",
        NOCHAIN,
        "AH AH TS TS",
        4,
        "power, trump_chain_tractors off: two pairs count as a pair",
    ),
    ("T", "H", DEFAULT, "JS JS 9S 9S", 16, "power: level T makes JJ99 a tractor"),
    ("T", "H", DEFAULT, "TS TS TD TD", 4, "power: two off-suit level pairs are two pairs"),
    ("T", "H", DEFAULT, "AS AS 2S 2S", 4, "power: AA22 is two pairs"),
    ("T", "H", DOUBLING, "AS", 2, "doubling: single ×2 (002)"),
    ("T", "H", DOUBLING, "AS AS", 4, "doubling: pair ×4 (002)"),
    ("T", "H", DOUBLING, "KS KS QS QS", 8, "doubling: 2-pair tractor ×8 (002 2连对8倍)"),
    (
        "T",
        "H",
        DOUBLING,
        "KS KS QS QS JS JS",
        16,
        "doubling: 3-pair tractor ×16 (002 每多连1对乘2倍)",
    ),
    ("T", "H", DOUBLING, "AS AS KS KS QS QS JS JS", 32, "doubling: 4-pair tractor ×32"),
    (
        "2",
        "H",
        DOUBLING,
        "AS KS QS JS TS 9S 8S 7S 7S",
        4,
        "doubling: a throw counts its largest unit, the pair",
    ),
    ("2", "H", DOUBLING, "AS KS KS QS QS", 8, "doubling: throw A + KKQQ counts the tractor"),
    ("T", "H", FLAT, "AS", 2, "flat: ×2 (003)"),
    ("T", "H", FLAT, "AS AS", 2, "flat: a pair is still ×2"),
    ("T", "H", FLAT, "KS KS QS QS JS JS", 2, "flat: a tractor is still ×2"),
    ("2", "H", FLAT, "AS KS QS JS TS 9S 8S 7S 7S", 2, "flat: a throw is still ×2"),
    ("T", "H", LINEAR3, "AS", 2, "linear: 002:75 单张抠底 2倍"),
    ("T", "H", LINEAR3, "AS AS", 3, "linear: 002:76 对子抠底 3倍"),
    ("T", "H", LINEAR3, "AS AS AS", 4, "linear: 002:77 刻子抠底 4倍"),
    ("T", "H", LINEAR3, "KS KS QS QS", 5, "linear: 002:78 二连对5倍"),
    ("T", "H", LINEAR3, "KS KS QS QS JS JS", 6, "linear: 002:78 每多连1对加1倍"),
    ("T", "H", LINEAR3, "AS AS KS KS QS QS JS JS", 7, "linear: 002:78 a 4-pair tractor ×7"),
    ("T", "H", LINEAR3, "KS KS KS QS QS QS", 6, "linear: 002:79 二连刻6倍"),
    ("T", "H", LINEAR3, "KS KS KS QS QS QS JS JS JS", 8, "linear: 002:79 每多连1刻加2倍"),
    ("T", "H", LINEAR3, "SJ SJ SJ BJ BJ BJ", 6, "linear: 002:59 大王×3 小王×3 连刻 ×6"),
    ("T", "H", LINEAR3, "AS KS KS QS QS", 5, "linear: 002:80 甩牌 counts its tractor"),
    ("T", "H", LINEAR3, "AS AS AS KS QS", 4, "linear: 002:80 甩牌 counts its triple"),
    ("2", "H", LINEAR3, "AS KS QS JS", 2, "linear: 002:80 a throw of singles ×2"),
]


@pytest.mark.parametrize("level,suit,preset,lead,expected,why", KITTY_CASES, ids=ids(KITTY_CASES))
def test_kitty_multiplier(level, suit, preset, lead, expected, why):
    assert kitty_multiplier(cards(lead), trump(level, suit), rules(preset)) == expected


D, A = "dealer", "attackers"

LEVEL_CASES = [
    # rules preset, attackers' points, (who gains, levels), why
    (DEFAULT, 0, (D, 3), "0 points: dealer's team +3 (大光)"),
    (DEFAULT, 1, (D, 2), "1 point: dealer's team +2 (小光)"),
    (DEFAULT, 5, (D, 2), "5 points: dealer's team +2"),
    (DEFAULT, 35, (D, 2), "35 points: dealer's team +2"),
    (DEFAULT, 39, (D, 2), "39 points: dealer's team +2"),
    (DEFAULT, 40, (D, 1), "40 points: dealer's team +1"),
    (DEFAULT, 79, (D, 1), "79 points: dealer's team +1"),
    (DEFAULT, 80, (A, 0), "80 points: attackers take the deal, +0 (上台)"),
    (DEFAULT, 119, (A, 0), "119 points: attackers take the deal, +0"),
    (DEFAULT, 120, (A, 1), "120 points: attackers +1"),
    (DEFAULT, 159, (A, 1), "159 points: attackers +1"),
    (DEFAULT, 160, (A, 2), "160 points: attackers +2"),
    (DEFAULT, 199, (A, 2), "199 points: attackers +2"),
    (DEFAULT, 200, (A, 3), "200 points: each further 40, +1 more"),
    (DEFAULT, 239, (A, 3), "239 points: attackers +3"),
    (DEFAULT, 240, (A, 4), "240 points: attackers +4"),
    (DEFAULT, 280, (A, 5), "280 points (kitty bonus): attackers +5"),
    (DEFAULT, 400, (A, 8), "400 points: attackers +8"),
    (DEFAULT, -1, (D, 3), "negative points (throw penalties) count as 0"),
    (DEFAULT, -30, (D, 3), "-30 points count as 0: 大光"),
    (CAP200, 199, (A, 2), "points_cap 200: 199 unchanged"),
    (CAP200, 200, (A, 3), "points_cap 200: 200 unchanged"),
    (CAP200, 240, (A, 3), "points_cap 200: 240 counts as 200 (002 网络海选)"),
    (CAP200, 400, (A, 3), "points_cap 200: 400 counts as 200"),
    (CAP200, 0, (D, 3), "points_cap 200: 0 unchanged"),
    (ONE, 0, (D, 3), "1 deck: 0 points, dealer +3"),
    (ONE, 1, (D, 2), "1 deck: 1 point, dealer +2"),
    (ONE, 19, (D, 2), "1 deck: 19 points, dealer +2 (step 20)"),
    (ONE, 20, (D, 1), "1 deck: 20 points, dealer +1"),
    (ONE, 39, (D, 1), "1 deck: 39 points, dealer +1"),
    (ONE, 40, (A, 0), "1 deck: 40 points, attackers take the deal"),
    (ONE, 59, (A, 0), "1 deck: 59 points, attackers +0"),
    (ONE, 60, (A, 1), "1 deck: 60 points, attackers +1"),
    (ONE, 79, (A, 1), "1 deck: 79 points, attackers +1"),
    (ONE, 80, (A, 2), "1 deck: 80 points, attackers +2"),
    (ONE, 100, (A, 3), "1 deck: 100 points, attackers +3"),
    (ONE, -5, (D, 3), "1 deck: negative counts as 0"),
    (THREE, 0, (D, 3), "3 decks: 0 points, dealer +3 (001 大光)"),
    (THREE, 1, (D, 2), "3 decks: 1 point, dealer +2"),
    (THREE, 59, (D, 2), "3 decks: 59 points, dealer +2 (001 不足60分算小光)"),
    (THREE, 60, (D, 1), "3 decks: 60 points, dealer +1 (step 60)"),
    (THREE, 119, (D, 1), "3 decks: 119 points, dealer +1"),
    (THREE, 120, (A, 0), "3 decks: 120 points, attackers take the deal (001 120分上台)"),
    (THREE, 179, (A, 0), "3 decks: 179 points, attackers +0"),
    (THREE, 180, (A, 1), "3 decks: 180 points, attackers +1 (001 180分上台+1级)"),
    (THREE, 239, (A, 1), "3 decks: 239 points, attackers +1"),
    (THREE, 240, (A, 2), "3 decks: 240 points, attackers +2 (001 240分上台+2级)"),
    (THREE, 300, (A, 3), "3 decks: 300 points, attackers +3"),
    (THREE, 360, (A, 4), "3 decks: 360 points, attackers +4"),
]


@pytest.mark.parametrize("preset,score,expected,why", LEVEL_CASES, ids=ids(LEVEL_CASES))
def test_level_outcome(preset, score, expected, why):
    assert tuple(level_outcome(score, rules(preset))) == expected


RACE_CASES = [
    # attackers' points, attackers won the last trick?, (who gains, levels), why
    (45, False, (A, 1), "000:113 抢到45分获胜: 45 points win, +1"),
    (100, False, (A, 1), "000:113 every total from 45 wins"),
    (0, True, (A, 1), "000:113 没抢到45分但最后一手牌最大也算获胜"),
    (44, True, (A, 1), "000:113 the last trick with 44 points: +1"),
    (45, True, (A, 2), "000:113 两者兼具叫打两级"),
    (40, False, ("draw", 0), "000:121 非坐庄组得到40分算平局"),
    (40, True, (A, 1), "000:113 40 with the last trick is a win, no draw"),
    (44, False, (D, 1), "41-44 without the last trick: the dealer's team +1"),
    (35, False, (D, 1), "RULES race45: otherwise the dealer's team +1"),
    (0, False, (D, 1), "0 points: still only +1 in the race (no 大光)"),
    (-10, False, (D, 1), "a throw penalty below 0: the dealer's team +1"),
]


@pytest.mark.parametrize("score,last,expected,why", RACE_CASES, ids=ids(RACE_CASES))
def test_race45_outcome(score, last, expected, why):
    assert hand_outcome(score, last, rules(RACE)) == expected


@pytest.mark.parametrize("score", [0, 39, 40, 80, 200])
def test_hand_outcome_is_the_level_table_by_default(score):
    assert hand_outcome(score, True, rules(DEFAULT)) == level_outcome(score, rules(DEFAULT))


LEAGUE_CASES = [
    # winner, levels gained, server's 大光 points, league points, why
    (A, 0, 4, 2, "001:170 闲家转庄家得两分"),
    (A, 2, 4, 4, "001:170 以上每升一级加一分"),
    (D, 1, 4, 2, "001:172 庄家升一级得两分"),
    (D, 2, 4, 3, "001:172 以上每升一级加一分"),
    (D, 3, 4, 4, "001:172 最多闲家大光时得四分"),
    (D, 3, 6, 6, "001:182 大光积分配置为庄家+6分"),
    (D, 2, 6, 3, "001:174 the 大光 setting changes only 大光"),
    (A, 3, 6, 5, "001:174 nor the attackers' points"),
    ("draw", 0, 4, 0, "000:121 a race45 draw moves nobody"),
]


@pytest.mark.parametrize("winner,levels,big,expected,why", LEAGUE_CASES, ids=ids(LEAGUE_CASES))
def test_league_change(winner, levels, big, expected, why):
    assert league_change(winner, levels, big) == expected
