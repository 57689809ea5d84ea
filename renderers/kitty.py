"""The kitty image: the buried cards at the end of a hand, and what they scored.

The cards are spread wider than in a hand (a kitty is 6-8 cards, so there is
room) with their codes under them; the footer gives the kitty's points and,
when the attackers won the last trick, the multiplier and the bonus. Every word
is sized by ``canvas.legible``: 12 px high when a phone shows the image 400 px
wide.
"""

from __future__ import annotations

from PIL import Image

from bot.rules import points

from .canvas import encode, legible, new_canvas, rounded, trump_chip, trump_width
from .cards import CARD_H, CARD_W, group_of, hand_order, paste_card, sprite, suit_colours
from .fonts import draw_text, fit, fit_name, text_width
from .labels import Lang, word
from .scenes import KittyScene
from .theme import Theme

MARGIN = 16
PAD = 18
STEP = 64  # card spacing: most of each face shows
MIN_WIDTH = 600


def sizes(width: int) -> tuple[int, int]:
    """Text size and line height of a kitty image ``width`` px wide (legible on a phone)."""
    size = legible(width)
    return size, size + 14


def layout(scene: KittyScene) -> tuple[int, int, int]:
    """Image width, height and the x of the first card."""
    n = len(scene.cards)
    cards_w = (n - 1) * STEP + CARD_W if n else 0
    width = max(MIN_WIDTH, cards_w + 2 * (MARGIN + PAD))
    _, line = sizes(width)
    height = MARGIN + 2 * line + PAD + CARD_H + line + PAD + 2 * line + MARGIN
    return width, height, (width - cards_w) // 2


def draw(scene: KittyScene, th: Theme, four_color: bool, lang: Lang) -> Image.Image:
    width, height, x0 = layout(scene)
    size, line = sizes(width)
    words = scene.words
    canvas = new_canvas(width, height, th)
    colours = suit_colours(th, four_color)
    # header: the title and the trump, then who buried it
    cy = MARGIN + line / 2
    chip_w = trump_width(scene.trump, lang, size, words)
    chip_x = width - MARGIN - 4 - chip_w
    trump_chip(canvas, chip_x, cy, scene.trump, lang, size, th.text, colours, words)
    title = fit(scene.title or word(words, lang, "kitty"), size, True, chip_x - MARGIN - 24)
    draw_text(canvas, MARGIN + 4, cy, title, size, th.text, bold=True)
    room = width - 2 * MARGIN - 8 - text_width(word(words, lang, "buried_by", name=""), size)
    name = fit_name(scene.dealer_name, size, False, room)
    by = word(words, lang, "buried_by", name=name)
    draw_text(canvas, MARGIN + 4, cy + line, by, size, th.muted)

    felt_top = MARGIN + 2 * line
    felt_bottom = felt_top + PAD + CARD_H + line + PAD
    rounded(canvas, (MARGIN, felt_top, width - MARGIN, felt_bottom), 18, th.felt)
    cards = hand_order(scene.cards, scene.trump)
    for i, card in enumerate(cards):
        is_trump = scene.trump is not None and group_of(card, scene.trump) == "T"
        variant = "trump" if is_trump else "plain"
        cx = x0 + i * STEP
        spr = sprite(card, th.name, four_color, lang, variant)
        paste_card(canvas, spr, cx, felt_top + PAD, th.shadow)
        code_y = felt_top + PAD + CARD_H + line / 2 + 2
        mid = cx + min(STEP, CARD_W) / 2 - 4
        draw_text(canvas, mid, code_y, str(card), size, th.text, bold=True, align="center")

    # footer: points, then the bonus if the attackers won the last trick
    fy = felt_bottom + line / 2 + 4
    kitty_points = points(scene.cards)
    x = MARGIN + 4
    x += draw_text(canvas, x, fy, word(words, lang, "kitty_points"), size, th.muted) + 12
    draw_text(canvas, x, fy, str(kitty_points), size, th.text, bold=True)
    if scene.multiplier:
        bonus = kitty_points * scene.multiplier
        text = word(words, lang, "kitty_to_attackers", m=scene.multiplier, bonus=bonus)
        colour = th.win
    else:
        text = word(words, lang, "kitty_kept")
        colour = th.muted
    text = fit(text, size, True, width - 2 * MARGIN - 8)
    draw_text(canvas, MARGIN + 4, fy + line, text, size, colour, bold=True)
    return canvas


def render(scene: KittyScene, th: Theme, four_color: bool, lang: Lang) -> bytes:
    return encode(draw(scene, th, four_color, lang), th)
