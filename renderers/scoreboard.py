"""The scoreboard: both teams' levels, who deals, the trump and the points so far.

Two team panels side by side (the dealer's team marked, with the dealer named)
and the attackers' points on a bar ticked at every score step, the tick where
the attackers take the deal drawn stronger, so a glance says how close it is.
"""

from __future__ import annotations

from PIL import Image

from bot.rules import team_of

from .canvas import (
    badge,
    encode,
    level_text,
    new_canvas,
    points_bar,
    rounded,
    trump_chip,
    trump_width,
)
from .cards import suit_colours
from .fonts import draw_text, fit, text_width
from .labels import Lang, label
from .scenes import ScoreScene
from .theme import Theme

WIDTH = 640
MARGIN = 16
HEADER_H = 44
TEAM_H = 150
BAR_H = 104
GAP = 14
HEIGHT = MARGIN + HEADER_H + TEAM_H + GAP + BAR_H + MARGIN


def team_panel(
    canvas: Image.Image,
    box: tuple[int, int, int, int],
    names: tuple[str, str],
    level: str,
    role: str,
    dealer_name: str | None,
    th: Theme,
    lang: Lang,
    level_after: str | None = None,
) -> None:
    """A team: its players, its level (big), its role in this hand.

    ``level_after`` turns the level into a change (``5 → 7``), for the summary.
    """
    x0, y0, x1, y1 = box
    is_dealer = dealer_name is not None
    rounded(canvas, box, 16, th.panel, th.gold if is_dealer else th.panel_edge, 2.0)
    pad = 16
    w = x1 - x0 - 2 * pad
    x = x0 + pad
    role_w = badge(
        canvas,
        x,
        y0 + 24,
        role,
        th.text if is_dealer else th.panel_edge,
        th.page if is_dealer else th.text,
        14,
    )
    if is_dealer:
        who = fit(label(lang, "dealer_is", name=dealer_name), 14, False, w - role_w - 10)
        draw_text(canvas, x + role_w + 10, y0 + 24, who, 14, th.muted)
    team = fit(label(lang, "team_of", a=names[0], b=names[1]), 17, True, w)
    draw_text(canvas, x, y0 + 56, team, 17, th.text, bold=True)
    draw_text(canvas, x, y1 - 34, label(lang, "level"), 15, th.muted)
    lx = x + text_width(label(lang, "level"), 15) + 10
    if level_after is None:
        draw_text(canvas, lx, y1 - 38, level_text(level), 40, th.text, bold=True)
        return
    lx += draw_text(canvas, lx, y1 - 38, level_text(level), 30, th.muted, bold=True) + 8
    lx += draw_text(canvas, lx, y1 - 38, "→", 26, th.muted, bold=True) + 8
    gained = level_after != level
    lx += (
        draw_text(
            canvas,
            lx,
            y1 - 38,
            level_text(level_after),
            40,
            th.win if gained else th.text,
            bold=True,
        )
        + 10
    )


def draw(scene: ScoreScene, th: Theme, four_color: bool, lang: Lang) -> Image.Image:
    canvas = new_canvas(WIDTH, HEIGHT, th)
    cy = MARGIN + HEADER_H / 2 - 4
    draw_text(
        canvas, MARGIN + 4, cy, label(lang, "hand_n", n=scene.hand_no), 22, th.text, bold=True
    )
    chip_w = trump_width(scene.trump, lang, 18)
    trump_chip(
        canvas,
        WIDTH - MARGIN - 4 - chip_w,
        cy,
        scene.trump,
        lang,
        18,
        th.text,
        suit_colours(th, four_color),
    )

    dealer_team = team_of(scene.dealer)
    panel_w = (WIDTH - 2 * MARGIN - GAP) // 2
    top = MARGIN + HEADER_H
    for team in (0, 1):
        x0 = MARGIN + team * (panel_w + GAP)
        names = (scene.names[team], scene.names[team + 2])
        is_dealer = team == dealer_team
        role = label(lang, "defenders" if is_dealer else "attackers")
        team_panel(
            canvas,
            (x0, top, x0 + panel_w, top + TEAM_H),
            names,
            scene.levels[team],
            role,
            scene.names[scene.dealer] if is_dealer else None,
            th,
            lang,
        )

    by = top + TEAM_H + GAP
    rounded(canvas, (MARGIN, by, WIDTH - MARGIN, by + BAR_H), 16, th.panel, th.panel_edge, 1.5)
    x = MARGIN + 18
    draw_text(canvas, x, by + 26, label(lang, "so_far"), 16, th.muted)
    draw_text(
        canvas,
        WIDTH - MARGIN - 18,
        by + 24,
        str(scene.points),
        30,
        th.win if scene.points >= 2 * scene.step else th.text,
        bold=True,
        align="right",
    )
    points_bar(
        canvas,
        (x + 6, by + 50, WIDTH - MARGIN - 24, by + 90),
        scene.points,
        scene.step,
        scene.total,
        th,
    )
    return canvas


def render(scene: ScoreScene, th: Theme, four_color: bool, lang: Lang) -> bytes:
    return encode(draw(scene, th, four_color, lang), th)
