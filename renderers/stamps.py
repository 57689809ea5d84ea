"""Stamps: antialiased pieces composed onto the palette once and pasted whole.

The images the bot draws during play (the hand at every play, the table, and at
each hand's end the kitty and the summary) skip the RGB canvas: they are put
together straight on a palette ("P") canvas (``new_paper``) from pieces mapped onto
the palette once and cached, which saves the full-size canvas and the full-size
mapping (half a millisecond for 25 cards). Pasting one palette image onto another
through a soft mask would blend palette *indices*, so an antialiased piece comes
composed over the flat colour it lies on (a "stamp": text over the felt, a rounded
corner over the page) and is pasted whole, its box included: a word's or a suit's
box lies over that flat colour in every layout (the tests compare every image with
the RGB drawing; 1,704 images of varied scenes, long and CJK names included, came
out byte for byte as through the masks), and a mask costs ten times the paste. A
ring, whose inside shows what lies there, goes through its mask (only 0 or 255).
A stamp of one ink over one colour is its mask read through a ramp of 256 palette
indices (``_ramp``: the index each coverage maps to), the same pixels as composing
in RGB and mapping. The hand record and the tournament standings, drawn on request,
still draw in RGB and map at the end (``encode``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from PIL import Image

from .canvas import (
    ChipPart,
    big_box,
    chip_icon,
    corner_masks,
    corner_spots,
    cross_boxes,
    index,
    pill,
    ring_mask,
    to_palette,
)
from .fonts import TextMask, place, text_mask
from .shapes import rounded_mask, shape_mask
from .theme import RGB, THEMES, Theme

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore


@dataclass(frozen=True, slots=True)
class Stamp:
    """A piece for a palette canvas: ink composed over a flat colour, cut to the ink,
    and the mask (0 or 255 only) it is pasted through; ``box`` is where it lies in the
    mask it was made from. Pillow's core images, not ``Image`` objects: pasting
    dozens of them per image, the ``Image`` wrapper's checks cost more than the copy.
    """

    piece: ImagingCore
    mask: ImagingCore
    box: tuple[int, int, int, int]


_BINARY = [0] + [255] * 255


def _inked(mask: Image.Image, ink: RGB, over: RGB, th: Theme) -> Image.Image:
    """``ink`` through ``mask`` over a flat ``over``, mapped onto the palette: each
    pixel through its coverage's entry in ``_ramp``, the index that composing in RGB
    and mapping gives it (a tenth of the cost: no RGB image, no mapping)."""
    return mask.point(_ramp(ink, over, th.name), "P")


@lru_cache(maxsize=256)
def _ramp(ink: RGB, over: RGB, theme_name: str) -> tuple[int, ...]:
    """The palette index of ``ink`` over ``over`` at each coverage 0-255, as pasting
    the colour through a mask in RGB and mapping the result gives it, pixel by pixel."""
    coverage = Image.frombytes("L", (256, 1), bytes(range(256)))
    rgb = Image.new("RGB", (256, 1), over)
    rgb.paste(ink, (0, 0), coverage)
    return tuple(to_palette(rgb, THEMES[theme_name]).tobytes())


def _stamp(mask: Image.Image, ink: RGB, over: RGB, th: Theme) -> Stamp:
    box = mask.getbbox() or (0, 0, 0, 0)
    cut = mask.crop(box)
    return Stamp(_inked(cut, ink, over, th).im, cut.point(_BINARY).im, box)


def _put(paper: Image.Image, stamp: Stamp, left: int, top: int) -> None:
    """A stamp pasted whole, its box over the flat colour it was composed over (its
    pixels outside the ink are that colour's index): the same pixels as through its
    mask, at a tenth of the cost for a word of a table image (a 300 × 40 px box
    through a mask 25 us, whole 1.6 us; a mask is read pixel by pixel)."""
    x0, y0, x1, y1 = stamp.box
    paper.im.paste(stamp.piece, (left + x0, top + y0, left + x1, top + y1))


@lru_cache(maxsize=4096)
def text_stamp(
    text: str, size: int, bold: bool, tracking: int, ink: RGB, over: RGB, theme_name: str
) -> tuple[TextMask, Stamp]:
    return new_text_stamp(text, size, bold, tracking, ink, over, theme_name)


def new_text_stamp(
    text: str, size: int, bold: bool, tracking: int, ink: RGB, over: RGB, theme_name: str
) -> tuple[TextMask, Stamp]:
    """``text_stamp`` made afresh, for a caller that keeps its own (see ``hand._code``)."""
    tm = text_mask(text, size, bold, tracking)
    return tm, _stamp(tm.mask, ink, over, THEMES[theme_name])


def stamp_text(
    paper: Image.Image,
    th: Theme,
    x: float,
    y: float,
    text: str,
    size: int,
    ink: RGB,
    over: RGB,
    *,
    bold: bool = False,
    align: str = "left",
    valign: str = "middle",
    tracking: int = 0,
) -> int:
    """``draw_text`` on a palette canvas, the text antialiased over ``over``; its width."""
    tm, stamp = text_stamp(text, size, bold, tracking, ink, over, th.name)
    _put(paper, stamp, *place(tm, x, y, size, align, valign))
    return tm.width


@lru_cache(maxsize=256)
def _shape_stamp(
    shape: str, size: int, hollow: bool, ink: RGB, over: RGB, theme_name: str
) -> Stamp:
    return _stamp(shape_mask(shape, size, hollow), ink, over, THEMES[theme_name])


def stamp_shape(
    paper: Image.Image,
    th: Theme,
    left: int,
    top: int,
    shape: str,
    size: int,
    ink: RGB,
    over: RGB,
    hollow: bool = False,
) -> None:
    """A suit or the joker's star (``shapes.shape_mask``) at (``left``, ``top``), over ``over``."""
    _put(paper, _shape_stamp(shape, size, hollow, ink, over, th.name), left, top)


def stamp_suit(
    paper: Image.Image, th: Theme, x: float, cy: float, suit: str, size: int, ink: RGB, over: RGB
) -> int:
    """``suit_icon`` on a palette canvas, over ``over``; its width."""
    stamp_shape(paper, th, round(x), round(cy - size / 2), suit, size, ink, over)
    return size


def stamp_chip(
    paper: Image.Image,
    th: Theme,
    x: float,
    cy: float,
    parts: list[ChipPart],
    size: int,
    ink: RGB,
    suit_colours: dict[str, RGB],
    over: RGB,
) -> None:
    """``trump_chip`` on a palette canvas, over ``over``, from its ``trump_parts``."""
    for dx, what, is_suit in parts:
        if is_suit:
            stamp_suit(paper, th, x + dx, cy, what, chip_icon(size), suit_colours[what], over)
        else:
            stamp_text(paper, th, x + dx, cy, what, size, ink, over, bold=True)


def stamp_badge(
    paper: Image.Image,
    th: Theme,
    x: float,
    cy: float,
    text: str,
    fill: RGB,
    ink: RGB,
    size: int,
    over: RGB,
) -> int:
    """``badge`` on a palette canvas, over ``over``; its width."""
    box, pad = pill(x, cy, text, size)
    stamp_rounded(paper, th, box, (box[3] - box[1]) / 2, fill, over)
    stamp_text(paper, th, x + pad, cy, text, size, ink, fill, bold=True)
    return box[2] - box[0]


@lru_cache(maxsize=64)
def _ring_stamp(
    w: int, h: int, radius: float, width: float, ink: RGB, over: RGB, theme_name: str
) -> Stamp:
    return _stamp(ring_mask(w, h, radius, width), ink, over, THEMES[theme_name])


def stamp_ring(
    paper: Image.Image,
    th: Theme,
    box: tuple[int, int, int, int],
    radius: float,
    colour: RGB,
    width: float,
    over: RGB,
) -> Image.Image:
    """``ring`` on a palette canvas, over ``over`` (the inside is left as it was); the
    ring over ``over`` in RGB, the ground of what is drawn over its edge next."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    stamp = _ring_stamp(w, h, radius, width, colour, over, th.name)
    sx0, sy0, sx1, sy1 = stamp.box  # through its mask: what lies inside shows
    paper.im.paste(stamp.piece, (x0 + sx0, y0 + sy0, x0 + sx1, y0 + sy1), stamp.mask)
    return _ring_rgb(w, h, radius, width, colour, over)


@lru_cache(maxsize=16)
def _ring_rgb(w: int, h: int, radius: float, width: float, colour: RGB, over: RGB) -> Image.Image:
    rgb = Image.new("RGB", (w, h), over)
    rgb.paste(colour, (0, 0), ring_mask(w, h, radius, width))
    return rgb


@lru_cache(maxsize=32)
def _corner_pieces(r: int, fill: RGB, over: RGB, theme_name: str) -> tuple[ImagingCore, ...]:
    return tuple(_inked(mask, fill, over, THEMES[theme_name]).im for mask in corner_masks(r))


@lru_cache(maxsize=256)
def _rounded_piece(
    w: int, h: int, radius: float, fill: RGB, over: RGB, theme_name: str
) -> ImagingCore:
    return _inked(rounded_mask(w, h, radius), fill, over, THEMES[theme_name]).im


def stamp_rounded(
    paper: Image.Image,
    th: Theme,
    box: tuple[int, int, int, int],
    radius: float,
    fill: RGB,
    over: RGB,
) -> None:
    """``rounded`` (a fill, no outline) on a palette canvas, its edge over ``over``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if w <= 0 or h <= 0:
        return
    if not big_box(w, h, radius):
        paper.im.paste(_rounded_piece(w, h, radius, fill, over, th.name), box)
        return
    r = int(radius)
    core, colour = paper.im, index(th.name, fill)
    for part in cross_boxes(box, r):
        core.paste(colour, part)  # the core's paste: ``Image.paste``'s checks cost as much
    for (x, y), piece in zip(
        corner_spots(box, r), _corner_pieces(r, fill, over, th.name), strict=True
    ):
        core.paste(piece, (x, y, x + r, y + r))
