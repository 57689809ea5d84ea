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


def test_levels_say_which_team_plays_at_which() -> None:
    assert t("zh-CN", "table-deal-levels", a="2", b="3") == "A队打2 · B队打3"
    assert t("zh-CN", "table-summary-levels", a="2", b="3") == "A队打2，B队打3。"
    end = t(
        "zh-CN",
        "records-hand-end",
        kitty="5♥",
        before_a="2",
        before_b="2",
        after_a="3",
        after_b="2",
    )
    assert end == "底牌：5♥ · 级别（A队/B队）：2/2 → 3/2"


REQUESTS = [
    "service-started-wait",
    "service-restarting",
    "service-not-saved",
    "service-not-saved-closed",
    "service-guild-full",
    "service-host-full",
    "service-table-closed",
    "reply-stale",
    "reply-failed",
    "reply-panel-stale",
    "table-warning",
    "tournament-exists",
    "tournament-name-taken",
]


def test_a_request_follows_a_comma_not_a_semicolon() -> None:
    texts = _zh_texts()
    assert [key for key in REQUESTS if "；" in texts[key]] == []


def test_the_terminal_writes_chinese_quotes_and_arrows() -> None:
    texts = _zh_texts()
    assert "“AH AH KH”" in texts["cli-help"] and "'" not in texts["cli-help"]
    assert "“AH AH KH”" in texts["cli-help-no-assistance"]
    for key in ("cli-trick-won", "cli-result", "cli-draw"):
        assert "→" in texts[key] and "->" not in texts[key].replace(" ->\n", "\n"), key
