"""``LiveMessage.amend``: a change (the buttons taken off) goes with the pending state, or
alone as an edit of the message as it stands, and never posts a message of its own."""

from __future__ import annotations

import io
import logging
from typing import Any

import pytest
from PIL import Image

from cogs.live import LiveMessage, ready
from cogs.tableview import Components, png
from fakediscord import FakeDiscord
from fakediscord.harness import World

EDIT = "/channels/{channel_id}/messages/{message_id}"
POST = "/channels/{channel_id}/messages"


def _state(text: str, width: int = 30) -> dict[str, Any]:
    out = io.BytesIO()
    Image.new("RGB", (width, 20), (0, 120, 0)).save(out, format="PNG")
    buttons = Components()
    buttons.button("My hand", "sj:test:hand")
    return {"content": text, "files": [png(out.getvalue(), "table.png")], "view": buttons}


async def test_a_change_goes_with_the_state_waiting_to_be_sent(
    fake_discord: FakeDiscord, world: World, bot_client: Any
) -> None:
    """Shown over the waiting state, the change would drop it (a trick's last play)."""
    rb = await bot_client()
    channel = rb.channel(world.tables)
    live = LiveMessage(lambda: ready(channel), gap=0.3)
    live.show(lambda: ready(_state("first")))
    await live.settle()  # posted; the next state waits out the gap
    live.show(lambda: ready(_state("last play", 50)))
    live.amend({"view": None})
    await live.settle()
    [edit] = fake_discord.requests_to("PATCH", EDIT)
    assert edit.status == 200
    [message] = fake_discord.channel_messages(world.tables)
    assert message.content == "last play" and message.custom_ids() == []
    assert message.attachments[0].image_size == (50, 20)


async def test_a_change_alone_edits_only_what_it_names(
    fake_discord: FakeDiscord, world: World, bot_client: Any
) -> None:
    rb = await bot_client()
    channel = rb.channel(world.tables)
    live = LiveMessage(lambda: ready(channel))
    live.show(lambda: ready(_state("the trick")))
    await live.settle()
    live.amend({"view": None})
    await live.settle()
    [edit] = fake_discord.requests_to("PATCH", EDIT)
    assert not edit.uploads, "the picture is not sent again"
    [message] = fake_discord.channel_messages(world.tables)
    assert message.content == "the trick" and message.custom_ids() == []
    assert message.attachments[0].image_size == (30, 20), "Discord keeps what an edit omits"


async def test_a_change_to_a_message_not_there_posts_nothing(
    fake_discord: FakeDiscord, world: World, bot_client: Any, caplog: pytest.LogCaptureFixture
) -> None:
    rb = await bot_client()
    channel = rb.channel(world.tables)
    never = LiveMessage(lambda: ready(channel))
    never.amend({"view": None})  # never posted
    await never.settle()
    assert not fake_discord.requests_to("POST", POST)
    deleted = LiveMessage(lambda: ready(channel))
    deleted.show(lambda: ready(_state("the trick")))
    await deleted.settle()
    [message] = fake_discord.channel_messages(world.tables)
    fake_discord.delete_message(message)  # someone deleted it
    deleted.amend({"view": None})
    await deleted.settle()
    assert [r.status for r in fake_discord.requests_to("PATCH", EDIT)] == [404]
    assert len(fake_discord.requests_to("POST", POST)) == 1, "only the first post"
    assert not fake_discord.channel_messages(world.tables)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
