"""Drawing helpers shared by every image, and the PNG encoder.

Everything here draws on an RGB canvas with antialiased edges; ``encode`` maps
the finished canvas onto the theme's fixed palette (see ``theme.py``) and
writes a PNG with no metadata chunks (no text, no timestamps: nothing but the
pixels leaves the renderer).

The images the bot draws during play are put together on a palette canvas
(``new_paper``) from stamps (``stamps``), pieces mapped onto the palette once.

The PNG is written here, not by Pillow: encoding was most of a hand image's cost
(1.2 of 2.7 ms for 25 cards, and the bot draws about one hand image per play).
Pillow's writer tries five row filters and deflates with zlib; these flat
palette images gain nothing from filters, and ISA-L's deflate (``isal``) at
level 1 is ten times faster than zlib at the same size (0.12 ms, 18 KB for
that hand, against 1.2 ms and 18 KB). Measured again on 1 Dec (CPU time, a
25-card hand, 570 × 684 px): ISA-L level 0 0.11 ms and 24.9 KB, level 1 0.14 ms
and 21.2 KB, level 2 the same, level 3 0.84 ms and 22.2 KB, its smaller memory
levels no faster; zlib level 1 1.5 ms and 22.8 KB, level 6 3.3 ms and 15.9 KB,
level 9 23 ms and 14.4 KB; rows filtered "Up" came out larger (23.4 KB at ISA-L
level 1). Level 1 stays: level 0 saves 0.03 ms for 18% more bytes to send, and
zlib's smaller files cost milliseconds where writing 5 KB more to a socket costs
microseconds. The CRCs are ISA-L's too (1 us for 21 KB, zlib's 13 us).
"""

from __future__ import annotations

import math
import struct
import threading
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from isal import isal_zlib
from PIL import Image, _imaging

from bot.rules import Trump

from .fonts import draw_text, text_width
from .labels import Lang, word
from .shapes import rounded_mask, shape_mask
from .theme import RGB, THEMES, Theme, palette_image

if TYPE_CHECKING:
    pass

EMPTY: Mapping[str, str] = MappingProxyType({})  # no words of the caller's
PHONE_WIDTH = 400  # px: how wide a phone shows an image
CAP_HEIGHT = 0.729  # DejaVu Sans capitals, in em
LEGIBLE = 12.5  # px of capital height at the phone's width (12 wanted, half a pixel spare)


def legible(width: int) -> int:
    """The smallest text size for an image ``width`` px wide whose capitals stay 12 px
    high when a phone shows the image 400 px wide."""
    return math.ceil(width * LEGIBLE / PHONE_WIDTH / CAP_HEIGHT)


# ISA-L's level 1: levels 0-2 cost the same here, level 3 six times more for no gain
DEFLATE_LEVEL = 1
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_SCRATCH = threading.local()  # per render thread: ``png``'s buffer and the canvas over it


def new_canvas(width: int, height: int, th: Theme) -> Image.Image:
    return Image.new("RGB", (width, height), th.page)


