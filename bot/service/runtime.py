"""The service's core: live tables, commit-before-tell, the presenter queues, closing.

Every other part of the service (lobby, play, driver, records) builds on
``Runtime``: ``_apply`` applies an action, commits it, then queues the update;
``_close`` frees the channel; the publisher task per table feeds the presenter.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, NoReturn

from bot.ai import suggest
from bot.clock import Clock, SystemClock
from bot.game import (
    Action,
    Event,
    GameError,
    HandScored,
    HandStarted,
    Match,
    MatchOver,
    NotYourTurn,
    action_to_dict,
)
from bot.logs import bind_table, table_context
from bot.rules import BIG_LIGHT_LEAGUE, RulesError
from bot.service.faults import NotSaved, backoff, transient
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
from bot.store import (
    LeaseLost,
    SeatInfo,
    Store,
    shard_of,
)

log = logging.getLogger("bot.service")


class Runtime:
    """Every live table of this bot process and what keeps them honest."""

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
        self.hooks: list[TableHooks] = []
        self.accepting = True
        # channel -> (table, status): closings the store refused, recorded before a new table
        self._unrecorded_closes: dict[int, tuple[int, str]] = {}
        self._players: dict[tuple[int, int], Any] = {}  # (table id, seat) -> AI player

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
        """The table's lease is lost: stop touching it at once (no writes, no posts)."""
        if self.fence is not None:
            self.fence.lost(table_id)
        for table in list(self.tables.values()):
            if table.id == table_id:
                log.warning("table %s: lease lost; another process may drive it now", table_id)
                table.closed = True  # refuses actions; ``_close`` writes nothing
                del self.tables[table.channel_id]
                for task in table.tasks:
                    task.cancel()

    def _log_as(self, table: Table) -> tuple[int, int | None]:
        """The table and shard its log records carry (``bot.logs``)."""
        return table.id, None if self.fence is None else shard_of(
            table.guild_id, self.fence.shard_count
        )

    def _start_tasks(self, table: Table) -> None:
        """The table's publisher (and driver) tasks, their log records bound to it."""
        context = table_context(*self._log_as(table))
        table.tasks = [
            asyncio.create_task(
                self._publisher(table), name=f"publisher-{table.id}", context=context
            ),
        ]
        if table.match is not None:
            self._start_driver(table)

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

    async def _apply(
        self, table: Table, seat: int, action: Action | None, *, auto: bool = False
    ) -> list[Event]:
        """Apply, commit, then tell. Call with ``table.lock`` held.

        ``action=None`` plays for ``seat`` with the computer (a timeout).
        """
        match = table.match
        assert match is not None
        try:
            if action is None:
                events = match.timeout(seat, suggest)
                auto = True
            else:
                events = match.apply(seat, action, auto=auto)
        except NotYourTurn as err:
            waiting = err.waiting_for
            raise UserError(
                f"It's not your turn: waiting for {table.name(waiting)}.",
                key="service-not-your-turn",
                name=table.name(waiting),
            ) from None
        except (GameError, RulesError) as err:
            raise UserError(str(err), reason=err) from None
        accepted = match.last_action
        assert accepted is not None
        token = self._lease_token(table)
        now = self.clock.now()
        try:
            await self.store.append_action(
                table.id, match.seq, seat, action_to_dict(accepted), now, token=token
            )
        except LeaseLost:
            self._fence_refused(table.id)
        except Exception as exc:
            await self._not_saved(table, exc, rollback=True)
        self._saved(table)
        table.last_action_at = now
        table.driver.observe(events)
        await self._record(table, events)
        table.changed.set()
        self._emit(table, UpdateKind.EVENTS, events=tuple(events), actor=seat, auto=auto)
        return events

    async def _record(self, table: Table, events: list[Event]) -> None:
        match = table.match
        assert match is not None
        for event in events:
            match event:
                case HandScored(result=result):
                    record = self.store.record_hand
                    tricks, seats, at = list(match.tricks), table.full_seats, self.clock.now()
                    big = int(table.meta.get("big_light_league", BIG_LIGHT_LEAGUE))
                    await self._retry(
                        table, partial(record, table.id, result, tricks, seats, at, big)
                    )
                    await self._snapshot(table, match)
                case HandStarted():
                    await self._snapshot(table, match)
                case MatchOver(team=team):
                    end = partial(self.store.record_match_end, table.id, team, self.clock.now())
                    await self._retry(table, end)
        for hook in self.hooks:
            try:
                await hook.on_events(table, events)
            except Exception:  # a feature's failure never stops the game
                log.exception("hook failed at table %s", table.id)

    # --- store faults (``faults``) ----------------------------------------------------

    async def _not_saved(self, table: Table, exc: Exception, *, rollback: bool) -> NoReturn:
        """A write the store refused: pause (passing) or close (for good); raise ``NotSaved``.

        With ``rollback`` the match is put back to what the store holds, so the
        refused action did not happen here either.
        """
        passing = transient(exc)
        if rollback:
            try:
                live = await self.store.live_tables(table_id=table.id)
                table.match = await self.store.restore(live[0])
            except Exception:
                log.exception("table %s: could not roll back a refused action", table.id)
                passing = False
        if passing:
            log.warning("table %s: the store refused a write (%s); paused", table.id, exc)
            self._pause(table)
        else:
            log.error("table %s: the store failed for good (%r); closing it", table.id, exc)
            await self._close(table, CloseReason.FAILED, note="")
        raise NotSaved(passing) from None

    def _pause(self, table: Table) -> None:
        if table.paused_since is None:
            table.paused_since = self.clock.now()
            self._emit(table, UpdateKind.STORAGE, note="paused")

    def _saved(self, table: Table) -> None:
        """A write went through: a paused table resumes, its timer restarting fresh."""
        if table.paused_since is not None:
            table.paused_since = None
            table.resumed_at = self.clock.now()
            self._emit(table, UpdateKind.STORAGE, note="resumed")

    def _outage_over(self, table: Table) -> bool:
        since = table.paused_since
        return since is not None and self.clock.now() - since >= table.timers.store_outage

    async def _retry(self, table: Table, write: Callable[[], Awaitable[Any]]) -> None:
        """A write that must happen (it follows a committed action): retried while it passes."""
        failures = 0
        while True:
            try:
                await write()
            except Exception as exc:
                if not transient(exc) or self._outage_over(table):
                    await self._not_saved(table, exc, rollback=False)
                failures += 1
                log.warning("table %s: the store refused a write (%s); retrying", table.id, exc)
                self._pause(table)
                await self.clock.sleep(backoff(failures))
                continue
            self._saved(table)
            return

    async def _set_seat(self, table: Table, seat: int, info: SeatInfo | None) -> None:
        """Change one seat: stored first, so a refused write leaves the table as it was."""
        seats = list(table.seats)
        seats[seat] = info
        await self._write(table, self.store.update_seats(table.id, seats))
        table.seats = seats

    async def _set_meta(self, table: Table, **changes: Any) -> None:
        """Change the table's meta: stored first, so a refused write changes nothing."""
        meta = {**table.meta, **changes}
        await self._write(table, self.store.set_table_meta(table.id, meta))
        table.meta = meta

    async def _write(self, table: Table, write: Awaitable[Any]) -> None:
        """A lobby or seat write: ``NotSaved`` (and a pause or close) if the store refuses it."""
        try:
            await write
        except Exception as exc:
            await self._not_saved(table, exc, rollback=False)
        self._saved(table)

    async def _snapshot(self, table: Table, match: Match) -> None:
        """A snapshot is a shortcut for restarts (the log is the record): one try is enough."""
        try:
            await self.store.save_snapshot(
                table.id, match.seq, match.to_dict(), token=self._lease_token(table)
            )
        except LeaseLost:
            self._fenced_out(table.id)
        except Exception as exc:
            log.warning("table %s: no snapshot at %s (%s)", table.id, match.seq, exc)

    def _emit(
        self,
        table: Table,
        kind: UpdateKind,
        *,
        events: tuple[Event, ...] = (),
        actor: int | None = None,
        auto: bool = False,
        note: str = "",
        reason: CloseReason | None = None,
    ) -> None:
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
            note=note,
            reason=reason,
        )
        table.outbox.put_update(update)

    async def _publisher(self, table: Table) -> None:
        while True:
            update = await table.outbox.get()
            if update is None:
                return
            try:
                await self.sink.publish(table, update)
            except Exception:
                log.exception("presenter failed for table %s", table.id)

    async def _close(self, table: Table, reason: CloseReason, note: str) -> None:
        if table.closed:
            return
        if self.fence is not None and self.fence.token(table.id) is None:
            self._fenced_out(table.id)  # another process decides this table's end
            return
        table.closed = True
        status = "finished" if reason is CloseReason.FINISHED else "aborted"
        try:
            await self.store.close_table(table.id, status, self.clock.now())
        except Exception:  # the channel is freed all the same; recorded before its next table
            log.exception("table %s: could not record its closing", table.id)
            self._unrecorded_closes[table.channel_id] = (table.id, status)
        self._emit(table, UpdateKind.CLOSED, note=note, reason=reason)
        if self.tables.get(table.channel_id) is table:
            del self.tables[table.channel_id]
        for seat in range(4):
            self._players.pop((table.id, seat), None)
        await self._stop_tasks(table, flush=False)
        if self.fence is not None:
            await self.fence.release(table.id)

    async def channel_gone(self, channel_id: int) -> None:
        """The channel was deleted or the bot lost access: abort its table."""
        table = self.tables.get(channel_id)
        if table is not None:
            await self._close(table, CloseReason.CHANNEL_GONE, note="table-closed-channel-gone")

    async def _free_channel(self, channel_id: int) -> None:
        """Record a closing the store refused earlier, before a new table takes the channel."""
        if channel_id in self._unrecorded_closes:
            table_id, status = self._unrecorded_closes[channel_id]
            try:
                await self.store.close_table(table_id, status, self.clock.now())
            except Exception as exc:
                log.warning("table %s: its closing still cannot be recorded (%s)", table_id, exc)
                raise NotSaved(True) from None
            del self._unrecorded_closes[channel_id]

    def _start_driver(self, table: Table) -> None:
        context = table_context(*self._log_as(table))
        task = asyncio.create_task(self._drive(table), name=f"driver-{table.id}", context=context)
        table.tasks.append(task)

    async def _drive(self, table: Table) -> None:
        """The table's driver task (``DriverMixin``)."""
        raise NotImplementedError
