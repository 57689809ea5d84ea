"""pytest fixtures for any test folder that needs a fake Discord and a running bot.

Use them from another folder's ``conftest.py`` by importing them::

    from fakediscord.fixtures import bot_client, driver, fake_discord, world  # noqa: F401

then in a test::

    async def test_new_table(fake_discord, world, driver, bot_client):
        rb = await bot_client(cogs=[MyCog])          # or bot_client(my_bot_instance)
        handle = await driver.send_slash("shengji new", world.alice, world.tables)
        assert "table" in (await handle.wait_message()).content
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord
import pytest

from .driver import UserDriver
from .harness import RunningBot, World, populate, start_bot
from .server import FakeDiscord

BotFactory = Callable[..., Awaitable[RunningBot]]


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started fake on 127.0.0.1 (random port), stopped after the test."""
    async with FakeDiscord() as fake:
        yield fake


@pytest.fixture
def world(fake_discord: FakeDiscord) -> World:
    """The default guild with #general, #tables and alice, bob, carol, dave."""
    return populate(fake_discord)


@pytest.fixture
def driver(fake_discord: FakeDiscord) -> UserDriver:
    """A user driver on the fake (10 s default wait timeout)."""
    return UserDriver(fake_discord)


@pytest.fixture
async def bot_client(fake_discord: FakeDiscord) -> AsyncIterator[BotFactory]:
    """``await bot_client(client=None, **HarnessBot kwargs)`` starts a client on the fake.

    Every client started this way is closed after the test, before the fake stops.
    """
    started: list[RunningBot] = []

    async def start(client: discord.Client | None = None, **kwargs: Any) -> RunningBot:
        rb = await start_bot(fake_discord, client, **kwargs)
        started.append(rb)
        return rb

    yield start
    for rb in reversed(started):
        await rb.stop()
