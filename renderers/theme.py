"""Colours of the two themes, and the fixed PNG palette each theme encodes with.

Images are drawn in RGB (antialiased text and shapes) and then mapped onto a
fixed 256-colour palette before PNG encoding: a palette PNG is a third of the
raw data of an RGB one and encodes about eight times faster (under 1 ms for a
trick), which is what keeps a render under 5 ms. Mapping onto a *fixed* palette
is fast because Pillow caches the nearest-colour lookups on the palette image,
which lives as long as the process. Adaptive quantizers cost 3-15 ms per image.

The palette holds each theme colour plus antialiasing ramps between the colour
pairs that meet in the drawings (ink on a card face, text on the felt, a card's
edge on the table, ...), so edges stay smooth after the mapping.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache
from typing import Literal

from PIL import Image

ThemeName = Literal["dark", "light"]
RGB = tuple[int, int, int]


def snap(colour: RGB) -> RGB:
    """A colour moved (by at most 3 per channel) to where Pillow maps it exactly.

    Pillow's palette mapping looks colours up in a cache of 4x4x4 cells, each
    cell holding the palette entry nearest its centre; two palette colours in
    one cell would make one of them unreachable. A colour whose channels are all
    1 mod 4 is the one its cell resolves to, so every flat area of an image
    keeps its exact theme colour (which the tests rely on).
    """
    return (colour[0] & ~3) + 1, (colour[1] & ~3) + 1, (colour[2] & ~3) + 1


def _hex(code: str) -> RGB:
    code = code.lstrip("#")
    return snap((int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16)))


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` blended toward ``b`` by ``t`` (0 gives ``a``, 1 gives ``b``)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@dataclass(frozen=True, slots=True)
class Theme:
    """Named colours; every image takes its colours from here and nowhere else."""

    name: str
    page: RGB  # the image background around the table and panels
    felt: RGB  # the card table
    panel: RGB  # name plates, header bars, score boxes
    panel_edge: RGB
    text: RGB
    muted: RGB
    accent: RGB  # selected cards, "to play"
    win: RGB  # the winning play
    gold: RGB  # trump edge, dealer badge
    danger: RGB  # failed throw, cards taken back
    badge_ink: RGB  # text on accent/win/gold/danger badges
    card_face: RGB
    card_edge: RGB
    shadow: RGB
    red: RGB
    black: RGB
    blue: RGB  # diamonds in four-colour mode
    green: RGB  # clubs in four-colour mode
    ghost_face: RGB  # a card taken back after a failed throw
    ghost_ink: RGB
    # suit symbols drawn on panels rather than on cards (the trump chip): in the
    # dark theme black would vanish, so they are lighter there
    icon_red: RGB
    icon_black: RGB
    icon_blue: RGB
    icon_green: RGB


DARK = Theme(
    name="dark",
    page=_hex("#1e1f24"),
    felt=_hex("#1d4a3a"),
    panel=_hex("#2b2d34"),
    panel_edge=_hex("#41444d"),
    text=_hex("#f2f3f5"),
    muted=_hex("#a8aeb8"),
    accent=_hex("#4cc2ff"),
    win=_hex("#ffc53d"),
    gold=_hex("#d9a92b"),
    danger=_hex("#ff5c5c"),
    badge_ink=_hex("#16171a"),
    card_face=_hex("#fbfbf8"),
    card_edge=_hex("#6b7078"),
    shadow=_hex("#0f2a20"),
    red=_hex("#d3202f"),
    black=_hex("#1c1e22"),
    blue=_hex("#1659c7"),
    green=_hex("#16803a"),
    ghost_face=_hex("#7c8a84"),
    ghost_ink=_hex("#4b5752"),
    icon_red=_hex("#ff5f6b"),
    icon_black=_hex("#f2f3f5"),
    icon_blue=_hex("#5fa0ff"),
    icon_green=_hex("#3fce75"),
)

LIGHT = Theme(
    name="light",
    page=_hex("#f3f4f6"),
    felt=_hex("#d3e8dc"),
    panel=_hex("#fafbfc"),
    panel_edge=_hex("#c9ced6"),
    text=_hex("#1b1d21"),
    muted=_hex("#5b6370"),
    accent=_hex("#7c3aed"),
    win=_hex("#e08a00"),
    gold=_hex("#c8960c"),
    danger=_hex("#d1242f"),
    badge_ink=_hex("#ffffff"),
    card_face=_hex("#ffffff"),
    card_edge=_hex("#8e96a1"),
    shadow=_hex("#a9c2b4"),
    red=_hex("#d3202f"),
    black=_hex("#1c1e22"),
    blue=_hex("#1659c7"),
    green=_hex("#16803a"),
    ghost_face=_hex("#b9c7bf"),
    ghost_ink=_hex("#7f8f86"),
    icon_red=_hex("#d3202f"),
    icon_black=_hex("#1c1e22"),
    icon_blue=_hex("#1659c7"),
    icon_green=_hex("#16803a"),
)

THEMES: dict[str, Theme] = {"dark": DARK, "light": LIGHT}

# Which colours are drawn over which: each pair gets an antialiasing ramp.
_SURFACES_AND_INKS: dict[str, tuple[str, ...]] = {
    "card_face": (
        "red",
        "black",
        "blue",
        "green",
        "card_edge",
        "gold",
        "accent",
        "muted",
        "danger",
    ),
    "felt": (
        "text",
        "muted",
        "card_edge",
        "shadow",
        "accent",
        "win",
        "gold",
        "danger",
        "panel",
        "ghost_face",
    ),
    "page": ("text", "muted", "card_edge", "accent", "win", "gold", "danger", "panel", "felt"),
    "panel": (
        "text",
        "muted",
        "panel_edge",
        "accent",
        "win",
        "gold",
        "danger",
        "red",
        "black",
        "blue",
        "green",
        "icon_red",
        "icon_black",
        "icon_blue",
        "icon_green",
        "page",
    ),
    "shadow": ("card_edge", "gold", "accent"),
    "ghost_face": ("ghost_ink", "danger", "card_edge"),
    "gold": ("badge_ink",),
    "win": ("badge_ink",),
    "accent": ("badge_ink",),
    "danger": ("badge_ink",),
    "text": ("page",),
    "panel_edge": ("text",),
}
_RAMP = (0.2, 0.4, 0.6, 0.8)


def palette_colours(theme: Theme) -> list[RGB]:
    """The theme's colours and their antialiasing ramps, without repeats (<= 256)."""
    colours: dict[RGB, None] = {}
    for f in fields(theme):
        if f.name != "name":
            colours[getattr(theme, f.name)] = None
    for surface, inks in _SURFACES_AND_INKS.items():
        bg = getattr(theme, surface)
        for ink in inks:
            fg = getattr(theme, ink)
            for t in _RAMP:
                colours[snap(mix(bg, fg, t))] = None
    result = list(colours)
    if len(result) > 256:
        raise ValueError(f"theme {theme.name} needs {len(result)} palette colours (max 256)")
    return result


@cache
def palette_image(theme_name: str) -> Image.Image:
    """A 'P' image carrying the theme's palette, kept for the life of the process.

    Pillow caches nearest-colour lookups on it, so mapping an image onto it gets
    faster after the first few renders.
    """
    colours = palette_colours(THEMES[theme_name])
    flat = [channel for colour in colours for channel in colour]
    flat += list(colours[0]) * (256 - len(colours))
    image = Image.new("P", (1, 1))
    image.putpalette(flat)
    return image


def theme(name: str) -> Theme:
    """The theme called ``name``; raises ``ValueError`` for an unknown one."""
    try:
        return THEMES[name]
    except KeyError:
        raise ValueError(f"unknown theme {name!r}: use 'dark' or 'light'") from None
