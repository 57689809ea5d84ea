"""Deleting messages in DMs as Discord allows it: the bot's own only."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import discord
import pytest

from fakediscord import FakeDiscord, UserDriver, World


def delete_events(fake: FakeDiscord) -> list[dict[str, str]]:
    """MESSAGE_DELETE payloads actually sent to the bot's sessions."""
    out = []
    for session in fake.gateway.sessions.values():
        for _, text in session.buffer:
            frame = json.loads(text)
            if frame["t"] == "MESSAGE_DELETE":
                out.append(frame["d"])
    return out


async def test_bot_deletes_its_own_dm_not_the_users(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, bot_client
) -> None:
    rb = await bot_client(intents=discord.Intents.default())
    dm = await (await rb.client.fetch_user(world.bob.id)).create_dm()
    panel = await dm.send("your turn")
    kept = await dm.send("hand panel")
    theirs = driver.say(world.bob, fake_discord.dm_channel(world.bob), "ok")

    deleted = asyncio.ensure_future(rb.client.wait_for("raw_message_delete"))
    await panel.delete()
    event = await asyncio.wait_for(deleted, 5)
    assert event.message_id == panel.id and event.guild_id is None
    assert [m.content for m in fake_discord.dms(world.bob)] == ["hand panel", "ok"]
    everything = fake_discord.dms(world.bob, include_deleted=True)
    assert [(m.content, m.deleted) for m in everything] == [
        ("your turn", True),
        ("hand panel", False),
        ("ok", False),
    ]

    with pytest.raises(discord.Forbidden) as info:
        await dm.get_partial_message(theirs.id).delete()
    assert (info.value.status, info.value.code) == (403, 50003)
    assert info.value.text == "Cannot execute action on a DM channel"
    with pytest.raises(discord.HTTPException) as info2:
        await dm.get_partial_message(panel.id).delete()  # already gone
    assert info2.value.code == 10008
    assert not fake_discord.messages[theirs.id].deleted and not kept.flags.ephemeral


async def test_message_delete_needs_the_direct_messages_intent(
    fake_discord: FakeDiscord, world: World, bot_client
) -> None:
    intents = discord.Intents.default()
    intents.dm_messages = False
    rb = await bot_client(intents=intents)
    dm = await (await rb.client.fetch_user(world.bob.id)).create_dm()
    message = await dm.send("your turn")
    await message.delete()
    assert fake_discord.dms(world.bob) == []
    assert delete_events(fake_discord) == []
    guild_message = await rb.channel(world.general).send("in the guild")
    await guild_message.delete()
    assert [e["id"] for e in delete_events(fake_discord)] == [str(guild_message.id)]


async def test_live_and_peak_bot_messages_per_channel(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, bot_client
) -> None:
    rb = await bot_client()
    dm = await (await rb.client.fetch_user(world.bob.id)).create_dm()
    fake_dm = fake_discord.dm_channel(world.bob)
    panel = await dm.send("panel")
    for turn in range(3):  # a turn notice posted, then deleted once the player acted
        notice = await dm.send(f"your turn {turn}")
        driver.say(world.bob, fake_dm, "played")  # the user's messages do not count
        await notice.delete()
    await panel.edit(content="panel, edited in place")
    assert fake_discord.live_bot_messages(fake_dm) == 1
    assert fake_discord.peak_bot_messages(fake_dm) == 2
    extra = [await dm.send("second"), await dm.send("third at once")]
    assert fake_discord.peak_bot_messages(fake_dm) == 3
    for message in extra:
        await message.delete()
    assert fake_discord.live_bot_messages(fake_dm) == 1
    assert fake_discord.peak_bot_messages(world.general) == 0


async def test_no_bulk_delete_in_a_dm(fake_discord: FakeDiscord, world: World) -> None:
    dm = fake_discord.dm_channel(world.bob)
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{fake_discord.api_base}/channels/{dm.id}/messages/bulk-delete",
            json={"messages": ["1", "2"]},
            headers={"Authorization": f"Bot {fake_discord.token}"},
        ) as response,
    ):
        assert response.status == 403
        assert (await response.json())["code"] == 50003
