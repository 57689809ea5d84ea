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
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import logging
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

import discord
from discord.ext import commands

from bot import compiled
from bot.clock import Clock
from bot.config import NO_TOKEN_HELP, Config, ConfigError, format_shards, load_config
from bot.logs import configure as configure_logs
from bot.service import Limits, TableService
from bot.service.fencing import Fence
from bot.store import Store, StoreError
from bot.store.postgres import redact
from bot.tournament.service import TournamentService
from cogs import install as install_commands
from cogs.cupview import TournamentPresenter
from cogs.outlet import Audit
from cogs.pacing import PING_AFTER
from cogs.presenter import Presenter
from cogs.text import Translator

from .eager import eager_bodies

log = logging.getLogger("shengji")

#: The garbage collector's thresholds for the bot's process (CPython's are 700, 10, 10).
#: With hundreds of live tables the heap holds millions of objects and the bot makes
#: cyclic garbage at every play (futures, exceptions, discord.py's payloads), so under
#: the default thresholds a full collection ran every 2-3 s, each pausing the event loop
#: 300-430 ms: 12% of the bot's CPU and most of the acknowledgements' p99 at 400 tables
#: (bench/load_bench.py). Rarer young collections let short-lived objects die before
#: they are promoted, so the older generations fill slowly: one full collection in the
#: same 90 s; memory per table about a third higher.
#:
#: Since then the hot paths make no cyclic garbage (``FinishedInteractions``, and
#: ``tests/cogs/test_cyclic_garbage.py``): 65,000 objects in 5 s at 150 tables before,
#: none after; the collections find nothing and are paid for by the heap's growth alone.
#: Measured again then (150 tables, ``--think 0``, a busy machine, 90 s; collections
#: pausing the event loop's thread over 5 ms, and their CPU): these thresholds, 38-49
#: (1.1-1.3 s); CPython's (700, 10, 10): 817 (4.5 s, 14 full collections); (2,000, 20,
#: 10): 285 (2.9 s); (25,000, 20, 20): 13 (0.66 s); (50,000, 10, 20): 12 (0.47 s, the
#: longest 360 ms of wall time on that machine). Smaller young collections promote
#: objects still in use, which the older ones then traverse; larger ones looked cheaper
#: but were measured once, on a loaded machine: worth trying on a quiet one before a
#: change. (``gc.get_stats`` counts 150-200 young collections in every such run: most
#: are the imports', under CPython's thresholds, before ``setup_hook``.) Freezing the
#: heap after start-up (``gc.freeze``) changed nothing that mattered.
#:
#: On a quiet machine at 400 tables (1 Dec 02:45-03:08): the young generation holds
#: 65,000-134,000 objects when it is collected, not 10,000 (the count that triggers a
#: collection goes down whenever any tracked object is freed, old ones included), so a
#: young collection took 30-80 ms: 5.9 s of CPU in 90 s, 150 pauses over 5 ms. Young
#: collections five times rarer, (50,000, 10, 20): 1.6 s, 14 such pauses (the objects
#: surviving to be traversed are fewer, having had more time to die), and over six runs
#: alternating 4.2-4.8 ms of CPU per interaction and an ack p99 of 175-290 ms against
#: 4.9-5.3 ms and 360-830 ms; memory per table 5% higher. (100,000, 10, 20) was no
#: better (4.8 ms, 290 ms).
GC_THRESHOLDS = (50_000, 10, 20)
#: glibc's mallopt parameters: blocks up to 8 MB from the heap, not fresh mmap pages
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
HEAP_BLOCKS = 8 * 1024 * 1024


