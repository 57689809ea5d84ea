"""The kitty image: the buried cards at the end of a hand, and what they scored.

The cards are spread wider than in a hand (a kitty is 6-8 cards, so there is
room) with their codes under them; the footer gives the kitty's points and,
when the attackers won the last trick, the multiplier and the bonus.
"""

from __future__ import annotations

from PIL import Image

from bot.rules import points

from .canvas import encode, new_canvas, rounded, trump_chip, trump_width
from .cards import CARD_H, CARD_W, group_of, hand_order, paste_card, sprite, suit_colours
from .fonts import draw_text, fit
from .labels import Lang, label
from .scenes import KittyScene
from .theme import Theme

MARGIN = 16
PAD = 18
HEADER_H = 46
FOOTER_H = 54
STEP = 64  # card spacing: most of each face shows
CODE_H = 26
MIN_WIDTH = 600


def layout(scene: KittyScene) -> tuple[int, int, int]:
    """Image width, height and the x of the first card."""
    n = len(scene.cards)
    cards_w = (n - 1) * STEP + CARD_W if n else 0
    width = max(MIN_WIDTH, cards_w + 2 * (MARGIN + PAD))
    height = MARGIN + HEADER_H + PAD + CARD_H + CODE_H + PAD + FOOTER_H + MARGIN
    return width, height, (width - cards_w) // 2


def draw(scene: KittyScene, th: Theme, four_color: bool, lang: Lang) -> Image.Image:
    width, height, x0 = layout(scene)
    canvas = new_canvas(width, height, th)
    cy = MARGIN + HEADER_H / 2 - 4
    chip_w = trump_width(scene.trump, lang, 18)
    chip_x = width - MARGIN - 4 - chip_w
    trump_chip(canvas, chip_x, cy, scene.trump, lang, 18, th.text, suit_colours(th, four_color))
    title = fit(scene.title or label(lang, "kitty"), 22, True, (chip_x - MARGIN) // 2)
    x = MARGIN + 4
    x += draw_text(canvas, x, cy, title, 22, th.text, bold=True) + 14
    by = fit(label(lang, "buried_by", name=scene.dealer_name), 16, False, chip_x - x - 16)
    draw_text(canvas, x, cy + 1, by, 16, th.muted)

    felt_top = MARGIN + HEADER_H
    felt_bottom = felt_top + PAD + CARD_H + CODE_H + PAD
    rounded(canvas, (MARGIN, felt_top, width - MARGIN, felt_bottom), 18, th.felt)
    cards = hand_order(scene.cards, scene.trump)
    for i, card in enumerate(cards):
        is_trump = scene.trump is not None and group_of(card, scene.trump) == "T"
        variant = "trump" if is_trump else "plain"
        cx = x0 + i * STEP
        paste_card(
            canvas, sprite(card, th.name, four_color, lang, variant), cx, felt_top + PAD, th.shadow
        )
        code_y = felt_top + PAD + CARD_H + CODE_H / 2 + 2
        draw_text(
            canvas,
            cx + min(STEP, CARD_W) / 2 - 4,
            code_y,
            str(card),
            17,
            th.text,
            bold=True,
            align="center",
        )

    # footer: points, and the bonus if the attackers won the last trick
    fy = felt_bottom + FOOTER_H / 2 + 4
    kitty_points = points(scene.cards)
    x = MARGIN + 4
    x += draw_text(canvas, x, fy, label(lang, "kitty_points"), 18, th.muted) + 10
    x += draw_text(canvas, x, fy, str(kitty_points), 24, th.text, bold=True) + 14
    if scene.multiplier:
        text = label(
            lang, "kitty_to_attackers", m=scene.multiplier, bonus=kitty_points * scene.multiplier
        )
        draw_text(canvas, x, fy, text, 20, th.win, bold=True)
    else:
        draw_text(canvas, x, fy, label(lang, "kitty_kept"), 18, th.muted)
    return canvas


def render(scene: KittyScene, th: Theme, four_color: bool, lang: Lang) -> bytes:
    return encode(draw(scene, th, four_color, lang), th)
