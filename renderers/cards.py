"""Card faces: one sprite per card, theme, colour scheme and variant, drawn once.

A sprite is an RGB image plus the antialiased rounded-corner mask it is pasted
through. Variants mark a card's role: ``plain``; ``trump`` (a gold edge, in
hands once the trump is known); ``selected`` (an accent edge); ``selected_trump``;
``ghost`` (greyed and struck through: cards taken back after a failed throw).

The layout is that of card game apps rather than printed cards: rank and suit in
the top-left corner (the part that stays visible when cards overlap in a fan)
and one big pip in the middle, below and right of the index; no mirrored index,
which at this size would only crowd the face. Jokers carry "JOKER" (or 王)
down the corner and a star: the big joker's is red and filled, the small
joker's black and hollow, so the two differ in shape as well as colour.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageChops, ImageDraw

from bot.rules import RANKS, Card, Trump, deck, order_for

from .canvas import to_palette
from .fonts import draw_text
from .labels import Lang, label
from .shapes import rounded_mask, shape_mask
from .theme import RGB, THEMES, Theme

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

CARD_W = 88
CARD_H = 124
RADIUS = 9
STRIP = 46  # horizontal step of a fan: the visible width of an overlapped card
VSTRIP = 66  # vertical step when fan rows overlap: shows rank and suit
FAN_W = STRIP + RADIUS  # what can show of a card with the next one STRIP px to its right
VARIANTS = ("plain", "trump", "selected", "selected_trump", "ghost")

_RANK_TEXT = {"T": "10"}
_INDEX_W, _INDEX_H = 34, 58


_SHADOW = 3  # px the drop shadow shows below a card


@dataclass(frozen=True, slots=True)
class Sprite:
    """A drawn card, kept as the pieces ``paste_card`` needs.

    Pasting through a mask costs ten times a plain copy, and only the top and
    bottom bands (the rounded corners) need one, so the sprite keeps those bands
    (image, mask) and the body apart; ``shadow`` is the part of the card's mask
    whose drop shadow can show below it. About 45 KB each in memory.
    """

    body: Image.Image
    top: tuple[Image.Image, Image.Image]
    bottom: tuple[Image.Image, Image.Image]
    shadow: Image.Image
    #: the same pieces for a card covered by the next one of a fan: only the strip
    #: that shows and the width of the next card's rounded corner (``FAN_W``)
    fan: Sprite | None = None

    @classmethod
    def of(cls, rgb: Image.Image, mask: Image.Image, fan: bool = True) -> Sprite:
        w, h = rgb.size
        r = RADIUS
        return cls(
            body=rgb.crop((0, r, w, h - r)),
            top=(rgb.crop((0, 0, w, r)), mask.crop((0, 0, w, r))),
            bottom=(rgb.crop((0, h - r, w, h)), mask.crop((0, h - r, w, h))),
            shadow=mask.crop((0, h - r - _SHADOW, w, h)),
            fan=cls.of(rgb.crop((0, 0, FAN_W, h)), mask.crop((0, 0, FAN_W, h)), False)
            if fan
            else None,
        )


def ink(card: Card, th: Theme, four_color: bool) -> RGB:
    """The colour a card is printed in: red/black, or the four-colour scheme."""
    if card.is_joker:
        return th.red if card.rank == "B" else th.black
    if card.suit == "H":
        return th.red
    if card.suit == "D":
        return th.blue if four_color else th.red
    if card.suit == "C":
        return th.green if four_color else th.black
    return th.black


def _index(card: Card, face: RGB, colour: RGB, lang: Lang) -> Image.Image:
    """The corner index (rank over suit) on the face colour."""
    tile = Image.new("RGB", (_INDEX_W, _INDEX_H + 40 if card.is_joker else _INDEX_H), face)
    if card.is_joker:
        big = card.rank == "B"
        if lang == "zh":
            draw_text(
                tile, _INDEX_W / 2, 14, "大" if big else "小", 22, colour, bold=True, align="center"
            )
            draw_text(tile, _INDEX_W / 2, 40, "王", 22, colour, bold=True, align="center")
            star_y = 56
        else:
            for i, letter in enumerate("JOKER"):
                draw_text(
                    tile, _INDEX_W / 2, 10 + i * 15.5, letter, 15, colour, bold=True, align="center"
                )
            star_y = 80
        tile.paste(colour, (_INDEX_W // 2 - 9, star_y), shape_mask("star", 18, hollow=not big))
        return tile
    rank = _RANK_TEXT.get(card.rank, card.rank)
    size, tracking = (25, -2) if len(rank) == 2 else (28, 0)
    draw_text(
        tile,
        _INDEX_W / 2,
        5,
        rank,
        size,
        colour,
        bold=True,
        align="center",
        valign="top",
        tracking=tracking,
    )
    tile.paste(colour, (_INDEX_W // 2 - 10, 32), shape_mask(card.suit, 20))
    return tile


def _centre(face: Image.Image, card: Card, colour: RGB, lang: Lang) -> None:
    """The big pip, set right of and below the centre so it clears the index."""
    if card.is_joker:
        big = card.rank == "B"
        size = 50
        x, y = 54 - size // 2, 60 - size // 2
        face.paste(colour, (x, y), shape_mask("star", size, not big))
        word = label(lang, "big_joker" if big else "small_joker")
        draw_text(
            face, 54, 100, word, 14 if lang == "en" else 16, colour, bold=True, align="center"
        )
        return
    size = 46
    face.paste(colour, (52 - size // 2, 79 - size // 2), shape_mask(card.suit, size))


def _edges(variant: str, th: Theme) -> list[tuple[RGB, float]]:
    """Border rings from the outside in: (colour, width in px)."""
    if variant == "trump":
        return [(th.gold, 3.0)]
    if variant == "selected":
        return [(th.accent, 4.0)]
    if variant == "selected_trump":
        return [(th.accent, 3.0), (th.gold, 2.0)]
    return [(th.card_edge, 1.25)]


# Two full configurations (theme × colour scheme: 54 cards × 5 variants each), ~29 MB
# at most; a bot whose players mix every theme and scheme redraws (1 ms) now and then.
@lru_cache(maxsize=640)
def _sprite(card: Card, theme_name: str, four_color: bool, lang: Lang, variant: str) -> Sprite:
    th = THEMES[theme_name]
    ghost = variant == "ghost"
    face_colour = th.ghost_face if ghost else th.card_face
    colour = th.ghost_ink if ghost else ink(card, th, four_color)

    face = Image.new("RGB", (CARD_W, CARD_H), face_colour)
    tile = _index(card, face_colour, colour, lang)
    face.paste(tile, (3, 4))
    _centre(face, card, colour, lang)
    if ghost:
        # struck through across the corner index, which is what shows in a fan
        strike = Image.new("L", (CARD_W * 4, CARD_H * 4))
        ImageDraw.Draw(strike).line((10 * 4, 96 * 4, 78 * 4, 10 * 4), fill=255, width=4 * 4)
        face.paste(th.danger, (0, 0), strike.reduce(4))

    # edges: rings from the outside in, then the face inside them
    rgb = Image.new("RGB", (CARD_W, CARD_H), th.card_edge)
    inset = 0.0
    for ring_colour, width in _edges(variant, th):
        rgb.paste(ring_colour, (0, 0), rounded_mask(CARD_W, CARD_H, RADIUS, inset))
        inset += width
    rgb.paste(face, (0, 0), rounded_mask(CARD_W, CARD_H, RADIUS, inset))
    return Sprite.of(rgb, rounded_mask(CARD_W, CARD_H, RADIUS))


def sprite(
    card: Card, theme_name: str, four_color: bool, lang: Lang, variant: str = "plain"
) -> Sprite:
    """The cached sprite of ``card`` (language only matters for jokers)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown card variant {variant!r}")
    return _sprite(card, theme_name, four_color, lang if card.is_joker else "en", variant)


