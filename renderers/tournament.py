"""A tournament's standings: the bracket, and per round a table of teams, levels and results.

A pure function of a ``StandingsScene`` (plain strings and numbers, built by the
Discord layer from the tournament), returning PNG bytes. The bracket has one
column per round, a box per match with both teams and their levels (the winner
in gold, a bye in grey, a match still playing marked live); below it each round's
ranking, winners first, and the podium once there is one.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from .canvas import encode, level_text, new_canvas, rounded
from .fonts import draw_text, fit
from .labels import Lang, label
from .theme import Theme, theme

WIDTH = 960
MARGIN = 20
HEADER_H = 64
BOX_W = 250
BOX_H = 58
BOX_GAP = 10
COL_GAP = 30
ROW_H = 24
MAX_ROWS = 16  # per round table: the best 16 (the rest are out anyway)


@dataclass(frozen=True, slots=True)
class MatchScene:
    teams: tuple[str, ...]  # one for a bye
    levels: tuple[str, ...]  # current levels (live) or final ones
    winner: int | None  # index into teams once decided
    hands: int
    flagged: bool = False


@dataclass(frozen=True, slots=True)
class RankRow:
    team: str
    level: str
    result: str  # "won", "lost", "advances", "🥇 1st"... in the scene's language
    lost: bool = False  # drawn muted


@dataclass(frozen=True, slots=True)
class RoundScene:
    number: int
    matches: tuple[MatchScene, ...]
    ranking: tuple[RankRow, ...]  # empty while the round is being played


@dataclass(frozen=True, slots=True)
class StandingsScene:
    title: str
    status: str  # a line under the title: the round and its clock, or "finished"
    rounds: tuple[RoundScene, ...]
    podium: tuple[str, ...] = ()
    summary: tuple[str, ...] = ()  # text lines for the message around the image
    lang: Lang = "en"  # the image's own labels (round, podium, bye)


def _bracket_height(scene: StandingsScene) -> int:
    most = max((len(r.matches) for r in scene.rounds), default=0)
    return most * (BOX_H + BOX_GAP)


def _tables_height(scene: StandingsScene) -> int:
    ranked = [r for r in scene.rounds if r.ranking]
    rows = max((min(len(r.ranking), MAX_ROWS) for r in ranked), default=0)
    return (rows + 2) * ROW_H if ranked else 0


def render_standings(scene: StandingsScene, theme_name: str = "dark") -> bytes:
    th = theme(theme_name)
    podium_h = 48 if scene.podium else 0
    height = MARGIN + HEADER_H + _bracket_height(scene) + podium_h + _tables_height(scene) + MARGIN
    canvas = new_canvas(WIDTH, max(height, 160), th)
    draw_text(
        canvas,
        MARGIN,
        MARGIN + 16,
        fit(scene.title, 26, True, WIDTH - 2 * MARGIN),
        26,
        th.text,
        bold=True,
    )
    draw_text(
        canvas, MARGIN, MARGIN + 46, fit(scene.status, 16, False, WIDTH - 2 * MARGIN), 16, th.muted
    )
    top = MARGIN + HEADER_H
    columns = max(len(scene.rounds), 1)
    col_w = min(BOX_W, (WIDTH - 2 * MARGIN - (columns - 1) * COL_GAP) // columns)
    for c, round_ in enumerate(scene.rounds):
        x = MARGIN + c * (col_w + COL_GAP)
        for m, match in enumerate(round_.matches):
            _match_box(canvas, th, x, top + m * (BOX_H + BOX_GAP), col_w, match, scene.lang)
    y = top + _bracket_height(scene)
    if scene.podium:
        places = "   ".join(f"{i}. {name}" for i, name in enumerate(scene.podium, 1))
        line = fit(label(scene.lang, "podium_is", places=places), 20, True, WIDTH - 2 * MARGIN)
        draw_text(canvas, MARGIN, y + 24, line, 20, th.gold, bold=True)
        y += podium_h
    ranked = [r for r in scene.rounds if r.ranking]
    for c, round_ in enumerate(ranked):
        x = MARGIN + c * (col_w + COL_GAP)
        title = label(scene.lang, "round_n", n=round_.number)
        draw_text(canvas, x, y + ROW_H / 2, title, 16, th.text, bold=True)
        for i, row in enumerate(round_.ranking[:MAX_ROWS]):
            ry = y + (i + 1.5) * ROW_H
            colour = th.muted if row.lost else th.text
            draw_text(canvas, x, ry, f"{i + 1}.", 14, th.muted)
            name = fit(row.team, 14, False, col_w - 110)
            draw_text(canvas, x + 28, ry, name, 14, colour)
            draw_text(canvas, x + col_w - 70, ry, level_text(row.level), 14, colour, align="right")
            draw_text(canvas, x + col_w, ry, row.result, 13, th.muted, align="right")
    return encode(canvas, th)


def _match_box(
    canvas: Image.Image, th: Theme, x: int, y: int, w: int, match: MatchScene, lang: Lang
) -> None:
    live = match.winner is None and len(match.teams) > 1
    edge = th.accent if live else (th.danger if match.flagged else th.panel_edge)
    rounded(canvas, (x, y, x + w, y + BOX_H), 8, th.panel, edge, 2.0)
    if len(match.teams) == 1:
        draw_text(
            canvas,
            x + 10,
            y + BOX_H / 2 - 8,
            fit(match.teams[0], 15, True, w - 20),
            15,
            th.text,
            bold=True,
        )
        draw_text(canvas, x + 10, y + BOX_H / 2 + 12, label(lang, "bye"), 12, th.muted)
        return
    for i, team in enumerate(match.teams[:2]):
        ty = y + 16 + i * 26
        won = match.winner == i
        colour = th.gold if won else (th.text if live else th.muted)
        draw_text(canvas, x + 10, ty, fit(team, 15, won, w - 70), 15, colour, bold=won)
        level = level_text(match.levels[i]) if i < len(match.levels) else "2"
        draw_text(canvas, x + w - 10, ty, level, 15, colour, bold=won, align="right")
