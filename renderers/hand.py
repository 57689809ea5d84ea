"""The hand image: one player's cards in rows, with the code under each card.

Cards overlap in fans (each shows its corner index, the last of a row shows in
full) and wrap into at most ``MAX_PER_ROW`` per row, so 33 cards (the dealer
with the kitty) make three rows and the image stays at most 760 px wide (620-720
for a real 33-card hand): shown at ~400 px on a phone, the 28 px rank indexes
are still ~15 px tall. Suit groups are set
apart by a gap, and rows break at a group boundary when one is near.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass

from PIL import Image

from bot.rules import Card

from .canvas import encode, new_canvas, rounded, trump_chip, trump_width
from .cards import CARD_H, CARD_W, STRIP, group_of, hand_order, paste_card, sprite, suit_colours
from .fonts import draw_text, fit
from .labels import Lang, label
from .scenes import HandScene
from .theme import Theme

MAX_PER_ROW = 13
MARGIN = 16
PAD = 14  # inside the felt
HEADER_H = 46
RAISE = 14  # selected cards sit this much higher
CODE_GAP = 4
CODE_H = 22
CODE_SIZE = 17
ROW_GAP = 10
GROUP_GAP = 14
MIN_WIDTH = 520
ROW_H = RAISE + CARD_H + CODE_GAP + CODE_H


@dataclass(frozen=True, slots=True)
class Slot:
    """Where one card of the hand goes."""

    card: Card
    x: int
    y: int
    selected: bool
    trump: bool
    marked: bool = False


def split_rows(groups: list[str], per_row: int = MAX_PER_ROW) -> list[tuple[int, int]]:
    """(start, end) of each row for cards whose groups are ``groups`` (in hand order).

    Rows are balanced; a break moves to the nearest suit boundary up to three
    cards away when the rows stay within ``per_row``.
    """
    n = len(groups)
    if n == 0:
        return []
    rows = math.ceil(n / per_row)
    bounds = [0]
    for k in range(1, rows):
        target = round(n * k / rows)
        best = target
        for d in sorted(range(-3, 4), key=abs):
            b = target + d
            if not bounds[-1] < b < n or b - bounds[-1] > per_row:
                continue
            if n - b > per_row * (rows - k):
                continue
            if groups[b] != groups[b - 1]:
                best = b
                break
        bounds.append(best)
    bounds.append(n)
    return list(itertools.pairwise(bounds))


def row_width(groups: list[str]) -> int:
    """Width of one row of overlapped cards with gaps between suit groups."""
    if not groups:
        return 0
    gaps = sum(1 for a, b in itertools.pairwise(groups) if a != b)
    return (len(groups) - 1) * STRIP + CARD_W + gaps * GROUP_GAP


def layout(scene: HandScene) -> tuple[int, int, list[Slot]]:
    """Image width, height and the position of every card."""
    cards = hand_order(scene.cards, scene.trump)
    groups = [group_of(c, scene.trump) for c in cards]
    rows = split_rows(groups, max(1, min(scene.per_row, MAX_PER_ROW)))
    widths = [row_width(groups[a:b]) for a, b in rows]
    width = max([MIN_WIDTH, *(w + 2 * (MARGIN + PAD) for w in widths)])
    felt_h = PAD * 2 + max(1, len(rows)) * ROW_H + max(0, len(rows) - 1) * ROW_GAP
    if not rows:
        felt_h = PAD * 2 + CARD_H // 2
    height = MARGIN + HEADER_H + felt_h + MARGIN

    wanted = Counter(scene.selected)
    # the kitty's copies are the last ones of each card in hand order
    marks = Counter(scene.marked)
    later = Counter(cards)
    slots: list[Slot] = []
    top = MARGIN + HEADER_H + PAD
    for r, (a, b) in enumerate(rows):
        x = (width - widths[r]) // 2
        y = top + r * (ROW_H + ROW_GAP)
        for i in range(a, b):
            card = cards[i]
            if i > a:
                x += STRIP + (GROUP_GAP if groups[i] != groups[i - 1] else 0)
            chosen = wanted[card] > 0
            if chosen:
                wanted[card] -= 1
            is_trump = scene.trump is not None and groups[i] == "T"
            later[card] -= 1
            marked = later[card] < marks[card]
            slots.append(Slot(card, x, y if chosen else y + RAISE, chosen, is_trump, marked))
    return width, height, slots


def draw(scene: HandScene, th: Theme, four_color: bool, lang: Lang) -> Image.Image:
    width, height, slots = layout(scene)
    canvas = new_canvas(width, height, th)

    # header: title on the left; trump and counts on the right
    cy = MARGIN + HEADER_H / 2 - 4
    right = width - MARGIN - 4
    info = label(lang, "cards_n", n=len(scene.cards))
    n_selected = sum(1 for s in slots if s.selected)
    if n_selected:
        info = label(lang, "selected_n", n=n_selected) + "  ·  " + info
    right -= draw_text(canvas, right, cy, info, 16, th.muted, align="right")
    chip_w = trump_width(scene.trump, lang, 18)
    chip_x = right - 24 - chip_w
    trump_chip(canvas, chip_x, cy, scene.trump, lang, 18, th.text, suit_colours(th, four_color))
    title = scene.title or label(lang, "your_hand")
    title = fit(title, 22, True, chip_x - MARGIN - 4 - 24)
    draw_text(canvas, MARGIN + 4, cy, title, 22, th.text, bold=True)

    felt_top = MARGIN + HEADER_H
    rounded(canvas, (MARGIN, felt_top, width - MARGIN, height - MARGIN), 18, th.felt)

    for slot in slots:
        variant = {
            (False, False): "plain",
            (False, True): "trump",
            (True, False): "selected",
            (True, True): "selected_trump",
        }[(slot.selected, slot.trump)]
        spr = sprite(slot.card, th.name, four_color, lang, variant)
        paste_card(canvas, spr, slot.x, slot.y, th.shadow)
    for slot in slots:
        code = str(slot.card)
        base_y = slot.y + (0 if slot.selected else -RAISE)
        cy = base_y + RAISE + CARD_H + CODE_GAP + CODE_H / 2
        colour = th.accent if slot.selected else th.text
        if slot.marked:  # from the kitty: the code on a gold tag
            half = CODE_H // 2
            box = (slot.x + 1, int(cy) - half, slot.x + 41, int(cy) + half)
            rounded(canvas, box, 6, th.gold)
            colour = th.badge_ink
        draw_text(canvas, slot.x + 21, cy, code, CODE_SIZE, colour, bold=True, align="center")
    return canvas


def render(scene: HandScene, th: Theme, four_color: bool, lang: Lang) -> bytes:
    return encode(draw(scene, th, four_color, lang), th)
