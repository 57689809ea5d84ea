"""``LiveMessage.stop`` at a shutdown: nothing more is sent, and ``settle`` then waits only
for a request already on its way (Discord acts on it all the same, and the message it
posts must be known), not for the edit gap, a render, a retry's wait, or a state it
dropped."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs import live as live_module
from cogs.live import ready
from fakediscord import FakeDiscord
from fakediscord.harness import World

from .test_live_amend import EDIT, _state, posted


async def test_a_stop_ends_the_wait_for_the_next_edit_and_drops_its_state(
    fake_discord: FakeDiscord, world: World, bot_client: Any
) -> None:
    _, live = await posted(bot_client, world, _state("first"), gap=60.0)
    live.show(lambda: ready(_state("waiting for the gap")))
    await asyncio.sleep(0.05)
    live.stop()
    await asyncio.wait_for(live.settle(), 5)  # not the gap's 60 s
    [message] = fake_discord.channel_messages(world.tables)
    assert message.content == "first" and not fake_discord.requests_to("PATCH", EDIT)


async def test_a_stop_drops_a_state_still_being_built(
    fake_discord: FakeDiscord, world: World, bot_client: Any
) -> None:
    _, live = await posted(bot_client, world, _state("first"))
    render: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    live.show(lambda: render)  # its render never ends
    await asyncio.sleep(0.05)
    live.stop()
    await asyncio.wait_for(live.settle(), 5)
    assert render.cancelled() and not fake_discord.requests_to("PATCH", EDIT)


async def test_a_request_on_its_way_is_answered_after_the_stop(
    fake_discord: FakeDiscord, world: World, bot_client: Any
) -> None:
    _, live = await posted(bot_client, world, _state("first"))
    held = fake_discord.faults.delay("PATCH", EDIT, seconds=0.5)
    live.show(lambda: ready(_state("on its way")))
    await fake_discord.wait_for(lambda: held.hits == 1)
    live.stop()
    await asyncio.wait_for(live.settle(), 5)
    [edit] = fake_discord.requests_to("PATCH", EDIT)
    assert edit.status == 200  # answered, not cut off: the session is still open
    [message] = fake_discord.channel_messages(world.tables)
    assert message.content == "on its way"


async def test_a_stop_ends_the_wait_before_a_retry(
    fake_discord: FakeDiscord, world: World, bot_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edit whose connection dropped waits before it is sent again; stopped meanwhile,
    it is not sent again and the wait ends (a shutdown's wait for requests on their way
    would otherwise spend all its time on it)."""
    monkeypatch.setattr(live_module, "NETWORK_WAITS", (60.0, 60.0, 60.0))
    _, live = await posted(bot_client, world, _state("first"))
    fake_discord.faults.disconnect("PATCH", EDIT)
    live.show(lambda: ready(_state("dropped")))
    await fake_discord.wait_for(lambda: fake_discord.requests_to("PATCH", EDIT))
    await asyncio.sleep(0.05)  # waiting to try again
    live.stop()
    await asyncio.wait_for(live.settle(), 5)  # not the 60 s
    assert len(fake_discord.requests_to("PATCH", EDIT)) == 1
