"""Lines the cogs put together read as their language writes them: the shape of
each (brackets, colons) is the catalog's, so Chinese gets （） and ：."""

from __future__ import annotations

import re

import pytest

from bot.i18n import LOCALES, t
from bot.rules import parse_cards
from bot.store import UserPrefs
from bot.store.models import PlayerStats
from cogs.imagewords import hand_words
from cogs.prefs import WORDS, prefs_embed
from cogs.records import _stat_fields
from renderers import HandScene
from renderers.hand import header


def test_the_preferences_list_uses_full_width_brackets_and_colons_in_chinese() -> None:
    chinese = prefs_embed("zh-CN", UserPrefs()).description or ""
    assert chinese.splitlines()[0] == "**语言**（`language`）：自动（跟随Discord）"
    assert "(" not in chinese and "): " not in chinese
    english = prefs_embed("en-US", UserPrefs()).description or ""
    assert english.splitlines()[0] == "**Language** (`language`): auto (same as Discord)"


def _stats() -> PlayerStats:
    return PlayerStats(1, "张伟", 10, 6, 80, 20, 20, 40, 9, 1, 30, 2, 10, 12, 25.0, 8.333, 0.0, 10)


def test_the_rating_line_uses_full_width_brackets_in_chinese() -> None:
    assert dict(_stat_fields("zh-CN", _stats()))["等级分"] == "0.0（μ 25.0，σ 8.3）"
    assert dict(_stat_fields("en-US", _stats()))["Rating"] == "0.0 (μ 25.0, σ 8.3)"


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("value", ["zh-CN", "en-US", "auto"])
def test_a_language_is_shown_as_a_word_the_player_may_type(locale: str, value: str) -> None:
    shown = t(locale, "prefs-value-language", value=value)
    word = re.split(r"[ （(]", shown)[0]
    assert WORDS["language"][word.lower()] == (None if value == "auto" else value), shown


@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("zh-CN", "zh")])
def test_the_hand_image_counts_its_cards_once(locale: str, lang: str) -> None:
    """The title is the panel's (你的手牌); the count under it is the image's (20张):
    not 你的手牌 · 20张 and 20张 again."""
    cards = parse_cards("AH KH QH JH TH 9H 8H 7H 6H 5H AS KS QS JS TS 9S 8S 7S 6S 5S")
    scene = HandScene(cards, title=t(locale, "panel-title"), words=hand_words(locale, cards, []))
    title, info = header(scene, 800, 0, lang)  # type: ignore[arg-type]
    assert not re.search(r"\d", title), title
    assert info == ("20张" if lang == "zh" else "20 cards")
