"""The trick image: four seats around a table, each with its play.

The viewer sits at the bottom (seat 0 when there is no viewer) and play goes
counter-clockwise as at a Chinese table: the next seat is on the viewer's right,
the partner opposite. Each seat shows a name plate (dealer, who led, who is
winning or won, whose turn it is) and the cards it played; seats that have not
played show nothing but their plate. The winning play is ringed. The centre
shows the points in the trick and the trump. A failed throw shows the cards
that stood, then the cards taken back, greyed and struck through.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from bot.rules import Card

from .canvas import badge, encode, new_canvas, ring, rounded, trump_chip, trump_width
from .cards import CARD_H, CARD_W, STRIP, VSTRIP, hand_order, paste_card, sprite, suit_colours
from .fonts import draw_text, fit_name, text_width
from .labels import Lang, label
from .scenes import TrickScene
from .theme import Theme

WIDTH = 800
MARGIN = 14  # page around the felt
PAD = 18  # felt around the seats
CENTRE_W = 168
CENTRE_H = 150
GAP = 14  # between side seats and the centre
BAND_GAP = 18  # between the top seat, the middle band and the bottom seat
PLATE_H = 38
PLATE_GAP = 10  # plate to cards
SEGMENT_GAP = CARD_W - STRIP + 18  # the last card that stood shows in full
CAPTION_H = 28
NAME_SIZE = 20
BADGE_SIZE = 14
INNER_W = WIDTH - 2 * (MARGIN + PAD)
SIDE_W = (INNER_W - CENTRE_W - 2 * GAP) // 2


@dataclass(slots=True)
class Fan:
    """Cards of one seat, laid out in overlapping rows inside a box of ``width``."""

    items: list[tuple[Card, str]]  # (card, sprite variant)
    positions: list[tuple[int, int]]
    width: int
    height: int
    ghost_start: int | None  # index of the first card taken back

    @classmethod
    def build(cls, cards: list[Card], ghosts: list[Card], max_width: int) -> Fan:
        items = [(c, "plain") for c in cards] + [(c, "ghost") for c in ghosts]
        ghost_start = len(cards) if ghosts else None
        per_row = max(1, (max_width - CARD_W - (SEGMENT_GAP if ghosts else 0)) // STRIP + 1)
        positions: list[tuple[int, int]] = []
        rows = [items[i : i + per_row] for i in range(0, len(items), per_row)]
        widths = []
        for r, row in enumerate(rows):
            x = 0
            for k in range(len(row)):
                i = r * per_row + k
                if k:
                    x += STRIP + (SEGMENT_GAP if i == ghost_start else 0)
                positions.append((x, r * VSTRIP))
            widths.append(x + CARD_W)
        # centre each row within the widest
        width = max(widths, default=0)
        for r, w in enumerate(widths):
            shift = (width - w) // 2
            for k in range(len(rows[r])):
                i = r * per_row + k
                positions[i] = (positions[i][0] + shift, positions[i][1])
        height = (len(rows) - 1) * VSTRIP + CARD_H if rows else 0
        return cls(items, positions, width, height, ghost_start)


@dataclass(slots=True)
class Seat:
    seat: int
    where: str  # bottom, right, top, left
    fan: Fan
    box_w: int
    caption: str | None
    x: int = 0  # left of the seat's block
    plate_y: int = 0
    fan_y: int = 0  # top of the card area (which is at least one card tall)

    @property
    def cards_h(self) -> int:
        return max(CARD_H, self.fan.height) + (CAPTION_H if self.caption else 0)

    @property
    def block_h(self) -> int:
        return PLATE_H + PLATE_GAP + self.cards_h

    def fan_origin(self) -> tuple[int, int]:
        """Top-left of the fan: centred in the block, below the caption at the bottom seat."""
        x = self.x + (self.box_w - self.fan.width) // 2
        y = self.fan_y + (CAPTION_H if self.caption and self.where == "bottom" else 0)
        return x, y


def _seats(scene: TrickScene, lang: Lang) -> list[Seat]:
    viewer = scene.viewer if scene.viewer is not None else 0
    seats = []
    for rel, where in enumerate(("bottom", "right", "top", "left")):
        seat = (viewer + rel) % 4
        played = hand_order(scene.plays.get(seat, ()), scene.trump)
        ghosts: list[Card] = []
        caption = None
        if scene.failed_throw is not None and scene.failed_throw[0] == seat:
            ghosts = hand_order(scene.failed_throw[2], scene.trump)
            if seat not in scene.plays:
                ghosts = []  # nothing stood yet: show nothing the scene has not played
            else:
                caption = (
                    label(lang, "throw_failed")
                    + " · "
                    + label(lang, "taken_back_n", n=len(scene.failed_throw[2]))
                )
        box_w = INNER_W if where in ("top", "bottom") else SIDE_W
        seats.append(Seat(seat, where, Fan.build(played, ghosts, box_w), box_w, caption))
    return seats


def layout(scene: TrickScene, lang: Lang) -> tuple[int, list[Seat], tuple[int, int, int, int]]:
    """Image height, the seats with their positions, and the centre panel's box."""
    seats = _seats(scene, lang)
    bottom, right, top, left = seats
    y = MARGIN + PAD
    top.x = MARGIN + PAD
    top.plate_y = y
    top.fan_y = y + PLATE_H + PLATE_GAP
    y += top.block_h + BAND_GAP
    band_h = max(left.block_h, right.block_h, CENTRE_H)
    left.x = MARGIN + PAD
    right.x = WIDTH - MARGIN - PAD - SIDE_W
    for side in (left, right):
        side.plate_y = y
        side.fan_y = y + PLATE_H + PLATE_GAP
    centre_x = (WIDTH - CENTRE_W) // 2
    centre_y = y + (band_h - CENTRE_H) // 2
    y += band_h + BAND_GAP
    bottom.x = MARGIN + PAD
    bottom.fan_y = y
    bottom.plate_y = y + bottom.cards_h + PLATE_GAP
    y += bottom.block_h + PAD + MARGIN
    return y, seats, (centre_x, centre_y, centre_x + CENTRE_W, centre_y + CENTRE_H)


