"""The pieces of a trick the table image draws (``renderers.table``): a seat's played
cards laid out as a fan, whose turn it is, and the badges on a seat's plate.

A failed throw's fan shows the cards that stood, then, set apart, the cards taken
back (drawn greyed by the caller).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules import Card

from .cards import CARD_H, CARD_W, STRIP, VSTRIP
from .scenes import TrickScene

SEGMENT_GAP = CARD_W - STRIP + 18  # the last card that stood shows in full


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
