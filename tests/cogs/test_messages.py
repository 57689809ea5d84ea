"""The deal message and a collapsed panel in words, from a match's public view."""

from __future__ import annotations

import pytest

from bot.game import SYSTEM, Deal, EndBidding, Match, Phase, fallback_action
from cogs.messages import deal_content, old_panel_line
from cogs.panels import build_panel
from cogs.text import result_text

NAMES = ("Alice", "Bob", "Carol", "Dave")


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
    match.apply(SYSTEM, Deal(4 * match.rules.hand_size - 4))
    match.apply(SYSTEM, EndBidding())
    assert match.phase != Phase.DEAL and not match.bids
    said = deal_content(match.view(None), NAMES, None, locale)
    assert after in said and during not in said


@pytest.mark.parametrize(
    ("locale", "start", "end"),
    [
        ("en-US", "Hand 1 (over). The ", "."),  # two sentences, a space between
        ("zh-CN", "第 1 局（已结束）。", "。"),  # no space after a Chinese full stop
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
    match = Match.new(7)
    match.apply(SYSTEM, Deal(4 * match.rules.hand_size))
    match.apply(SYSTEM, EndBidding())
    while match.phase != Phase.SCORED:
        _, seat = match.expecting()
        assert seat is not None
        match.apply(seat, fallback_action(match.view(seat)))
    return match


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_a_panel_opened_between_hands_ends_with_how_the_hand_ended(locale: str) -> None:
    """My hand pressed in the pause after a hand: its result, as the summary says it."""
    view = _scored().view(0)
    assert view.last_result is not None
    said = result_text(view.last_result.winner, view.last_result.levels_gained, locale)
    panel = build_panel(1, view, [], names=NAMES, locale=locale)
    assert panel.content.splitlines()[-1] == said + ("。" if locale == "zh-CN" else ".")
