"""The hand summary: how the attackers' points add up, and what it did to the levels.

Top: the result in words (the caller's label). Then the sum: points from tricks,
throw penalties, the kitty bonus (points × multiplier), the attackers' total on
the same bar as the scoreboard; then both teams' level changes and the next
dealer.
"""

from __future__ import annotations

from PIL import Image

from bot.rules import team_of

from .canvas import badge, encode, new_canvas, points_bar, rounded
from .fonts import draw_text, fit, fit_name
from .labels import Lang, label
from .scenes import SummaryScene
from .scoreboard import team_panel
from .theme import Theme

WIDTH = 640
MARGIN = 16
HEADER_H = 66
ROW_H = 34
GAP = 14
TEAM_H = 150
FOOTER_H = 48


def _rows(scene: SummaryScene, lang: Lang) -> list[tuple[str, str, bool]]:
    """(label, value, emphasised) lines of the points breakdown."""
    rows = [(label(lang, "from_tricks"), str(scene.trick_points), False)]
    if scene.penalty:
        sign = "+" if scene.penalty > 0 else "−"
        rows.append((label(lang, "penalty"), f"{sign}{abs(scene.penalty)}", False))
    if scene.multiplier:
        value = f"{scene.kitty_points} × {scene.multiplier} = {scene.kitty_bonus}"
    else:
        value = f"{scene.kitty_points} · {label(lang, 'kitty_kept')}"
    rows.append((label(lang, "kitty_bonus"), value, False))
    return rows


def height(scene: SummaryScene, lang: Lang) -> int:
    rows = len(_rows(scene, lang))
    box_h = 18 + rows * ROW_H + 10 + 44 + 56
    return MARGIN + HEADER_H + box_h + GAP + TEAM_H + GAP + FOOTER_H + MARGIN


def draw(scene: SummaryScene, th: Theme, four_color: bool, lang: Lang) -> Image.Image:
    rows = _rows(scene, lang)
    h = height(scene, lang)
    canvas = new_canvas(WIDTH, h, th)
    x = MARGIN + 4
    if scene.hand_no is not None:
        draw_text(
            canvas, x, MARGIN + 12, label(lang, "hand_n", n=scene.hand_no), 15, th.muted, bold=True
        )
    result = fit(scene.result, 26, True, WIDTH - 2 * MARGIN - 8)
    draw_text(canvas, x, MARGIN + 42, result, 26, th.text, bold=True)

    # the points, line by line, then the total and the bar
    top = MARGIN + HEADER_H
    box_h = 18 + len(rows) * ROW_H + 10 + 44 + 56
    rounded(canvas, (MARGIN, top, WIDTH - MARGIN, top + box_h), 16, th.panel, th.panel_edge, 1.5)
    left, right = MARGIN + 18, WIDTH - MARGIN - 18
    y = top + 18 + ROW_H / 2
    for name, value, _ in rows:
        draw_text(canvas, left, y, name, 17, th.muted)
        draw_text(canvas, right, y, value, 18, th.text, bold=True, align="right")
        y += ROW_H
    canvas.paste(th.panel_edge, (left, round(y - ROW_H / 2 + 6), right, round(y - ROW_H / 2 + 8)))
    y += 14
    total = scene.attacker_points
    takes = total >= 2 * scene.step
    draw_text(canvas, left, y, label(lang, "total"), 19, th.text, bold=True)
    draw_text(
        canvas, right, y, str(total), 30, th.win if takes else th.text, bold=True, align="right"
    )
    points_bar(
        canvas,
        (left + 6, round(y + 28), right - 6, round(y + 68)),
        total,
        scene.step,
        scene.total,
        th,
    )

    # levels
    ty = top + box_h + GAP
    panel_w = (WIDTH - 2 * MARGIN - GAP) // 2
    dealer_team = team_of(scene.dealer)
    for team in (0, 1):
        x0 = MARGIN + team * (panel_w + GAP)
        is_dealer = team == dealer_team
        team_panel(
            canvas,
            (x0, ty, x0 + panel_w, ty + TEAM_H),
            (scene.names[team], scene.names[team + 2]),
            scene.levels_before[team],
            label(lang, "defenders" if is_dealer else "attackers"),
            scene.names[scene.dealer] if is_dealer else None,
            th,
            lang,
            level_after=scene.levels_after[team],
        )

    # next dealer
    fy = ty + TEAM_H + GAP + FOOTER_H / 2
    x = MARGIN + 4
    x += draw_text(canvas, x, fy, label(lang, "next_dealer"), 17, th.muted) + 12
    name = fit_name(scene.names[scene.next_dealer], 18, True, WIDTH - x - MARGIN - 100)
    x += draw_text(canvas, x, fy, name, 18, th.text, bold=True) + 10
    badge(canvas, x, fy, label(lang, "dealer"), th.text, th.page, 14)
    return canvas


def render(scene: SummaryScene, th: Theme, four_color: bool, lang: Lang) -> bytes:
    return encode(draw(scene, th, four_color, lang), th)