def keep_big_blocks() -> bool:
    """Serve allocations up to ``HEAP_BLOCKS`` from the heap and keep freed ones.

    glibc maps each block over its threshold (128 KB at first) as fresh pages and
    unmaps it when freed, so every image-sized buffer cost page faults on each use.
    Only on glibc (a no-op elsewhere); returns whether it applied.
    """
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, HEAP_BLOCKS)) and bool(
        mallopt(M_TRIM_THRESHOLD, 2 * HEAP_BLOCKS)
    )


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
        tables = [t for t in self.service.tables.values() if t.guild_id == guild.id]
        for table in tables:
            if guild.get_channel_or_thread(table.channel_id) is not None:
                continue
            try:
                await self.fetch_channel(table.channel_id)
            except (discord.NotFound, discord.Forbidden):
                await self.service.channel_gone(table.channel_id)
            except discord.HTTPException as err:  # passing: the next message will tell
                log.warning("table %s: could not look its channel up: %s", table.id, err)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.service.channel_gone(channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.service.thread_gone(payload.thread_id)

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        if payload.data.get("thread_metadata", {}).get("archived"):
            await self.service.thread_gone(payload.thread_id)

    async def close(self) -> None:
        """Stop the tables, disconnect, close the store; safe to call more than once."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close_once())
        await asyncio.shield(self._closing)

    async def _close_once(self) -> None:
        with contextlib.suppress(Exception):
            await self.tournaments.shutdown()
            await self.service.shutdown()
        await super().close()
        await self.store.close()


#: seconds between discord.py's sweeps of its idle rate-limit buckets (see below)
BUCKET_SWEEP_EVERY = 60.0


def sweep_buckets_now_and_then(
    http: discord.http.HTTPClient, every: float = BUCKET_SWEEP_EVERY
) -> None:
    """Let discord.py forget its idle rate-limit buckets once a minute, not at every new one.

    discord.py keeps a bucket per route and channel (every DM channel, thread and message
    route) and, once it holds 256, scans all of them for ones idle five minutes each time
    it makes a new bucket. At hundreds of tables that is thousands of buckets scanned a
    few times a second: 6% of the bot's CPU under the load benchmark at 200 tables
    (cProfile). A bucket is forgotten only after five idle minutes anyway, so sweeping
    once a minute forgets the same buckets, a minute later at most.
    """
    sweep = http._try_clear_expired_ratelimits
    last = time.monotonic()

    def now_and_then() -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= every:
            last = now
            sweep()

    http._try_clear_expired_ratelimits = now_and_then  # type: ignore[method-assign]


#: seconds between looks for finished interactions; how long one is watched at most
INTERACTION_SWEEP_EVERY = 1.0
INTERACTION_WATCHED_AT_MOST = 15 * 60.0  # an interaction's token lasts 15 minutes
#: references to an interaction nothing uses any more, as counted in ``_unused``: its
#: entry in the watch list, ``_unused``'s argument, ``getrefcount``'s argument, and its
#: response's ``_parent``
_UNUSED_REFS = 4
#: and to that response: the interaction's cache, ``_unused``'s local, ``getrefcount``'s
_UNUSED_RESPONSE_REFS = 3


def _caches_response() -> bool:
    """Whether discord.py still keeps an interaction's response where ``_unused`` looks."""
    prop = vars(discord.Interaction).get("response")
    return isinstance(prop, discord.utils.CachedSlotProperty) and prop.name == "_cs_response"


class FinishedInteractions:
    """Lets each interaction go by reference counting once nothing uses it.

    discord.py's ``Interaction`` caches its ``InteractionResponse``, which points back
    at it (``_parent``): a cycle, so every interaction and all it holds (its member,
    user, namespace, webhook and the payload's JSON: about 860 objects) stayed until
    the garbage collector found them, 200 interactions a second at 400 tables: most
    of the work of the collections that paused the event loop for up to half a second
    (``GC_THRESHOLDS``). The client hands this every interaction it receives; once a
    second it looks at those it holds. One referenced only by its response, the
    response only by it, can never be used again: the response is dropped from the
    interaction's cache and both go at once. One still in use (its handler running,
    an ephemeral panel kept to refresh, one whose ``original_response`` was fetched)
    is looked at again, and after ``INTERACTION_WATCHED_AT_MOST`` left to the
    collector. Reference counts are exact in CPython, so nothing in use is touched;
    should discord.py stop caching the response in ``_cs_response`` (checked at
    start, and by ``tests/app``) this does nothing.
    """

    def __init__(self, every: float = INTERACTION_SWEEP_EVERY) -> None:
        self.every = every
        self.enabled = _caches_response()
        self._watched: list[tuple[float, discord.Interaction]] = []
        self._last = time.monotonic()

    def watch(self, interaction: discord.Interaction) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        self._watched.append((now, interaction))
        if now - self._last >= self.every:
            self._last = now
            self.sweep(now)

    def sweep(self, now: float) -> int:
        """Free the interactions nothing uses; how many."""
        kept: list[tuple[float, discord.Interaction]] = []
        freed = 0
        oldest = now - INTERACTION_WATCHED_AT_MOST
        for entry in self._watched:
            if _unused(entry[1]):
                del entry[1]._cs_response  # type: ignore[attr-defined]
                freed += 1
            elif entry[0] > oldest:
                kept.append(entry)
        self._watched = kept
        return freed


def _unused(interaction: discord.Interaction) -> bool:
    """Whether only its response holds ``interaction``, and only it holds that response.

    Called with an interaction held only by its entry in the watch list, and passed as
    ``entry[1]`` (see ``_UNUSED_REFS``).
    """
    response = getattr(interaction, "_cs_response", None)
    if response is None:
        return False  # no cycle to break
    return (
        sys.getrefcount(interaction) == _UNUSED_REFS
        and sys.getrefcount(response) == _UNUSED_RESPONSE_REFS
    )


class ShardedShengjiBot(ShengjiBot, commands.AutoShardedBot):
    """The bot over some of Discord's shards (``SHENGJI_SHARDS``, ``SHENGJI_SHARD_IDS``)."""


async def create_bot(config: Config) -> ShengjiBot:
    """Open the store (applying migrations) and build the client.

    With ``SHENGJI_SHARDS`` it is an ``AutoShardedBot`` over this process's shards,
    driving only their tables, each fenced by a lease (``bot.service.fencing``).
    """
    store = await Store.open(config.db)
    # the computer players' search is several times faster compiled (``python -m bot build``)
    log.info("computer players: %s", "compiled" if compiled.active() else "source (not built)")
    if config.shard_count is None or config.shard_ids is None:
        return ShengjiBot(store, dev_guild=config.dev_guild)
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
        fence=fence,
        shard_count=config.shard_count,
        shard_ids=list(config.shard_ids),
    )


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
        print(f"Cannot use the database {redact(config.db)}: {err}", file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print("Discord refused the token: check DISCORD_TOKEN.", file=sys.stderr)
        return 1
    return 0
