"""The rules topics for players: both languages, numbers from the rules, true examples."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest

from bot.i18n import LOCALES
from bot.i18n.guide import TOPICS, multipliers, title, topic_text, variants_text
from bot.rules import (
    IllegalPlay,
    RuleSet,
    Trump,
    check_follow,
    parse_cards,
    resolve_throw,
)
from cogs.text import RULE_TOPICS, rules_text

ENGLISH_WORD = re.compile(r"[a-z]{3,}")


@pytest.mark.parametrize("topic", TOPICS)
def test_every_topic_in_both_languages_within_an_embed(topic: str) -> None:
    english = topic_text("en-US", topic, RuleSet())
    chinese = topic_text("zh-CN", topic, RuleSet())
    assert english != chinese and title("en-US", topic) != title("zh-CN", topic)
    assert len(english) < 4000 and len(chinese) < 4000
    words = ENGLISH_WORD.findall(chinese)
    assert not words, f"English in the Chinese {topic}: {words}"
    assert tuple(TOPICS) == RULE_TOPICS and rules_text(topic, RuleSet(), "zh-CN") == chinese


def _other_values(name: str, value: object) -> list[object]:
    choices = RuleSet.choices(name)
    if choices is not None:
        return [c for c in choices if c != value]
    assert isinstance(value, int)
    return [value + 5 if name != "throw_penalty" else 0]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_field_and_value_of_the_rule_set_is_described(locale: str) -> None:
    """A new RuleSet field or value must get words, or this fails."""
    base = RuleSet()
    before = variants_text(locale, base)
    for field in fields(RuleSet):
        value = getattr(base, field.name)
        for other in _other_values(field.name, value):
            try:
                changed = base.replace(**{field.name: other})
            except ValueError:
                continue
            assert variants_text(locale, changed) != before, (field.name, other)


def test_variants_read_as_players_say_them() -> None:
    text = variants_text("zh-CN", RuleSet(kitty_multiplier="doubling"))
    assert "抠底：单张×2，对子×4，连对×8，三连对×16" in text
    assert multipliers(RuleSet(kitty_multiplier="flat")) == [2, 2, 2, 2]
    assert "甩牌失败不罚分" in variants_text("zh-CN", RuleSet(throw_penalty=0))
    assert "10 points per card" in variants_text("en-US", RuleSet())


def test_levels_follow_the_rules_library() -> None:
    two = topic_text("en-US", "levels", RuleSet())
    assert "0 points: the dealer's team goes up 3 levels (大光)" in two
    assert "80–115 points: the attackers take the deal (上台)" in two
    three = topic_text("zh-CN", "levels", RuleSet(decks=3))
    assert "120–175分：闲家上台" in three


def test_the_examples_are_what_the_rules_library_decides() -> None:
    trump = Trump("2", "S")
    lead = parse_cards("QH QH KH KH")
    check_follow(parse_cards("7H 7H 9H 9H 3H"), lead, parse_cards("7H 7H 9H 9H"), trump)
    with pytest.raises(IllegalPlay):
        check_follow(parse_cards("7H 7H 9H 9H 3H"), lead, parse_cards("7H 7H 9H 3H"), trump)
    check_follow(parse_cards("7H 7H 9H 3H"), lead, parse_cards("7H 7H 9H 3H"), trump)
    throw = parse_cards("AH QH QH 5H 5H")
    forced = resolve_throw(throw, [parse_cards("KH KH"), [], []], trump)
    assert forced == parse_cards("5H 5H") and len(throw) - len(forced) == 3
    assert "10 × 3 = 30" in topic_text("en-US", "throws", RuleSet())
