"""Tournaments through the fake Discord."""

from __future__ import annotations

from bot.tournament import Entrant, Outcome, TeamScore, Tournament
from bot.tournament.records import tournament_rows

from .helpers import Env


async def test_stats_show_tournament_results(shengji: Env) -> None:
    env = shengji
    alice, bob, carol = env.users[0], env.users[1], env.users[2]
    guild = env.world.guild.id
    t = Tournament(
        [
            Entrant("Aces", (str(alice.id), str(bob.id))),
            Entrant("Kings", (str(carol.id), "x")),
            Entrant("Bots", (), computer=True),
        ],
        "s",
        podium_size=1,
    )
    round_ = t.start()
    while round_ is not None:  # Aces (entrant 0) win every match they play
        for game in round_.games:
            if game.outcome is None:
                scores = [TeamScore("9" if team == 0 else "4") for team in game.teams]
                t.record(round_.number, game.index, Outcome(tuple(scores), hands=5))
        round_ = t.close_round()
    tid = await env.store.create_tournament(guild, env.world.tables.id, alice.id, "Cup", "s", {}, 1)
    await env.store.save_tournament(tid, "finished", t.to_dict(), tournament_rows(t), 2.0)

    handle = await env.slash(bob, "stats")
    embed = (await handle.wait_message()).embeds[0]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields == {"Tournaments": "**Cup** · Aces: 🥇 1st"}  # no hands yet, only the cup
    handle = env.driver.send_slash("shengji stats", bob, env.world.tables, {"user": carol})
    await handle
    fields = {f["name"]: f["value"] for f in (await handle.wait_message()).embeds[0]["fields"]}
    assert fields["Tournaments"].startswith("**Cup** · Kings: out in round")
    assert "no recorded hands" in await env.reply(env.users[3], "stats")
