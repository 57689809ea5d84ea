"""The Chinese catalogs use the game's words as the seeds (/work/shared/seeds) write
them: a trick is a 轮 (第一轮, 上一轮, 最后一轮), never 墩."""

from __future__ import annotations

from fluent.syntax import FluentSerializer

from bot.i18n import t

from .test_catalog import _messages


def _zh_texts() -> dict[str, str]:
    serializer = FluentSerializer()
    return {key: serializer.serialize_entry(node) for key, (_, node) in _messages("zh-CN").items()}


def test_a_trick_is_a_round_of_play_not_a_dun() -> None:
    assert [key for key, text in _zh_texts().items() if "墩" in text] == []


def test_a_leaderboard_line_counts_matches_then_wins() -> None:
    line = t(
        "zh-CN", "records-leader-line", rank=1, name="张伟", value=30, matches=10, wins=6, hands=80
    )
    assert line == "**1.** 张伟 — 30 · 10场6胜 · 80局"


def test_the_tournament_rule_ends_with_a_verb() -> None:
    rule = t("zh-CN", "tournament-winner-rule")
    assert rule.endswith("胜者之间依次按所到级别、升级数、每局闲家得分排名，仍相同则按抽签顺序。")


def test_the_guide_names_the_jokers_as_players_do() -> None:
    texts = _zh_texts()
    assert "大小王" in texts["guide-cards"] and "两种王" not in texts["guide-cards"]
    assert "一对小王或一对大王" in texts["guide-bidding"]