def paste_card(
    canvas: Image.Image,
    spr: Sprite,
    x: int,
    y: int,
    shadow: RGB | None,
    *,
    covered: bool = False,
) -> None:
    """Paste a card, with a drop shadow below it in ``shadow`` (None for none).

    Same pixels as pasting the shadow mask 3 px lower and then the card through
    its mask, in about a fifth of the time. The pieces go straight to Pillow's
    core image (``Image.im``, the call ``Image.paste`` ends in): the checks
    ``Image.paste`` makes first cost more than the copying of these small pieces.
    ``covered``: the next card pasted is this one's neighbour in a fan (at
    ``x + STRIP``, the same ``y``), which hides everything right of ``FAN_W``
    (its shadow included), so only that much is pasted: the same image with a
    third fewer pixels copied.
    """
    if covered and spr.fan is not None:
        spr = spr.fan
    core = canvas.im
    low = y + CARD_H - RADIUS
    right = x + spr.body.width
    if shadow is not None:
        core.paste(shadow, (x, low, right, low + spr.shadow.height), spr.shadow.im)
    core.paste(spr.top[0].im, (x, y, right, y + RADIUS), spr.top[1].im)
    core.paste(spr.body.im, (x, y + RADIUS, right, low))
    core.paste(spr.bottom[0].im, (x, low, right, y + CARD_H), spr.bottom[1].im)


