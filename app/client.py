"""The Discord client: built by ``create_bot``, run by ``python -m bot``.

This is the composition root: it wires the store, the table service, the
presenter and the ``/shengji`` commands together. It lives outside ``bot/`` so the
core never imports the Discord layer; ``bot/__main__.py`` imports it lazily, only
when the process is asked to run the Discord bot.

Start-up order: open the database (migrations run there), restore every live
table, add the cog, sync the slash commands, connect. SIGTERM (and Ctrl-C) close
the bot gracefully: the service stops accepting actions, in-flight actions finish
and are committed, drivers stop, the store closes.

Slash commands only: the bot asks for the ``guilds`` intent and nothing
privileged (no members, no presences, no message content).

What the process changes in CPython, glibc and discord.py for hundreds of tables
(the collector's thresholds, big blocks kept on the heap, the rate-limit buckets'
sweep, finished interactions let go) is ``app.tuning``; it is applied here.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from bot import compiled
from bot.clock import Clock
from bot.config import NO_TOKEN_HELP, Config, ConfigError, format_shards, load_config
from bot.logs import configure as configure_logs
from bot.service import Limits, TableService, store_passing, tried_while_passing
from bot.service.fencing import Fence
from bot.store import Store, StoreError
from bot.tournament.service import TournamentService
from cogs import install as install_commands
from cogs.cupview import TournamentPresenter
from cogs.live import NETWORK_ERRORS
from cogs.outlet import Audit
from cogs.pacing import PING_AFTER
from cogs.presenter import Presenter
from cogs.text import Translator

from .eager import eager_bodies
from .tuning import GC_THRESHOLDS, FinishedInteractions, keep_big_blocks, sweep_buckets_now_and_then

log = logging.getLogger("shengji")
# a store refusing in passing at start-up is asked again after each of these seconds
OPEN_AGAIN = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)
#: seconds the shutdown waits for the presenter's writes in the background (the ids of
#: messages posted just before: a restart edits or deletes them) before the store closes
KEEPING_WAIT = 5.0
#: seconds the shutdown waits for the tables' requests on their way (a post Discord makes
#: all the same: its id must be kept) before the connection to Discord closes
SENDING_WAIT = 5.0


class ShengjiBot(commands.Bot):
    def __init__(
        self,
        store: Store,
        *,
        clock: Clock | None = None,
        dev_guild: int | None = None,
        sync_commands: bool = True,
        audit: Audit | None = None,
        edit_gap: float = 1.0,
        ping_after: float = PING_AFTER,
        seed_source: Callable[[], int] | None = None,
        limits: Limits | None = None,
        fence: Fence | None = None,
        **options: Any,  # discord.py's own Bot options, typed as loosely as it does
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        options.setdefault("intents", intents)
        options.setdefault("command_prefix", commands.when_mentioned)
        options.setdefault("help_command", None)
        # names can be "@everyone" or "<@&role>": no message pings unless it says so
        # (the deliberate ones pass their own ``allowed_mentions``)
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(**options)
        sweep_buckets_now_and_then(self.http)
        self.store = store
        self.presenter = Presenter(self, audit=audit, edit_gap=edit_gap, ping_after=ping_after)
        self.service = TableService(
            store,
            self.presenter,
            clock,
            seed_source=seed_source,
            limits=limits,
            fence=fence,
        )
        self.presenter.service = self.service
        self.tournament_presenter = TournamentPresenter(
            self, self.service.clock.now, self.presenter
        )
        self.tournaments = TournamentService(self.service, store, self.tournament_presenter)
        self.tournament_presenter.keep = self.tournaments.save_posted
        self.dev_guild = dev_guild
        self.sync_commands = sync_commands
        self._closing: asyncio.Future[None] | None = None
        self.finished_interactions = FinishedInteractions()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.finished_interactions.watch(interaction)

    async def setup_hook(self) -> None:
        # hand the GIL back to the event loop sooner than the 5 ms default while
        # the render thread works: acknowledgements wait less under load
        sys.setswitchinterval(0.001)
        gc.set_threshold(*GC_THRESHOLDS)
        eager_bodies(asyncio.get_running_loop())  # request bodies sent with their headers
        keep_big_blocks()
        await self.tree.set_translator(Translator())
        await install_commands(self)
        cups = await self.tournaments.restore_all()  # before the tables play on
        restored = await self.service.restore_all()
        self.tournaments.run_clocks()
        log.info("restored %d live table(s), %d tournament(s)", restored, cups)
        if self.sync_commands:
            if self.dev_guild is not None:
                target = discord.Object(self.dev_guild)
                self.tree.copy_global_to(guild=target)
                await self.tree.sync(guild=target)
            else:
                await self.tree.sync()

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """Close the tables whose channel vanished while the bot was down.

        A started table would find out at its next message; a lobby never would,
        and would hold its channel for good. A channel missing from the guild's
        cache (a thread may simply not be cached) is asked for once.
        """
        for table in self.service.tables_in_guild(guild.id):
            if guild.get_channel_or_thread(table.channel_id) is not None:
                continue
            try:
                await self.fetch_channel(table.channel_id)
            except (discord.NotFound, discord.Forbidden):
                await self.service.channel_gone(table.channel_id, table)
            except (discord.HTTPException, *NETWORK_ERRORS) as err:  # passing: the next
                # message will tell; the guild's other tables are looked at all the same
                log.warning("table %s: could not look its channel up: %r", table.id, err)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.service.guild_gone(guild.id)

    async def on_ready(self) -> None:
        """Close the tables of servers that removed the bot while it was down.

        READY lists every server of this process's shards (an outage's as unavailable),
        so a table's server missing from it has removed the bot: no event will ever
        come from there. ``on_ready`` may come again after a reconnect; the check holds.
        """
        present = {guild.id for guild in self.guilds}
        for guild_id in self.service.guilds_with_tables() - present:
            log.info("guild %s removed the bot: closing its tables", guild_id)
            await self.service.guild_gone(guild_id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.service.channel_gone(channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.service.thread_gone(payload.thread_id)

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        if payload.data.get("thread_metadata", {}).get("archived"):
            await self.service.thread_gone(payload.thread_id)

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        """An event handler's failure; one the shutdown cut off (its next request met the
        closed session, as a start-up's channel look-up waiting to retry a 500 did) is
        the stop's doing, not a fault: a warning, without the traceback, at each deploy.
        What it was doing, the next start does again."""
        if self.is_closed():
            log.warning("%s cut off by the shutdown: %r", event_method, sys.exc_info()[1])
            return
        await super().on_error(event_method, *args, **kwargs)

    async def close(self) -> None:
        """Stop the tables, disconnect, close the store; safe to call more than once."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close_once())
        await asyncio.shield(self._closing)

    async def _close_once(self) -> None:
        with contextlib.suppress(Exception):
            await self.tournaments.shutdown()  # no round opens while the tables stop
        with contextlib.suppress(Exception):
            await self.service.shutdown()
        with contextlib.suppress(Exception):
            await self.tournaments.shutdown()  # what the tables' last moves spawned
        # requests on their way answered: a message Discord posts must be known after a restart
        rendering, _ = await asyncio.gather(
            self.presenter.close(SENDING_WAIT), self.tournament_presenter.stop(SENDING_WAIT)
        )
        await super().close()
        with contextlib.suppress(Exception):  # ids of messages posted at the last
            await asyncio.gather(
                self.presenter.kept(KEEPING_WAIT), self.tournament_presenter.kept(KEEPING_WAIT)
            )
        if rendering is not None:  # the renders in flight end with the bot, not after it
            await asyncio.to_thread(rendering.join, 10)
        await self.store.close()


