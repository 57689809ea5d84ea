"""End to end through the real discord.py client: the demo cog's flows on the fake."""

from __future__ import annotations

import asyncio

import discord
import pytest
from discord.ext import commands

from fakediscord import DriverError, FakeDiscord, UserDriver, World
from fakediscord.harness import RunningBot
from tests.fakediscord.democog import DemoCog


@pytest.fixture
async def demo(fake_discord: FakeDiscord, world: World, bot_client) -> RunningBot:
    return await bot_client(cogs=[DemoCog])


def cog_of(rb: RunningBot) -> DemoCog:
    assert isinstance(rb.client, commands.Bot)
    cog = rb.client.get_cog("DemoCog")
    assert isinstance(cog, DemoCog)
    return cog


async def test_slash_png_button_select_dm(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, demo: RunningBot
) -> None:
    alice = world.alice
    handle = await driver.send_slash(
        "demo start", alice, world.tables, {"players": 4, "mode": "tractor"}
    )
    assert handle.response_type == 4
    reply = await handle.wait_message()
    assert reply.content == "Table for 4 (tractor)"
    assert fake_discord.channel_messages(world.tables) == [reply]
    [png] = reply.attachments
    assert png.filename == "table.png" and png.image_size == (64, 48)
    assert fake_discord.files(world.tables) == [png]
    assert reply.custom_ids() == ["demo:deal"]

    click = await driver.click(reply, "demo:deal", world.bob)
    assert click.response_type == 7
    assert reply.content == "Pick your cards" and reply.attachments == []
    assert reply.custom_ids() == ["demo:pick"]

    pick = await driver.select(reply, "demo:pick", ["AH", "QH"], alice)
    ack = await pick.wait_message()
    assert ack.content == "Check your DMs" and ack.ephemeral
    assert fake_discord.ephemerals(alice) == [ack]
    assert fake_discord.ephemerals(world.bob) == []
    assert ack not in fake_discord.channel_messages(world.tables)
    [dm] = fake_discord.dms(alice)
    assert dm.content == "You picked AH QH"

    thanks = await driver.click(dm, "demo:thanks", alice)
    assert (await thanks.wait_message()).content == "You're welcome"
    assert fake_discord.dms(alice)[-1].content == "You're welcome"
    assert fake_discord.errors == []
    assert cog_of(demo).errors == []


async def test_autocomplete(world: World, driver: UserDriver, demo: RunningBot) -> None:
    handle = await driver.autocomplete(
        "demo start",
        world.alice,
        world.general,
        focused="mode",
        options={"mode": "tr", "players": 2},
    )
    assert handle.response_type == 8
    assert handle.choices == [{"name": f"tr{i}", "value": f"tr{i}"} for i in range(3)]


async def test_nested_group_subcommand(world: World, driver: UserDriver, demo: RunningBot) -> None:
    handle = await driver.send_slash("/demo admin reset", world.alice, world.general)
    assert (await handle.wait_message()).content == "reset done"
    assert handle.message is not None and handle.message.interaction is handle.interaction


async def test_modal_open_and_submit(world: World, driver: UserDriver, demo: RunningBot) -> None:
    opened = await driver.send_slash("demo modal", world.alice, world.general)
    assert opened.response_type == 9
    assert opened.modal is not None and opened.modal["title"] == "Name your table"
    with pytest.raises(DriverError, match="required"):
        driver.submit_modal(opened, world.alice, {})
    with pytest.raises(DriverError, match="characters"):
        driver.submit_modal(opened, world.alice, {"demo:name": "x" * 21})
    submitted = await driver.submit_modal(opened, world.alice, {"demo:name": "Lucky"})
    assert (await submitted.wait_message()).content == "Named Lucky"


async def test_defer_followups_and_edit(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, demo: RunningBot
) -> None:
    handle = await driver.send_slash("demo defer", world.alice, world.general)
    assert handle.response_type == 5 and handle.ephemeral
    followups = await handle.wait_followups(2)
    await fake_discord.wait_for(lambda: handle.message is not None and handle.message.edits >= 2)
    first, second = followups
    # The first followup after a thinking defer fills in the placeholder.
    assert first is handle.message and not first.loading
    assert first.content == "first (edited)"
    assert second.content == "second" and second.ephemeral
    assert fake_discord.ephemerals(world.alice) == [first, second]
    assert fake_discord.channel_messages(world.general) == []


