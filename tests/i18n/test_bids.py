"""Bids in the words players use: 亮 the first, 自保 the same again, 反主 over another's."""

from __future__ import annotations

import pytest

from bot.rules import Bid, check_bid, parse_cards
from cogs.text import bid_label, bid_text


def _bid(seat: int, cards: str) -> Bid:
    return check_bid(seat, parse_cards(cards), "2", None)


FIRST, AGAIN, OTHER, JOKERS = _bid(0, "2S"), _bid(0, "2S 2S"), _bid(1, "2H 2H"), _bid(2, "BJ BJ")

# bid, made over, locale, the table's line, why
TEXTS = [
    (FIRST, None, "zh-CN", "甲亮2♠（♠ 黑桃）", "the first bid: 亮"),
    (AGAIN, FIRST, "zh-CN", "甲自保：2♠2♠", "the bidder's suit again: 自保, no suit repeated"),
    (OTHER, FIRST, "zh-CN", "甲反主：2♥2♥（♥ 红桃）", "another seat over it: 反主"),
    (JOKERS, OTHER, "zh-CN", "甲反主：大王大王（无主）", "joker pair over a suit: 反无主"),
    (FIRST, None, "en-US", "A shows 2♠ for ♠ spades", "the first bid shows"),
    (AGAIN, FIRST, "en-US", "A reinforces with 2♠2♠", "reinforce"),
    (OTHER, FIRST, "en-US", "A overcalls with 2♥2♥ for ♥ hearts", "overcall"),
]


@pytest.mark.parametrize(
    ("bid", "before", "locale", "line", "why"), TEXTS, ids=[t[4] for t in TEXTS]
)
def test_the_table_names_each_bid(
    bid: Bid, before: Bid | None, locale: str, line: str, why: str
) -> None:
    name = "甲" if locale == "zh-CN" else "A"
    assert bid_text(bid, before, name, locale) == line, why


# an option, the bid standing, locale, its button, why
LABELS = [
    (FIRST, None, "zh-CN", "亮主2♠", "nothing standing: 亮主"),
    (AGAIN, FIRST, "zh-CN", "自保2♠2♠", "the bidder's own bid standing: 自保"),
    (OTHER, FIRST, "zh-CN", "反主2♥2♥", "another's bid standing: 反主"),
    (JOKERS, OTHER, "zh-CN", "无主（大王大王）", "a joker pair: 无主, its cards apart"),
    (AGAIN, FIRST, "en-US", "Reinforce 2♠2♠", "reinforce"),
    (OTHER, FIRST, "en-US", "Overcall 2♥2♥", "overcall"),
]


@pytest.mark.parametrize(
    ("bid", "current", "locale", "label", "why"), LABELS, ids=[t[4] for t in LABELS]
)
def test_a_bid_button_says_what_it_does(
    bid: Bid, current: Bid | None, locale: str, label: str, why: str
) -> None:
    assert bid_label(bid, current, locale) == label, why
