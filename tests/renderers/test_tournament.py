"""The standings image: laid out for a phone, its words the caller's, winners in gold."""

from __future__ import annotations

import pytest

from renderers.canvas import encode
from renderers.theme import theme
from renderers.tournament import (
    MAX_ROWS,
    WIDTH,
    MatchScene,
    RankRow,
    RoundScene,
    StandingsScene,
    draw,
    height,
    render_standings,
)

from .util import at_phone_width, count, decode, ink_height

WORDS = {
    "round_n": "Round {n}",
    "ranking_n": "Round {n}: ranking",
    "podium": "Podium",
    "bye": "Bye: a win at 2",
}
WORDS_ZH = {
    "round_n": "第{n}轮",
    "ranking_n": "第{n}轮排名",
    "podium": "领奖台",
    "bye": "轮空：记作打2获胜",
}


def scene(
    matches: int, podium: tuple[str, ...] = (), words: dict[str, str] = WORDS
) -> StandingsScene:
    first = tuple(
        MatchScene((f"Team {2 * i}", f"Team {2 * i + 1}"), ("9", "4"), 0, 6) for i in range(matches)
    )
    ranking = tuple(RankRow(f"Team {2 * i}", "9", "advances") for i in range(matches))
    ranking += tuple(RankRow(f"Team {2 * i + 1}", "T", "lost", lost=True) for i in range(matches))
    second = (
        MatchScene(("Team 0", "Team 2"), ("5", "T"), None, 3),
        MatchScene(("Team 4",), ("2",), 0, 0),  # a bye
    )
    return StandingsScene(
        "Spring Cup",
        "Round 2 of 2 · 12 min left",
        (RoundScene(1, first, ranking), RoundScene(2, second, ())),
        podium,
        words=words,
    )


@pytest.mark.parametrize("theme_name", ["dark", "light"])
@pytest.mark.parametrize("words", [WORDS, WORDS_ZH])
def test_every_line_is_at_least_12_px_high_on_a_400_px_phone(theme_name, words) -> None:
    """Measured as a phone shows it: the image scaled to 400 px wide, each line of words
    (title, status, podium, round headings, both teams of every match, the bye's note,
    every ranking row) at least 12 px high."""
    th = theme(theme_name)
    page = draw(scene(3, ("Team 0", "Team 2", "Team 4"), words), th)
    phone, scale = at_phone_width(encode(page.canvas, th))
    assert page.canvas.width == WIDTH == 800
    assert len(page.lines) >= 2 + 4 + 2 + 3 * 4 + 3 + 1 + 6
    for x0, y0, x1, y1 in page.lines:
        box = (int(x0 * scale), int(y0 * scale), int(x1 * scale) + 1, int(y1 * scale) + 1)
        assert ink_height(phone, box) >= 12, (x0, y0, x1, y1)


def test_the_words_are_the_callers() -> None:
    """Nothing is drawn in a language the caller did not give: Chinese words change pixels."""
    en = decode(render_standings(scene(2)))
    zh = decode(render_standings(scene(2, words=WORDS_ZH)))
    assert en.size == zh.size and en.tobytes() != zh.tobytes()
    with pytest.raises(ValueError, match="bye"):
        StandingsScene("Cup", "", (), words={"round_n": "R{n}", "ranking_n": "", "podium": "P"})


def test_height_follows_the_bracket_and_the_podium_adds_lines() -> None:
    small, large = decode(render_standings(scene(2))), decode(render_standings(scene(8)))
    assert small.width == large.width == WIDTH
    assert large.height > small.height == height(scene(2))
    with_podium = decode(render_standings(scene(2, ("Team 0", "Team 2", "Team 4"))))
    assert with_podium.height > small.height
    # the ranking is cut at MAX_ROWS rows (20 teams ranked here)
    many = draw(scene(10), theme("dark"))
    rows = [b for b in many.lines if b[0] == 16 and b[2] - b[0] < 80]  # the "n." column
    assert len(rows) == MAX_ROWS


def test_winners_in_gold_and_live_matches_outlined() -> None:
    th = theme("dark")
    image = decode(render_standings(scene(2)))
    whole = (0, 0, image.width, image.height)
    assert count(image, whole, th.gold, 0) > 200  # the winners' names and levels
    assert count(image, whole, th.accent, 0) > 200  # the live match's outline
    light = decode(render_standings(scene(2), "light"))
    assert light.getpixel((2, 2)) == theme("light").page


def test_a_bye_and_an_empty_bracket_render() -> None:
    bye = StandingsScene(
        "Cup", "Round 1", (RoundScene(1, (MatchScene(("Solo",), ("2",), 0, 0),), ()),), words=WORDS
    )
    assert decode(render_standings(bye)).width == WIDTH
    empty = StandingsScene("Cup", "registration open", (), words=WORDS)
    assert decode(render_standings(empty)).size == (WIDTH, height(empty))
