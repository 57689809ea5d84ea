"""A live message's edit with an image goes out as one multipart body (``cogs.leanedit``):
the fake reads the same text, buttons and picture discord.py's own form carried, and a
request retried after a server error sends them again."""

from __future__ import annotations

import io
from typing import Any

import aiohttp
import discord
from PIL import Image

from cogs.live import LiveMessage, ready
from cogs.tableview import Components, png
from fakediscord import FakeDiscord
from fakediscord.harness import World
from fakediscord.state import Message

from .test_live_amend import posted

EDIT = "/channels/{channel_id}/messages/{message_id}"


def _picture(width: int, colour: tuple[int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, 40), colour).save(out, format="PNG")
    return out.getvalue()


def _state(text: str, image: bytes, name: str = "hand.png") -> dict[str, Any]:
    buttons = Components()
    buttons.button("Play", "sj:test:play")
    return {"content": text, "files": [png(image, name)], "view": buttons}


async def test_an_edit_uploads_its_picture_in_one_body(
    fake_discord: FakeDiscord, world: World, bot_client: Any
) -> None:
    first, second = _picture(30, (200, 0, 0)), _picture(50, (0, 0, 200))
    _, live = await posted(bot_client, world, _state("first", first))
    fake_discord.faults.server_error("PATCH", EDIT, times=1)  # discord.py retries a 500
    live.show(lambda: ready(_state('second "quoted" ♥', second, 'odd "name".png')))
    await live.settle()

    edits = fake_discord.requests_to("PATCH", EDIT)
    assert [r.status for r in edits] == [500, 200]
    assert all(r.uploads and r.uploads[0].data == second for r in edits)
    message: Message = fake_discord.channel_messages(world.tables)[-1]
    assert message.id == live.message_id
    assert message.content == 'second "quoted" ♥'
    assert message.custom_ids() == ["sj:test:play"]
    [attachment] = message.attachments
    assert attachment.filename == 'odd "name".png'
    assert attachment.data == second
    assert attachment.image_size == (50, 40)


async def test_an_edit_is_json_bytes_its_reply_unread_and_a_429_still_waited_for(
    fake_discord: FakeDiscord, world: World, bot_client: Any, monkeypatch: Any
) -> None:
    """``cogs.leanedit._unread``: the edited message Discord sends back is not parsed, while
    discord.py's own handling still reads a 429's JSON, waits and sends the same body."""
    rb = await bot_client()
    channel = rb.channel(world.tables)
    live = LiveMessage(lambda: ready(channel))
    live.show(lambda: ready({"content": "first"}))
    await live.settle()
    parsed: list[str] = []
    parse = discord.utils._from_json

    def counted(text: str) -> Any:
        parsed.append(text)
        return parse(text)

    monkeypatch.setattr(discord.utils, "_from_json", counted)
    sent: list[aiohttp.Payload] = []
    request = aiohttp.ClientSession._request

    def recorded(session: Any, method: str, url: Any, **kwargs: Any) -> Any:
        if method == "PATCH":
            sent.append(kwargs["data"])
        return request(session, method, url, **kwargs)

    monkeypatch.setattr(aiohttp.ClientSession, "_request", recorded)
    fake_discord.faults.rate_limit("PATCH", EDIT, retry_after=0.05, times=1)
    live.show(lambda: ready({"content": "second ♥", "view": Components()}))
    await live.settle()

    edits = fake_discord.requests_to("PATCH", EDIT)
    assert [r.status for r in edits] == [429, 200]
    # what discord.py's own payload holds
    assert all(r.json == {"content": "second ♥", "components": [], "tts": False} for r in edits)
    replies = [text for text in parsed if not text.startswith('{"op"')]  # not the gateway's
    assert len(replies) == 1 and "retry_after" in replies[0]  # the 429's, not the message
    assert len(sent) == 2 and sent[0] is sent[1]  # the same body, sent again
    assert sent[0].content_type == "application/json"
    assert fake_discord.channel_messages(world.tables)[-1].content == "second ♥"
    assert live.message_id == fake_discord.channel_messages(world.tables)[-1].id
