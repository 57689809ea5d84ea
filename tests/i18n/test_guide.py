"""The rules topics for players: both languages, numbers from the rules, true examples."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest

from bot.i18n import LOCALES, t
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
    assert "抠底：单张×2，对子×4，两连对拖拉机×8，三连对拖拉机×16" in text
    assert multipliers(RuleSet(kitty_multiplier="flat")) == dict.fromkeys(
        ("single", "pair", "tractor", "long"), 2
    )
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


# rule changes, the kitty bonus as the scoring topic and the variants list read it
# (English, Chinese); with three decks a triple and a 2-triple tractor are shown too
KITTY_LINES = [
    (
        {"decks": 3, "kitty_multiplier": "linear"},
        "a single ×2, a pair ×3, a triple ×4, a 2-pair tractor ×5, a 3-pair tractor ×6, "
        "a 2-triple tractor ×6.",
        "单张×2，对子×3，刻子×4，两连对拖拉机×5，三连对拖拉机×6，连刻×6。",
    ),
    (
        {"decks": 3},
        "a single ×2, a pair ×4, a triple ×8, a 2-pair tractor ×16, a 3-pair tractor ×64, "
        "a 2-triple tractor ×64.",
        "单张×2，对子×4，刻子×8，两连对拖拉机×16，三连对拖拉机×64，连刻×64。",
    ),
    (
        {},
        "a single ×2, a pair ×4, a 2-pair tractor ×16, a 3-pair tractor ×64.",
        "单张×2，对子×4，两连对拖拉机×16，三连对拖拉机×64。",
    ),
    (
        {"decks": 1, "kitty_multiplier": "doubling"},
        "a single ×2, a pair ×4, a 2-pair tractor ×8, a 3-pair tractor ×16.",
        "单张×2，对子×4，两连对拖拉机×8，三连对拖拉机×16。",
    ),
]


@pytest.mark.parametrize("changes,english,chinese", KITTY_LINES)
def test_the_kitty_bonus_shows_triples_where_three_decks_make_them(
    changes: dict[str, object], english: str, chinese: str
) -> None:
    """Seed 002 (three decks, linear): pair ×3, triple ×4, 2-pair ×5, 2-triple tractor ×6."""
    rules = RuleSet().replace(**changes)
    assert english in topic_text("en-US", "scoring", rules)
    assert chinese in topic_text("zh-CN", "scoring", rules)
    listed = variants_text("zh-CN", rules)
    assert chinese.rstrip("。") in listed.replace("抠底：", "")
    triples = rules.decks == 3
    for text in (topic_text("en-US", "scoring", rules), variants_text("en-US", rules)):
        assert ("triple" in text) is triples
    assert ("刻子" in listed) is triples and ("连刻" in listed) is triples


def test_the_linear_multipliers_come_from_the_rules_library() -> None:
    rules = RuleSet(decks=3, kitty_multiplier="linear")
    assert multipliers(rules) == {
        "single": 2,
        "pair": 3,
        "tractor": 5,
        "long": 6,
        "triple": 4,
        "triples": 6,
    }


# the rules the bidding topic states, by the RuleSet field that decides each: rule
# changes, locale, what the topic must say, what it must never say, where from
BIDDING = [
    (
        {},
        "en-US",
        ["the first player to bid deals (先亮者为庄家)"],
        ["whoever wins the bidding deals", "最终反主者为庄家"],
        "first_dealer first_bid, 000:35 001:75 002:27",
    ),
    ({}, "zh-CN", ["先亮者为庄家"], ["谁亮主成功谁坐庄", "最终反主者为庄家"], "first_bid"),
    (
        {"first_dealer": "final_bid"},
        "en-US",
        ["the player whose bid stands when the bidding closes deals (最终反主者为庄家)"],
        ["先亮者为庄家", "the first player to bid deals"],
        "first_dealer final_bid, 003:48",
    ),
    ({"first_dealer": "final_bid"}, "zh-CN", ["最终反主者为庄家"], ["先亮者为庄家"], "final_bid"),
    (
        {},
        "en-US",
        [
            "overcalls (反主) with a stronger bid of another suit, such as a pair of level cards",
            "identical jokers bid no trump (无主)",
            "every bid shows the dealer's team's level cards, and the dealer keeps the deal",
        ],
        ["joker with", "takes the deal back", "带王亮主"],
        "bidding standard, 001 003",
    ),
    (
        {},
        "zh-CN",
        ["一对级牌", "一对小王或一对大王可以亮无主", "亮的都是庄家一方的级牌"],
        ["带王亮主", "夺回", "谁亮主谁坐庄"],
        "bidding standard",
    ),
    (
        {"bidding": "joker"},
        "en-US",
        [
            "BJ with ♥ or ♦, SJ with ♠ or ♣",
            "overcalls (反主) with a joker and two identical level cards of another suit",
            "No trump cannot be bid directly",
            "an attacker's bid shows the attackers' level card and takes the deal",
            "its bid, made at any time before the bidding closes, takes the deal back",
            "An overcall of the bid holding the deal changes only the trump suit",
            "a bid always shows the level of the team that would deal if it wins",
        ],
        ["a pair of level cards", "identical jokers", "no trump (反无主)", "(自反)"],
        "bidding joker, 000:41 000:47 and issue 12 item 2",
    ),
    (
        {"bidding": "joker"},
        "zh-CN",
        [
            "大王配♥或♦，小王配♠或♣",
            "别人可以用王带两张相同的另一花色级牌反主",
            "不能直接亮无主",
            "闲家亮主，亮闲家一方的级牌，闲家上台坐庄（谁亮主谁坐庄）",
            "庄家方优先：亮主结束前，庄家方随时亮主都能把庄夺回",
            "对定庄的那次亮主反主，只改变主花色",
        ],
        ["一对级牌", "相同的王", "反无主", "自反"],
        "bidding joker",
    ),
    (
        {"bidding": "joker", "overcall": "after_bury"},
        "en-US",
        [
            "each player once in turn, from the player after the dealer round to the dealer",
            "In this round identical jokers overcall to no trump (反无主)",
            "unless the dealer's side takes the deal back",
            "cannot be shown again; no trump can",
        ],
        ["a short window after the last card"],
        "overcall after_bury with joker bidding, 000:43",
    ),
    (
        {"bidding": "joker", "overcall": "after_bury"},
        "zh-CN",
        ["每人按顺序有一次机会反主或不反", "依次反主时可以用相同的王", "不能再反；无主可以再反"],
        ["发完最后一张后"],
        "after_bury, joker",
    ),
    (
        {"overcall": "after_bury"},
        "en-US",
        ["each player once in turn", "cannot be shown again"],
        ["In this round identical jokers", "takes the deal back"],
        "after_bury, standard: jokers bid no trump anyway",
    ),
    (
        {},
        "en-US",
        ["during the deal and a short window after the last card, before the dealer takes"],
        ["once in turn", "cannot be shown again"],
        "overcall deal",
    ),
    ({}, "zh-CN", ["须在庄家起底牌之前"], ["按顺序", "不能再反"], "overcall deal"),
    (
        {},
        "en-US",
        ["If nobody bids, the hand is played in no trump (无主)."],
        ["dealt again", "kitty's cards are turned"],
        "no_bid notrump, 001",
    ),
    (
        {"no_bid": "redeal"},
        "zh-CN",
        ["无人亮主时重新发牌，最多重发5次"],
        ["无人亮主时打无主", "翻开"],
        "no_bid redeal",
    ),
    (
        {"no_bid": "kitty_draw"},
        "en-US",
        [
            "the kitty's cards are turned face up one at a time for everyone to see",
            "the dealer's team is checked first; jokers match nothing",
            "the dealer or else the player after the dealer, with that card's suit as trump",
            "dealt again, at most 5 times",
        ],
        ["If nobody bids, the hand is played in no trump"],
        "no_bid kitty_draw, 000:47 002:21",
    ),
    (
        {"no_bid": "kitty_draw"},
        "zh-CN",
        ["把底牌一张张翻开给大家看", "先看庄家一方；王不算", "闲家一方由庄家下家坐庄"],
        ["无人亮主时打无主"],
        "kitty_draw",
    ),
    (
        {"decks": 1},
        "en-US",
        ["the first bid stands: it can be neither strengthened nor overcalled"],
        ["Strength:", "later overcalls"],
        "one deck: one of each card, so no pair to overcall with",
    ),
    (
        {"decks": 3},
        "en-US",
        ["one card < a pair < two SJ < two BJ < three level cards < three SJ < three BJ"],
        [],
        "three decks, 002",
    ),
    (
        {"decks": 3, "bidding": "joker"},
        "zh-CN",
        ["别人可以用王带两张或三张相同的另一花色级牌反主"],
        [],
        "three decks, joker",
    ),
    (
        {"scoring": "race45"},
        "en-US",
        ["The first hand and a hand after a draw have no dealer yet"],
        [],
        "race45, 000:121 平局后下一局重新抢庄",
    ),
    ({"scoring": "race45"}, "zh-CN", ["第一局和平局后的下一局还没有庄家"], [], "race45"),
    ({}, "zh-CN", ["第一局还没有庄家"], ["平局"], "levels: no draw"),
]


@pytest.mark.parametrize(
    "changes,locale,says,never,why", BIDDING, ids=[f"{c[-1]} {c[1]}" for c in BIDDING]
)
def test_the_bidding_topic_states_the_rules_in_force(
    changes: dict[str, object], locale: str, says: list[str], never: list[str], why: str
) -> None:
    rules = RuleSet().replace(**changes)
    text = topic_text(locale, "bidding", rules).split("\n\n" + t(locale, "guide-variants"))[0]
    for phrase in says:
        assert phrase in text, (why, phrase)
    for phrase in never:
        assert phrase not in text, (why, phrase)
