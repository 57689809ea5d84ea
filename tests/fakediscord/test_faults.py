"""Injected faults, each shown failing the way Discord fails, then recovering."""

from __future__ import annotations

import io
import time

import aiohttp
import discord
import pytest
from discord.ext import commands
from discord.http import Route

from fakediscord import FakeDiscord, Perm, UserDriver, World
from fakediscord.driver import InteractionFailed
from fakediscord.harness import RunningBot
from tests.fakediscord.democog import DemoCog, table_png

SEND = "/channels/{channel_id}/messages"


@pytest.fixture
async def rb(fake_discord: FakeDiscord, world: World, bot_client) -> RunningBot:
    return await bot_client(cogs=[lambda bot: DemoCog(bot, sleep=fake_discord.clock.sleep)])


def cog_of(rb: RunningBot) -> DemoCog:
    assert isinstance(rb.client, commands.Bot)
    cog = rb.client.get_cog("DemoCog")
    assert isinstance(cog, DemoCog)
    return cog


async def test_dms_closed_50007(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, rb: RunningBot
) -> None:
    fake_discord.close_dms(world.bob)
    handle = await driver.send_slash("demo dm", world.alice, world.general, {"user": world.bob})
    assert (await handle.wait_message()).content == "Their DMs are closed"
    [err] = cog_of(rb).errors
    assert isinstance(err, discord.Forbidden) and (err.status, err.code) == (403, 50007)
    assert [(r.status, r.error_code) for r in fake_discord.errors] == [(403, 50007)]
    assert fake_discord.dms(world.bob) == []
    fake_discord.open_dms(world.bob)
    handle = await driver.send_slash("demo dm", world.alice, world.general, {"user": world.bob})
    assert (await handle.wait_message()).content == "Sent"
    assert [m.content for m in fake_discord.dms(world.bob)] == ["alice says hi"]


