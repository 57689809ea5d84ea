"""Threads as Discord runs them, driven by the real discord.py client."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable

import discord
import pytest

from fakediscord import DriverError, FakeDiscord, Perm, UserDriver, World
from fakediscord.harness import RunningBot
from tests.fakediscord.democog import DemoCog


@pytest.fixture
async def rb(fake_discord: FakeDiscord, world: World, bot_client) -> RunningBot:
    return await bot_client(cogs=[lambda bot: DemoCog(bot, sleep=fake_discord.clock.sleep)])


def guild_of(rb: RunningBot, world: World) -> discord.Guild:
    guild = rb.client.get_guild(world.guild.id)
    assert guild is not None
    return guild


async def open_thread(rb: RunningBot, world: World, name: str = "table-1") -> discord.Thread:
    lobby = await rb.channel(world.tables).send("lobby")
    return await lobby.create_thread(name=name)


async def http_error(coro: Awaitable[object]) -> tuple[int, int]:
    with pytest.raises(discord.HTTPException) as info:
        await coro
    return info.value.status, info.value.code


async def test_thread_from_message_takes_its_id_once(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    lobby = await rb.channel(world.tables).send("lobby")
    assert await http_error(lobby.create_thread(name="x" * 101)) == (400, 50035)
    assert fake_discord.errors[-1].response["errors"]["name"]["_errors"][0]["code"] == (
        "BASE_TYPE_BAD_LENGTH"
    )
    assert await http_error(lobby.create_thread(name="t", auto_archive_duration=30)) == (
        400,
        50035,
    )
    thread = await lobby.create_thread(name="双升 #1 · alice", auto_archive_duration=60)
    assert thread.id == lobby.id and thread.parent_id == world.tables.id
    fake_thread = fake_discord.channels[thread.id]
    assert fake_thread.is_thread and fake_thread.auto_archive_duration == 60
    assert await http_error(lobby.create_thread(name="again")) == (400, 160004)
    assert fake_discord.errors[-1].response["message"] == (
        "A thread has already been created for this message"
    )
    fetched = await rb.channel(world.tables).fetch_message(lobby.id)
    assert fetched.thread is not None and fetched.thread.id == thread.id
    await thread.send("hand 1")
    assert [m.content for m in fake_discord.channel_messages(fake_thread)] == ["hand 1"]
    assert [m.content for m in fake_discord.channel_messages(world.tables)] == ["lobby"]
    assert fake_discord.threads(world.tables) == [fake_thread]


async def test_thread_permissions_and_their_revocation(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    fake_discord.revoke_permissions(world.tables, Perm.CREATE_PUBLIC_THREADS)
    lobby = await rb.channel(world.tables).send("lobby")
    assert await http_error(lobby.create_thread(name="t")) == (403, 50013)
    assert fake_discord.threads() == []
    fake_discord.restore_permissions(world.tables)
    thread = await lobby.create_thread(name="t")
    posted = await thread.send("first")

    # Revoking on the thread lands on its parent (threads have no overwrites of their own).
    fake_discord.revoke_permissions(fake_discord.channels[thread.id], Perm.SEND_MESSAGES_IN_THREADS)
    assert world.tables.overwrites and not fake_discord.channels[thread.id].overwrites
    assert await http_error(thread.send("refused")) == (403, 50013)
    assert await http_error(posted.edit(content="refused")) == (403, 50013)
    await rb.channel(world.tables).send("the channel itself still takes messages")
    fake_discord.restore_permissions(world.tables)
    await posted.edit(content="edited")
    assert fake_discord.messages[posted.id].content == "edited"

    fake_discord.revoke_permissions(world.tables, Perm.VIEW_CHANNEL)
    assert await http_error(thread.send("unseen")) == (403, 50001)


async def test_archived_thread_refuses_edits_and_is_unarchived_by_a_post(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    thread = await open_thread(rb, world)
    table = await thread.send("table")
    fake_thread = fake_discord.channels[thread.id]
    updated = asyncio.ensure_future(rb.client.wait_for("raw_thread_update"))
    fake_discord.archive_thread(fake_thread)
    event = await asyncio.wait_for(updated, 5)
    assert event.data["thread_metadata"]["archived"] is True
    assert guild_of(rb, world).get_thread(thread.id) is None
    assert await http_error(table.edit(content="x")) == (400, 50083)
    assert fake_discord.errors[-1].response["message"] == "Thread is archived"
    assert await http_error(table.add_reaction("🂡")) == (400, 50083)
    await table.delete()  # the one thing an archived thread allows
    # A new message unarchives an unlocked thread, as on Discord.
    await thread.send("back")
    assert not fake_thread.archived
    await fake_discord.wait_for(lambda: guild_of(rb, world).get_thread(thread.id))


async def test_locked_threads_need_manage_threads(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    thread = await open_thread(rb, world)
    table = await thread.send("table")
    fake_thread = fake_discord.channels[thread.id]
    fake_discord.lock_thread(fake_thread)
    await thread.send("a bot with Manage Threads still posts")
    fake_discord.revoke_permissions(world.tables, Perm.MANAGE_THREADS)
    assert await http_error(thread.send("x")) == (400, 160005)
    assert await http_error(table.edit(content="x")) == (400, 160005)
    fake_discord.archive_thread(fake_thread, lock=True)
    assert await http_error(thread.send("x")) == (400, 50083)
    assert fake_thread.archived and fake_thread.locked
    fake_discord.unarchive_thread(fake_thread)
    await thread.send("reopened")
    assert [m.content for m in fake_discord.channel_messages(fake_thread)][-1] == "reopened"


async def test_bot_archives_and_locks_its_thread(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    thread = await open_thread(rb, world)
    fake_thread = fake_discord.channels[thread.id]
    thread = await thread.edit(name="双升 #1 · over", archived=True)
    assert fake_thread.archived and fake_thread.name == "双升 #1 · over"
    assert await http_error(thread.edit(name="again")) == (400, 50083)
    thread = await thread.edit(archived=False)
    fake_discord.revoke_permissions(world.tables, Perm.MANAGE_THREADS)
    assert await http_error(thread.edit(locked=True)) == (403, 50013)
    await thread.edit(archived=True)  # its creator may archive without Manage Threads
    assert fake_thread.archived and not fake_thread.locked


async def test_moderator_deletes_a_thread(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    thread = await open_thread(rb, world)
    deleted = asyncio.ensure_future(rb.client.wait_for("thread_delete"))
    fake_discord.delete_channel(fake_discord.channels[thread.id])
    assert (await asyncio.wait_for(deleted, 5)).id == thread.id
    assert rb.client.get_channel(thread.id) is None
    assert await http_error(thread.send("gone")) == (404, 10003)


async def test_deleting_a_channel_deletes_its_threads(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    thread = await open_thread(rb, world)
    fake_discord.delete_channel(world.tables)
    await fake_discord.wait_for(lambda: rb.client.get_channel(world.tables.id) is None)
    assert fake_discord.threads() == []
    assert await http_error(thread.send("gone")) == (404, 10003)


async def test_interactions_in_archived_and_locked_threads(
    fake_discord: FakeDiscord, world: World, rb: RunningBot, driver: UserDriver
) -> None:
    thread = await open_thread(rb, world)
    fake_thread = fake_discord.channels[thread.id]
    handle = driver.send_slash("demo slow", world.alice, fake_thread, {"seconds": 1.0})
    await fake_discord.wait_for(lambda: fake_discord.clock.pending_sleepers())
    fake_discord.revoke_permissions(world.tables, Perm.MANAGE_THREADS)
    fake_discord.archive_thread(fake_thread, lock=True)
    await fake_discord.clock.advance(1.0)
    assert await handle.wait_error() == (400, {"message": "Thread is archived", "code": 50083})
    with pytest.raises(DriverError, match="locked"):
        driver.send_slash("demo slow", world.alice, fake_thread, {"seconds": 1.0})
    fake_discord.unarchive_thread(fake_thread)
    fake_discord.archive_thread(fake_thread)
    with pytest.raises(DriverError, match="archived"):
        driver.send_slash("demo slow", world.alice, fake_thread)
    driver.say(world.alice, fake_thread, "anyone?")  # a user's message unarchives it
    assert not fake_thread.archived


async def test_private_threads_are_for_members_and_moderators(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    channel = rb.channel(world.tables)
    thread = await channel.create_thread(name="hands", type=discord.ChannelType.private_thread)
    fake_thread = fake_discord.channels[thread.id]
    assert fake_discord.permissions(world.bob, fake_thread) == 0
    await thread.add_user(discord.Object(world.bob.id))
    assert fake_discord.permissions(world.bob, fake_thread) & Perm.SEND_MESSAGES_IN_THREADS
    fake_discord.archive_thread(fake_thread)
    assert await http_error(thread.add_user(discord.Object(world.carol.id))) == (400, 50083)
    assert fake_discord.permissions(world.carol, fake_thread) == 0


async def test_renaming_a_text_channel_needs_manage_channels(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    assert await http_error(rb.channel(world.tables).edit(name="tables-2")) == (403, 50013)
    bots = [r for r in world.guild.roles.values() if r.managed]
    bots[0].permissions |= Perm.MANAGE_CHANNELS
    await rb.channel(world.tables).edit(name="tables-2")
    assert world.tables.name == "tables-2"
    await fake_discord.wait_for(lambda: rb.channel(world.tables).name == "tables-2")


async def test_idle_threads_archive_themselves(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    lobby = await rb.channel(world.tables).send("lobby")
    thread = await lobby.create_thread(name="t", auto_archive_duration=60)
    fake_thread = fake_discord.channels[thread.id]
    await fake_discord.clock.advance(59 * 60)
    await thread.send("still here")  # activity restarts the hour
    await fake_discord.clock.advance(59 * 60)
    await rb.channel(world.general).send("any request")
    assert not fake_thread.archived
    updated = asyncio.ensure_future(rb.client.wait_for("raw_thread_update"))
    await fake_discord.clock.advance(60)
    await rb.channel(world.general).send("an hour idle")
    assert fake_thread.archived and not fake_thread.locked
    assert (await asyncio.wait_for(updated, 5)).data["thread_metadata"]["archived"] is True
    await thread.send("back")  # a post unarchives it, as after a moderator's archive
    assert not fake_thread.archived


def test_permission_bits_match_discord_py() -> None:
    names = [n for n, v in vars(Perm).items() if n.isupper() and isinstance(v, int)]
    singles = [n for n in names if bin(getattr(Perm, n)).count("1") == 1]
    assert "SEND_MESSAGES_IN_THREADS" in singles and "MANAGE_THREADS" in singles
    for name in singles:
        assert getattr(discord.Permissions, name.lower()).flag == getattr(Perm, name), name
