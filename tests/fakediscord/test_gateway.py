"""The gateway: framing, compression, identify/ready, heartbeats, resume, close codes."""

from __future__ import annotations

import json
import time
import zlib
from typing import Any

import aiohttp
import discord
import pytest

from fakediscord import FakeDiscord, HarnessBot, UserDriver, World, populate, start_bot
from fakediscord.gateway import ROUND_TRIP
from tests.fakediscord.democog import DemoCog


class RawGateway:
    """A hand-rolled gateway client, to check the wire format discord.py relies on."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, compressed: bool) -> None:
        self.ws = ws
        self.compressed = compressed
        self.inflater = zlib.decompressobj()
        self.frames: list[bytes] = []

    async def recv(self) -> dict[str, Any]:
        msg = await self.ws.receive(timeout=5)
        if self.compressed:
            assert msg.type == aiohttp.WSMsgType.BINARY, msg
            self.frames.append(msg.data)
            # Every message ends with a Z_SYNC_FLUSH marker (discord.py waits for it).
            assert msg.data[-4:] == b"\x00\x00\xff\xff"
            return json.loads(self.inflater.decompress(msg.data))
        assert msg.type == aiohttp.WSMsgType.TEXT, msg
        return json.loads(msg.data)

    async def send(self, op: int, d: Any) -> None:
        await self.ws.send_str(json.dumps({"op": op, "d": d}))


async def raw_connect(
    session: aiohttp.ClientSession, fake: FakeDiscord, compress: bool = True
) -> RawGateway:
    query = "?v=10&encoding=json" + ("&compress=zlib-stream" if compress else "")
    ws = await session.ws_connect(fake.gateway_url + query)
    return RawGateway(ws, compress)


async def test_zlib_stream_identify_ready_heartbeat_resume(
    fake_discord: FakeDiscord, world: World
) -> None:
    async with aiohttp.ClientSession() as session:
        gw = await raw_connect(session, fake_discord)
        hello = await gw.recv()
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] == 41250
        beat = time.perf_counter()
        await gw.send(1, None)
        assert (await gw.recv())["op"] == 11
        # a round trip later: at once, discord.py could take the ACK as one interval late
        assert time.perf_counter() - beat >= ROUND_TRIP
        await gw.send(
            2,
            {
                "token": fake_discord.token,
                "intents": 513,
                "properties": {"os": "linux", "browser": "t", "device": "t"},
            },
        )
        ready = await gw.recv()
        assert ready["t"] == "READY" and ready["s"] == 1
        d = ready["d"]
        assert d["application"] == {
            "id": str(fake_discord.application_id),
            "flags": fake_discord.application_flags,
        }
        assert d["user"]["id"] == str(fake_discord.bot_user.id) and d["user"]["bot"] is True
        assert d["guilds"] == [{"id": str(world.guild.id), "unavailable": True}]
        assert d["resume_gateway_url"] == fake_discord.gateway_url
        guild = await gw.recv()
        assert guild["t"] == "GUILD_CREATE" and guild["s"] == 2
        g = guild["d"]
        assert [c["name"] for c in g["channels"]] == ["general", "tables"]
        assert g["member_count"] == 6  # bot, owner, four players...
        # ...but without GUILD_MEMBERS only the bot's own member object is sent.
        assert [m["user"]["username"] for m in g["members"]] == ["shengji"]
        assert all("flags" in m for m in g["members"])
        assert len(gw.frames) == 4  # hello, ack, ready, guild: one deflate stream
        session_id = d["session_id"]

        # Events while disconnected are replayed after RESUME, then RESUMED.
        await gw.ws.close()
        await fake_discord.wait_for(lambda: not fake_discord.gateway.connected)
        fake_discord.create_text_channel(world.guild, "while-away")
        gw2 = await raw_connect(session, fake_discord, compress=False)
        assert (await gw2.recv())["op"] == 10
        await gw2.send(6, {"token": fake_discord.token, "session_id": session_id, "seq": 2})
        missed = await gw2.recv()
        assert (missed["t"], missed["s"], missed["d"]["name"]) == (
            "CHANNEL_CREATE",
            3,
            "while-away",
        )
        resumed = await gw2.recv()
        assert (resumed["t"], resumed["s"]) == ("RESUMED", 4)
        # An unknown session is refused with op 9 (not resumable).
        gw3 = await raw_connect(session, fake_discord, compress=False)
        await gw3.recv()
        await gw3.send(6, {"token": fake_discord.token, "session_id": "nope", "seq": 1})
        assert (await gw3.recv()) == {"op": 9, "d": False, "s": None, "t": None}
        await gw2.ws.close()
        await gw3.ws.close()


async def test_close_codes(fake_discord: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        gw = await raw_connect(session, fake_discord)
        await gw.recv()
        await gw.send(2, {"token": "wrong", "intents": 1})
        msg = await gw.ws.receive(timeout=5)
        assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4004
        gw = await raw_connect(session, fake_discord)
        await gw.recv()
        await gw.send(3, {"status": "online"})
        msg = await gw.ws.receive(timeout=5)
        assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == 4003  # not identified
    assert fake_discord.gateway.close_codes == [4004, 4003]


async def test_real_client_uses_zlib_stream_and_heartbeats(world: World) -> None:
    async with FakeDiscord(heartbeat_interval=0.02) as fake:
        populate(fake)
        rb = await start_bot(fake)
        try:
            assert rb.client.get_guild(fake_guild_id(fake)) is not None
            [conn] = fake.gateway.connections
            # zlib-stream, or zstd-stream when zstandard is installed: whatever discord.py asks.
            wanted = discord.utils._ActiveDecompressionContext.COMPRESSION_TYPE
            assert conn.compressor.kind == wanted
            await fake.wait_for(lambda: fake.gateway.heartbeats >= 3)
            await fake.wait_for(lambda: rb.client.latency != float("inf"))
            identify = fake.gateway.received[0]
            assert (
                identify["op"] == 2 and identify["d"]["intents"] == discord.Intents.default().value
            )
        finally:
            await rb.stop()


def fake_guild_id(fake: FakeDiscord) -> int:
    return next(iter(fake.guilds))


async def test_resume_after_injected_disconnect(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, bot_client
) -> None:
    rb = await bot_client(cogs=[DemoCog])
    resumed: list[bool] = []

    async def on_resumed() -> None:
        resumed.append(True)

    rb.client.add_listener(on_resumed)
    await fake_discord.gateway.disconnect()
    # Dispatched while the bot is away: buffered, then replayed on RESUME.
    handle = driver.send_slash("demo admin reset", world.alice, world.general)
    await handle
    assert (await handle.wait_message()).content == "reset done"
    assert fake_discord.gateway.resumes == 1 and fake_discord.gateway.identifies == 1
    await fake_discord.wait_for(lambda: resumed)


async def test_reconnect_and_invalid_session(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, bot_client
) -> None:
    await bot_client(cogs=[DemoCog])
    fake_discord.gateway.request_reconnect()  # op 7: discord.py reconnects and resumes
    await fake_discord.wait_for(lambda: fake_discord.gateway.resumes == 1)
    fake_discord.gateway.invalidate_sessions()  # op 9 false: a fresh IDENTIFY
    await fake_discord.wait_for(lambda: fake_discord.gateway.identifies == 2)
    handle = await driver.send_slash("demo admin reset", world.bob, world.general)
    assert (await handle.wait_message()).content == "reset done"


async def test_privileged_intents_refused() -> None:
    async with FakeDiscord(privileged_intents=0) as fake:
        populate(fake)
        bot = HarnessBot(intents=discord.Intents.default() | discord.Intents(members=True))
        with pytest.raises(discord.PrivilegedIntentsRequired):
            await start_bot(fake, bot)
        assert fake.gateway.close_codes == [4014]


async def test_bad_token_is_login_failure(fake_discord: FakeDiscord, world: World) -> None:
    with pytest.raises(discord.LoginFailure):
        await start_bot(fake_discord, HarnessBot(sync=False), token="not-the-token")
    assert fake_discord.errors[0].status == 401 and fake_discord.errors[0].path == "/users/@me"


async def test_member_chunking_and_live_events(
    fake_discord: FakeDiscord, world: World, bot_client
) -> None:
    intents = discord.Intents.default() | discord.Intents(members=True, message_content=True)
    rb = await bot_client(intents=intents, chunk_guilds_at_startup=False)
    guild = rb.client.get_guild(world.guild.id)
    assert guild is not None
    members = await guild.chunk()
    assert sorted(m.name for m in members) == ["alice", "bob", "carol", "dave", "owner", "shengji"]
    # Live GUILD_CREATE, GUILD_MEMBER_ADD, CHANNEL_CREATE and MESSAGE_CREATE.
    joined: list[discord.Guild] = []
    seen: list[discord.Message] = []

    async def on_guild_join(g: discord.Guild) -> None:
        joined.append(g)

    async def on_message(m: discord.Message) -> None:
        seen.append(m)

    rb.client.add_listener(on_guild_join)
    rb.client.add_listener(on_message)
    second = fake_discord.create_guild("Second")
    await fake_discord.wait_for(lambda: joined)
    assert joined[0].id == second.id
    erin = fake_discord.create_user("erin", guild=world.guild)
    await fake_discord.wait_for(lambda: guild.get_member(erin.id) is not None)
    UserDriver(fake_discord).say(erin, world.general, "hello bot")
    await fake_discord.wait_for(lambda: seen)
    assert seen[0].content == "hello bot" and seen[0].author.id == erin.id


async def test_channel_delete_is_dispatched(
    fake_discord: FakeDiscord, world: World, bot_client
) -> None:
    rb = await bot_client()
    channel = rb.channel(world.tables)
    assert channel is not None
    fake_discord.delete_channel(world.tables)
    await fake_discord.wait_for(lambda: rb.client.get_channel(world.tables.id) is None)
    with pytest.raises(discord.NotFound) as info:
        await channel.send("anyone there?")
    assert info.value.code == 10003 and info.value.status == 404


def test_zstd_stream_compressor_or_text_fallback() -> None:
    """zstd-stream (discord.py's choice when zstandard is installed) or plain text frames."""
    from fakediscord.gateway import _Compressor

    comp = _Compressor("zstd-stream")
    try:
        import zstandard
    except ImportError:
        assert comp.kind is None and comp.encode('{"op":10}') == '{"op":10}'
        return
    inflater = zstandard.ZstdDecompressor().decompressobj()
    for text in ('{"op":10}', '{"op":11}'):
        data = comp.encode(text)
        assert isinstance(data, bytes) and inflater.decompress(data).decode() == text
