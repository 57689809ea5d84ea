"""A live message's edit with an image goes out as one multipart body (``cogs.live``):
the fake reads the same text, buttons and picture discord.py's own form carried, and a
request retried after a server error sends them again."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from cogs.live import LiveMessage
from cogs.outlet import ready
from cogs.tableview import Components, png
from fakediscord import FakeDiscord
from fakediscord.harness import World
from fakediscord.state import Message

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
    rb = await bot_client()
    channel = rb.channel(world.tables)
    live = LiveMessage(lambda: ready(channel))
    first, second = _picture(30, (200, 0, 0)), _picture(50, (0, 0, 200))
    live.show(lambda: ready(_state("first", first)))
    await live.settle()
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
