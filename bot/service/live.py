"""The live tables of this bot process: lookups, leases, tasks, timers, updates.

``LiveTables`` holds every table this process drives and what runs beside each: its
lease (several processes), its publisher task feeding the presenter and its driver
task (from the lobby on), the deadline of the decision it waits for, and the
``Update`` it queues for the presenter. ``writes`` adds the store writes on top,
``runtime`` commit-before-tell.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Callable
from typing import Any, NoReturn

from bot.clock import Clock, SystemClock
from bot.game import Event
from bot.logs import bind_table, table_context
from bot.service.faults import NotSaved
from bot.service.fencing import Fence
from bot.service.table import (
    CloseReason,
    Limits,
    Sink,
    Table,
    TableHooks,
    Update,
    UpdateKind,
    UserError,
)
from bot.store import Store, shard_of

log = logging.getLogger("bot.service")


class LiveTables:
    """Every live table of this bot process and the tasks beside each."""

    def __init__(
        self,
        store: Store,
        sink: Sink,
        clock: Clock | None = None,
        *,
        seed_source: Callable[[], int] | None = None,
        limits: Limits | None = None,
        fence: Fence | None = None,
    ) -> None:
        self.limits = limits or Limits()
        self._commands: dict[int, list[float]] = {}  # user -> recent command times
        self._pruner: asyncio.Task[None] | None = None
        self.store = store
        self.fence = fence  # several processes: only its shards' tables, each under a lease
        self._claimer: asyncio.Task[None] | None = None
        self.sink = sink
        self.clock = clock or SystemClock()
        self._seed = seed_source or (lambda: random.SystemRandom().randrange(1, 2**62))
        self.tables: dict[int, Table] = {}  # by channel id
        # (guild, host) of each table being opened: the limits count them before they are live
        self._opening: list[tuple[int, int]] = []
        self.hooks: list[TableHooks] = []
        self.accepting = True
        # channel -> (table, status): closings the store refused, recorded before a new table
        self._unrecorded_closes: dict[int, tuple[int, str]] = {}
        self._closer: asyncio.Task[None] | None = None  # recording them once the store takes writes
        # tables whose restore the store refused in passing, and the task trying again
        self._unrestored: set[int] = set()
        self._restorer: asyncio.Task[None] | None = None
        self._players: dict[tuple[int, int], Any] = {}  # (table id, seat) -> AI player
        # closed tables' publishers still posting their last messages: a shutdown waits
        # for them as for the live tables', or they would post through a closed client
        self._draining: set[asyncio.Task[None]] = set()

    def _lease_token(self, table: Table) -> int | None:
        """The token this table's writes carry; refused at once if the lease is not held."""
        token = None if self.fence is None else self.fence.token(table.id)
        if self.fence is not None and token is None:
            self._fence_refused(table.id)  # not ours any more: the accepted action is dropped
        return token

    def _fence_refused(self, table_id: int) -> NoReturn:
        self._fenced_out(table_id)
        raise UserError("This table is closed.", key="service-closed")

    def _fenced_out(self, table_id: int) -> None:
        """The table's lease is lost: stop touching it at once (no writes, no posts). The
        presenter hears it past the cancelled publisher (``HANDED_OVER``): it forgets the
        table, its edits still queued with it, which would show an older state over the
        new owner's, and a claim of the table back here starts afresh, as a restart."""
        if self.fence is not None:
            self.fence.lost(table_id)
        for table in list(self.tables.values()):
            if table.id == table_id:
                log.warning("table %s: lease lost; another process may drive it now", table_id)
                table.closed = True  # refuses actions; ``_close`` writes nothing
                table.close_queued.set()  # nor queues anything: a shutdown waits for no close
                del self.tables[table.channel_id]
                for task in table.tasks:
                    task.cancel()
                for seat in range(4):
                    self._players.pop((table_id, seat), None)
                update = Update(UpdateKind.HANDED_OVER, (), None, (), tuple(table.seats))
                told = asyncio.create_task(self.sink.publish(table, update))
                self._draining.add(told)
                told.add_done_callback(self._draining.discard)

    def _log_as(self, table: Table) -> tuple[int, int | None]:
        """The table and shard its log records carry (``bot.logs``)."""
        return table.id, None if self.fence is None else shard_of(
            table.guild_id, self.fence.shard_count
        )

    def _start_tasks(self, table: Table) -> None:
        """The table's publisher and driver tasks, their log records bound to it.

        The driver runs from the lobby on, not from the start: a lobby whose write was
        refused has no one else to probe the store and resume it, or to close it when
        the store stays down (``DriverMixin._drive``).
        """
        context = table_context(*self._log_as(table))
        table.tasks = [
            asyncio.create_task(
                self._publisher(table), name=f"publisher-{table.id}", context=context
            ),
            asyncio.create_task(self._drive(table), name=f"driver-{table.id}", context=context),
        ]

    async def _stop_tasks(self, table: Table, *, flush: bool) -> None:
        current = asyncio.current_task()
        driver = [t for t in table.tasks if t.get_name().startswith("driver")]
        for task in driver:
            if task is not current:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for task in table.tasks:
            if task.get_name().startswith("publisher"):
                table.outbox.put_nowait(None)
                if flush and task is not current:
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
                elif not task.done():
                    self._draining.add(task)
                    task.add_done_callback(self._draining.discard)

    @contextlib.asynccontextmanager
    async def _holding(self, table: Table, *, opening: bool = False) -> AsyncIterator[None]:
        """The table's lock, for a player's command: a table that closed while the command
        waited for the lock refuses it, as a table closed before would (``table_in``),
        rather than seat someone at it or say it started; so does a shutdown begun
        meanwhile, whose store closes after it (a tournament's cancel aborting its tables
        one by one met the closed store: an error, and the table not closed after all).
        A table's ``opening`` (its start) is part of what the shutdown waits for."""
        async with table.lock:
            if table.closed:
                raise UserError("This table is closed.", key="service-closed")
            if not opening:
                self._check_accepting()
            yield

    def channel_of(self, place_id: int) -> int:
        """The channel a table is keyed by, given the channel or the table's thread."""
        if place_id in self.tables:
            return place_id
        for table in self.tables.values():
            if table.meta.get("thread_id") == place_id:
                return table.channel_id
        return place_id

    def table_in(self, channel_id: int) -> Table:
        table = self.tables.get(channel_id)
        if table is None or table.closed:
            raise UserError(
                "There is no table in this channel. Open one with `/shengji new`.",
                key="service-no-table",
            )
        bind_table(*self._log_as(table))  # the rest of this command logs as the table's
        return table

    def deadline(self, table: Table) -> float | None:
        """When the current decision's timer runs out (wall clock), if one runs.

        Timers run from the last accepted action, so they resume after a restart;
        a decision whose time ran out while the bot was down still gets
        ``restore_grace`` seconds (or its whole timer, if shorter) after the restart.
        """
        if table.match is None:
            return None
        kind = table.match.expecting()[0]
        seconds = {
            "play": table.rules.play_seconds,
            "overcall": table.rules.play_seconds,  # one decision, like a play
            "bury": table.rules.kitty_seconds,
            "end_bidding": table.timers.bid_window,
            "next_hand": table.timers.next_hand,
        }.get(kind or "")
        if seconds is None:
            return None
        due = table.last_action_at + seconds
        if table.resumed_at > table.last_action_at:
            due = max(due, table.resumed_at + min(seconds, table.timers.restore_grace))
        return due

    # --- internals -----------------------------------------------------------------

    @staticmethod
    def _seated(table: Table, user_id: int, *, started: bool = False) -> int:
        """The caller's seat, or UserError (and, with ``started``, only once playing)."""
        seat = table.seat_of(user_id)
        if seat is None:
            raise UserError("You're not seated at this table.", key="service-not-seated")
        if started and table.match is None:
            raise UserError("The game hasn't started yet.", key="service-not-started")
        return seat

    def _check_accepting(self) -> None:
        if not self.accepting:
            raise UserError(
                "The bot is restarting; try again in a moment.", key="service-restarting"
            )

    def _emit(
        self,
        table: Table,
        kind: UpdateKind,
        *,
        events: tuple[Event, ...] = (),
        actor: int | None = None,
        auto: bool = False,
        reason: CloseReason | None = None,
        seconds: int = 0,
        paused: bool = False,
    ) -> None:
        if table.closed and kind is not UpdateKind.CLOSED:
            # CLOSED is the table's last update: the presenter drops the table's UI state
            # there, and a later one would start it afresh (a new panel with live buttons
            # and a turn notice for a table that is gone). Late ones do come: the driver's
            # turn warning when its cancellation is lost as its timer fires (the test
            # clock's wait loses it, as ``asyncio.wait_for`` can before Python 3.12), or a
            # command that finishes its writes after a close.
            return
        match = table.match
        views = tuple(match.view(s) for s in range(4)) if match is not None else ()
        update = Update(
            kind=kind,
            events=events,
            public=match.view(None) if match is not None else None,
            views=views,
            seats=tuple(table.seats),
            actor=actor,
            auto=auto,
            deadline=self.deadline(table),
            reason=reason,
            seconds=seconds,
            paused=paused,
        )
        table.outbox.put_update(update)

    async def _publisher(self, table: Table) -> None:
        while True:
            update = await table.outbox.get()
            if update is None:
                return
            try:
                await self.sink.publish(table, update)
            except NotSaved as exc:  # a write of the presenter's: the table paused or closed
                log.warning("table %s: the presenter's write not saved (%s)", table.id, exc)
            except Exception:
                log.exception("presenter failed for table %s", table.id)

    async def _drive(self, table: Table) -> None:
        """The table's driver task (``DriverMixin``)."""
        raise NotImplementedError
