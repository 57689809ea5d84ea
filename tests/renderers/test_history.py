"""The hand record image: the tricks of a finished hand in a grid, readable on a phone."""

from __future__ import annotations

import pytest

from bot.rules import Trump, parse_cards
from renderers import HistoryScene, TrickScene, render_history
from renderers.history import LINE, MARGIN, NO_W, PAD, SEAT_W, TEXT, layout
from renderers.theme import DARK

from .util import at_phone_width, count, decode, ink_height

NAMES = ("Alice", "Bot Chen", "Carol Zhang", "张伟")
TRUMP = Trump("5", "H")


def trick(leader: int, winner: int, points: int, *plays: str) -> TrickScene:
    cards = {(leader + k) % 4: parse_cards(p) for k, p in enumerate(plays)}
    return TrickScene(NAMES, leader, cards, TRUMP, 0, winner, True, points)


def scene(n: int = 3) -> HistoryScene:
    tricks = [
        trick(0, 1, 10, "AS", "TS", "3S", "4S"),
        trick(1, 3, 0, "KC KC", "2C 3C", "BJ SJ", "6C 7C"),
        trick(3, 3, 25, "AS KS KS QS JS JS 9S 9S", "2D 3D 4D 6D 7D 8D 9D TD", "5S", "8S 7S"),
    ][:n]
    return HistoryScene(NAMES, 0, tricks, parse_cards("5H 5H 2C KD"), "Hand 9 · trump ♥5", "Kitty")


def test_a_row_per_trick_and_long_plays_wrap() -> None:
    height, heights, kitty = layout(scene())
    assert len(heights) == 3 and kitty == 1
    assert heights[0] == heights[1] < heights[2]  # the 8-card throw wraps onto more lines
    assert decode(render_history(scene())).size == (800, height)


def test_the_winner_is_ringed_and_the_attackers_points_stand_out() -> None:
    image = decode(render_history(scene(1)))
    top = MARGIN + LINE + PAD + LINE
    x = MARGIN + NO_W + SEAT_W  # seat 1 won the first trick
    cell = (x, top, x + SEAT_W, top + LINE + 2 * PAD)
    assert count(image, cell, DARK.win) > 150
    other = (x + SEAT_W, top, x + 2 * SEAT_W, top + LINE + 2 * PAD)
    assert count(image, other, DARK.win) == 0
    points = (800 - MARGIN - 70, top, 800 - MARGIN, top + LINE + 2 * PAD)
    assert count(image, points, DARK.win) > 20  # 10 points to the attackers (seat 1)


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_every_word_is_at_least_12_px_high_on_a_400_px_phone(theme: str) -> None:
    phone, scale = at_phone_width(render_history(scene(), theme=theme))
    rows = [MARGIN, MARGIN + LINE + PAD]  # the title, the names
    first = MARGIN + LINE + PAD + LINE
    heights = layout(scene())[1]
    for h in heights:
        rows.append(first + PAD)  # the trick's first line: number, cards, points
        first += h
    for y in rows:
        box = (
            int(MARGIN * scale),
            int(y * scale),
            int((800 - MARGIN) * scale),
            int((y + LINE) * scale),
        )
        assert ink_height(phone, box) >= 12, y
    assert TEXT >= 34


def test_a_trick_without_a_winner_is_refused() -> None:
    open_trick = TrickScene(NAMES, 0, {0: parse_cards("AS")}, TRUMP, 0)
    with pytest.raises(ValueError, match="winner"):
        HistoryScene(NAMES, 0, [open_trick], (), "t", "k")