async def test_ephemeral_message_button(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, demo: RunningBot
) -> None:
    handle = await driver.send_slash("demo secret", world.alice, world.general)
    secret = await handle.wait_message()
    assert secret.ephemeral and fake_discord.visible_to(world.bob, world.general) == []
    with pytest.raises(DriverError, match="ephemeral"):
        driver.click(secret, "demo:reveal", world.bob)
    click = await driver.click(secret, "demo:reveal", world.alice)
    assert click.response_type == 7
    assert secret.content == "Revealed: 2♠" and secret.components == []


async def test_thread_from_response(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, demo: RunningBot
) -> None:
    handle = await driver.send_slash("demo thread", world.alice, world.tables)
    reply = await handle.wait_message()
    thread = await fake_discord.wait_for(lambda: fake_discord.channels.get(reply.id))
    assert thread.is_thread and thread.parent_id == world.tables.id and thread.name == "table-1"
    msgs = await fake_discord.wait_for(lambda: fake_discord.channel_messages(thread))
    assert msgs[0].content == "Welcome to table 1"
    assert demo.client.get_channel(thread.id) is not None


async def test_guild_synced_commands(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, bot_client
) -> None:
    await bot_client(cogs=[DemoCog], sync_guild=world.guild)
    assert all(c.guild_id == world.guild.id for c in fake_discord.commands.values())
    handle = await driver.send_slash("demo admin reset", world.alice, world.general)
    assert handle.interaction.data["guild_id"] == str(world.guild.id)
    assert (await handle.wait_message()).content == "reset done"
    # Guild commands do not exist in DMs.
    with pytest.raises(DriverError, match="not a synced command"):
        driver.send_slash("demo admin reset", world.alice, fake_discord.dm_channel(world.alice))


async def test_slash_in_dm(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, demo: RunningBot
) -> None:
    dm = fake_discord.dm_channel(world.bob)
    handle = await driver.send_slash("demo admin reset", world.bob, dm)
    payload = fake_discord.interaction_payload(handle.interaction)
    assert payload["context"] == 1 and "member" not in payload
    assert payload["user"]["username"] == "bob"
    assert (await handle.wait_message()).content == "reset done"
    assert [m.content for m in fake_discord.dms(world.bob)] == ["reset done"]


async def test_driver_refuses_what_a_client_would(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, demo: RunningBot
) -> None:
    alice, general = world.alice, world.general
    cases = [
        (lambda: driver.send_slash("nope", alice, general), "not a synced command"),
        (lambda: driver.send_slash("demo", alice, general), "needs a subcommand"),
        (lambda: driver.send_slash("demo bogus", alice, general), "no subcommand"),
        (lambda: driver.send_slash("demo start", alice, general), "missing required"),
        (lambda: driver.send_slash("demo start", alice, general, {"players": 3}), "one of"),
        (lambda: driver.send_slash("demo start", alice, general, {"players": "4"}), "number"),
        (
            lambda: driver.send_slash("demo start", alice, general, {"players": 4, "x": 1}),
            "unknown option",
        ),
        (
            lambda: driver.autocomplete("demo start", alice, general, focused="players"),
            "no autocomplete",
        ),
        (
            lambda: driver.send_slash("demo secret", alice, fake_discord.dm_channel(world.bob)),
            "not in that DM",
        ),
    ]
    outsider = fake_discord.create_user("mallory")
    cases.append((lambda: driver.send_slash("demo secret", outsider, general), "not a member"))
    for action, message in cases:
        with pytest.raises(DriverError, match=message):
            action()
    start = await (
        await driver.send_slash("demo start", alice, general, {"players": 2})
    ).wait_message()
    with pytest.raises(DriverError, match="no component"):
        driver.click(start, "demo:nothing", alice)
    await driver.click(start, "demo:deal", alice)
    with pytest.raises(DriverError, match="not a button"):
        driver.click(start, "demo:pick", alice)
    with pytest.raises(DriverError, match="takes 1–2 values"):
        driver.select(start, "demo:pick", ["AH", "KH", "QH"], alice)
    with pytest.raises(DriverError, match="not options"):
        driver.select(start, "demo:pick", ["2S"], alice)
    # Nothing above reached the bot as an interaction beyond the two valid ones.
    assert len(fake_discord.interactions) == 2


