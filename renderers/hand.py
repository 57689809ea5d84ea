"""The hand image: one player's cards in rows, with the code under each card.

Cards overlap in fans (each shows its corner index, the last of a row shows in
full) and wrap into at most ``MAX_PER_ROW`` per row, so 33 cards (the dealer
with the kitty) make four rows and the image stays under 650 px wide. Every word
(the title, the counts, the trump, the codes) is sized from the image's width
(``canvas.legible``), so shown 400 px wide on a phone its capitals are 12 px
high; nine cards a row is what keeps a code that size within its card's strip.
Suit groups are set apart by a gap; two suits of the same colour side by side
(♠ then ♣ when hearts are trumps) by a gap that shows the felt, so they never
read as one suit. Rows break at a group boundary when one is near.

Drawn once per play, the image is composed straight on the palette from cached
pieces (``compose``; see ``canvas`` and ``tiles.place_cards``): the same pixels
as drawing it in RGB and mapping it at the end, which the tests check against
``tests/renderers/reference.py``, at a quarter of the cost.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from functools import cache, lru_cache
from typing import TYPE_CHECKING, NamedTuple

from PIL import Image

from bot.rules import Card

from .canvas import (
    legible,
    new_paper,
    png,
    trump_parts,
)
from .cards import CARD_H, CARD_W, STRIP, groups_of, hand_order, suit_colours
from .fonts import TextMask, fit, place
from .labels import Lang, word
from .scenes import HandScene
from .stamps import (
    Stamp,
    new_text_stamp,
    stamp_chip,
    stamp_rounded,
    stamp_text,
)
from .theme import THEMES, Theme
from .tiles import place_cards, tile

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

MAX_PER_ROW = 9
MARGIN = 16
PAD = 14  # inside the felt
RAISE = 14  # selected cards sit this much higher
CODE_GAP = 4
ROW_GAP = 10
GROUP_GAP = 14
SUIT_GAP = 12  # felt shown between two suits of the same colour
MIN_WIDTH = 400  # a phone shows a narrower image at its own size: a short hand shows bigger
_COLOUR = {"S": "black", "C": "black", "H": "red", "D": "red"}


class Slot(NamedTuple):
    """Where one card of the hand goes (a tuple: a hand makes 25 at every render)."""

    card: Card
    x: int
    y: int
    selected: bool
    trump: bool
    marked: bool = False


def split_rows(groups: list[str], per_row: int = MAX_PER_ROW) -> list[tuple[int, int]]:
    """(start, end) of each row for cards whose groups are ``groups`` (in hand order).

    Rows are balanced and never longer than ``per_row``; a break moves to the
    nearest suit boundary up to three cards away when the rows stay within it.
    """
    n = len(groups)
    if n == 0:
        return []
    rows = math.ceil(n / per_row)
    bounds = [0]
    for k in range(1, rows):
        target = round(n * k / rows)
        # no row over per_row, even after an earlier break moved
        best = max(n - per_row * (rows - k), min(target, bounds[-1] + per_row))
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


@cache
def step(before: str, after: str) -> int:
    """From one card's left edge to the next's, given their groups."""
    if before == after:
        return STRIP
    if _COLOUR.get(before, before) == _COLOUR.get(after, after):
        return CARD_W + SUIT_GAP  # the same colour: the whole card, then felt
    return STRIP + GROUP_GAP


def sizes(width: int) -> tuple[int, int, int]:
    """Text size, code line height and header height of a hand image ``width`` px wide."""
    size = legible(width)
    return size, size + 6, round(size * 3.4)  # the header: two lines


def layout(scene: HandScene) -> tuple[int, int, list[Slot]]:
    """Image width, height and the position of every card."""
    cards = hand_order(scene.cards, scene.trump)
    groups = groups_of(cards, scene.trump)
    rows = split_rows(groups, max(1, min(scene.per_row, MAX_PER_ROW)))
    steps = [0, *itertools.starmap(step, itertools.pairwise(groups))]  # to each card from the last
    widths = [CARD_W + sum(steps[a + 1 : b]) for a, b in rows]
    width = max([MIN_WIDTH, *(w + 2 * (MARGIN + PAD) for w in widths)])
    _, code_h, header_h = sizes(width)
    row_h = RAISE + CARD_H + CODE_GAP + code_h
    felt_h = PAD * 2 + max(1, len(rows)) * row_h + max(0, len(rows) - 1) * ROW_GAP
    if not rows:
        felt_h = PAD * 2 + CARD_H // 2
    height = MARGIN + header_h + felt_h + MARGIN

    wanted = Counter(scene.selected)
    # the kitty's copies are the last ones of each card in hand order
    marks = Counter(scene.marked)
    later = Counter(cards)
    slots: list[Slot] = []
    top = MARGIN + header_h + PAD
    for r, (a, b) in enumerate(rows):
        x = (width - widths[r]) // 2
        y = top + r * (row_h + ROW_GAP)
        for i in range(a, b):
            card = cards[i]
            if i > a:
                x += steps[i]
            chosen = wanted.get(card, 0) > 0  # ``get``: a Counter's missing key costs a call
            if chosen:
                wanted[card] -= 1
            is_trump = scene.trump is not None and groups[i] == "T"
            later[card] -= 1
            marked = later[card] < marks.get(card, 0)
            slots.append(Slot(card, x, y if chosen else y + RAISE, chosen, is_trump, marked))
    return width, height, slots


VARIANT = {  # (selected, trump) -> the card's look
    (False, False): "plain",
    (False, True): "trump",
    (True, False): "selected",
    (True, True): "selected_trump",
}
FELT_RADIUS = 18
TAG_RADIUS = 6


def header(scene: HandScene, width: int, n_selected: int, lang: Lang) -> tuple[str, str]:
    """The title (cut to fit) and the counts (``2 selected · 25 cards``)."""
    size = sizes(width)[0]
    words = scene.words
    title = fit(scene.title or word(words, lang, "your_hand"), size, True, width - 2 * MARGIN - 8)
    info = word(words, lang, "cards_n", n=len(scene.cards))
    if n_selected:
        info = word(words, lang, "selected_n", n=n_selected) + " · " + info
    return title, info


def code_spot(slot: Slot, code_h: int) -> tuple[float, float, tuple[int, int, int, int]]:
    """Where a card's code is printed (centre x, centre y) and its kitty tag's box."""
    base_y = slot.y + (0 if slot.selected else -RAISE)
    cy = base_y + RAISE + CARD_H + CODE_GAP + code_h / 2
    half = code_h // 2
    return (
        slot.x + (STRIP - 1) / 2,
        cy,
        (slot.x, int(cy) - half, slot.x + STRIP - 1, int(cy) + half),
    )


def compose(
    scene: HandScene, th: Theme, four_color: bool, lang: Lang, *, scratch: bool = False
) -> tuple[Image.Image, tuple[int, int]]:
    """The hand image on a palette canvas ("P"), from cached pieces (see ``canvas``),
    and its size; with ``scratch``, on the thread's own canvas (``new_paper``)."""
    width, height, slots = layout(scene)
    size, code_h, header_h = sizes(width)
    felt = (MARGIN, MARGIN + header_h, width - MARGIN, height - MARGIN)
    paper = new_paper(width, height, th, scratch=scratch, covered=felt)  # the felt covers it

    # header: the title, then the trump on the left and the counts on the right
    title, info = header(scene, width, sum(1 for s in slots if s.selected), lang)
    line = header_h / 2
    cy = MARGIN + line / 2
    stamp_text(paper, th, MARGIN + 4, cy, title, size, th.text, th.page, bold=True)
    cy += line - 4
    parts, _ = trump_parts(scene.trump, lang, size, scene.words)
    colours = suit_colours(th, four_color)
    stamp_chip(paper, th, MARGIN + 4, cy, parts, size, th.text, colours, th.page)
    stamp_text(paper, th, width - MARGIN - 4, cy, info, size, th.muted, th.page, align="right")

    stamp_rounded(paper, th, felt, FELT_RADIUS, th.felt, th.page)
    tiles = []
    for slot, after in itertools.zip_longest(slots, slots[1:]):
        covered = after is not None and after.y == slot.y and after.x == slot.x + STRIP
        variant = VARIANT[(slot.selected, slot.trump)]
        tiles.append((tile(slot.card, th.name, four_color, lang, variant, covered), slot.x, slot.y))
    place_cards(paper, th, tiles)
    core = paper.im
    codes = _codes(size, code_h, th.name)
    for slot in slots:
        if slot.marked:  # from the kitty: the code on a gold tag
            mid, cy, tag = code_spot(slot, code_h)
            stamp_rounded(paper, th, tag, TAG_RADIUS, th.gold, th.felt)
            code = str(slot.card)
            ink = th.badge_ink
            stamp_text(
                paper, th, mid, cy, code, size, ink, th.gold, bold=True, align="center", tracking=-1
            )
            continue
        x, y = slot.x, slot.y - (0 if slot.selected else RAISE)  # the row's top
        key = (slot.card, slot.selected, x & 1, y & 1)
        found = codes.get(key)
        if found is None:
            found = codes[key] = _code(slot.card, slot.selected, size, code_h, th.name, *key[2:])
        piece, (x0, y0, x1, y1) = found
        core.paste(piece, (x + x0, y + y0, x + x1, y + y1))  # whole: over the felt (``_put``)
    return paper, (width, height)


