"""The hand, table, kitty and summary images drawn the plain way, for tests only: every piece pasted
on an RGB canvas in full (each card whole, nothing cached but the sprites), then the
whole canvas mapped onto the palette. The renderers compose the same images straight
on a palette canvas from cached pieces; the tests hold the two to the same pixels."""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

from bot.rules import Card, Trump
from renderers import kitty, summary, table
from renderers.canvas import (
    EMPTY,
    badge,
    new_canvas,
    points_bar,
    ring,
    rounded,
    suit_icon,
    to_palette,
    trump_chip,
)
from renderers.cards import paste_card, sprite, suit_colours
from renderers.fonts import draw_text
from renderers.hand import (
    FELT_RADIUS,
    MARGIN,
    TAG_RADIUS,
    VARIANT,
    code_spot,
    header,
    layout,
    sizes,
)
from renderers.labels import Lang
from renderers.page import RING_RADIUS, RING_WIDTH, Box, Page
from renderers.scenes import HandScene, KittyScene, SummaryScene, TableScene
from renderers.shapes import shape_mask
from renderers.theme import RGB, Theme


def draw_hand(scene: HandScene, th: Theme, four_color: bool, lang: Lang) -> Image.Image:
    """The hand image as a "P" image, drawn in RGB and mapped at the end."""
    width, height, slots = layout(scene)
    size, code_h, header_h = sizes(width)
    canvas = new_canvas(width, height, th)
    title, info = header(scene, width, sum(1 for s in slots if s.selected), lang)
    line = header_h / 2
    cy = MARGIN + line / 2
    draw_text(canvas, MARGIN + 4, cy, title, size, th.text, bold=True)
    cy += line - 4
    colours = suit_colours(th, four_color)
    trump_chip(canvas, MARGIN + 4, cy, scene.trump, lang, size, th.text, colours, scene.words)
    draw_text(canvas, width - MARGIN - 4, cy, info, size, th.muted, align="right")
    felt = (MARGIN, MARGIN + header_h, width - MARGIN, height - MARGIN)
    rounded(canvas, felt, FELT_RADIUS, th.felt)
    for slot in slots:
        spr = sprite(slot.card, th.name, four_color, lang, VARIANT[(slot.selected, slot.trump)])
        paste_card(canvas, spr, slot.x, slot.y, th.shadow)
    for slot in slots:
        mid, cy, tag = code_spot(slot, code_h)
        colour = th.accent if slot.selected else th.text
        if slot.marked:
            rounded(canvas, tag, TAG_RADIUS, th.gold)
            colour = th.badge_ink
        code = str(slot.card)
        draw_text(canvas, mid, cy, code, size, colour, bold=True, align="center", tracking=-1)
    return to_palette(canvas, th)


class RGBPage(Page):
    """The images' page drawing with the RGB primitives (``over`` is what they blend on)."""

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
        return draw_text(self.canvas, x, cy, text, size, colour, bold=bold, align=align)

    def rounded(
        self,
        box: Box,
        radius: float,
        fill: RGB,
        over: RGB,
        outline: RGB | None = None,
        width: float = 1.5,
    ) -> None:
        rounded(self.canvas, box, radius, fill, outline, width)

    def rect(self, box: Box, colour: RGB) -> None:
        self.canvas.paste(colour, box)

    def badge(
        self, x: float, cy: float, text: str, fill: RGB, ink: RGB, size: int, over: RGB
    ) -> int:
        return badge(self.canvas, x, cy, text, fill, ink, size)

    def suit(self, x: float, cy: float, suit: str, size: int, colour: RGB, over: RGB) -> None:
        suit_icon(self.canvas, x, cy, suit, size, colour)

    def star(self, left: int, top: int, size: int, big: bool, colour: RGB, over: RGB) -> None:
        self.canvas.paste(colour, (left, top), shape_mask("star", size, not big))

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
        trump_chip(self.canvas, x, cy, trump, self.lang, size, ink, colours, words)

    def bar(self, box: Box, points: int, step: int, total: int, size: int, over: RGB) -> None:
        points_bar(self.canvas, box, points, step, total, self.th, size)

    def cards(self, cards: list[tuple[Card, str, int, int]], ring_box: Box | None = None) -> None:
        th = self.th
        if ring_box is not None:
            ring(self.canvas, ring_box, RING_RADIUS, th.win, RING_WIDTH)
        for card, variant, x, y in cards:
            spr = sprite(card, th.name, self.four_color, self.lang, variant)
            paste_card(self.canvas, spr, x, y, th.shadow)


def draw_table(scene: TableScene, th: Theme, four_color: bool, lang: Lang) -> Image.Image:
    """The table image as a "P" image, drawn in RGB and mapped at the end."""
    page = RGBPage(new_canvas(table.WIDTH, table.height(scene), th), th, four_color, lang)
    return to_palette(table.draw(scene, page).canvas, th)


def draw_kitty(scene: KittyScene, th: Theme, four_color: bool, lang: Lang) -> Image.Image:
    """The kitty image as a "P" image, drawn in RGB and mapped at the end."""
    width, height, _ = kitty.layout(scene)
    page = RGBPage(new_canvas(width, height, th), th, four_color, lang)
    return to_palette(kitty.draw(scene, page).canvas, th)


def draw_summary(scene: SummaryScene, th: Theme, four_color: bool, lang: Lang) -> Image.Image:
    """The summary image as a "P" image, drawn in RGB and mapped at the end."""
    size = (summary.WIDTH, summary.height(scene, lang))
    page = RGBPage(new_canvas(*size, th), th, four_color, lang)
    return to_palette(summary.draw(scene, page).canvas, th)
