"""Issue 17 in tournaments: computer teams at the level the organiser picks.

``/shengji tournament addbots level:`` (easy, normal, expert; normal by default)
keeps the level with each team, through a restart, and the team's seats play at it
when its match opens.
"""

from __future__ import annotations

import pytest

from bot.service import UserError

from .helpers import Env, restart
from .test_tournament_flow import cmd, message_with, organiser, threads

# (the addbots options, what the reply says, the level of the team it adds)
ADDED = [
    ({"level": "expert"}, "(expert,", "expert"),
    ({"level": "easy"}, "(easy,", "easy"),
    ({}, "(normal,", "normal"),
    ({"level": "expert"}, "(expert,", "expert"),
]


async def test_computer_teams_keep_their_level_through_a_restart_into_their_tables(
    shengji: Env,
) -> None:
    env = shengji
    alice = env.users[0]
    organiser(env, alice)
    await cmd(env, alice, "create", name="Level Cup", advance=2, podium=1)
    for options, said, _ in ADDED:
        assert said in await cmd(env, alice, "addbots", **options)
    levels = {f"CPU {i}": level for i, (_, _, level) in enumerate(ADDED, 1)}
    reg = await env.until(lambda: message_with(env, env.world.tables, ":reg"))
    await env.until(lambda: "CPU 4" in str(env.fake.messages[reg.id].embeds))
    shown = str(env.fake.messages[reg.id].embeds)
    for team, level in levels.items():
        assert f"{team}** (computer, {level})" in shown
    running = await restart(env)
    try:
        cup = env.bot.tournaments.cup_in(env.world.tables.id)
        assert {t.name: t.level for t in cup.teams} == levels
        assert "Started: 4 teams" in await cmd(env, alice, "start")
        await env.until(lambda: len(threads(env)) == 2 and len(cup.slots) == 2, timeout=60)
        seated = {
            seat.name: seat.ai
            for slot in cup.slots.values()
            for seat in env.bot.service.tables[slot.place_id].seats
            if seat is not None
        }
        assert seated == {f"{team}·{i}": level for team, level in levels.items() for i in (1, 2)}
    finally:
        await running.stop()


async def test_a_level_that_is_none_is_refused(shengji: Env) -> None:
    env = shengji
    alice = env.users[0]
    organiser(env, alice)
    await cmd(env, alice, "create", name="Level Cup")
    cup = env.bot.tournaments.cup_in(env.world.tables.id)
    for level in ("random", "grandmaster"):
        with pytest.raises(UserError, match="three levels"):
            await env.bot.tournaments.add_computer_teams(cup, alice.id, True, 1, level)
    assert cup.teams == []
