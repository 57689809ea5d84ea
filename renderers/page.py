"""The page the table, kitty and summary images are drawn on: a palette canvas.

Each image's layout is written once, against this class's methods, each told the
flat colour it lies on (``over``: the page, a panel, the felt), so that its
antialiased edge is composed over that (see ``canvas``). The renderers draw on it
straight in palette mode, from cached pieces; the tests draw the same layout
through an RGB page (``tests/renderers/reference.py``: the same methods with the
plain RGB primitives, the canvas mapped onto the palette at the end) and hold the
two to the same pixels.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image

from bot.rules import Card, Trump

from .canvas import (
    EMPTY,
    index,
    points_bar,
    to_palette,
    trump_parts,
)
from .cards import STRIP
from .labels import Lang
from .shapes import rounded_mask
from .stamps import (
    stamp_badge,
    stamp_chip,
    stamp_ring,
    stamp_rounded,
    stamp_shape,
    stamp_suit,
    stamp_text,
)
from .theme import RGB, THEMES, Theme
from .tiles import content_id, place_cards, tile

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

Box = tuple[int, int, int, int]
RING_RADIUS = 14  # the ring round a table's winning play
RING_WIDTH = 4.0


@dataclass
class Page:
    """The canvas being drawn and the boxes of the words on it (checked by the tests)."""

    canvas: Image.Image
    th: Theme
    four_color: bool
    lang: Lang
    words: list[Box] = field(default_factory=list)

    def text(
        self,
        x: float,
        cy: float,
        text: str,
        size: int,
        colour: RGB,
        bold: bool = False,
        *,
        over: RGB,
        align: str = "left",
    ) -> int:
        """One line of words at ``x`` (its left edge, centre or right edge: ``align``),
        centred on ``cy``; returns its width."""
        width = self.draw_text(x, cy, text, size, colour, bold, over, align)
        left = round(x - {"left": 0, "center": width / 2, "right": width}[align])
        self.words.append((left, round(cy - size / 2), left + width, round(cy + size / 2)))
        return width

    def draw_text(
        self,
        x: float,
        cy: float,
        text: str,
        size: int,
        colour: RGB,
        bold: bool,
        over: RGB,
        align: str = "left",
    ) -> int:
        return stamp_text(
            self.canvas, self.th, x, cy, text, size, colour, over, bold=bold, align=align
        )

    def rounded(
        self,
        box: Box,
        radius: float,
        fill: RGB,
        over: RGB,
        outline: RGB | None = None,
        width: float = 1.5,
    ) -> None:
        """A rounded rectangle, filled, with an ``outline`` ``width`` px wide if given."""
        if outline is None:
            stamp_rounded(self.canvas, self.th, box, radius, fill, over)
            return
        x0, y0, x1, y1 = box
        piece = _panel(x1 - x0, y1 - y0, radius, fill, outline, width, over, self.th.name)
        self.canvas.im.paste(piece, box)

    def rect(self, box: Box, colour: RGB) -> None:
        """A plain rectangle (no antialiased edge)."""
        self.canvas.paste(index(self.th.name, colour), box)

    def badge(
        self, x: float, cy: float, text: str, fill: RGB, ink: RGB, size: int, over: RGB
    ) -> int:
        return stamp_badge(self.canvas, self.th, x, cy, text, fill, ink, size, over)

    def suit(self, x: float, cy: float, suit: str, size: int, colour: RGB, over: RGB) -> None:
        stamp_suit(self.canvas, self.th, x, cy, suit, size, colour, over)

    def star(self, left: int, top: int, size: int, big: bool, colour: RGB, over: RGB) -> None:
        """The joker's star: filled for the big joker, hollow for the small."""
        stamp_shape(self.canvas, self.th, left, top, "star", size, colour, over, not big)

    def chip(
        self,
        x: float,
        cy: float,
        trump: Trump | None,
        size: int,
        ink: RGB,
        colours: dict[str, RGB],
        over: RGB,
        words: Mapping[str, str] = EMPTY,
    ) -> None:
        """The trump chip (``canvas.trump_chip``) from ``x``, centred on ``cy``."""
        parts, _ = trump_parts(trump, self.lang, size, words)
        stamp_chip(self.canvas, self.th, x, cy, parts, size, ink, colours, over)

    def bar(self, box: Box, points: int, step: int, total: int, size: int, over: RGB) -> None:
        """``canvas.points_bar`` in ``box``, over a flat ``over`` reaching ``size`` px
        left and right of it and 3 above (its tick marks and end labels)."""
        x0, y0, x1, y1 = box
        # drawn apart with its origin moved by even numbers of pixels: a label centred on
        # a half pixel rounds (to even) the same way as on the page
        left, top = (x0 - size) & ~1, (y0 - 3) & ~1
        local = (x0 - left, y0 - top, x1 - left, y1 - top)
        piece = _bar(local, points, step, total, size, over, self.th.name)
        self.canvas.im.paste(piece, (left, top, x1 + size, y1))

    def cards(self, cards: list[tuple[Card, str, int, int]], ring: Box | None = None) -> None:
        """Cards (card, variant, x, y) pasted in order over the felt, each over those
        before, inside a ``ring`` (the winning play's, drawn first) if given."""
        th = self.th
        base = None
        if ring is not None:
            under = stamp_ring(self.canvas, th, ring, RING_RADIUS, th.win, RING_WIDTH, th.felt)
            key = ("ring", under.size, RING_RADIUS, RING_WIDTH, th.win, th.felt)
            base = (content_id(key), under, ring[0], ring[1])
        placed = []
        for i, (card, variant, x, y) in enumerate(cards):
            after = cards[i + 1] if i + 1 < len(cards) else None
            covered = after is not None and after[3] == y and after[2] == x + STRIP
            t = tile(card, self.th.name, self.four_color, self.lang, variant, covered)
            placed.append((t, x, y))
        place_cards(self.canvas, th, placed, lookback=len(placed), base=base)


@lru_cache(maxsize=32)  # a few panel sizes per image kind and theme: ~200 KB each
def _panel(
    w: int,
    h: int,
    radius: float,
    fill: RGB,
    outline: RGB,
    width: float,
    over: RGB,
    theme_name: str,
) -> ImagingCore:
    """An outlined panel over ``over``, mapped onto the palette whole (as
    ``canvas.rounded`` draws it in RGB)."""
    rgb = Image.new("RGB", (w, h), over)
    rgb.paste(outline, (0, 0), rounded_mask(w, h, radius))
    rgb.paste(fill, (0, 0), rounded_mask(w, h, radius, width))
    return to_palette(rgb, THEMES[theme_name]).im


@lru_cache(maxsize=64)  # one per points total seen lately
def _bar(
    box: Box, points: int, step: int, total: int, size: int, over: RGB, theme_name: str
) -> ImagingCore:
    th = THEMES[theme_name]
    rgb = Image.new("RGB", (box[2] + size, box[3]), over)
    points_bar(rgb, box, points, step, total, th, size)
    return to_palette(rgb, th).im
