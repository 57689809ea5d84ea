"""Fonts shipped in ``data/fonts/`` and text drawn with them, Latin and Chinese.

Text is turned into cached 'L' masks and pasted in a colour, so a label that
appears in every image (``Trump``, a player's name) is laid out once per
process. Each character is drawn with the first shipped font that has it
(DejaVu Sans, then Noto Sans CJK SC); a character neither has, say an emoji in
a Discord name, becomes a box instead of an error, and invisible format
characters (zero-width joiners, variation selectors) are dropped.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"
_FILES = {
    ("latin", False): "DejaVuSans.ttf",
    ("latin", True): "DejaVuSans-Bold.ttf",
    ("cjk", False): "NotoSansCJKsc-Regular-subset.otf",
    ("cjk", True): "NotoSansCJKsc-Bold-subset.otf",
}
_FAMILIES = ("latin", "cjk")
REPLACEMENT = "□"  # drawn for characters no shipped font has (DejaVu has it)
# Ascent and descent of a text mask, as fractions of the font size: room for the
# tallest glyphs of both families, so mixed Latin and Chinese text shares a baseline.
_ASCENT = 1.08
_DESCENT = 0.32
# Baseline below the visual centre of a line, as a fraction of the size: half the
# cap height of DejaVu and the middle of a Han glyph in Noto are both ~0.37 em.
CENTRE_TO_BASELINE = 0.37


@cache
def font(family: str, bold: bool, size: int) -> ImageFont.FreeTypeFont:
    """A shipped font; basic layout, so results do not depend on libraqm being present."""
    return ImageFont.truetype(
        str(FONT_DIR / _FILES[(family, bold)]), size, layout_engine=ImageFont.Layout.BASIC
    )


def _glyph_bytes(f: ImageFont.FreeTypeFont, ch: str) -> bytes:
    image = Image.new("L", (48, 48))
    ImageDraw.Draw(image).text((8, 4), ch, font=f, fill=255)
    return image.tobytes()


@cache
def _notdef(family: str, bold: bool) -> bytes:
    # U+10FFFD (private use) is in neither font: it draws the .notdef box.
    return _glyph_bytes(font(family, bold, 24), "\U0010fffd")


@lru_cache(maxsize=8192)
def has_glyph(family: str, bold: bool, ch: str) -> bool:
    """Whether the shipped font draws ``ch`` (a missing glyph draws as .notdef).

    Pillow exposes no character map, so this compares the rendering with that of
    the .notdef glyph; it runs once per character and font.
    """
    return _glyph_bytes(font(family, bold, 24), ch) != _notdef(family, bold)


def _visible(ch: str) -> bool:
    if "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef":
        return False  # variation selectors
    return unicodedata.category(ch) not in ("Cf", "Cc", "Cs")


def runs(text: str, bold: bool) -> list[tuple[str, str]]:
    """``text`` split into (family, text) runs, each drawable with one font."""
    result: list[tuple[str, str]] = []
    for ch in text:
        if not _visible(ch):
            continue
        family = next((f for f in _FAMILIES if has_glyph(f, bold, ch)), None)
        if family is None:
            family, ch = "latin", REPLACEMENT
        if result and result[-1][0] == family:
            result[-1] = (family, result[-1][1] + ch)
        else:
            result.append((family, ch))
    return result


@dataclass(frozen=True, slots=True)
class TextMask:
    """A line of text as an 'L' mask; ``ascent`` is the baseline's row in it."""

    mask: Image.Image
    width: int
    ascent: int