# --- cards on a palette canvas (the hand image: see ``canvas``) ---------------------

TILE_H = CARD_H + _SHADOW  # a card and the drop shadow below it
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
    solid.paste(opaque.crop((0, CARD_H - RADIUS - _SHADOW, width, CARD_H)), (0, CARD_H - RADIUS))
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


def suit_colours(th: Theme, four_color: bool) -> dict[str, RGB]:
    """Colour of each suit's symbol on a panel (trump chips), readable in both themes."""
    return {
        "S": th.icon_black,
        "H": th.icon_red,
        "D": th.icon_blue if four_color else th.icon_red,
        "C": th.icon_green if four_color else th.icon_black,
    }


_DISPLAY_SUITS = "SHCD"  # alternating colours, as bot.rules' Order.sort_key does


def hand_order(cards: Sequence[Card], trump: Trump | None) -> list[Card]:
    """Cards in the order players hold them.

    Plain suits grouped (♠ ♥ ♣ ♦) and ordered high to low, then the trumps
    together at the end, strongest first: jokers, the trump-suit level card, the
    off-suit level cards, then the trump suit from A down (issue 4). Without a
    trump (during the deal): by suit, high to low, jokers last.
    """
    if trump is not None:
        return sorted(cards, key=_held_keys(trump).__getitem__)
    return sorted(cards, key=_plain_key)


@lru_cache(maxsize=64)
def _held_keys(trump: Trump) -> dict[Card, tuple[int, int, int]]:
    """Each card's place in ``hand_order`` under ``trump``, worked out once per trump
    (a hand image sorts its cards at every play)."""
    key = order_for(trump).sort_key
    return {card: _descending(key(card)) for card in deck(1)}


def _descending(key: tuple[int, int, int]) -> tuple[int, int, int]:
    group, tier, bias = key
    return (group, -tier, -bias)


def _plain_key(card: Card) -> tuple[int, int]:
    if card.is_joker:
        return (4, 0 if card.rank == "B" else 1)
    return (_DISPLAY_SUITS.index(card.suit), -RANKS.index(card.rank))


def group_of(card: Card, trump: Trump | None) -> str:
    """The group a card sits in within a hand: its effective suit (``T`` for trumps)."""
    return groups_of((card,), trump)[0]


def groups_of(cards: Sequence[Card], trump: Trump | None) -> list[str]:
    """``group_of`` each of ``cards``."""
    if trump is not None:
        suit_of = order_for(trump).suit_of
        return [suit_of[card] for card in cards]
    return ["J" if card.is_joker else card.suit for card in cards]
