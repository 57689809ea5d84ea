"""A tournament's standings, laid out for a phone: the rounds' matches and the latest ranking.

A pure function of a ``StandingsScene`` (plain strings and numbers, built by the
Discord layer from the tournament, every word from its catalogs), returning PNG
bytes. Discord shows an image at the width of the screen, about 400 px on a
phone, so the image is 800 px wide with every word ``canvas.legible`` (35 px):
12.5 px capitals at 400 px, like the table image.

Top to bottom: the title and the status line; the podium once there is one; then
the rounds, the newest first (the one being played is what players look for):
each round's matches two to a row, a box per match with both teams and their
levels (the winner in gold, a live match outlined in the accent colour, a flagged
one in red, a bye in grey with its word); last, the ranking of the newest finished
round (winners first, at most ``MAX_ROWS``), each team with its level and what
became of it. Earlier rounds' rankings are left out: their matches show who won,
and a phone reads one table, not one per round side by side.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from PIL import Image

from .canvas import encode, legible, level_text, new_canvas, rounded
from .fonts import draw_text, fit, text_width
from .theme import RGB, Theme, theme
from .turns import one_at_a_time

WIDTH = 800
MARGIN = 16
TEXT = legible(WIDTH)  # every word: 35 px
LINE = TEXT + 12  # one line of text
PAD = 14  # inside a match box
GAP = 14  # between match boxes, and before a round's heading
COL_W = (WIDTH - 2 * MARGIN - GAP) // 2  # two matches a row
BOX_H = 2 * LINE + 2 * PAD - 8
MAX_ROWS = 16  # ranking rows: the best 16 (the rest are out anyway)
WORDS = ("round_n", "ranking_n", "podium", "bye")  # the caller's; ``*_n`` keep ``{n}``

Box = tuple[int, int, int, int]


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
    result: str  # "won", "lost", "advances", "1st"... in the scene's language
    lost: bool = False  # drawn muted


@dataclass(frozen=True, slots=True)
class RoundScene:
    number: int
    matches: tuple[MatchScene, ...]
    ranking: tuple[RankRow, ...]  # empty while the round is being played


@dataclass(frozen=True, slots=True)
class StandingsScene:
    """``words`` holds the caller's words for ``WORDS`` (the headings of a round's
    matches and of its ranking, each with a ``{n}`` the image fills in, the podium's
    heading, a bye's note)."""

    title: str
    status: str  # a line under the title: the round and its clock, or "finished"
    rounds: tuple[RoundScene, ...]
    podium: tuple[str, ...] = ()
    summary: tuple[str, ...] = ()  # text lines for the message around the image
    words: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        missing = [key for key in WORDS if key not in self.words]
        if missing:
            raise ValueError(f"words lack {missing}")


@dataclass
class Page:
    """The canvas being drawn and the boxes of its lines of words (checked by the tests)."""

    canvas: Image.Image
    th: Theme
    lines: list[Box] = field(default_factory=list)

    def text(
        self,
        x: float,
        cy: float,
        text: str,
        colour: RGB,
        *,
        bold: bool = False,
        width: int = WIDTH - 2 * MARGIN,
        align: str = "left",
    ) -> None:
        """One line of words centred on ``cy``, cut to ``width`` px."""
        text = fit(text, TEXT, bold, width)
        w = draw_text(self.canvas, x, cy, text, TEXT, colour, bold=bold, align=align)
        x0 = x - w if align == "right" else x
        self.lines.append((round(x0), round(cy - LINE / 2), round(x0) + w, round(cy + LINE / 2)))


def _ranked(scene: StandingsScene) -> RoundScene | None:
    return next((r for r in reversed(scene.rounds) if r.ranking), None)


def height(scene: StandingsScene) -> int:
    h = MARGIN + 2 * LINE
    if scene.podium:
        h += GAP + LINE * (1 + len(scene.podium))
    for round_ in scene.rounds:
        rows = (len(round_.matches) + 1) // 2
        h += GAP + LINE + rows * (BOX_H + GAP)
    ranked = _ranked(scene)
    if ranked is not None:
        h += GAP + LINE * (1 + min(len(ranked.ranking), MAX_ROWS))
    return h + MARGIN