def rounded(
    canvas: Image.Image,
    box: tuple[int, int, int, int],
    radius: float,
    fill: RGB,
    outline: RGB | None = None,
    width: float = 1.5,
) -> None:
    """An antialiased rounded rectangle; ``box`` is (x0, y0, x1, y1), exclusive."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if w <= 0 or h <= 0:
        return
    if outline is not None:
        canvas.paste(outline, (x0, y0), rounded_mask(w, h, radius))
        canvas.paste(fill, (x0, y0), rounded_mask(w, h, radius, width))
    elif big_box(w, h, radius):
        _big_rounded(canvas, box, int(radius), fill)
    else:
        canvas.paste(fill, (x0, y0), rounded_mask(w, h, radius))


def big_box(w: int, h: int, radius: float) -> bool:
    """Whether a rounded fill is drawn as rectangles and four corners (``_big_rounded``)."""
    return w * h > 40_000 and radius == int(radius)


def _big_rounded(canvas: Image.Image, box: tuple[int, int, int, int], r: int, fill: RGB) -> None:
    """A large rounded fill (the felt): plain rectangles plus four masked corners.

    Pasting a colour through a full-size mask costs ~1 ms for a table-sized box;
    only the corners need the mask.
    """
    for part in cross_boxes(box, r):
        canvas.paste(fill, part)
    for spot, mask in zip(corner_spots(box, r), corner_masks(r), strict=True):
        canvas.paste(fill, spot, mask)


def cross_boxes(box: tuple[int, int, int, int], r: int) -> list[tuple[int, int, int, int]]:
    """The three rectangles a rounded rectangle fills solid: all but its r × r corners."""
    x0, y0, x1, y1 = box
    return [(x0 + r, y0, x1 - r, y1), (x0, y0 + r, x0 + r, y1 - r), (x1 - r, y0 + r, x1, y1 - r)]


def corner_spots(box: tuple[int, int, int, int], r: int) -> list[tuple[int, int]]:
    x0, y0, x1, y1 = box
    return [(x0, y0), (x1 - r, y0), (x0, y1 - r), (x1 - r, y1 - r)]


@lru_cache(maxsize=16)
def corner_masks(r: int) -> tuple[Image.Image, ...]:
    """The r × r antialiased corners (top-left, top-right, bottom-left, bottom-right) of a
    rounded rectangle of radius ``r``: the same whatever its size."""
    corners = rounded_mask(2 * r + 2, 2 * r + 2, r)
    return tuple(corners.crop((mx, my, mx + r, my + r)) for my in (0, r + 2) for mx in (0, r + 2))


def ring(
    canvas: Image.Image, box: tuple[int, int, int, int], radius: float, colour: RGB, width: float
) -> None:
    """Only the outline of a rounded rectangle (the inside is left as it was)."""
    x0, y0, x1, y1 = box
    canvas.paste(colour, (x0, y0), ring_mask(x1 - x0, y1 - y0, radius, width))


@lru_cache(maxsize=64)
def ring_mask(w: int, h: int, radius: float, width: float) -> Image.Image:
    ring_mask = Image.new("L", (w, h))
    ring_mask.paste(rounded_mask(w, h, radius))
    ring_mask.paste(0, (0, 0), rounded_mask(w, h, radius, width))
    return ring_mask


def suit_icon(canvas: Image.Image, x: float, cy: float, suit: str, size: int, colour: RGB) -> int:
    """A suit symbol centred on ``cy``; returns its width."""
    canvas.paste(colour, (round(x), round(cy - size / 2)), shape_mask(suit, size))
    return size


def badge(
    canvas: Image.Image, x: float, cy: float, text: str, fill: RGB, ink: RGB, size: int = 14
) -> int:
    """A small filled pill with text (``Dealer``, ``Led``); returns its width."""
    box, pad = pill(x, cy, text, size)
    rounded(canvas, box, (box[3] - box[1]) / 2, fill)
    draw_text(canvas, x + pad, cy, text, size, ink, bold=True)
    return box[2] - box[0]


def pill(x: float, cy: float, text: str, size: int) -> tuple[tuple[int, int, int, int], int]:
    """A badge's box, and the room left and right of its text."""
    pad = round(size * 0.55)
    h = round(size * 1.6)
    w = text_width(text, size, True) + 2 * pad
    return (round(x), round(cy - h / 2), round(x) + w, round(cy - h / 2) + h), pad


#: one part of the trump chip: x offset, and a word or (``True``) the letter of the suit
#: whose shape is drawn, ``chip_icon(size)`` px square
ChipPart = tuple[int, str, bool]


def chip_icon(size: int) -> int:
    return round(size * 1.05)


def trump_parts(
    trump: Trump | None, lang: Lang, size: int, words: Mapping[str, str] = EMPTY
) -> tuple[list[ChipPart], int]:
    """``Trump ♥ 10`` (主 ♥10), ``No trump 10`` or ``Trump not set`` laid out: its parts
    and its width. The suit is a shape (in its card colour), the level text."""
    gap = round(size * 0.35)
    if trump is None:
        text = word(words, lang, "trump_unset")
        return [(0, text, False)], text_width(text, size, True)
    head = word(words, lang, "no_trump") if trump.suit is None else word(words, lang, "trump")
    parts = [(0, head, False)]
    width = text_width(head, size, True) + gap
    if trump.suit is not None:
        parts.append((width, trump.suit, True))
        width += chip_icon(size) + round(gap * 0.6)
    level = level_text(trump.level)
    parts.append((width, level, False))
    return parts, width + text_width(level, size, True)


