"""Drawing helpers shared by every image, and the PNG encoder.

Everything here draws on an RGB canvas with antialiased edges; ``encode`` maps
the finished canvas onto the theme's fixed palette (see ``theme.py``) and
writes a PNG with no metadata chunks (no text, no timestamps: nothing but the
pixels leaves the renderer).

The PNG is written here, not by Pillow: encoding was most of a hand image's cost
(1.2 of 2.7 ms for 25 cards, and the bot draws about one hand image per play).
Pillow's writer tries five row filters and deflates with zlib; these flat
palette images gain nothing from filters, and ISA-L's deflate (``isal``) at
level 1 is ten times faster than zlib at the same size (0.12 ms, 18 KB for
that hand, against 1.2 ms and 18 KB).
"""

from __future__ import annotations

import math
import struct
import threading
import zlib
from collections.abc import Mapping
from types import MappingProxyType

from isal import isal_zlib
from PIL import Image

from bot.rules import Trump

from .fonts import draw_text, text_width
from .labels import Lang, word
from .shapes import rounded_mask, shape_mask
from .theme import RGB, Theme, palette_image

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
BAND_ROWS = 64  # rows encoded at a time: ~50 KB for the widest image


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
    elif w * h > 40_000 and radius == int(radius):
        _big_rounded(canvas, box, int(radius), fill)
    else:
        canvas.paste(fill, (x0, y0), rounded_mask(w, h, radius))


def _big_rounded(canvas: Image.Image, box: tuple[int, int, int, int], r: int, fill: RGB) -> None:
    """A large rounded fill (the felt): plain rectangles plus four masked corners.

    Pasting a colour through a full-size mask costs ~1 ms for a table-sized box;
    only the corners need the mask.
    """
    x0, y0, x1, y1 = box
    canvas.paste(fill, (x0 + r, y0, x1 - r, y1))
    canvas.paste(fill, (x0, y0 + r, x0 + r, y1 - r))
    canvas.paste(fill, (x1 - r, y0 + r, x1, y1 - r))
    corners = rounded_mask(2 * r + 2, 2 * r + 2, r)
    for cx, cy, mx, my in (
        (x0, y0, 0, 0),
        (x1 - r, y0, r + 2, 0),
        (x0, y1 - r, 0, r + 2),
        (x1 - r, y1 - r, r + 2, r + 2),
    ):
        canvas.paste(fill, (cx, cy), corners.crop((mx, my, mx + r, my + r)))


def ring(
    canvas: Image.Image, box: tuple[int, int, int, int], radius: float, colour: RGB, width: float
) -> None:
    """Only the outline of a rounded rectangle (the inside is left as it was)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    outer = rounded_mask(w, h, radius)
    inner = rounded_mask(w, h, radius, width)
    ring_mask = Image.new("L", (w, h))
    ring_mask.paste(outer)
    ring_mask.paste(0, (0, 0), inner)
    canvas.paste(colour, (x0, y0), ring_mask)


def suit_icon(canvas: Image.Image, x: float, cy: float, suit: str, size: int, colour: RGB) -> int:
    """A suit symbol centred on ``cy``; returns its width."""
    canvas.paste(colour, (round(x), round(cy - size / 2)), shape_mask(suit, size))
    return size


def badge(
    canvas: Image.Image, x: float, cy: float, text: str, fill: RGB, ink: RGB, size: int = 14
) -> int:
    """A small filled pill with text (``Dealer``, ``Led``); returns its width."""
    pad = round(size * 0.55)
    h = round(size * 1.6)
    w = text_width(text, size, True) + 2 * pad
    rounded(canvas, (round(x), round(cy - h / 2), round(x) + w, round(cy - h / 2) + h), h / 2, fill)
    draw_text(canvas, x + pad, cy, text, size, ink, bold=True)
    return w


def trump_width(
    trump: Trump | None, lang: Lang, size: int, words: Mapping[str, str] = EMPTY
) -> int:
    return trump_chip(None, 0, 0, trump, lang, size, (0, 0, 0), {}, words)


def trump_chip(
    canvas: Image.Image | None,
    x: float,
    cy: float,
    trump: Trump | None,
    lang: Lang,
    size: int,
    text_colour: RGB,
    suit_colours: dict[str, RGB],
    words: Mapping[str, str] = EMPTY,
) -> int:
    """``Trump ♥ 10`` (主 ♥10), ``No trump 10`` or ``Trump not set``; returns the width.

    With ``canvas`` None it only measures. The suit is drawn as a shape in its
    card colour (``suit_colours``), the level as text.
    """
    gap = round(size * 0.35)
    if trump is None:
        text = word(words, lang, "trump_unset")
        if canvas is not None:
            draw_text(canvas, x, cy, text, size, text_colour, bold=True)
        return text_width(text, size, True)
    level = "10" if trump.level == "T" else trump.level
    head = word(words, lang, "no_trump") if trump.suit is None else word(words, lang, "trump")
    width = text_width(head, size, True) + gap
    if canvas is not None:
        draw_text(canvas, x, cy, head, size, text_colour, bold=True)
    if trump.suit is not None:
        icon = round(size * 1.05)
        if canvas is not None:
            suit_icon(canvas, x + width, cy, trump.suit, icon, suit_colours[trump.suit])
        width += icon + round(gap * 0.6)
    if canvas is not None:
        draw_text(canvas, x + width, cy, level, size, text_colour, bold=True)
    return width + text_width(level, size, True)


# The palette image's lookup cache is shared and filled in while Pillow has released
# the GIL; renders run in worker threads, so the mapping (0.5 ms) takes turns.
_PALETTE_LOCK = threading.Lock()


def encode(canvas: Image.Image, th: Theme) -> bytes:
    """The canvas as PNG bytes, mapped onto the theme palette (no metadata)."""
    with _PALETTE_LOCK:
        indexed = canvas.quantize(palette=palette_image(th.name), dither=Image.Dither.NONE)
    return png(indexed)


def png(indexed: Image.Image) -> bytes:
    """An 8-bit palette PNG of a "P" image: IHDR, PLTE, one IDAT, IEND, nothing else.

    Every row is stored unfiltered (filter byte 0), so the image data is the
    pixels with a zero before each row: the image pasted one column to the right
    of a column of index 0, whose bytes are exactly that. It goes through in
    bands of ``BAND_ROWS`` rows: one image-sized buffer more per render (800 KB
    for the table image) came back from the allocator as fresh pages each time,
    1,500 page faults that cost more than the deflate.
    """
    if indexed.mode != "P":
        raise ValueError(f"png() writes palette images, not {indexed.mode!r}")
    width, height = indexed.size
    deflate = isal_zlib.compressobj(DEFLATE_LEVEL)
    idat = []
    band = Image.new("P", (width + 1, min(BAND_ROWS, height)), 0)
    for top in range(0, height, BAND_ROWS):
        if height - top < band.height:
            band = Image.new("P", (width + 1, height - top), 0)
        band.paste(indexed, (1, -top))  # rows top.. of the image, column 0 left at 0
        idat.append(deflate.compress(band.tobytes()))
    idat.append(deflate.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette
    return b"".join(
        (
            PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(indexed.getpalette() or (0, 0, 0))),
            _chunk(b"IDAT", b"".join(idat)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(data, zlib.crc32(kind))
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