def draw(scene: StandingsScene, th: Theme) -> Page:
    page = Page(new_canvas(WIDTH, height(scene), th), th)
    y = MARGIN
    page.text(MARGIN, y + LINE / 2, scene.title, th.text, bold=True)
    y += LINE
    if scene.status:
        page.text(MARGIN, y + LINE / 2, scene.status, th.muted)
    y += LINE
    if scene.podium:
        y += GAP
        page.text(MARGIN, y + LINE / 2, scene.words["podium"], th.gold, bold=True)
        for i, name in enumerate(scene.podium, 1):
            y += LINE
            page.text(MARGIN, y + LINE / 2, f"{i}. {name}", th.gold, bold=i == 1)
        y += LINE
    for round_ in reversed(scene.rounds):
        y += GAP
        heading = scene.words["round_n"].format(n=round_.number)
        page.text(MARGIN, y + LINE / 2, heading, th.text, bold=True)
        y += LINE
        for m, match in enumerate(round_.matches):
            x = MARGIN + (m % 2) * (COL_W + GAP)
            _match_box(page, x, y + (m // 2) * (BOX_H + GAP), match, scene.words["bye"])
        y += (len(round_.matches) + 1) // 2 * (BOX_H + GAP)
    ranked = _ranked(scene)
    if ranked is not None:
        y += GAP
        heading = scene.words["ranking_n"].format(n=ranked.number)
        page.text(MARGIN, y + LINE / 2, heading, th.text, bold=True)
        for i, row in enumerate(ranked.ranking[:MAX_ROWS], 1):
            y += LINE
            _rank_row(page, y, i, row)
    return page


def _match_box(page: Page, x: int, y: int, match: MatchScene, bye: str) -> None:
    th = page.th
    live = match.winner is None and len(match.teams) > 1
    edge = th.accent if live else (th.danger if match.flagged else th.panel_edge)
    rounded(page.canvas, (x, y, x + COL_W, y + BOX_H), 12, th.panel, edge, 2.0)
    inner = COL_W - 2 * PAD
    first = y + PAD + LINE / 2 - 4
    if len(match.teams) == 1:
        page.text(x + PAD, first, match.teams[0], th.text, bold=True, width=inner)
        page.text(x + PAD, first + LINE, bye, th.muted, width=inner)
        return
    level_w = text_width("10", TEXT, True) + 8
    for i, team in enumerate(match.teams[:2]):
        cy = first + i * LINE
        won = match.winner == i
        colour = th.gold if won else (th.text if live else th.muted)
        page.text(x + PAD, cy, team, colour, bold=won, width=inner - level_w)
        level = level_text(match.levels[i]) if i < len(match.levels) else "2"
        page.text(x + COL_W - PAD, cy, level, colour, bold=won, width=level_w, align="right")


def _rank_row(page: Page, y: int, place: int, row: RankRow) -> None:
    th = page.th
    cy = y + LINE / 2
    colour = th.muted if row.lost else th.text
    number_w = text_width("16.", TEXT, False) + 12
    level_w = text_width("10", TEXT, False) + 16
    result_w = (WIDTH - 2 * MARGIN) // 3
    name_w = WIDTH - 2 * MARGIN - number_w - level_w - result_w - 16
    page.text(MARGIN, cy, f"{place}.", th.muted, width=number_w)
    page.text(MARGIN + number_w, cy, row.team, colour, width=name_w)
    level_x = MARGIN + number_w + name_w + level_w
    page.text(level_x, cy, level_text(row.level), colour, width=level_w, align="right")
    page.text(WIDTH - MARGIN, cy, row.result, th.muted, width=result_w, align="right")


@one_at_a_time
def render_standings(scene: StandingsScene, theme_name: str = "dark") -> bytes:
    th = theme(theme_name)
    return encode(draw(scene, th).canvas, th)
