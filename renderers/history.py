"""The hand record image: a finished hand's tricks in a grid, laid out for a phone.

One row per trick: its number, then each seat's play in seat order (0-3, the
columns headed by the players' names, the dealer's in gold), then the trick's
points. The leader's cell is shaded and the winner's ringed; points the
attackers took are in the win colour, those the dealer's team kept muted. The
kitty closes the grid. Cards are written as rank and suit symbol (``10♦``), the
suits in their colours. 800 px wide, every word sized by ``canvas.legible``, so
it reads at 12 px on a phone; a cell wraps a long play onto more lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.rules import Card, Trump, team_of

from .canvas import encode, legible, level_text, new_canvas, ring, rounded, suit_icon
from .cards import hand_order, suit_colours
from .fonts import draw_text, fit, fit_name, text_width
from .scenes import HistoryScene
from .shapes import shape_mask
from .theme import RGB, Theme

WIDTH = 800
MARGIN = 16
PAD = 10  # inside a cell
TEXT = legible(WIDTH)
LINE = TEXT + 12
ICON = round(TEXT * 0.8)
NO_W = text_width("25", TEXT, True) + 2 * PAD
PTS_W = text_width("100", TEXT, True) + 2 * PAD
SEAT_W = (WIDTH - 2 * MARGIN - NO_W - PTS_W) // 4
CARD_GAP = 6


def card_width(card: Card) -> int:
    if card.is_joker:
        return ICON
    return text_width(level_text(card.rank), TEXT, True) + ICON


def lines_of(cards: Sequence[Card], width: int) -> list[list[Card]]:
    """Cards wrapped into lines of at most ``width`` px."""
    lines: list[list[Card]] = [[]]
    x = 0
    for card in cards:
        w = card_width(card)
        if lines[-1] and x + w > width:
            lines.append([])
            x = 0
        lines[-1].append(card)
        x += w + CARD_GAP
    return lines


def draw_cards(
    canvas: Image.Image,
    x0: int,
    cy: float,
    cards: Sequence[Card],
    th: Theme,
    colours: dict[str, RGB],
) -> None:
    x = x0
    for card in cards:
        if card.is_joker:
            big = card.rank == "B"
            star = shape_mask("star", ICON, not big)
            canvas.paste(colours["H"] if big else th.text, (x, round(cy - ICON / 2)), star)
        else:
            colour = colours[card.suit]
            x += draw_text(canvas, x, cy, level_text(card.rank), TEXT, colour, bold=True)
            suit_icon(canvas, x + 1, cy, card.suit, ICON, colour)
        x += ICON + CARD_GAP


def _trump(scene: HistoryScene) -> Trump:
    return scene.tricks[0].trump if scene.tricks else Trump("2", None)


def _rows(scene: HistoryScene) -> list[list[list[list[Card]]]]:
    """For each trick, for each seat, its play's lines."""
    trump = _trump(scene)
    inner = SEAT_W - 2 * PAD
    return [
        [lines_of(hand_order(trick.plays.get(seat, ()), trump), inner) for seat in range(4)]
        for trick in scene.tricks
    ]


def layout(scene: HistoryScene) -> tuple[int, list[int], int]:
    """Image height, each trick row's height, and the kitty's line count."""
    heights = [LINE * max(len(cell) for cell in row) + 2 * PAD for row in _rows(scene)]
    kitty = len(lines_of(hand_order(scene.kitty, _trump(scene)), WIDTH - 2 * (MARGIN + PAD)))
    height = MARGIN + LINE + PAD + LINE + sum(heights) + PAD + LINE * (1 + kitty) + PAD + MARGIN
    return height, heights, kitty


def draw(scene: HistoryScene, th: Theme, four_color: bool) -> Image.Image:
    height, heights, _ = layout(scene)
    canvas = new_canvas(WIDTH, height, th)
    colours = suit_colours(th, four_color)
    trump = _trump(scene)
    y = MARGIN
    title = fit(scene.title, TEXT, True, WIDTH - 2 * MARGIN)
    draw_text(canvas, MARGIN, y + LINE / 2, title, TEXT, th.text, bold=True)
    y += LINE + PAD
    x_seat = MARGIN + NO_W
    for seat in range(4):  # the header: the players' names
        name = fit_name(scene.names[seat], TEXT, True, SEAT_W - 2 * PAD, seat=seat)
        colour = th.gold if seat == scene.dealer else th.text
        x = x_seat + seat * SEAT_W + PAD
        draw_text(canvas, x, y + LINE / 2, name, TEXT, colour, bold=True)
    y += LINE
    for n, (trick, row, h) in enumerate(zip(scene.tricks, _rows(scene), heights, strict=True), 1):
        if n % 2:
            rounded(canvas, (MARGIN, y, WIDTH - MARGIN, y + h), 10, th.panel)
        cy = y + PAD + LINE / 2
        draw_text(canvas, MARGIN + NO_W - PAD, cy, str(n), TEXT, th.muted, align="right")
        for seat, cell in enumerate(row):
            x = x_seat + seat * SEAT_W
            box = (x + 2, y + 3, x + SEAT_W - 2, y + h - 3)
            if seat == trick.leader:
                rounded(canvas, box, 10, th.panel_edge)
            if seat == trick.winner:
                ring(canvas, box, 10, th.win, 3.0)
            for k, line in enumerate(cell):
                draw_cards(canvas, x + PAD, cy + k * LINE, line, th, colours)
        attackers = trick.winner is not None and team_of(trick.winner) != team_of(scene.dealer)
        colour = th.win if attackers and trick.trick_points else th.muted
        points = str(trick.trick_points) if trick.trick_points else "·"
        draw_text(canvas, WIDTH - MARGIN - PAD, cy, points, TEXT, colour, bold=True, align="right")
        y += h
    y += PAD
    kitty_lines = lines_of(hand_order(scene.kitty, trump), WIDTH - 2 * (MARGIN + PAD))
    bottom = y + LINE * (1 + len(kitty_lines)) + PAD
    rounded(canvas, (MARGIN, y, WIDTH - MARGIN, bottom), 14, th.felt)
    cy = y + LINE / 2 + PAD / 2
    word = fit(scene.kitty_word, TEXT, True, WIDTH - 2 * (MARGIN + PAD))
    draw_text(canvas, MARGIN + PAD, cy, word, TEXT, th.text, bold=True)
    for line in kitty_lines:
        cy += LINE
        draw_cards(canvas, MARGIN + PAD, cy, line, th, colours)
    return canvas


def render(scene: HistoryScene, th: Theme, four_color: bool) -> bytes:
    return encode(draw(scene, th, four_color), th)
