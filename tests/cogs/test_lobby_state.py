"""The lobby message in the channel follows the match: each hand, both levels, the result.

A short match (both teams at K) is played to its end by the computer (Alice on
auto, three bots); during each hand and at the end the lobby is read against the
match's own levels, hand number and winner, and it is edited once a hand at most.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.game import Match, Phase
from cogs.text import level_name, team_name

from .helpers import Env, start_matches_at

START = ("K", "K")


@pytest.fixture
def short_match(monkeypatch: pytest.MonkeyPatch) -> None:
    start_matches_at(monkeypatch, START)


def _lobby(env: Env) -> dict[str, Any]:
    (message,) = env.fake.channel_messages(env.world.tables)
    embeds = env.fake.messages[message.id].embeds
    return embeds[0] if embeds else {}


def edits(env: Env) -> int:
    (message,) = env.fake.channel_messages(env.world.tables)
    return env.fake.messages[message.id].edits


def _shows(env: Env, title: str, match: Match) -> bool:
    """The lobby's title is ``title`` and each team's line its level now."""
    embed = _lobby(env)
    teams = embed.get("description", "").splitlines()[:2]
    levels = [f"level {level_name(level)}" for level in match.levels]
    return (
        embed.get("title") == title
        and len(teams) == 2
        and all(
            line.startswith(f"**{team_name(k)}**") and line.endswith(levels[k])
            for k, line in enumerate(teams)
        )
    )


@pytest.mark.deal_seed(2)
async def test_the_lobby_shows_each_hand_and_the_result(shengji: Env, short_match: None) -> None:
    env = shengji
    alice = env.users[0]
    await env.reply(alice, "new")
    for _ in range(3):
        await env.reply(alice, "addbot")
    await env.reply(alice, "auto")
    await env.reply(alice, "start")
    match = await env.until(lambda: env.table().match)
    table = env.table()
    tid = table.id
    played: list[int] = []  # the hands the lobby was seen to name while they were played
    shown = 0  # the lobby's edits once it named the first hand
    for _ in range(500):
        if match.phase == Phase.OVER or table.closed:
            break
        kind, _ = match.expecting()
        seq = match.seq
        playing = f"双升 table #{tid} — the match is on · hand {match.hand_no + 1}"
        if kind == "play" and match.hand_no not in played:
            await env.until(lambda t=playing: _shows(env, t, match))
            played.append(match.hand_no)
            if len(played) == 1:
                shown = edits(env)
        if kind in ("next_hand", "end_bidding"):  # the new levels show at the next hand
            await env.tick(10)
        await env.until(
            lambda s=seq: match.seq > s or match.phase == Phase.OVER or table.closed, timeout=30
        )
    assert match.phase == Phase.OVER and played == [0, 1], (match.phase, played)
    assert match.levels != START
    winner = match.view(None).match_winner
    assert winner is not None
    won = f"双升 table #{tid} — {team_name(winner)} win the match"
    await env.until(lambda: _shows(env, won, match))
    assert f"<#{env.place().id}>" in _lobby(env)["description"]  # where it was played
    # the table closes: the lobby keeps the result, and the thread gets no second "the
    # match is over" after the summary that said who won
    await env.until(lambda: env.world.tables.id not in env.bot.service.tables)
    await env.fake.idle(quiet=0.2)
    assert _shows(env, won, match)
    assert not [m for m in env.place_messages() if "The match is over" in m.content]
    # from the first hand on, one edit a hand (the next hand's start, the match's end):
    # the channel's budget
    assert edits(env) - shown <= len(played)
