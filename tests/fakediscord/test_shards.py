"""Sharding as Discord routes it: ``(guild_id >> 22) % num_shards``, DMs on shard 0."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import discord
import pytest

from fakediscord import FakeDiscord, ShardedHarnessBot, UserDriver, World, start_bot
from fakediscord.gateway import Session
from tests.fakediscord.democog import DemoCog


def shard_session(fake: FakeDiscord, shard: tuple[int, int]) -> Session:
    [session] = [s for s in fake.gateway.sessions.values() if s.shard == shard]
    return session


def events(session: Session, name: str) -> list[dict[str, Any]]:
    frames = [json.loads(text) for _, text in session.buffer]
    return [f["d"] for f in frames if f["t"] == name]


def bot(**kwargs: Any) -> ShardedHarnessBot:
    return ShardedHarnessBot(cogs=[DemoCog], **kwargs)


def test_guild_ids_land_on_the_chosen_shard(fake_discord: FakeDiscord) -> None:
    for shard in ((0, 2), (1, 2), (2, 3), (0, 4), (3, 4)):
        guild = fake_discord.create_guild("g", shard=shard)
        assert (guild.id >> 22) % shard[1] == shard[0]
    spread = [fake_discord.create_guild(f"g{i}").id for i in range(4)]
    assert {(gid >> 22) % 2 for gid in spread} == {0, 1}
    assert spread == sorted(spread)
    with pytest.raises(ValueError):
        fake_discord.create_guild("g", shard=(2, 2))


async def test_auto_sharded_bot_gets_each_guild_on_its_shard(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, bot_client
) -> None:
    other = fake_discord.create_guild("other", shard=(1 - (world.guild.id >> 22) % 2, 2))
    hall = fake_discord.create_text_channel(other, "hall")
    fake_discord.add_member(other, world.bob)
    rb = await bot_client(bot(shard_ids=[0, 1], shard_count=2))
    client = rb.client
    assert isinstance(client, discord.AutoShardedClient)
    assert sorted(client.shards) == [0, 1] and fake_discord.gateway.identifies == 2
    for guild in (world.guild, other):
        cached = client.get_guild(guild.id)
        assert cached is not None and cached.shard_id == (guild.id >> 22) % 2
        session = shard_session(fake_discord, (cached.shard_id, 2))
        assert [g["id"] for g in events(session, "GUILD_CREATE")] == [str(guild.id)]
    for user, channel in ((world.alice, world.general), (world.bob, hall)):
        reply = await driver.send_slash("demo start", user, channel, {"players": 4})
        assert (await reply.wait_message()).content
        session = shard_session(fake_discord, (((channel.guild_id or 0) >> 22) % 2, 2))
        assert [e["channel_id"] for e in events(session, "INTERACTION_CREATE")] == [str(channel.id)]
    await rb.stop()


async def test_two_processes_each_see_only_their_shard(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, bot_client
) -> None:
    mine = (world.guild.id >> 22) % 2
    other = fake_discord.create_guild("other", shard=(1 - mine, 2))
    hall = fake_discord.create_text_channel(other, "hall")
    fake_discord.add_member(other, world.bob)
    first = await bot_client(bot(shard_ids=[mine], shard_count=2))
    second = await bot_client(bot(shard_ids=[1 - mine], shard_count=2))
    assert first.client.get_guild(world.guild.id) and not first.client.get_guild(other.id)
    assert second.client.get_guild(other.id) and not second.client.get_guild(world.guild.id)

    await (await driver.send_slash("demo start", world.bob, hall, {"players": 4})).wait_message()
    assert not events(shard_session(fake_discord, (mine, 2)), "INTERACTION_CREATE")
    assert len(events(shard_session(fake_discord, (1 - mine, 2)), "INTERACTION_CREATE")) == 1

    # A DM interaction goes to shard 0, whichever process holds it.
    dm = fake_discord.dm_channel(world.alice)
    await (await driver.send_slash("demo start", world.alice, dm, {"players": 4})).wait_message()
    assert [
        e.get("guild_id") for e in events(shard_session(fake_discord, (0, 2)), "INTERACTION_CREATE")
    ][-1] is None

    # Live events follow the guild too.
    late = fake_discord.create_text_channel(other, "late")
    await fake_discord.wait_for(lambda: second.client.get_channel(late.id))
    assert first.client.get_channel(late.id) is None


async def test_gateway_bot_recommends_the_shard_count() -> None:
    async with FakeDiscord(shards=2) as fake:
        fake.create_guild("a", shard=(0, 2))
        fake.create_guild("b", shard=(1, 2))
        rb = await start_bot(fake, bot())  # no shard_count: discord.py asks /gateway/bot
        try:
            assert rb.client.shard_count == 2
            assert isinstance(rb.client, discord.AutoShardedClient)
            assert sorted(rb.client.shards) == [0, 1]
            assert len(rb.client.guilds) == 2
        finally:
            await rb.stop()


async def test_invalid_shard_is_closed_4010(fake_discord: FakeDiscord) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(fake_discord.gateway_url + "?v=10&encoding=json") as ws,
    ):
        hello = await ws.receive_json()
        assert hello["op"] == 10
        identify = {"token": fake_discord.token, "intents": 1, "shard": [2, 2], "properties": {}}
        await ws.send_json({"op": 2, "d": identify})
        await ws.receive()
        assert ws.close_code == 4010


async def test_each_shard_resumes_and_gets_its_missed_events(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, bot_client
) -> None:
    other = fake_discord.create_guild("other", shard=(1 - (world.guild.id >> 22) % 2, 2))
    hall = fake_discord.create_text_channel(other, "hall")
    fake_discord.add_member(other, world.bob)
    await bot_client(bot(shard_ids=[0, 1], shard_count=2))
    await fake_discord.gateway.disconnect()
    # Dispatched while both shards are away: each is replayed on its own shard's RESUME.
    handles = [
        driver.send_slash("demo start", world.alice, world.general, {"players": 4}),
        driver.send_slash("demo start", world.bob, hall, {"players": 4}),
    ]
    for handle in handles:
        assert (await handle.wait_message()).content
    await fake_discord.wait_for(lambda: fake_discord.gateway.resumes == 2)
    assert fake_discord.gateway.identifies == 2
