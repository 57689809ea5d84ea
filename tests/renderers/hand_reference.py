"""The hand image drawn the plain way, for tests only: every piece pasted on an RGB
canvas in full (each card whole, nothing cached but the sprites), then the whole
canvas mapped onto the palette. ``renderers.hand`` composes the same image straight
on a palette canvas from cached pieces; the tests hold the two to the same pixels."""

from __future__ import annotations

from PIL import Image

from renderers.canvas import new_canvas, rounded, to_palette, trump_chip
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
from renderers.scenes import HandScene
from renderers.theme import Theme


def draw(scene: HandScene, th: Theme, four_color: bool, lang: Lang) -> Image.Image:
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
        mid, cy, tag = code_spot(slot, size, code_h)
        colour = th.accent if slot.selected else th.text
        if slot.marked:
            rounded(canvas, tag, TAG_RADIUS, th.gold)
            colour = th.badge_ink
        code = str(slot.card)
        draw_text(canvas, mid, cy, code, size, colour, bold=True, align="center", tracking=-1)
    return to_palette(canvas, th)