async def test_rate_limit_429_is_retried(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    fake_discord.faults.rate_limit("POST", SEND, retry_after=0.05)
    sent = await rb.channel(world.general).send("after the limit")
    assert sent.content == "after the limit"
    attempts = fake_discord.requests_to("POST", SEND)
    assert [r.status for r in attempts] == [429, 200]
    assert attempts[0].response["retry_after"] == 0.05 and attempts[0].fault == "rate_limit"
    assert fake_discord.http_429 == 1
    assert len(fake_discord.channel_messages(world.general)) == 1


async def test_429_without_via_is_raised(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    fake_discord.faults.ban("POST", SEND)
    with pytest.raises(discord.HTTPException) as info:
        await rb.channel(world.general).send("blocked")
    assert info.value.status == 429
    assert fake_discord.channel_messages(world.general) == []


async def test_5xx(fake_discord: FakeDiscord, world: World, rb: RunningBot) -> None:
    channel = rb.channel(world.general)
    fake_discord.faults.server_error("POST", SEND, status=503)
    with pytest.raises(discord.DiscordServerError) as info:
        await channel.send("not retried")  # discord.py retries only 500/502/504/524
    assert info.value.status == 503
    fake_discord.faults.server_error("POST", SEND, status=500)
    started = time.monotonic()
    await channel.send("retried")
    assert time.monotonic() - started >= 1.0  # discord.py's own back-off
    assert [r.status for r in fake_discord.requests_to("POST", SEND)] == [503, 500, 200]


@pytest.mark.parametrize("fault", ["500", "429"])
async def test_a_callback_answered_5xx_or_429_is_tried_again_and_the_interaction_holds(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, rb: RunningBot, fault: str
) -> None:
    """discord.py waits and tries an interaction's callback again (its webhook adapter):
    the person sees the answer, not "interaction failed", so the driver waits on."""
    callback = "/interactions/{interaction_id}/{token}/callback"
    if fault == "500":
        fake_discord.faults.server_error("POST", callback)
    else:
        fake_discord.faults.rate_limit("POST", callback, retry_after=0.05)
    handle = driver.send_slash("demo start", world.alice, world.general, {"players": 2})
    message = await handle.wait_message()
    assert message.content and handle.errors == [] and handle.response_type == 4
    assert [r.status for r in fake_discord.requests_to("POST", callback)] == [int(fault), 200]


async def test_a_dropped_connection_before_or_after_the_request_took_effect(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    """aiohttp raises ``ServerDisconnectedError`` (discord.py does not retry it); the
    message exists only when the request took effect before the connection dropped."""
    channel = rb.channel(world.general)
    fake_discord.faults.disconnect("POST", SEND)
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await channel.send("lost")
    fake_discord.faults.disconnect("POST", SEND, handled=True)
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await channel.send("made, its answer lost")
    await channel.send("after")
    shown = [m.content for m in fake_discord.channel_messages(world.general)]
    assert shown == ["made, its answer lost", "after"]


async def test_late_ack_10062(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, rb: RunningBot
) -> None:
    fake_discord.faults.late_ack(3.5)
    handle = driver.send_slash("demo start", world.alice, world.general, {"players": 2})
    with pytest.raises(InteractionFailed, match="rejected"):
        await handle
    assert handle.errors == [(404, {"message": "Unknown interaction", "code": 10062})]
    await fake_discord.wait_for(lambda: cog_of(rb).errors)
    [err] = cog_of(rb).errors
    assert isinstance(err, discord.NotFound) and err.code == 10062
    assert fake_discord.channel_messages(world.general) == []
    # The next one is on time.
    ok = await driver.send_slash("demo start", world.alice, world.general, {"players": 2})
    assert ok.response_type == 4


async def test_virtual_clock_slow_handler(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, rb: RunningBot
) -> None:
    clock = fake_discord.clock
    quick = driver.send_slash("demo slow", world.alice, world.general, {"seconds": 2.0})
    await fake_discord.wait_for(lambda: clock.pending_sleepers() == 1)
    await clock.advance(2.0)
    assert (await quick.wait_message()).content == "finally"
    slow = driver.send_slash("demo slow", world.alice, world.general, {"seconds": 4.0})
    await fake_discord.wait_for(lambda: clock.pending_sleepers() == 1)
    await clock.advance(4.0)
    status, body = await slow.wait_error()
    assert (status, body["code"]) == (404, 10062)


async def test_permission_loss_50013_and_50001(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    channel = rb.channel(world.tables)
    fake_discord.revoke_permissions(world.tables, Perm.SEND_MESSAGES)
    me = channel.guild.me
    await fake_discord.wait_for(lambda: not channel.permissions_for(me).send_messages)
    with pytest.raises(discord.Forbidden) as info:
        await channel.send("hello?")
    assert (info.value.status, info.value.code, info.value.text) == (
        403,
        50013,
        "Missing Permissions",
    )
    fake_discord.restore_permissions(world.tables)
    fake_discord.revoke_permissions(world.tables, Perm.ATTACH_FILES)
    with pytest.raises(discord.Forbidden) as info:
        await channel.send(file=discord.File(io.BytesIO(table_png()), "t.png"))
    assert info.value.code == 50013
    await channel.send("text still works")
    fake_discord.revoke_permissions(world.tables, Perm.VIEW_CHANNEL)
    with pytest.raises(discord.Forbidden) as info:
        await channel.send("hello?")
    assert info.value.code == 50001
    fake_discord.restore_permissions(world.tables)
    await channel.send("back")
    assert [m.content for m in fake_discord.channel_messages(world.tables)] == [
        "text still works",
        "back",
    ]


async def test_deleted_channel_10003(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    channel = rb.channel(world.tables)
    message = await channel.send("soon gone")
    fake_discord.delete_channel(world.tables)
    for coro in (message.edit(content="x"), channel.send("x"), message.delete()):
        with pytest.raises(discord.NotFound) as info:
            await coro
        assert info.value.code == 10003


async def test_unknown_route_is_loud(fake_discord: FakeDiscord, rb: RunningBot) -> None:
    with pytest.raises(discord.NotFound) as info:
        await rb.client.http.request(Route("GET", "/guilds/{guild_id}/audit-logs", guild_id=1))
    assert "unknown route GET /guilds/1/audit-logs" in info.value.text
    assert fake_discord.errors[-1].route is None


async def test_generic_fail_and_delay_rules(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    channel = rb.channel(world.general)
    fake_discord.faults.fail(
        "POST", SEND, 403, 50001, "Missing Access", when=lambda r: r.json.get("content") == "secret"
    )
    with pytest.raises(discord.Forbidden):
        await channel.send("secret")
    await channel.send("public")
    fake_discord.faults.delay("POST", SEND, seconds=0.05)
    started = time.monotonic()
    await channel.send("slow")
    assert time.monotonic() - started >= 0.05
    fake_discord.faults.clear()
    assert [m.content for m in fake_discord.channel_messages(world.general)] == ["public", "slow"]
