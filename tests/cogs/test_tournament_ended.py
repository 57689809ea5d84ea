"""Issue 13: the standings "any time" (after a restart too) and the draw's seed in public.

A restart brings back only live tournaments; the standings of one that finished or
was cancelled before it are read back from the records. The seed the draw came from
is shown to the whole channel (the first round's announcement and the standings),
with the terminal command that draws the same pairings.
"""

from __future__ import annotations

import pytest

from bot.tournament import Entrant, Tournament
from bot.tournament.cup import Cup
from fakediscord.state import Message

from .helpers import Env, restart
from .test_tournament_flow import cmd, organiser, play_until, small_cup


def channel(env: Env) -> list[Message]:
    """The tournament channel's messages, oldest first."""
    return env.fake.channel_messages(env.world.tables)


async def computer_cup(env: Env, teams: int = 2) -> Cup:
    """Easy computer teams (two: one match), started; the best two winners go on."""
    alice = env.users[0]
    organiser(env, alice)
    await cmd(env, alice, "create", name="Night Cup", round_minutes=1, advance=2, podium=1)
    await cmd(env, alice, "addbots", count=teams, level="easy")
    assert f"Started: {teams} teams" in await cmd(env, alice, "start")
    return env.bot.tournaments.cup_in(env.world.tables.id)


@pytest.mark.parametrize(
    ("ending", "shown"),
    [("finished", "Podium: 1. CPU"), ("cancelled", "cancelled")],
)
async def test_standings_of_an_ended_tournament_after_a_restart(
    shengji: Env, ending: str, shown: str
) -> None:
    env = shengji
    cup = await computer_cup(env)
    if ending == "finished":
        await play_until(env, lambda: cup.phase == "finished")
        await env.until(lambda: any("is over" in m.content for m in channel(env)), timeout=30)
        await env.fake.idle(quiet=0.3)  # the match's summary has gone out before the stop
    else:
        assert "is cancelled" in await cmd(env, env.users[0], "cancel")
    stored = await env.store.tournament(cup.id)
    assert stored is not None and stored.status == ending
    running = await restart(env)
    try:
        assert env.bot.tournaments.cups == {}  # nothing live to bring back
        handle = env.driver.send_slash(
            "shengji tournament standings", env.users[1], env.world.tables
        )
        await handle
        message = await handle.wait_message()
        assert message.ephemeral and message.attachments[0].image_size[0] == 800
        description = message.embeds[0]["description"]
        assert shown in description and f"`{cup.seed}`" in description
        # a channel that never had one still says so
        elsewhere = env.driver.send_slash(
            "shengji tournament standings", env.users[1], env.world.general
        )
        await elsewhere
        assert "no tournament in this channel" in (await elsewhere.wait_message()).content
    finally:
        await running.stop()


async def test_the_draw_seed_is_shown_to_the_channel(shengji: Env) -> None:
    env = shengji
    cup = await small_cup(env, round_minutes=30)
    assert cup.bracket is not None
    command = f"python -m bot tournament --teams 4 --seed {cup.seed}"
    announced = await env.until(
        lambda: next((m for m in channel(env) if m.content.startswith("Round 1 has")), None)
    )
    assert f"`{cup.seed}`" in announced.content and command in announced.content
    standings = await env.until(lambda: [m for m in channel(env) if m.attachments])
    assert command in standings[-1].embeds[0]["description"]
    # the command's teams (Team 01, 02... in registration order) meet as the draw paired them
    named = [Entrant(f"Team {i + 1:02d}", computer=True) for i in range(4)]
    again = Tournament(named, cup.seed).start()
    assert [g.teams for g in again.games] == [g.teams for g in cup.bracket.rounds[0].games]
