"""Names a tournament shows, and who its start leaves out.

A name of spaces or invisible marks alone showed as ``****`` (an empty name in bold);
the start dropped unconfirmed teams with only a count of those left in.
"""

from __future__ import annotations

from .helpers import Env
from .test_tournament_flow import cmd, organiser


async def test_blank_names_and_the_teams_a_start_leaves_out(shengji: Env) -> None:
    env = shengji
    alice, bob, carol, dave = env.users
    organiser(env, alice)
    assert "Give the tournament a name" in await cmd(env, alice, "create", name="\u200b ")
    assert "registration is open" in await cmd(env, alice, "create", name="Cup", round_minutes=5)
    cup = env.bot.tournaments.cup_in(env.world.tables.id)
    assert "registered" in await cmd(env, carol, "register", partner=dave, team="   ")
    assert "registered" in await cmd(env, alice, "register", partner=bob, team="\u200b\u2060")
    assert [team.name for team in cup.teams] == ["Carol & Dave", "Alice & Bob"]
    assert "confirmed" in await cmd(env, dave, "confirm")
    await cmd(env, alice, "addbots", count=1)
    started = await cmd(env, alice, "start")
    assert "Started: 2 teams" in started
    assert "Left out, not confirmed: Alice & Bob." in started