class ShardedShengjiBot(ShengjiBot, commands.AutoShardedBot):
    """The bot over some of Discord's shards (``SHENGJI_SHARDS``, ``SHENGJI_SHARD_IDS``)."""


async def create_bot(config: Config) -> ShengjiBot:
    """Open the store (applying migrations) and build the client.

    With ``SHENGJI_SHARDS`` it is an ``AutoShardedBot`` over this process's shards,
    driving only their tables, each fenced by a lease (``bot.service.fencing``).
    """
    store = await open_store(config.db)
    # the computer players' search is several times faster compiled (``python -m bot build``)
    log.info("computer players: %s", "compiled" if compiled.active() else "source (not built)")
    if config.shard_count is None or config.shard_ids is None:
        return ShengjiBot(store, dev_guild=config.dev_guild, limits=config.limits)
    fence = Fence.of(config.shard_ids, config.shard_count, config.lease_seconds)
    log.info(
        "shards %s of %d, leases as %s",
        ",".join(map(str, config.shard_ids)),
        config.shard_count,
        fence.owner,
    )
    return ShardedShengjiBot(
        store,
        dev_guild=config.dev_guild,
        limits=config.limits,
        fence=fence,
        shard_count=config.shard_count,
        shard_ids=list(config.shard_ids),
    )


async def open_store(db: str) -> Store:
    """The store, once it lets the bot in. A refusal that passes by itself is waited
    out for about a minute (``OPEN_AGAIN``), each try logged: another process holding
    SQLite's write lock past the busy wait (a backup, a ``sqlite3`` shell), or a
    PostgreSQL server still starting beside the bot. Anything else (a corrupt or
    read-only file, a refused password) stops the start at once, in one line."""

    def passing(err: BaseException) -> bool:
        cause = err.__cause__ if isinstance(err, StoreError) else None
        return cause is not None and (store_passing(cause) or isinstance(cause, ConnectionError))

    return await tried_while_passing(lambda: Store.open(db), OPEN_AGAIN, "no store yet", passing)


async def _run(config: Config) -> None:
    bot = await create_bot(config)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stopping.set)
    serving = asyncio.create_task(bot.start(config.token or ""))
    signalled = asyncio.create_task(stopping.wait())
    try:
        await asyncio.wait({serving, signalled}, return_when=asyncio.FIRST_COMPLETED)
        if signalled.done():
            log.info("shutting down")
    finally:
        signalled.cancel()
        await bot.close()  # every table stops and every accepted action is committed
        if serving.done():
            serving.result()  # a login failure surfaces here
        else:
            serving.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await serving


def run_discord() -> int:
    """``python -m bot``: run the bot, or explain how to get a token."""
    try:
        config = load_config()
    except ConfigError as err:
        print(f"Cannot start: {err}", file=sys.stderr)
        return 2
    configure_logs(config.log_level, format_shards(config.shard_ids or ()) or "-")
    if not config.token:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return 2
    try:
        asyncio.run(_run(config))
    except StoreError as err:
        print(f"Cannot start: {err}", file=sys.stderr)  # each names its database
        return 1
    except discord.LoginFailure:
        print("Discord refused the token: check DISCORD_TOKEN.", file=sys.stderr)
        return 1
    except (
        aiohttp.ClientConnectionError,
        discord.GatewayNotFound,
        discord.DiscordServerError,
    ) as err:
        # at start-up only: once connected, discord.py reconnects by itself; a process
        # manager (the Procfile's platform) starts a process that stopped again
        print(f"Cannot reach Discord ({err}): check the network.", file=sys.stderr)
        return 1
    return 0