async def test_concurrent_users_and_channels(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, bot_client
) -> None:
    """Many simulated users in many channels at once (the load benchmark's shape)."""
    channels = [fake_discord.create_text_channel(world.guild, f"table-{i}") for i in range(10)]
    players = [fake_discord.create_user(f"p{i}", guild=world.guild) for i in range(40)]
    await bot_client(cogs=[DemoCog])
    handles = [
        driver.send_slash("demo start", p, channels[i % 10], {"players": 4})
        for i, p in enumerate(players)
    ]
    done = await asyncio.gather(*handles)
    messages = [h.message for h in done]
    assert all(h.response_type == 4 for h in done) and None not in messages
    clicks = await asyncio.gather(
        *(driver.click(m, "demo:deal", h.user) for m, h in zip(messages, done, strict=True) if m)
    )
    assert {c.response_type for c in clicks} == {7}
    for channel in channels:
        assert len(fake_discord.channel_messages(channel)) == 4
    assert fake_discord.errors == []


async def test_resolved_option_types(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, demo: RunningBot
) -> None:
    role = fake_discord.create_role(world.guild, "dealer")
    await fake_discord.wait_for(lambda: demo.client.get_guild(world.guild.id).get_role(role.id))
    options = {
        "channel": world.tables,
        "role": role,
        "file": ("hand.txt", b"AH KH"),
        "ratio": 0.5,
        "member": world.bob,
    }
    handle = await driver.send_slash("demo inspect", world.alice, world.general, options)
    reply = await handle.wait_message()
    assert reply.content == "channel=tables role=dealer file=hand.txt:5:5 ratio=0.5 member=Bob"
    category = fake_discord.create_category(world.guild, "games")
    with pytest.raises(DriverError, match="channel types"):
        driver.send_slash("demo inspect", world.alice, world.general, {"channel": category})
    with pytest.raises(DriverError, match=r"≤ 1\.0"):
        driver.send_slash("demo inspect", world.alice, world.general, {"ratio": 1.5})


async def test_followup_edit_delete_and_original_delete(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, demo: RunningBot
) -> None:
    handle = await driver.send_slash("demo defer", world.alice, world.general)
    await handle.wait_followups(2)
    interaction = cog_of(demo).last_interaction
    assert interaction is not None
    third = await interaction.followup.send("third", wait=True)
    fake_third = fake_discord.messages[third.id]
    assert fake_third in handle.followups and not fake_third.ephemeral
    await third.edit(content="third!")
    assert fake_third.content == "third!"
    assert (await interaction.original_response()).content == "first (edited)"
    await third.delete()
    assert fake_third.deleted and fake_third not in handle.followups
    await interaction.delete_original_response()
    assert handle.message is not None and handle.message.deleted
    with pytest.raises(discord.NotFound) as info:
        await interaction.followup.fetch_message(handle.message.id)
    assert info.value.code == 10008


async def test_messages_threads_reactions_rest(
    fake_discord: FakeDiscord, world: World, demo: RunningBot
) -> None:
    channel = demo.channel(world.general)
    first = await channel.send("one")
    second = await channel.send("two", reference=first)
    assert fake_discord.messages[second.id].type == 19
    await first.add_reaction("🂡")
    assert fake_discord.reactions == [(first.id, "🂡")]
    assert [m.content async for m in channel.history(limit=5)] == ["two", "one"]
    assert (await channel.fetch_message(first.id)).content == "one"
    await first.delete()
    assert [m.content for m in fake_discord.channel_messages(world.general)] == ["two"]
    with pytest.raises(discord.NotFound) as info:
        await channel.fetch_message(first.id)
    assert info.value.code == 10008

    thread = await channel.create_thread(name="table-2", type=discord.ChannelType.public_thread)
    await thread.send("in the thread")
    await thread.add_user(discord.Object(world.bob.id))
    fake_thread = fake_discord.channels[thread.id]
    assert fake_discord.thread_members[thread.id] == {fake_discord.bot_user.id, world.bob.id}
    assert [m.content for m in fake_discord.channel_messages(fake_thread)] == ["in the thread"]
    await thread.delete()
    await fake_discord.wait_for(lambda: demo.client.get_channel(thread.id) is None)

    # Without the members intent the cache lacks carol (as on Discord): fetch her.
    assert demo.client.get_user(world.carol.id) is None
    dm = await (await demo.client.fetch_user(world.carol.id)).create_dm()
    await dm.send("psst")
    assert [m.content for m in fake_discord.dms(world.carol)] == ["psst"]
    assert fake_discord.requests_to("POST", "/users/@me/channels")[0].status == 200
