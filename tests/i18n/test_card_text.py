"""Cards in each language's words: the jokers as its players name them, nothing else changed.

English text used to show 大王 and 小王 beside an English guide that calls them BJ and SJ
(and tells players to type them so); a Chinese reader keeps 大王 and 小王.
"""

from __future__ import annotations

import pytest

from bot.i18n.rules import card_text, explain
from bot.rules import RulesError, parse_cards, pretty_cards, remove_cards
from cogs.panels import _option_label

# (locale, cards in the notation, as the reader sees them, what it checks)
CASES = [
    ("en-US", "AH KH KH", "A♥K♥K♥", "suit cards run together in both languages"),
    ("zh-CN", "AH KH KH", "A♥K♥K♥", "suit cards run together in both languages"),
    ("en-US", "TS TS", "10♠10♠", "10 as players write it"),
    ("en-US", "BJ", "BJ", "the big joker in English, as the guide names it"),
    ("zh-CN", "BJ", "大王", "the big joker in Chinese"),
    ("en-US", "SJ", "SJ", "the small joker in English"),
    ("zh-CN", "SJ", "小王", "the small joker in Chinese"),
    ("en-US", "SJ SJ", "SJ SJ", "two Latin names apart, or SJSJ reads as one word"),
    ("zh-CN", "SJ SJ", "小王小王", "Chinese names need no space"),
    ("en-US", "BJ BJ SJ SJ", "BJ BJ SJ SJ", "a joker tractor"),
    ("en-US", "AH BJ KH", "A♥ BJ K♥", "a Latin name apart from the suit cards on both sides"),
    ("zh-CN", "AH BJ KH", "A♥大王K♥", "a Chinese name between suit cards"),
    ("en-US", "BJ 2H 2H", "BJ 2♥2♥", "a joker bid: the joker apart, the pair together"),
    ("en-US", "", "", "no cards"),
]


@pytest.mark.parametrize(("locale", "notation", "shown", "why"), CASES)
def test_cards_read_in_the_readers_words(locale: str, notation: str, shown: str, why: str) -> None:
    assert card_text(locale, parse_cards(notation)) == shown, why


def test_the_rules_english_defaults_name_the_jokers_as_english_readers_see_them() -> None:
    """The rules library's own (English) text and the English catalog agree."""
    cards = parse_cards("BJ SJ SJ 7H")
    assert pretty_cards(cards) == card_text("en-US", cards) == "BJ SJ SJ 7♥"
    assert pretty_cards(cards, "大王", "小王") == card_text("zh-CN", cards) == "大王小王小王7♥"


def test_a_refusal_about_a_joker_names_it_in_the_readers_language() -> None:
    with pytest.raises(RulesError) as refused:
        remove_cards(parse_cards("SJ 7H"), parse_cards("BJ"))
    assert explain("en-US", refused.value) == str(refused.value) == "You don't hold BJ."
    assert "大王" in explain("zh-CN", refused.value)


@pytest.mark.parametrize(
    ("card", "locale", "label"),
    [
        ("BJ", "en-US", "BJ"),  # the name is the code: said once
        ("BJ", "zh-CN", "大王（BJ）"),
        ("TH", "en-US", "10♥ (TH)"),
        ("TH", "zh-CN", "10♥（TH）"),
    ],
)
def test_a_cards_menu_line_says_its_code_when_the_name_differs(
    card: str, locale: str, label: str
) -> None:
    assert _option_label(parse_cards(card)[0], locale) == label
