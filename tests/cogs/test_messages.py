"""The table's words built from a real match: the table image's scene (the trick it
shows, its words), the deal message, and the hand panel's lines around a hand's end."""

from __future__ import annotations

import re

import pytest

from bot.game import SYSTEM, Deal, EndBidding, Match, Phase, TrickRecord, fallback_action
from bot.rules import RuleSet
from cogs.messages import (
    deal_content,
    last_trick_scene,
    old_panel_line,
    table_content,
    table_scene,
)
from cogs.panels import build_panel, status_lines
from cogs.text import result_text
from tests.game.helpers import to_play

NAMES = ("Alice", "Bot Chen", "Carol", "张伟")
HAN = re.compile(r"[\u4e00-\u9fff]")


def play_one(match: Match) -> None:
    seat = match.to_act
    assert seat is not None
    match.apply(seat, fallback_action(match.view(seat)))


def test_the_scene_follows_the_trick_and_names_the_trick_it_shows() -> None:
    match = to_play(Match.new(7, RuleSet()))
    scene = table_scene(match.view(None), NAMES, "en-US")
    assert scene is not None and not scene.trick.plays and scene.last is None
    assert scene.trick.leader == match.to_act  # the leader is marked to play
    assert scene.head.endswith("Trick 1")
    assert scene.teams[0].startswith("Dealer's team") and "Attackers" in scene.teams[1]
    assert scene.pair_word == " & "
    chinese = table_scene(match.view(None), NAMES, "zh-CN")
    assert chinese is not None and chinese.pair_word == "和"  # partners' names: not "&", no spaces
    assert last_trick_scene(match.view(None), NAMES, "en-US") is None
    play_one(match)
    scene = table_scene(match.view(None), NAMES, "en-US")
    assert scene is not None and len(scene.trick.plays) == 1 and not scene.trick.final
    for _ in range(3):
        play_one(match)
    scene = table_scene(match.view(None), NAMES, "en-US")
    assert scene is not None and scene.trick.final and len(scene.trick.plays) == 4
    assert scene.head.endswith("Trick 1"), "the finished trick shown is trick 1"
    play_one(match)
    scene = table_scene(match.view(None), NAMES, "en-US")
    assert scene is not None and scene.head.endswith("Trick 2")
    assert scene.last is not None and scene.last.final  # the previous trick, under the strip
    last = last_trick_scene(match.view(None), NAMES, "en-US")
    assert last is not None and last.trick.final and last.head.endswith("Trick 1")


def test_the_scene_s_words_are_in_the_table_s_language() -> None:
    match = to_play(Match.new(7, RuleSet()))
    play_one(match)
    scene = table_scene(match.view(None), NAMES, "zh-CN")
    assert scene is not None
    words = [scene.head, *scene.teams, scene.score, scene.trump_word, *scene.badges.values()]
    assert all(HAN.search(w) for w in words), words


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_while_the_dealer_buries_no_one_count_of_cards_is_claimed(locale: str) -> None:
    """The dealer holds the kitty too (33 cards, the others 25): the panel's strip and
    the table image give the points alone, then the count once the hands are even."""
    match = Match.new(7, RuleSet())
    match.apply(SYSTEM, Deal(4 * match.rules.hand_size))
    match.apply(SYSTEM, EndBidding())
    assert match.phase == Phase.KITTY and match.dealer is not None
    for seat in range(4):
        view = match.view(seat)
        assert sorted(view.hand_sizes) == [25, 25, 25, 33]
        lines = status_lines(view, NAMES, locale)
        assert not any(n in line for line in lines for n in ("33", "25")), lines
        assert any(("闲家得分**0**" if locale == "zh-CN" else "points **0**") in x for x in lines)
    scene = table_scene(match.view(None), NAMES, locale)
    assert scene is not None and scene.score == (
        "闲家得分0" if locale == "zh-CN" else "Attackers' points 0"
    )
    match.apply(match.dealer, fallback_action(match.view(match.dealer)))
    scene = table_scene(match.view(None), NAMES, locale)
    assert scene is not None and scene.score == (
        "闲家得分0 · 每人剩25张" if locale == "zh-CN" else "Attackers' points 0 · 25 cards left"
    )
    assert any("25" in line for line in status_lines(match.view(0), NAMES, locale))


