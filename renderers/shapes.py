"""Suit symbols and the joker star as antialiased masks, drawn from vector shapes.

No font is trusted with ♠♥♦♣: glyphs differ between fonts and some have none.
Each shape is a polygon (or circles) in a unit box, drawn four times larger
and reduced, which gives smooth edges; masks are cached per shape and size.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

_SS = 4  # supersampling factor
Point = tuple[float, float]


def _heart(n: int = 96) -> list[Point]:
    """The classic parametric heart, tip down, scaled into the unit box."""
    pts = []
    for i in range(n):
        t = 2 * math.pi * i / n
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        pts.append((x, y))
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return [((x - x0) / (x1 - x0), (y - y0) / (y1 - y0)) for x, y in pts]


def _diamond() -> list[Point]:
    """A rhombus with slightly concave sides, like a printed card's pip."""
    corners = [(0.5, 0.0), (0.9, 0.5), (0.5, 1.0), (0.1, 0.5)]
    pts: list[Point] = []
    for i, (ax, ay) in enumerate(corners):
        bx, by = corners[(i + 1) % 4]
        # quadratic curve bowed toward the centre
        cx, cy = (
            (ax + bx) / 2 + (0.5 - (ax + bx) / 2) * 0.18,
            (ay + by) / 2 + (0.5 - (ay + by) / 2) * 0.18,
        )
        for k in range(12):
            t = k / 12
            pts.append(
                (
                    (1 - t) ** 2 * ax + 2 * (1 - t) * t * cx + t * t * bx,
                    (1 - t) ** 2 * ay + 2 * (1 - t) * t * cy + t * t * by,
                )
            )
    return pts


def _star(points: int = 5, inner: float = 0.42) -> list[Point]:
    pts = []
    for i in range(points * 2):
        r = 0.5 if i % 2 == 0 else 0.5 * inner
        a = -math.pi / 2 + math.pi * i / points
        pts.append((0.5 + r * math.cos(a), 0.53 + r * math.sin(a)))
    return pts


def _draw_shape(draw: ImageDraw.ImageDraw, shape: str, s: float, hollow: bool) -> None:
    def poly(points: list[Point], fill: int = 255) -> None:
        draw.polygon([(x * s, y * s) for x, y in points], fill=fill)

    def circle(cx: float, cy: float, r: float) -> None:
        draw.ellipse(((cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s), fill=255)

    def stem() -> None:
        poly([(0.5, 0.55), (0.62, 0.92), (0.72, 1.0), (0.28, 1.0), (0.38, 0.92)])

    if shape == "H":
        poly([(0.04 + 0.92 * x, 0.06 + 0.88 * y) for x, y in _heart()])
    elif shape == "S":
        poly([(0.06 + 0.88 * x, 0.78 * (1 - y)) for x, y in _heart()])
        stem()
    elif shape == "D":
        poly(_diamond())
    elif shape == "C":
        r = 0.215
        circle(0.5, 0.25, r)
        circle(0.265, 0.58, r)
        circle(0.735, 0.58, r)
        circle(0.5, 0.5, 0.13)
        stem()
    elif shape == "star":
        poly(_star())
        if hollow:
            # a hollow star: the same star shrunk about its centre, cut out
            inner = [(0.5 + (x - 0.5) * 0.56, 0.56 + (y - 0.53) * 0.56) for x, y in _star()]
            poly(inner, fill=0)
    else:
        raise ValueError(f"unknown shape {shape!r}")


@lru_cache(maxsize=512)
def shape_mask(shape: str, size: int, hollow: bool = False) -> Image.Image:
    """An 'L' mask ``size`` px square: a suit (``S H D C``) or ``"star"``."""
    big = Image.new("L", (size * _SS, size * _SS))
    _draw_shape(ImageDraw.Draw(big), shape, size * _SS, hollow)
    return big.reduce(_SS)


@lru_cache(maxsize=256)
def rounded_mask(width: int, height: int, radius: float, inset: float = 0.0) -> Image.Image:
    """An antialiased rounded-rectangle mask, optionally inset (for borders)."""
    big = Image.new("L", (width * _SS, height * _SS))
    i = inset * _SS
    ImageDraw.Draw(big).rounded_rectangle(
        (i, i, width * _SS - 1 - i, height * _SS - 1 - i),
        radius=max(0.0, radius - inset) * _SS,
        fill=255,
    )
    return big.reduce(_SS)
