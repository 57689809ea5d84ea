"""Running a real discord.py client against a :class:`~.server.FakeDiscord`.

Only two class attributes are set (and restored afterwards):
``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``.
Everything else (aiohttp, the websocket, zlib, multipart, the 429 retry loop)
is discord.py's own code running as in production.

These helpers are importable from any test folder; ``fixtures.py`` wraps them
as pytest fixtures.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, cast

import discord
import yarl
from discord.ext import commands

from .server import FakeDiscord
from .state import Channel, Guild, User


@contextlib.contextmanager
def point_discord_py_at(fake: FakeDiscord) -> Iterator[None]:
    """Aim discord.py's REST base and default gateway at ``fake`` for the duration."""
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


CogFactory = Callable[[commands.Bot], commands.Cog] | commands.Cog


class _Harness(commands.bot.BotBase):
    """Loads cogs and syncs the command tree in ``setup_hook``.

    ``sync_guild``: sync to that guild's commands instead of the global ones
    (both are served by the fake; global is the default, as in production).
    """

    def __init__(
        self,
        *,
        cogs: Iterable[CogFactory] = (),
        sync: bool = True,
        sync_guild: Guild | None = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("command_prefix", commands.when_mentioned)
        kwargs.setdefault("intents", discord.Intents.default())
        # discord.py waits guild_ready_timeout after the last GUILD_CREATE before
        # on_ready; the 2 s default would be paid by every test.
        kwargs.setdefault("guild_ready_timeout", 0.01)
        super().__init__(**kwargs)
        self._harness_cogs = list(cogs)
        self._harness_sync = sync
        self._harness_guild = sync_guild

    async def setup_hook(self) -> None:
        bot = cast(commands.Bot, self)  # a Bot or an AutoShardedBot
        for cog in self._harness_cogs:
            await self.add_cog(cog if isinstance(cog, commands.Cog) else cog(bot))
        if self._harness_sync:
            if self._harness_guild is not None:
                target = discord.Object(self._harness_guild.id)
                self.tree.copy_global_to(guild=target)
                await self.tree.sync(guild=target)
            else:
                await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before every IDENTIFY but a process's first (Discord allows
        one per 5 s at ``max_concurrency`` 1: a re-identify after op 9, each further shard);
        the fake does not limit identifies, so the harness does not wait."""
        return None


class HarnessBot(_Harness, commands.Bot):
    """A ``commands.Bot`` that loads cogs and syncs its command tree in ``setup_hook``."""


class ShardedHarnessBot(_Harness, commands.AutoShardedBot):
    """An ``AutoShardedBot`` (pass ``shard_count`` and ``shard_ids``) for the fake's shards."""


@dataclass
class RunningBot:
    """A client connected to the fake; ``await stop()`` closes it cleanly."""

    fake: FakeDiscord
    client: discord.Client
    task: asyncio.Task[None]
    _pointer: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)

    @property
    def bot(self) -> discord.Client:
        return self.client

    def channel(self, channel: Channel) -> Any:
        """The client's cached object for a fake channel (None if the cache lacks it)."""
        if channel.is_dm:
            return self.client.get_channel(channel.id) or self.client.get_partial_messageable(
                channel.id, type=discord.ChannelType.private
            )
        return self.client.get_channel(channel.id)

    async def stop(self) -> None:
        try:
            if not self.client.is_closed():
                await self.client.close()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self.task, 5)
        finally:
            self._pointer.close()


async def start_bot(
    fake: FakeDiscord,
    client: discord.Client | None = None,
    *,
    ready_timeout: float = 10.0,
    token: str | None = None,
    **bot_kwargs: Any,
) -> RunningBot:
    """Start ``client`` (or a :class:`HarnessBot` built from ``bot_kwargs``) and wait for ready.

    If the client dies while starting (bad token, refused intents, an exception
    in ``setup_hook``) that exception is raised here instead of a timeout.
    """
    if client is None:
        client = HarnessBot(**bot_kwargs)
    elif bot_kwargs:
        raise TypeError("pass bot keyword arguments only when no client is given")
    stack = contextlib.ExitStack()
    stack.enter_context(point_discord_py_at(fake))
    task = asyncio.create_task(client.start(token or fake.token), name="fakediscord-bot")
    ready = asyncio.create_task(client.wait_until_ready())
    running = RunningBot(fake, client, task, stack)
    try:
        done, _ = await asyncio.wait(
            {task, ready}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if task in done:
            task.result()  # raises the start-up error
            raise RuntimeError("the client stopped before it was ready")
        if ready not in done:
            raise TimeoutError(
                f"the client was not ready within {ready_timeout}s; "
                f"last requests: {list(fake.requests)[-5:]}"
            )
    except BaseException:
        ready.cancel()
        await running.stop()
        raise
    return running


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord, client: discord.Client | None = None, **bot_kwargs: Any
) -> AsyncIterator[RunningBot]:
    """``async with running_bot(fake, cogs=[...]) as rb:`` — start, yield, stop."""
    rb = await start_bot(fake, client, **bot_kwargs)
    try:
        yield rb
    finally:
        await rb.stop()


@dataclass
class World:
    """The default world the fixtures build: one guild, two channels, four players."""

    guild: Guild
    general: Channel
    tables: Channel
    users: list[User]

    @property
    def alice(self) -> User:
        return self.users[0]

    @property
    def bob(self) -> User:
        return self.users[1]

    @property
    def carol(self) -> User:
        return self.users[2]

    @property
    def dave(self) -> User:
        return self.users[3]


def populate(
    fake: FakeDiscord, *, players: Iterable[str] = ("alice", "bob", "carol", "dave")
) -> World:
    """Build the default world (call before the bot connects, or it gets live events)."""
    guild = fake.create_guild("Shengji Test")
    general = fake.create_text_channel(guild, "general")
    tables = fake.create_text_channel(guild, "tables")
    users = [fake.create_user(name, guild=guild) for name in players]
    return World(guild, general, tables, users)
