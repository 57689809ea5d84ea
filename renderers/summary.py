"""The hand summary: how the attackers' points add up, and what it did to the levels.

Top: the hand and the result in words (the caller's). Then the sum: points from
tricks, throw penalties, the kitty bonus (points × multiplier), the attackers'
total on the same bar as the scoreboard; then each team (the dealer's first)
with its level change, and the next dealer. One column, every word sized by
``canvas.legible``: 12 px high when a phone shows the image 400 px wide.
Drawn once per hand, composed straight on the palette like the table (``page``).
"""

from __future__ import annotations

from bot.rules import team_of

from .canvas import legible, level_text, new_paper, png
from .fonts import fit, fit_name, text_width
from .labels import Lang, word
from .page import Page
from .scenes import SummaryScene
from .theme import Theme

WIDTH = 640
MARGIN = 16
PAD = 18
GAP = 14
TEXT = legible(WIDTH)
LINE = TEXT + 14
BAR_H = 26 + TEXT + 10


def _rows(scene: SummaryScene, lang: Lang) -> list[tuple[str, str]]:
    """(label, value) lines of the points breakdown."""
    words = scene.words
    rows = [(word(words, lang, "from_tricks"), str(scene.trick_points))]
    if scene.penalty:
        sign = "+" if scene.penalty > 0 else "−"
        rows.append((word(words, lang, "penalty"), f"{sign}{abs(scene.penalty)}"))
    if scene.multiplier:
        value = f"{scene.kitty_points} × {scene.multiplier} = {scene.kitty_bonus}"
    else:
        value = f"{scene.kitty_points} · {word(words, lang, 'kitty_kept')}"
    rows.append((word(words, lang, "kitty_bonus"), value))
    return rows


def _box_h(rows: int) -> int:
    return PAD + (rows + 1) * LINE + 10 + BAR_H + PAD


def height(scene: SummaryScene, lang: Lang) -> int:
    teams = 2 * (2 * LINE + 2 * PAD) + GAP
    box = _box_h(len(_rows(scene, lang)))
    return MARGIN + 2 * LINE + box + GAP + teams + GAP + LINE + MARGIN


def draw(scene: SummaryScene, page: Page) -> Page:
    """The summary drawn on ``page`` (at least ``WIDTH`` × ``height(scene, lang)``)."""
    th, lang, words = page.th, page.lang, scene.words
    rows = _rows(scene, lang)
    x, right = MARGIN + 4, WIDTH - MARGIN - 4
    y = MARGIN + LINE / 2
    if scene.hand_no is not None:
        hand_no = word(words, lang, "hand_n", n=scene.hand_no)
        page.text(x, y, hand_no, TEXT, th.muted, over=th.page)
    result = fit(scene.result, TEXT, True, right - x)
    page.text(x, y + LINE, result, TEXT, th.text, bold=True, over=th.page)

    # the points, line by line, then the total and the bar
    top = MARGIN + 2 * LINE
    box_h = _box_h(len(rows))
    panel = (MARGIN, top, WIDTH - MARGIN, top + box_h)
    page.rounded(panel, 16, th.panel, th.page, th.panel_edge, 1.5)
    left, right = MARGIN + PAD, WIDTH - MARGIN - PAD
    y = top + PAD + LINE / 2
    for name, value in rows:
        value_w = text_width(value, TEXT, True)
        name = fit(name, TEXT, False, right - left - value_w - 12)
        page.text(left, y, name, TEXT, th.muted, over=th.panel)
        page.text(right, y, value, TEXT, th.text, bold=True, over=th.panel, align="right")
        y += LINE
    page.rect((left, round(y - LINE / 2 + 2), right, round(y - LINE / 2 + 4)), th.panel_edge)
    y += 4
    total = scene.attacker_points
    takes = total >= 2 * scene.step
    page.text(left, y, word(words, lang, "total"), TEXT, th.text, bold=True, over=th.panel)
    colour = th.win if takes else th.text
    page.text(right, y, str(total), TEXT, colour, bold=True, over=th.panel, align="right")
    bar_top = round(y + LINE / 2 + 10)
    box = (left + TEXT // 2, bar_top, right - TEXT // 2, bar_top + BAR_H)
    page.bar(box, total, scene.step, scene.total, TEXT, th.panel)

    # the teams, the dealer's first: players, level before → after
    y = top + box_h + GAP
    dealer_team = team_of(scene.dealer)
    for team in (dealer_team, 1 - dealer_team):
        is_dealer = team == dealer_team
        edge = th.gold if is_dealer else th.panel_edge
        bottom = y + 2 * LINE + 2 * PAD
        page.rounded((MARGIN, y, WIDTH - MARGIN, bottom), 16, th.panel, th.page, edge, 2.0)
        role = word(words, lang, "defenders" if is_dealer else "attackers")
        cy = y + PAD + LINE / 2
        ink = edge if is_dealer else th.muted
        lx = left + page.text(left, cy, role, TEXT, ink, bold=True, over=th.panel)
        pair = word(words, lang, "and")
        room = (right - lx - text_width(f" · {pair}", TEXT, True)) // 2
        a, b = (fit_name(scene.names[s], TEXT, True, room, seat=s) for s in (team, team + 2))
        page.text(lx, cy, f" · {a}{pair}{b}", TEXT, th.text, bold=True, over=th.panel)
        cy += LINE
        level = word(words, lang, "level")
        lx = left + page.text(left, cy, level, TEXT, th.muted, over=th.panel) + 14
        before, after = scene.levels_before[team], scene.levels_after[team]
        before_text = level_text(before)
        lx += page.text(lx, cy, before_text, TEXT, th.muted, bold=True, over=th.panel) + 10
        if after != before:
            lx += page.text(lx, cy, "→", TEXT, th.muted, bold=True, over=th.panel) + 10
            page.text(lx, cy, level_text(after), TEXT, th.win, bold=True, over=th.panel)
        y = bottom + GAP

    # the next dealer
    cy = y + LINE / 2
    next_dealer = word(words, lang, "next_dealer")
    lx = x + page.text(x, cy, next_dealer, TEXT, th.muted, over=th.page) + 14
    name = fit_name(scene.names[scene.next_dealer], TEXT, True, right - lx, seat=scene.next_dealer)
    page.text(lx, cy, name, TEXT, th.text, bold=True, over=th.page)
    return page


def render(scene: SummaryScene, th: Theme, four_color: bool, lang: Lang) -> bytes:
    size = (WIDTH, height(scene, lang))
    page = Page(new_paper(*size, th, scratch=True), th, four_color, lang)
    return png(draw(scene, page).canvas, size)
