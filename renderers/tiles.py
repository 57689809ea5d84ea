"""Cards on a palette canvas (the hand image and the panels: see ``canvas``): a card's
tile, mapped onto the palette once, and the pieces its see-through corners take over
whatever lies under them, composed once per background and then pasted.

Split from ``cards`` (the sprites themselves): this is the cache that lets a hand image
be pasted together from pieces instead of drawn.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageChops

from bot.rules import Card

from .canvas import to_palette
from .cards import CARD_H, CARD_W, RADIUS, SHADOW, Sprite, paste_card, sprite
from .labels import Lang
from .shapes import rounded_mask
from .theme import RGB, THEMES, Theme

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

TILE_H = CARD_H + SHADOW  # a card and the drop shadow below it
Box = tuple[int, int, int, int]
Zone = tuple[Box, "ImagingCore"]  # where, and the piece


@dataclass(frozen=True, slots=True, eq=False)
class Tile:
    """A card with its drop shadow over the felt, mapped onto the palette, whole
    (``CARD_W`` wide) or as much as shows when the next card of a fan covers it (``FAN_W``).

    ``core`` (the "P" image's core) holds the right pixels wherever the card or its
    shadow is opaque. In the ``zones`` (its rounded corners and the ends of its
    shadow) what lies under the card shows through, so ``place_cards`` pastes each
    zone again from a piece composed in RGB over exactly that: the felt, a ring, the
    cards before it at their places.
    Pieces are shared by content, not by card (most cards' corners hold the same
    pixels, over the same few backgrounds); each tile remembers which pieces go
    with each card it was pasted after. It names its sprite rather than holding it,
    so a sprite the sprites' cache lets go is not kept alive by a tile.
    """

    look: tuple[Card, str, bool, Lang, str]  # ``sprite``'s arguments
    covered: bool
    core: ImagingCore
    width: int
    zones: tuple[Box, ...]
    content: tuple[int, ...]  # per zone, an id of the card's own pixels there
    uid: int
    # (the cards under it: uid, dx, dy each) -> (zone box, piece) per zone
    pieces: dict[tuple[tuple[int, int, int], ...], tuple[Zone, ...]]
    # (x, y, width, height) of another card's zone on this tile -> an id of what it covers
    below: dict[tuple[int, int, int, int], int]

    @property
    def sprite(self) -> Sprite:
        return sprite(*self.look)


def tile(
    card: Card, theme_name: str, four_color: bool, lang: Lang, variant: str, covered: bool
) -> Tile:
    """The cached tile of ``card`` (language only matters for jokers)."""
    return _tile(card, theme_name, four_color, lang if card.is_joker else "en", variant, covered)


@lru_cache(maxsize=1280)  # two per sprite (``_sprite``'s cache): ~10 KB each
def _tile(
    card: Card, theme_name: str, four_color: bool, lang: Lang, variant: str, covered: bool
) -> Tile:
    th = THEMES[theme_name]
    spr = sprite(card, theme_name, four_color, lang, variant)
    part = spr.fan if covered and spr.fan is not None else spr
    width = part.body.width
    rgb = Image.new("RGB", (width, TILE_H), th.felt)
    paste_card(rgb, spr, 0, 0, th.shadow, covered=covered)
    face = Image.new("RGB", (width, TILE_H))  # the card's pixels before its mask
    face.paste(part.top[0], (0, 0))
    face.paste(part.body, (0, RADIUS))
    face.paste(part.bottom[0], (0, CARD_H - RADIUS))
    zones = _zones(width)
    content = tuple(content_id((width, box, th.shadow, face.crop(box).tobytes())) for box in zones)
    image = to_palette(rgb, th)
    look = (card, theme_name, four_color, lang, variant)
    return Tile(look, covered, image.im, width, zones, content, next(_NEXT_ID), {}, {})


@cache
def _zones(width: int) -> tuple[Box, ...]:
    """The boxes of a tile ``width`` px wide where neither the card nor its shadow is
    opaque (bounding boxes, one per corner of the tile that has such pixels)."""
    mask = rounded_mask(CARD_W, CARD_H, RADIUS).crop((0, 0, width, CARD_H))
    opaque = mask.point([0] * 255 + [255])
    solid = Image.new("L", (width, TILE_H), 0)
    solid.paste(opaque.crop((0, CARD_H - RADIUS - SHADOW, width, CARD_H)), (0, CARD_H - RADIUS))
    solid.paste(255, (0, 0), opaque)
    loose = ImageChops.invert(solid)
    zones = []
    for x0, x1 in ((0, width // 2), (width // 2, width)):
        for y0, y1 in ((0, TILE_H // 2), (TILE_H // 2, TILE_H)):
            found = loose.crop((x0, y0, x1, y1)).getbbox()
            if found is not None:
                zones.append((x0 + found[0], y0 + found[1], x0 + found[2], y0 + found[3]))
    return tuple(zones)


# Ids (of contents, of tiles) are never reused, so an id still held by a cached tile
# can't name other pixels after a table is cleared (which only costs pieces drawn again).
_IDS: dict[object, int] = {}
_NEXT_ID = itertools.count()
_PIECES: dict[tuple[int, int], ImagingCore] = {}  # (card content, ground) -> "P" piece
_MAX_ENTRIES = 20_000  # ~10 MB: far more than the few hundred pieces two themes need
_MAX_AFTER = 512  # cards a tile remembers having been pasted after
_FELT_IDS: dict[RGB, dict[tuple[int, int, int, int], int]] = {}  # ``Tile.below`` of the felt


def content_id(key: object) -> int:
    """A number for ``key`` (a hashable description of some pixels), unique in the process."""
    found = _IDS.get(key)
    if found is None:
        if len(_IDS) > _MAX_ENTRIES:
            _IDS.clear()
        found = _IDS.setdefault(key, next(_NEXT_ID))
    return found


Placed = tuple[Tile, int, int]  # a tile and where it goes


#: what lies under cards besides the felt (a ring round a fan): an id of its
#: content, the RGB image of it over the felt, and where it goes
Base = tuple[int, Image.Image, int, int]


def place_cards(
    paper: Image.Image,
    th: Theme,
    cards: Sequence[Placed],
    lookback: int = 1,
    base: Base | None = None,
) -> None:
    """Paste (tile, x, y) cards on a palette canvas in order, each over those before
    (the same pixels as ``paste_card`` on RGB over the felt, then the mapping).

    Each card's zones are composed over the felt, the ``base`` and the cards placed
    before it that reach it, which are among the ``lookback`` placed just before it
    (the one before in a hand's rows; any of a fan's, whose rows overlap).
    """
    core = paper.im
    for i, placed in enumerate(cards):
        t, x, y = placed
        under = []
        key: tuple[tuple[int, int, int], ...] = ()
        if base is not None:
            key = ((base[0], x - base[2], y - base[3]),)
        for j in range(max(0, i - lookback), i):
            before = cards[j]
            bt, bx, by = before
            if bx < x + t.width and x < bx + bt.width and abs(by - y) < TILE_H:
                under.append(before)
                key += ((bt.uid, x - bx, y - by),)
        zones = t.pieces.get(key)
        if zones is None:
            if len(t.pieces) > _MAX_AFTER:
                t.pieces.clear()
            zones = t.pieces[key] = _zone_pieces(th, placed, under, base)
        core.paste(t.core, (x, y, x + t.width, y + TILE_H))
        for (zx0, zy0, zx1, zy1), piece in zones:
            core.paste(piece, (x + zx0, y + zy0, x + zx1, y + zy1))


def _zone_pieces(
    th: Theme, placed: Placed, under: list[Placed], base: Base | None
) -> tuple[Zone, ...]:
    """The pieces of a card's zones, over the felt, the base and the cards ``under`` it.

    With at most one card under it (a hand's rows), what lies under each zone is
    remembered by that card (``Tile.below``) for the place the zone takes on it, so
    a card next to a neighbour it never had (every new hand) is composed from
    pieces already made, without drawing anything.
    """
    t, x, y = placed
    result = []
    for zone, content in zip(t.zones, t.content, strict=True):
        x0, y0, x1, y1 = zone
        box = (x + x0, y + y0, x1 - x0, y1 - y0)  # on the canvas: x, y, width, height
        ground = None
        memo: dict[tuple[int, int, int, int], int] | None = None
        if base is None and len(under) <= 1:
            if under:
                before, bx, by = under[0]
                memo, spot = before.below, (box[0] - bx, box[1] - by, box[2], box[3])
            else:
                memo, spot = _FELT_IDS.setdefault(th.felt, {}), (0, 0, box[2], box[3])
            ground_id = memo.get(spot)
        if memo is None or ground_id is None:
            ground = _ground(th, box, under, base)
            ground_id = content_id(ground.tobytes())
            if memo is not None:
                memo[spot] = ground_id
        key = (content, ground_id)
        piece = _PIECES.get(key)
        if piece is None:
            ground = ground or _ground(th, box, under, base)
            paste_card(ground, t.sprite, -x0, -y0, th.shadow, covered=t.covered)
            if len(_PIECES) > _MAX_ENTRIES:
                _PIECES.clear()
            piece = _PIECES[key] = to_palette(ground, th).im
        result.append((zone, piece))
    return tuple(result)


def _ground(
    th: Theme, box: tuple[int, int, int, int], under: list[Placed], base: Base | None
) -> Image.Image:
    """What lies under ``box`` (x, y, width, height on the canvas) in RGB: the felt,
    the base, the cards ``under`` it."""
    x, y, w, h = box
    ground = Image.new("RGB", (w, h), th.felt)
    if base is not None:
        ground.paste(base[1], (base[2] - x, base[3] - y))
    for before, bx, by in under:
        paste_card(ground, before.sprite, bx - x, by - y, th.shadow, covered=before.covered)
    return ground