HEADS = {"en-US": "**Hand 1** · levels A 2 · B 2", "zh-CN": "**第1局** · 级别：A队打2 · B队打2"}


@pytest.mark.parametrize(
    ("locale", "during", "after"),
    [
        ("en-US", "No bid yet: show a level card", "Nobody declared trump (亮主)."),
        ("zh-CN", "还没人亮主：在你的手牌面板里", "没人亮主。"),
    ],
)
def test_the_deal_message_stops_asking_for_a_bid_once_the_deal_is_over(
    locale: str, during: str, after: str
) -> None:
    """During the deal it asks for a bid; once nobody bid and the rules decided (no trump
    by default), it says nobody bid instead of still asking."""
    match = Match.new(7)
    match.apply(SYSTEM, Deal(4))
    assert during in deal_content(match.view(None), NAMES, None, locale)
    head = deal_content(match.view(None), NAMES, None, locale).split("\n")[0]
    assert head == HEADS[locale]  # the teams' levels in the language's words
    match.apply(SYSTEM, Deal(4 * match.rules.hand_size - 4))
    match.apply(SYSTEM, EndBidding())
    assert match.phase != Phase.DEAL and not match.bids
    said = deal_content(match.view(None), NAMES, None, locale)
    assert after in said and during not in said


@pytest.mark.parametrize(
    ("locale", "start", "end"),
    [
        ("en-US", "Hand 1 (over). The ", "."),  # two sentences, a space between
        ("zh-CN", "第1局（已结束）。", "。"),  # no space after a Chinese full stop
    ],
)
def test_last_hands_panel_line_joins_its_sentences_as_the_language_does(
    locale: str, start: str, end: str
) -> None:
    result = _scored().view(None).last_result
    assert result is not None
    line = old_panel_line(1, result, locale)
    assert line.startswith(start) and line.endswith(end) and "。 " not in line, line


def _scored() -> Match:
    """A hand played to its score with each seat's safe play, the next not dealt."""
    match = to_play(Match.new(7, RuleSet()))
    while match.phase != Phase.SCORED:
        play_one(match)
    return match


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_a_panel_opened_between_hands_ends_with_how_the_hand_ended(locale: str) -> None:
    """My hand pressed in the pause after a hand: its result, as the summary says it."""
    view = _scored().view(0)
    assert view.last_result is not None
    said = result_text(view.last_result, locale)
    panel = build_panel(1, view, [], names=NAMES, locale=locale)
    assert panel.content.splitlines()[-1] == said + ("。" if locale == "zh-CN" else ".")


@pytest.mark.parametrize(
    ("locale", "winner", "points", "said"),
    [
        # the attackers' trick: its points count for them
        ("en-US", 1, 20, "Previous trick: Bot Chen won it, 20 points for the attackers — "),
        ("zh-CN", 3, 10, "上一轮：张伟赢了，闲家得10分 — "),
        # the dealer's side's trick: its points are kept from the attackers, not scored
        ("en-US", 2, 20, "Previous trick: Carol won it, keeping 20 points from the attackers — "),
        ("zh-CN", 0, 10, "上一轮：Alice赢了，庄家方保住10分 — "),
        # a trick without points: who won it, nothing more
        ("en-US", 3, 0, "Previous trick: 张伟 won it — "),
        ("zh-CN", 2, 0, "上一轮：Carol赢了 — "),
    ],
)
def test_the_previous_trick_says_whose_its_points_are(
    locale: str, winner: int, points: int, said: str
) -> None:
    match = to_play(Match.new(7, RuleSet()))
    for _ in range(4):
        play_one(match)
    view = match.view(None)
    last = view.tricks[-1]
    public = view._replace(
        dealer=0, trick=(), tricks=(TrickRecord(last.leader, last.plays, winner, points),)
    )
    text = table_content(
        public,
        NAMES,
        [None] * 4,
        notes=(),
        dm_closed=set(),
        deadline=None,
        played_for=None,
        extra="",
        loc=locale,
    )
    assert text.splitlines()[1].startswith(said), text
