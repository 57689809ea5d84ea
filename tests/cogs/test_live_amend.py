"""``LiveMessage.amend``: a change (the buttons taken off) goes with the pending state, or
alone as an edit of the message as it stands, and never posts a message of its own; a
state sent again (its connection dropped, a 429, an earlier post given back) carries it
too, rather than the change going alone and the state being lost (a trick's last play)."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from cogs.live import LiveMessage, ready
from cogs.tableview import Components, png
from fakediscord import FakeDiscord
from fakediscord.errors import DiscordError
from fakediscord.faults import Rule
from fakediscord.harness import World

EDIT = "/channels/{channel_id}/messages/{message_id}"
POST = "/channels/{channel_id}/messages"


def _state(text: str, width: int = 30) -> dict[str, Any]:
    out = io.BytesIO()
    Image.new("RGB", (width, 20), (0, 120, 0)).save(out, format="PNG")
    buttons = Components()
    buttons.button("My hand", "sj:test:hand")
    return {"content": text, "files": [png(out.getvalue(), "table.png")], "view": buttons}


async def posted(
    bot_client: Any, world: World, state: dict[str, Any], gap: float = 0.0
) -> tuple[Any, LiveMessage]:
    """A live message in #tables, posted with ``state``: the channel and the message."""
    rb = await bot_client()
    channel = rb.channel(world.tables)
    live = LiveMessage(lambda: ready(channel), gap=gap)
    live.show(lambda: ready(state))
    await live.settle()
    return channel, live


async def test_a_change_goes_with_the_state_waiting_to_be_sent(
    fake_discord: FakeDiscord, world: World, bot_client: Any
) -> None:
    """Shown over the waiting state, the change would drop it (a trick's last play)."""
    _, live = await posted(bot_client, world, _state("first"), gap=0.3)  # the next waits
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
    _, live = await posted(bot_client, world, _state("the trick"))
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


def _buttoned(text: str) -> dict[str, Any]:
    buttons = Components()
    buttons.button("My hand", "sj:test:hand")
    return {"content": text, "view": buttons}


async def _amend_during(fake: FakeDiscord, live: LiveMessage, method: str, n: int = 1) -> None:
    """Amend once the ``n``-th request of ``method`` has reached the fake (held there): the
    change waits alone, and the state in flight fails (below) and must go again."""
    await fake.wait_for(
        lambda: len([r for r in fake.requests if r.method == method]) >= n, timeout=5
    )
    assert live._latest is None and live._task is not None and not live._task.done()
    live.amend({"view": None})


def _dropped() -> Rule:
    return Rule("disconnect", "PATCH", EDIT, None, 1, delay=0.3)


def _rate_limited() -> Rule:
    ban = DiscordError(429, 0, "blocked", extra={"retry_after": 0.05, "global": True})
    return Rule("ban", "PATCH", EDIT, ban, 1, delay=0.3)


def _unavailable() -> Rule:
    """A 503, which discord.py does not try again itself (it does a 500, 502 or 504)."""
    return Rule("server_error", "PATCH", EDIT, DiscordError(503, 0, "503"), 1, delay=0.3)


@pytest.mark.parametrize(
    "fault", [_dropped, _rate_limited, _unavailable], ids=["dropped", "rate-limited", "503"]
)
async def test_a_state_sent_again_carries_the_change(
    fake_discord: FakeDiscord, world: World, bot_client: Any, fault: Callable[[], Rule]
) -> None:
    """The state's edit fails while the change waits alone (``presenter._closed``'s
    ``_unbutton`` as the last play's edit is in flight): both go, not the change alone."""
    _, live = await posted(bot_client, world, _buttoned("trick: 3 plays"))
    fake_discord.faults.add(fault())
    live.show(lambda: ready(_buttoned("trick: 4 plays (last play)")))
    await _amend_during(fake_discord, live, "PATCH")
    await live.settle()
    [message] = fake_discord.channel_messages(world.tables)
    assert message.custom_ids() == []
    assert message.content == "trick: 4 plays (last play)", message.content


async def test_an_earlier_post_given_back_is_edited_to_the_state_with_the_change(
    fake_discord: FakeDiscord, world: World, bot_client: Any
) -> None:
    """A restarted process posts the hand's deal message under its fixed nonce (its id's
    write had not landed): Discord gives back the old process's message, edited then to
    the new state; the table message came meanwhile and took the buttons."""
    rb = await bot_client()
    channel = rb.channel(world.tables)
    old = LiveMessage(lambda: ready(channel))
    old.nonce = "sj7h0deal"
    old.show(lambda: ready(_buttoned("deal: 20 cards dealt")))
    await old.settle()
    new = LiveMessage(lambda: ready(channel))
    new.nonce = "sj7h0deal"
    fake_discord.faults.add(Rule("delay", "POST", POST, None, 1, delay=0.3))
    new.show(lambda: ready(_buttoned("deal: trump ♥, kitty buried")))
    await _amend_during(fake_discord, new, "POST", 2)
    await new.settle()
    [message] = fake_discord.channel_messages(world.tables)
    assert message.custom_ids() == []
    assert message.content == "deal: trump ♥, kitty buried", message.content