def trump_width(
    trump: Trump | None, lang: Lang, size: int, words: Mapping[str, str] = EMPTY
) -> int:
    return trump_parts(trump, lang, size, words)[1]


def trump_chip(
    canvas: Image.Image,
    x: float,
    cy: float,
    trump: Trump | None,
    lang: Lang,
    size: int,
    text_colour: RGB,
    suit_colours: dict[str, RGB],
    words: Mapping[str, str] = EMPTY,
) -> int:
    """The trump chip (``trump_parts``) drawn from ``x``, centred on ``cy``; its width."""
    parts, width = trump_parts(trump, lang, size, words)
    for dx, what, is_suit in parts:
        if is_suit:
            suit_icon(canvas, x + dx, cy, what, chip_icon(size), suit_colours[what])
        else:
            draw_text(canvas, x + dx, cy, what, size, text_colour, bold=True)
    return width


# The palette image's lookup cache is shared and filled in while Pillow has released
# the GIL; renders run in worker threads, so the mapping (0.5 ms) takes turns.
_PALETTE_LOCK = threading.Lock()


def encode(canvas: Image.Image, th: Theme) -> bytes:
    """The canvas as PNG bytes, mapped onto the theme palette (no metadata)."""
    return png(to_palette(canvas, th))


def to_palette(image: Image.Image, th: Theme) -> Image.Image:
    """An RGB image mapped onto the theme's palette: a "P" image."""
    with _PALETTE_LOCK:
        return image.quantize(palette=palette_image(th.name), dither=Image.Dither.NONE)


@lru_cache(maxsize=128)
def index(theme_name: str, colour: RGB) -> int:
    """The palette index a flat area of ``colour`` is mapped to."""
    dot = to_palette(Image.new("RGB", (1, 1), colour), THEMES[theme_name])
    return int(dot.im.getpixel((0, 0)))


def new_paper(
    width: int,
    height: int,
    th: Theme,
    *,
    scratch: bool = False,
    covered: tuple[int, int, int, int] | None = None,
) -> Image.Image:
    """A palette canvas of the theme's page colour (see the module's docstring).

    With ``scratch``, a canvas over the render thread's own PNG buffer (``png``): its
    rows lie where the PNG's image data needs them, one byte apart for each row's
    filter byte, so ``png`` deflates the buffer as it is, with no copy. The buffer is
    kept from one render to the next (memory of image size allocated afresh at each
    render came back as new pages, whose faults cost about as much as the drawing)
    and is the canvas only until the thread's next render. ``covered``, a box the
    caller paints over whole (the hand's felt), is not cleared. No copy, one buffer
    instead of one per theme and the PNG's, the felt written once: a hand image in
    play 0.378 -> 0.344 ms of CPU (1 Dec, four runs each, alternating).
    """
    if not scratch:
        paper = Image.new("P", (width, height), index(th.name, th.page))
        paper.putpalette(palette_image(th.name).getpalette() or ())
        return paper
    core = _imaging.map_buffer(_raw(width, height), (width, height), "raw", 1, ("P", width + 1, 1))
    core.putpalette("RGB", "RGB", _palette(th.name))
    _SCRATCH.paper = core
    page = index(th.name, th.page)
    if covered is None:
        core.paste(page, (0, 0, width, height))
    else:
        x0, y0, x1, y1 = covered
        for box in (
            (0, 0, width, y0),
            (0, y0, x0, y1),
            (x1, y0, width, y1),
            (0, y1, width, height),
        ):
            core.paste(page, box)
    return Image.Image()._new(core)


