"""A tournament's lists in the channel's words: the podium and a match's two teams."""

from __future__ import annotations

import re

import pytest

from bot.i18n import t
from bot.tournament.bracket import Entrant, Outcome, TeamScore, Tournament
from bot.tournament.cup import Cup, Team
from cogs.cupview import podium_places, standings_scene

from .helpers import Env
from .test_tournament_flow import small_cup, threads

NAMES = ["Aces", "Tigers", "Owls", "Foxes"]


def _finished_cup(computer: bool = False) -> Cup:
    """Four teams, a podium of three; the first-listed team of each match wins."""
    entrants = [Entrant(n, computer=computer) for n in NAMES]
    bracket = Tournament(entrants, "seed", advance=2, podium_size=3)
    bracket.start()
    while bracket.podium is None:
        current = bracket.current
        assert current is not None
        for game in current.games:
            if game.outcome is None and not game.bye:
                won = Outcome((TeamScore("5"), TeamScore("2")), 0, hands=3)
                bracket.record(current.number, game.index, won)
        bracket.close_round()
    teams = [Team(n, [], [], confirmed=True, computer=True) for n in NAMES]
    return Cup(1, 1, 1, 1, "Cup", "seed", advance=2, phase="finished", teams=teams, bracket=bracket)


@pytest.mark.parametrize(
    ("locale", "podium"),
    [
        ("en-US", "Podium: 1. Foxes, 2. Tigers, and 3. Aces"),
        ("zh-CN", "领奖台：1. Foxes、2. Tigers和3. Aces"),
    ],
)
def test_the_podium_is_listed_as_the_language_lists(locale: str, podium: str) -> None:
    cup = _finished_cup()
    assert cup.bracket is not None and cup.bracket.podium == [3, 1, 0]
    assert podium in standings_scene(locale, cup, 0.0).summary


def test_computer_teams_are_marked_in_words_and_drawable_in_the_image() -> None:
    scene = standings_scene("en-US", _finished_cup(computer=True), 0.0)
    assert "Podium: 1. Foxes 🤖, 2. Tigers 🤖, and 3. Aces 🤖" in scene.summary  # Discord text
    drawn = {n for r in scene.rounds for m in r.matches for n in m.teams} | set(scene.podium)
    assert drawn == set(NAMES)  # no emoji in the image (its fonts would draw □)


async def test_a_match_is_announced_team_against_team_in_words(shengji: Env) -> None:
    env = shengji
    await small_cup(env)
    for thread in threads(env):
        line = await env.until(
            lambda t=thread: next(
                (m.content for m in env.fake.channel_messages(t) if "Round 1" in m.content), None
            )
        )
        line = line.splitlines()[0]
        # a computer team marked as the registration lists it: 🤖 before its name
        assert re.fullmatch(r"Round 1: (🤖 )?\*\*.+\*\* vs (🤖 )?\*\*.+\*\*\. Team .+", line), line
        assert thread.name.startswith("R1 · ") and " v " in thread.name


@pytest.mark.parametrize(
    ("locale", "over"),
    [
        ("en-US", "🏆 Cup is over! Podium: 1. Foxes, 2. Tigers, and 3. Aces"),
        ("zh-CN", "🏆 Cup结束了！领奖台：1. Foxes、2. Tigers和3. Aces"),
    ],
)
def test_the_end_of_a_tournament_lists_its_podium_as_the_language_lists(
    locale: str, over: str
) -> None:
    cup = _finished_cup()
    assert t(locale, "tournament-over", name=cup.name, places=podium_places(locale, cup)) == over