def to_play(scene: TrickScene) -> int | None:
    """The seat whose turn it is, while the trick is open."""
    if scene.final or len(scene.plays) >= 4:
        return None
    return (scene.leader + len(scene.plays)) % 4


def plate_badges(scene: TrickScene, seat: int) -> list[str]:
    """Label keys of the badges on a seat's plate, in the order drawn."""
    keys = []
    if seat == scene.dealer:
        keys.append("dealer")
    if seat == scene.leader and seat in scene.plays:
        keys.append("led")
    if seat == scene.winner:
        keys.append("won" if scene.final else "winning")
    if seat == to_play(scene):
        keys.append("to_play")
    return keys


def _plate(canvas: Image.Image, scene: TrickScene, seat: Seat, th: Theme, lang: Lang) -> None:
    """Name plate with badges, centred in the seat's block."""
    s = seat.seat
    colours = {
        "dealer": (th.text, th.page),
        "led": (th.panel_edge, th.text),
        "won": (th.win, th.badge_ink),
        "winning": (th.win, th.badge_ink),
        "to_play": (th.accent, th.badge_ink),
    }
    badges = [(label(lang, key), *colours[key]) for key in plate_badges(scene, s)]
    pad = 12
    gap = 6  # before each badge
    badge_ws = [
        text_width(t, BADGE_SIZE, True) + 2 * round(BADGE_SIZE * 0.55) for t, _, _ in badges
    ]
    badges_w = sum(bw + gap for bw in badge_ws)
    # the name gives way to the badges, down to a few characters
    name = fit_name(scene.names[s], NAME_SIZE, True, max(48, seat.box_w - 2 * pad - badges_w))
    w = 2 * pad + text_width(name, NAME_SIZE, True) + badges_w
    w = min(w, seat.box_w)
    x0 = seat.x + (seat.box_w - w) // 2
    y0 = seat.plate_y
    edge = th.win if s == scene.winner else th.accent if s == to_play(scene) else th.panel_edge
    rounded(canvas, (x0, y0, x0 + w, y0 + PLATE_H), PLATE_H / 2, th.panel, edge, 2.0)
    cy = y0 + PLATE_H / 2
    x = x0 + pad
    x += draw_text(canvas, x, cy, name, NAME_SIZE, th.text, bold=True)
    for (text, fill, ink), bw in zip(badges, badge_ws, strict=True):
        badge(canvas, x + gap, cy, text, fill, ink, BADGE_SIZE)
        x += gap + bw