def _raw(width: int, height: int) -> bytearray:
    """The thread's PNG buffer, at least large enough for an image ``width`` × ``height``
    (a filter byte before each row, and one spare byte)."""
    raw: bytearray | None = getattr(_SCRATCH, "raw", None)
    if raw is None or len(raw) < (width + 1) * height + 1:
        raw = _SCRATCH.raw = bytearray((width + 1) * height + 1)
    return raw


@lru_cache(maxsize=4)
def _palette(theme_name: str) -> bytes:
    return bytes(palette_image(theme_name).getpalette() or ())


def png(indexed: Image.Image, size: tuple[int, int] | None = None) -> bytes:
    """An 8-bit palette PNG of a "P" image (its top-left ``size`` only, if given):
    IHDR, PLTE, one IDAT, IEND, nothing else.

    Every row is stored unfiltered (filter byte 0), so the image data is the
    pixels with a zero before each row. A scratch canvas (``new_paper``) already
    lies in the thread's buffer that way; any other image is pasted into it one
    column to the right (the core's paste, clipped to ``size``). The buffer is then
    deflated in one call. Allocations of image size are what is avoided: such a
    buffer, or a streaming compressor's state, came back from the allocator as fresh
    pages at every render, 100-1,500 page faults that cost more than the deflate.
    """
    if indexed.mode != "P":
        raise ValueError(f"png() writes palette images, not {indexed.mode!r}")
    width, height = size or indexed.size
    row = width + 1
    indexed.load()
    core = indexed.im
    if core is getattr(_SCRATCH, "paper", None):
        if core.size != (width, height):  # it lies in the buffer: a copy would overlap it
            raise ValueError(f"a scratch canvas is written whole, not as {width} x {height}")
    else:
        raw = _raw(width, height)
        rows = _imaging.map_buffer(raw, (width, height), "raw", 1, ("P", row, 1))
        iw, ih = core.size
        rows.paste(core, (0, 0, iw, ih))  # clipped to width × height
        _SCRATCH.paper = None
    raw = _SCRATCH.raw
    raw[0 : row * height : row] = bytes(height)  # the filter bytes
    with memoryview(raw) as view:
        idat = isal_zlib.compress(view[: row * height], DEFLATE_LEVEL)
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", core.getpalette("RGB", "RGB")),
            _chunk(b"IDAT", idat),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = isal_zlib.crc32(data, isal_zlib.crc32(kind))  # zlib's took 13 us for 21 KB; 1
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def level_text(level: str) -> str:
    """A level as players say it: ``10`` for ``T``."""
    return "10" if level == "T" else level


def points_bar(
    canvas: Image.Image,
    box: tuple[int, int, int, int],
    points: int,
    step: int,
    total: int,
    th: Theme,
    size: int = 14,
) -> None:
    """The attackers' points on a track from 0 to ``total``, ticked every ``step``.

    The tick at two steps (where the attackers take the deal) is drawn stronger.
    ``box`` holds the track and the tick labels (``size`` px) under it: about
    ``26 + size`` px tall.
    """
    x0, y0, x1, _ = box
    track_h = 14
    w = x1 - x0
    rounded(canvas, (x0, y0, x1, y0 + track_h), track_h / 2, th.panel_edge)
    shown = max(0, min(points, total))
    fill_w = round(w * shown / total)
    if fill_w >= track_h:
        colour = th.win if points >= 2 * step else th.accent
        rounded(canvas, (x0, y0, x0 + fill_w, y0 + track_h), track_h / 2, colour)
    for k in range(1, total // step + (0 if total % step else 1)):
        value = k * step
        if value >= total:
            value = total
        x = x0 + round(w * value / total)
        strong = value == 2 * step
        if value < total:
            canvas.paste(th.panel, (x - 1, y0 - 3, x + 1, y0 + track_h + 3))
        draw_text(
            canvas,
            min(max(x, x0 + size), x1 - size),
            y0 + track_h + size,
            str(value),
            size + 1 if strong else size,
            th.text if strong else th.muted,
            bold=strong,
            align="center",
        )
    draw_text(canvas, x0, y0 + track_h + size, "0", size, th.muted, align="center")