@lru_cache(maxsize=4096)
def text_mask(text: str, size: int, bold: bool = False, tracking: int = 0) -> TextMask:
    """``text`` on one line at ``size`` px; ``tracking`` adds px between characters."""
    parts = runs(text, bold)
    ascent = math.ceil(size * _ASCENT)
    height = ascent + math.ceil(size * _DESCENT)
    width = 0.0
    placed: list[tuple[float, ImageFont.FreeTypeFont, str]] = []
    for family, part in parts:
        f = font(family, bold, size)
        if tracking:
            for ch in part:
                placed.append((width, f, ch))
                width += f.getlength(ch) + tracking
        else:
            placed.append((width, f, part))
            width += f.getlength(part)
    if tracking and placed:
        width -= tracking
    total = max(1, math.ceil(width) + 2)
    mask = Image.new("L", (total, height))
    draw = ImageDraw.Draw(mask)
    for x, f, part in placed:
        draw.text((x + 1, ascent), part, font=f, fill=255, anchor="ls")
    return TextMask(mask, math.ceil(width), ascent)


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool = False, tracking: int = 0) -> int:
    """Width in px that ``draw_text`` gives ``text`` (measured, not drawn)."""
    width = 0.0
    n = 0
    for family, part in runs(text, bold):
        width += font(family, bold, size).getlength(part)
        n += len(part)
    return math.ceil(width + tracking * max(0, n - 1))


def fit(text: str, size: int, bold: bool, max_width: int) -> str:
    """``text``, cut with an ellipsis if needed to fit ``max_width`` px (names, titles)."""
    if text_width(text, size, bold) <= max_width:
        return text
    lo, hi = 0, len(text)  # the longest prefix that fits with the ellipsis: binary search
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + "…", size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


#: a bracketed note in a name, ASCII or full-width: "Ana (bot)", "阿娜（托管）"
_NOTE = re.compile(r"\s*[(\[（][^()\[\]（）]*[)\]）]")


def fit_name(name: str, size: int, bold: bool, max_width: int, seat: int | None = None) -> str:
    """A player's name that fits, never cut to a stump like "Bot…".

    Tried in order: the whole name; without a bracketed note ("Ana (bot)" ->
    "Ana", "阿娜（托管）" -> "阿娜"); its distinctive last word ("Bot Chen" ->
    "Chen"); the initials ("Bot Chen" -> "BC"); the first characters that fit (one
    or two CJK characters read as a name). With ``seat``, a shortened name carries
    it ("Chen #3"), so it still says who it is.
    """
    plain = _NOTE.sub("", name).split()
    words = plain or name.split()
    candidates = [" ".join(words)]
    if len(words) > 1:
        candidates += [words[-1], "".join(w[0] for w in words).upper()]
    if text_width(name, size, bold) <= max_width:
        return name
    tag = "" if seat is None else f" #{seat}"
    for text in candidates:
        if text_width(text + tag, size, bold) <= max_width:
            return text + tag
    cut = candidates[-1]
    while len(cut) > 1 and text_width(cut + tag, size, bold) > max_width:
        cut = cut[:-1]
    if text_width(cut + tag, size, bold) > max_width:
        return cut
    return cut + tag


def draw_text(
    image: Image.Image,
    x: float,
    y: float,
    text: str,
    size: int,
    colour: tuple[int, int, int],
    *,
    bold: bool = False,
    align: str = "left",
    valign: str = "middle",
    tracking: int = 0,
) -> int:
    """Draw one line; returns its width.

    ``x`` is the left edge, centre or right edge (``align``); ``y`` is the line's
    visual centre (``valign="middle"``), its baseline (``"baseline"``) or the top
    of its capitals (``"top"``).
    """
    tm = text_mask(text, size, bold, tracking)
    left, top = place(tm, x, y, size, align, valign)
    mask = tm.mask  # pasted on the core image: see ``cards.paste_card``
    image.im.paste(colour, (left, top, left + mask.width, top + mask.height), mask.im)
    return tm.width


def place(tm: TextMask, x: float, y: float, size: int, align: str, valign: str) -> tuple[int, int]:
    """Where ``draw_text`` puts the top-left corner of ``tm``'s mask (its arguments' meaning)."""
    if align == "center":
        x -= tm.width / 2
    elif align == "right":
        x -= tm.width
    if valign == "middle":
        baseline = y + size * CENTRE_TO_BASELINE
    elif valign == "top":
        baseline = y + size * 0.74
    else:
        baseline = y
    return round(x) - 1, round(baseline) - tm.ascent
