"""Writing a table's changes to the store, and what a refused write does (``faults``).

A write the store refuses pauses the table (passing) or closes it (for good), and the
change is not made here either (the match is read back from the store, tried again
while the store refuses that too in passing); closing frees the channel even when the
store cannot record it (recorded before the channel's next table).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, NoReturn

from bot.game import Match
from bot.service.faults import NotSaved, backoff, transient, tried_while_passing
from bot.service.live import LiveTables
from bot.service.table import CloseReason, Table, UpdateKind, UserError
from bot.store import LeaseLost, Leaver, SeatInfo

log = logging.getLogger("bot.service")

# real seconds between the tries of a rollback's read while the store refuses it in
# passing: the failure that refused the action often refuses the next call too (a
# PostgreSQL failover ends the new session as well), and a match that cannot be put
# back to what the store holds must close
ROLLBACK_AGAIN = (0.2, 1.0, 3.0)


class StoreWrites(LiveTables):
    """The table's writes and closing, on the live tables."""

    async def _not_saved(
        self, table: Table, exc: Exception, *, rollback: bool, stored: Match | None = None
    ) -> NoReturn:
        """A write the store refused: pause (passing) or close (for good); raise ``NotSaved``.

        With ``rollback`` the match is put back to what the store holds (``stored``, if
        already read), so the refused action did not happen here either. A table that
        closed while the write was under way (its place lost, an abort) refused it for
        that: nothing to pause, roll back or close, and the player is told it is closed.
        """
        if table.closed:
            raise UserError("This table is closed.", key="service-closed")
        passing = transient(exc)
        if rollback:
            stored = stored if stored is not None else await self._read_back(table)
            if stored is None:
                log.error("table %s: could not roll back a refused action", table.id)
                passing = False
            else:
                table.match = stored
        if passing:
            log.warning("table %s: the store refused a write (%s); paused", table.id, exc)
            self._pause(table)
        else:
            log.error("table %s: the store failed for good (%r); closing it", table.id, exc)
            await self._close(table, CloseReason.FAILED)
        raise NotSaved(passing) from None

    async def _action_refused(self, table: Table, exc: Exception) -> None:
        """An action's write the store refused. It stands if the store holds it after all
        (a refusal in passing can be the connection lost after the commit, before its
        answer: a PostgreSQL session ended at the commit); else the match goes back to
        what the store holds (``_not_saved``, which raises)."""
        stored = await self._read_back(table) if transient(exc) and not table.closed else None
        match = table.match
        if stored is not None and match is not None and stored.seq == match.seq:
            log.warning("table %s: action %s was stored, its answer lost", table.id, match.seq)
            return
        await self._not_saved(table, exc, rollback=True, stored=stored)

    async def _read_back(self, table: Table) -> Match | None:
        """The match as the store holds it, tried again while the store refuses it in
        passing; None if it still cannot be read."""
        try:
            return await tried_while_passing(
                lambda: self._stored_match(table),
                ROLLBACK_AGAIN,
                f"table {table.id}: the match not read back yet",
            )
        except Exception as exc:
            log.warning("table %s: the match not read back (%r)", table.id, exc)
            return None

    async def _stored_match(self, table: Table) -> Match:
        live = await self.store.live_tables(table_id=table.id)
        return await self.store.restore(live[0])

    def _pause(self, table: Table) -> None:
        if table.paused_since is None:
            table.paused_since = self.clock.now()
            self._emit(table, UpdateKind.STORAGE, paused=True)
            table.changed.set()  # the driver, waiting on a timer, waits out the pause instead

    def _saved(self, table: Table) -> None:
        """A write went through: a paused table resumes, its timer restarting fresh."""
        if table.paused_since is not None:
            table.paused_since = None
            table.resumed_at = self.clock.now()
            self._emit(table, UpdateKind.STORAGE, paused=False)

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

    async def _set_seat(
        self,
        table: Table,
        seat: int,
        info: SeatInfo | None,
        leaver: Leaver | None = None,
        **meta_changes: Any,
    ) -> None:
        """Change one seat, and the meta's ``meta_changes`` in the same write: stored first,
        so a refused write leaves the table as it was. With ``leaver`` (a human who left
        the undecided match, ``info`` the computer playing on) that write counts them for
        the match as lost (``Store.leave_match``)."""
        seats = list(table.seats)
        seats[seat] = info
        async with table.meta_lock if meta_changes else contextlib.nullcontext():
            meta = {**table.meta, **meta_changes} if meta_changes else None
            if leaver is None:
                write = self.store.update_seats(table.id, seats, meta)
            else:
                write = self.store.leave_match(table.id, seats, meta, leaver, self.clock.now())
            await self._write(table, write)
            table.seats = seats
            if meta is not None:
                table.meta = meta

    async def _set_meta(self, table: Table, **changes: Any) -> None:
        """Change the table's meta: stored first, so a refused write changes nothing.

        One change at a time (``Table.meta_lock``), each on the meta the last one left:
        the presenter keeps the thread it opened while the host may already be starting
        the match, and two changes made at once from the same old meta would each write
        the other one away (the thread's id lost, every button then refused as from
        the wrong place).
        """
        async with table.meta_lock:
            meta = {**table.meta, **changes}
            await self._write(table, self.store.set_table_meta(table.id, meta))
            table.meta = meta

    async def _keep_meta(self, table: Table, **changes: Any) -> None:
        """A meta change that must be kept, not refused: where the table plays, once its
        thread may exist (a refused write would leave the thread unknown, and every
        command there answered as from a place with no table). Retried while the store
        refuses it in passing (``_retry``: the table paused meanwhile)."""
        async with table.meta_lock:
            meta = {**table.meta, **changes}
            await self._retry(table, lambda: self.store.set_table_meta(table.id, meta))
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

    async def _close(self, table: Table, reason: CloseReason) -> None:
        if table.closed:
            return
        if self.fence is not None and self.fence.token(table.id) is None:
            self._fenced_out(table.id)  # another process decides this table's end
            return
        table.closed = True
        try:
            await self._record_close(table, "finished" if reason.finished else "aborted")
            self._emit(table, UpdateKind.CLOSED, reason=reason)
        finally:
            table.close_queued.set()
        if self.tables.get(table.channel_id) is table:
            del self.tables[table.channel_id]
        for seat in range(4):
            self._players.pop((table.id, seat), None)
        await self._stop_tasks(table, flush=False)
        if self.fence is not None:
            await self.fence.release(table.id)

    async def channel_gone(self, channel_id: int, table: Table | None = None) -> None:
        """The channel was deleted or the bot lost access: abort its table. Given
        ``table``, that table only: a failure heard about a table that has closed since
        (a task, a look-up under way) must not close the next table in its channel."""
        now = self.tables.get(channel_id)
        if now is not None and (table is None or now is table):
            await self._close(now, CloseReason.CHANNEL_GONE)

    async def guild_gone(self, guild_id: int) -> None:
        """The bot was removed from a server (or was while it was down): its tables there
        close as a deleted channel's do, their players told by DM, nothing lost; no
        table would ever hear from that server again, and each would hold its channel."""
        for table in [t for t in self.tables.values() if t.guild_id == guild_id]:
            await self._close(table, CloseReason.CHANNEL_GONE)

    async def _record_close(self, table: Table, status: str) -> None:
        """Record the table's closing; refused, the channel is freed all the same and the
        closing recorded before the channel's next table (``_free_channel``), or, refused
        in passing, as soon as the store takes writes again (``_closings``), so that a
        restart meanwhile does not bring the table back."""
        try:
            await self.store.close_table(table.id, status, self.clock.now())
        except Exception as exc:
            self._unrecorded_closes[table.channel_id] = (table.id, status)
            if not transient(exc):
                log.error("table %s: could not record its closing (%r)", table.id, exc)
                return
            log.warning("table %s: its closing not recorded yet (%s)", table.id, exc)
            if self._closer is None or self._closer.done():
                self._closer = asyncio.create_task(self._closings(), name="closings")

    async def _closings(self) -> None:
        """Record the closings the store refused in passing, retrying with backoff."""
        failures = 0
        while self._unrecorded_closes and self.accepting:
            failures += 1
            await self.clock.sleep(backoff(failures))
            await self._record_closes()

    async def _record_closes(self) -> None:
        """One more try at each closing the store refused earlier."""
        for channel_id in list(self._unrecorded_closes):
            with contextlib.suppress(NotSaved):
                await self._free_channel(channel_id)

    async def _free_channel(self, channel_id: int) -> None:
        """Record a closing the store refused earlier, before a new table takes the channel."""
        closing = self._unrecorded_closes.get(channel_id)
        if closing is None:
            return
        table_id, status = closing
        try:
            await self.store.close_table(table_id, status, self.clock.now())
        except Exception as exc:
            log.warning("table %s: its closing still cannot be recorded (%s)", table_id, exc)
            raise NotSaved(True) from None
        # recorded twice at once (``_closings``, a new table), or a later one refused since
        if self._unrecorded_closes.get(channel_id) == closing:
            del self._unrecorded_closes[channel_id]
