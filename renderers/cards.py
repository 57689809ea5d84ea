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

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.rules import RANKS, Card, Trump, deck, order_for

from .fonts import draw_text
from .labels import Lang, label
from .shapes import rounded_mask, shape_mask
from .theme import RGB, THEMES, Theme

CARD_W = 88
CARD_H = 124
RADIUS = 9
STRIP = 46  # horizontal step of a fan: the visible width of an overlapped card
VSTRIP = 66  # vertical step when fan rows overlap: shows rank and suit
FAN_W = STRIP + RADIUS  # what can show of a card with the next one STRIP px to its right
VARIANTS = ("plain", "trump", "selected", "selected_trump", "ghost")

_RANK_TEXT = {"T": "10"}
_INDEX_W, _INDEX_H = 34, 58


SHADOW = 3  # px the drop shadow shows below a card


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
            shadow=mask.crop((0, h - r - SHADOW, w, h)),
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