#: a card's placed code (``_code``) by (card, selected, the corner's parities)
PlacedCodes = dict[tuple[Card, bool, int, int], tuple["ImagingCore", tuple[int, int, int, int]]]


@lru_cache(maxsize=32)  # 9 sizes × 2 themes; each at most 54 cards × 2 × 4 parities: 432
def _codes(size: int, code_h: int, theme_name: str) -> PlacedCodes:
    """The placed codes of one image size and theme, looked up by a short key: through
    ``_code``'s seven arguments 25 lookups an image were 5% of it."""
    return {}


def _code(
    card: Card, selected: bool, size: int, code_h: int, theme_name: str, x_odd: int, y_odd: int
) -> tuple[ImagingCore, tuple[int, int, int, int]]:
    """A card's code over the felt (``stamp_text`` as ``code_spot`` places it), and its
    box from the card's left and its row's top: what 25 codes an image cost in
    ``stamp_text``'s lookups and placing was a tenth of the image. Kept (``_codes``)
    per parity of that corner: a code centred on a half pixel rounds to even."""
    tm, stamp = _code_stamp(card, selected, size, theme_name)
    at = Slot(card, x_odd, y_odd + (0 if selected else RAISE), selected, False)
    mid, cy, _ = code_spot(at, code_h)
    left, top = place(tm, mid, cy, size, "center", "middle")
    x0, y0, x1, y1 = stamp.box
    box = (left + x0 - x_odd, top + y0 - y_odd, left + x1 - x_odd, top + y1 - y_odd)
    return stamp.piece, box


# Apart from ``text_stamp``'s cache: with 400 tables' names in it as well it would
# be full, and an LRU cache smaller than what is used again and again misses nearly
# every time (0.35 ms a miss: the text drawn by FreeType). 1.4 KB each.
@lru_cache(maxsize=2048)  # 54 cards × 2 inks × 9 text sizes (the widths) × 2 themes: 1,944
def _code_stamp(card: Card, selected: bool, size: int, theme_name: str) -> tuple[TextMask, Stamp]:
    th = THEMES[theme_name]
    ink = th.accent if selected else th.text
    return new_text_stamp(str(card), size, True, -1, ink, th.felt, theme_name)


def render(scene: HandScene, th: Theme, four_color: bool, lang: Lang) -> bytes:
    return png(*compose(scene, th, four_color, lang, scratch=True))
