"""The kitty image: the buried cards at the end of a hand, and what they scored.

The cards are spread wider than in a hand (a kitty is 6-8 cards, so there is
room) with their codes under them; the footer gives the kitty's points and,
when the attackers won the last trick, the multiplier and the bonus. Every word
is sized by ``canvas.legible``: 12 px high when a phone shows the image 400 px
wide. Composed straight on the palette like the table (``page``).
"""

from __future__ import annotations

from bot.rules import points

from .canvas import legible, new_paper, png, trump_width
from .cards import CARD_H, CARD_W, group_of, hand_order, suit_colours
from .fonts import fit, fit_name, text_width
from .labels import Lang, word
from .page import Page
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


def draw(scene: KittyScene, page: Page) -> Page:
    """The kitty drawn on ``page`` (at least as large as ``layout(scene)`` says)."""
    th, lang, words = page.th, page.lang, scene.words
    width, _, x0 = layout(scene)
    size, line = sizes(width)
    colours = suit_colours(th, page.four_color)
    # header: the title and the trump, then who buried it
    cy = MARGIN + line / 2
    chip_w = trump_width(scene.trump, lang, size, words)
    chip_x = width - MARGIN - 4 - chip_w
    page.chip(chip_x, cy, scene.trump, size, th.text, colours, th.page, words)
    title = fit(scene.title or word(words, lang, "kitty"), size, True, chip_x - MARGIN - 24)
    page.text(MARGIN + 4, cy, title, size, th.text, bold=True, over=th.page)
    room = width - 2 * MARGIN - 8 - text_width(word(words, lang, "buried_by", name=""), size)
    name = fit_name(scene.dealer_name, size, False, room)
    by = word(words, lang, "buried_by", name=name)
    page.text(MARGIN + 4, cy + line, by, size, th.muted, over=th.page)

    felt_top = MARGIN + 2 * line
    felt_bottom = felt_top + PAD + CARD_H + line + PAD
    page.rounded((MARGIN, felt_top, width - MARGIN, felt_bottom), 18, th.felt, th.page)
    cards = hand_order(scene.cards, scene.trump)
    placed = []
    for i, card in enumerate(cards):
        is_trump = scene.trump is not None and group_of(card, scene.trump) == "T"
        placed.append((card, "trump" if is_trump else "plain", x0 + i * STEP, felt_top + PAD))
    page.cards(placed)
    code_y = felt_top + PAD + CARD_H + line / 2 + 2
    for card, _, cx, _ in placed:
        mid = cx + min(STEP, CARD_W) / 2 - 4
        page.text(mid, code_y, str(card), size, th.text, True, over=th.felt, align="center")

    # footer: points, then the bonus if the attackers won the last trick
    fy = felt_bottom + line / 2 + 4
    kitty_points = points(scene.cards)
    x = MARGIN + 4
    x += page.text(x, fy, word(words, lang, "kitty_points"), size, th.muted, over=th.page) + 12
    page.text(x, fy, str(kitty_points), size, th.text, bold=True, over=th.page)
    if scene.multiplier:
        bonus = kitty_points * scene.multiplier
        text = word(words, lang, "kitty_to_attackers", m=scene.multiplier, bonus=bonus)
        colour = th.win
    else:
        text = word(words, lang, "kitty_kept")
        colour = th.muted
    text = fit(text, size, True, width - 2 * MARGIN - 8)
    page.text(MARGIN + 4, fy + line, text, size, colour, bold=True, over=th.page)
    return page


def render(scene: KittyScene, th: Theme, four_color: bool, lang: Lang) -> bytes:
    width, height, _ = layout(scene)
    page = Page(new_paper(width, height, th, scratch=True), th, four_color, lang)
    return png(draw(scene, page).canvas, (width, height))
