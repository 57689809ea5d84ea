"""The standings image: a real PNG whose size follows the bracket, winners in gold."""

from __future__ import annotations

import io

from PIL import Image

from renderers.theme import theme
from renderers.tournament import (
    WIDTH,
    MatchScene,
    RankRow,
    RoundScene,
    StandingsScene,
    render_standings,
)


def scene(matches: int, podium: tuple[str, ...] = ()) -> StandingsScene:
    first = tuple(
        MatchScene((f"Team {2 * i}", f"Team {2 * i + 1}"), ("9", "4"), 0, 6) for i in range(matches)
    )
    ranking = tuple(RankRow(f"Team {2 * i}", "9", "advances") for i in range(matches))
    second = (MatchScene(("Team 0", "Team 2"), ("5", "5"), None, 3),)
    return StandingsScene(
        "Spring Cup",
        "Round 2 of 2 · 12 min left",
        (RoundScene(1, first, ranking), RoundScene(2, second, ())),
        podium,
    )


def decode(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_height_follows_the_bracket_and_the_podium_adds_a_line() -> None:
    small, large = decode(render_standings(scene(2))), decode(render_standings(scene(8)))
    assert small.width == large.width == WIDTH
    assert large.height > small.height
    with_podium = decode(render_standings(scene(2, ("Team 0", "Team 2", "Team 4"))))
    assert with_podium.height > small.height


def test_winners_in_gold_and_live_matches_outlined() -> None:
    th = theme("dark")
    image = decode(render_standings(scene(2)))
    colours = {colour for _, colour in image.getcolors(1 << 16) or []}
    assert th.gold in colours  # the winners' names
    assert th.accent in colours  # the live match's outline
    light = decode(render_standings(scene(2), "light"))
    assert light.getpixel((2, 2)) == theme("light").page


def test_a_bye_and_an_empty_bracket_render() -> None:
    bye = StandingsScene(
        "Cup", "Round 1", (RoundScene(1, (MatchScene(("Solo",), ("2",), 0, 0),), ()),)
    )
    assert decode(render_standings(bye)).width == WIDTH
    assert decode(render_standings(StandingsScene("Cup", "registration", ()))).height >= 160