def _centre(
    canvas: Image.Image,
    scene: TrickScene,
    box: tuple[int, int, int, int],
    th: Theme,
    four_color: bool,
    lang: Lang,
) -> None:
    x0, y0, x1, y1 = box
    rounded(canvas, box, 16, th.panel, th.panel_edge, 1.5)
    cx = (x0 + x1) / 2
    head = label(lang, "trick_n", n=scene.trick_no) if scene.trick_no else ""
    if scene.final:
        head = f"{head} · {label(lang, 'final')}" if head else label(lang, "final")
    if head:
        draw_text(canvas, cx, y0 + 20, head, 14, th.muted, bold=True, align="center")
    draw_text(canvas, cx, y0 + 42, label(lang, "points"), 14, th.muted, align="center")
    colour = th.win if scene.trick_points else th.text
    draw_text(canvas, cx, y0 + 73, str(scene.trick_points), 36, colour, bold=True, align="center")
    if scene.throw_penalty:
        text = label(lang, "penalty_n", n=scene.throw_penalty)
        draw_text(canvas, cx, y0 + 101, text, 14, th.danger, bold=True, align="center")
    chip_w = trump_width(scene.trump, lang, 17)
    trump_chip(
        canvas,
        cx - chip_w / 2,
        y1 - 24,
        scene.trump,
        lang,
        17,
        th.text,
        suit_colours(th, four_color),
    )


def draw(scene: TrickScene, th: Theme, four_color: bool, lang: Lang) -> Image.Image:
    height, seats, centre = layout(scene, lang)
    canvas = new_canvas(WIDTH, height, th)
    rounded(canvas, (MARGIN, MARGIN, WIDTH - MARGIN, height - MARGIN), 28, th.felt)
    _centre(canvas, scene, centre, th, four_color, lang)
    for seat in seats:
        _plate(canvas, scene, seat, th, lang)
        fan = seat.fan
        if not fan.items:
            continue
        fx, fy = seat.fan_origin()
        if seat.seat == scene.winner:
            stood = [p for (_, v), p in zip(fan.items, fan.positions, strict=True) if v != "ghost"]
            if stood:
                pad = 7
                x1 = max(dx for dx, _ in stood) + CARD_W
                y1 = max(dy for _, dy in stood) + CARD_H
                box = (fx - pad, fy - pad, fx + x1 + pad, fy + y1 + pad + 3)
                ring(canvas, box, 14, th.win, 3.0)
        for (card, variant), (dx, dy) in zip(fan.items, fan.positions, strict=True):
            paste_card(
                canvas,
                sprite(card, th.name, four_color, lang, variant),
                fx + dx,
                fy + dy,
                th.shadow,
            )
        if seat.caption:
            if seat.where == "bottom":
                cy = fy - CAPTION_H / 2 - 6
            else:
                cy = fy + fan.height + CAPTION_H / 2 + 8
            draw_text(
                canvas,
                seat.x + seat.box_w / 2,
                cy,
                seat.caption,
                14,
                th.danger,
                bold=True,
                align="center",
            )
    return canvas


def render(scene: TrickScene, th: Theme, four_color: bool, lang: Lang) -> bytes:
    return encode(draw(scene, th, four_color, lang), th)
