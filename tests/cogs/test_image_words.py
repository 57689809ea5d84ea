"""Every word the bot's images draw comes from its catalogs (issue 11): the words
``cogs.imagewords`` builds cover every key the renderers ask for, so the renderers'
own table (``renderers.labels``, kept for their demo) never fills in for them."""

from __future__ import annotations

from typing import Any

import pytest

from bot.rules import Trump, parse_cards
from cogs.imagewords import hand_words, kitty_words, summary_words
from renderers import (
    HandScene,
    KittyScene,
    SummaryScene,
    render_hand,
    render_kitty,
    render_summary,
)

NAMES = ("Alice", "Bob", "Carol", "Dave")
TRUMPS = (Trump("5", "H"), Trump("5", None), None)  # a suit, no trump, not set yet


class Asked(dict[str, str]):
    """The caller's words, noting each key a renderer asks for and does not find."""

    def __init__(self, words: dict[str, str]) -> None:
        super().__init__(words)
        self.missing: list[str] = []

    def get(self, key: str, default: Any = None) -> Any:
        if key not in self:
            self.missing.append(key)
        return super().get(key, default)


@pytest.mark.parametrize("loc", ["en-US", "zh-CN"])
@pytest.mark.parametrize("trump", TRUMPS)
def test_the_images_find_every_word_in_the_callers_words(loc: str, trump: Trump | None) -> None:
    cards = parse_cards("AS KS 5H 5H BJ 3D")
    asked = []
    words = Asked(hand_words(loc, cards, cards[:2]))
    render_hand(HandScene(cards, trump, selected=cards[:2], words=words))
    asked.append(words)
    for multiplier in (4, None):  # the attackers' bonus, the dealer keeping it
        words = Asked(kitty_words(loc, multiplier, 40))
        render_kitty(KittyScene(cards, trump, "Alice", multiplier=multiplier, words=words))
        asked.append(words)
    for penalty, multiplier in ((0, 2), (-10, None)):
        words = Asked(summary_words(loc, 3))
        scene = SummaryScene(
            NAMES, 0, 85, 15, multiplier, ("T", "7"), ("T", "8"), 1, "x", penalty, 3, words=words
        )
        render_summary(scene)
        asked.append(words)
    assert [w.missing for w in asked] == [[]] * len(asked)
