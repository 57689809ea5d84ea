"""The service's timing around the one table procedure (``bot.game.driver``).

Each live table has one driver task, from its opening: in the lobby it waits for the
start (and probes the store while the table is paused, below); then it deals in
rounds, gives computer players their turns at a human pace, closes the bidding
window, warns and then plays for players whose time runs out, and starts the next
hand after the summary. Timers
are derived from the time of the last accepted action, which the store keeps, so
they resume after a restart without extra writes.

A computer player that searches (the expert, ``think_ms`` per decision, a table
setting kept in the table's meta) thinks in a worker thread of ``THINKERS`` while
the table waits its human pace (``bot_delay``), so the event loop, and every other
table, go on meanwhile; the table's lock is not held while it thinks, and the
answer counts only if the table has not moved on. The other players decide in well
under a millisecond, less than the hop to a thread, so they decide on the loop.
``THINKERS`` has two workers: more threads thinking at once would only share the
same two cores and the interpreter lock with the loop. A decision's ``think_ms``
counts from the turn, not from when a worker takes it: with more experts thinking
than workers, a job's wait is taken from its search (one that waited its whole
time answers with the expert's base policy), so no answer waits for others' full
searches.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bot.ai import ExpertPlayer, make_player
from bot.ai.expert import THINK_MS
from bot.game import (
    SYSTEM,
    Action,
    Deal,
    Declare,
)
from bot.game.driver import AskBid, DealCards, MatchDone, Turn, system_action
from bot.service.faults import NotSaved, backoff
from bot.service.runtime import Runtime, log
from bot.service.table import CloseReason, SeatSignal, Table, UpdateKind, UserError

THINKERS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="shengji-think")


class DriverMixin(Runtime):
    def _player(self, table: Table, seat: int) -> Any:
        key = (table.id, seat)
        if key not in self._players:
            info = table.seats[seat]
            kind = info.ai if info is not None and info.ai else "normal"
            think_ms = float(table.meta.get("think_ms", THINK_MS))
            self._players[key] = make_player(kind, seed=table.seed + seat, think_ms=think_ms)
        return self._players[key]

    def _computer_plays(self, table: Table, seat: int) -> bool:
        info = table.seats[seat]
        return info is not None and (info.kind == "bot" or info.auto)

    async def _drive(self, table: Table) -> None:
        """Step the table until it closes; no failure leaves the task dead and the table live.

        A write the store refuses for a while pauses the table (``_not_saved`` says so,
        and wakes this task): nothing is decided while paused, not even a timeout, and
        the store is probed with backoff until it takes a write, whoever's write was
        refused (a person's play or a lobby's join has no one else to retry it); then
        the table resumes by itself, or closes once ``store_outage`` has passed. The
        lobby is driven too for that reason alone. A permanent failure or a bug closes it.
        """
        failures = 0
        while not table.closed:
            try:
                if table.paused_since is not None:
                    await self._probe(table)
                await self._step(table)
                failures = 0
            except asyncio.CancelledError:
                raise
            except NotSaved as err:
                if not err.transient or table.closed:
                    return  # ``_not_saved`` closed the table
                if self._outage_over(table):
                    log.error("table %s: the store stayed down; closing it", table.id)
                    await self._close(table, CloseReason.FAILED)
                    return
                failures += 1
                await self.clock.sleep(backoff(failures))
            except Exception:
                if table.closed:  # closed meanwhile, or fenced out: another process drives it
                    return
                log.exception("driver of table %s failed; closing the table", table.id)
                await self._close(table, CloseReason.BUG)
                return

    async def _probe(self, table: Table) -> None:
        """One harmless write (the table's meta, unchanged): ``NotSaved`` while still refused."""
        async with table.lock, table.meta_lock:
            if not table.closed and table.paused_since is not None:
                await self._write(table, self.store.set_table_meta(table.id, table.meta))

    async def _step(self, table: Table) -> None:
        """One step of the table procedure (``bot.game.driver``), at the table's pace."""
        match = table.match
        if match is None:  # the lobby: nothing to decide until the start (or a pause)
            table.changed.clear()
            await table.changed.wait()
            return
        timers = table.timers
        step = table.driver.next()
        if isinstance(step, MatchDone):
            await self._close(table, CloseReason.FINISHED)
            return
        if isinstance(step, AskBid):
            async with table.lock:
                if not table.closed:
                    await self._ask_bid(table, step.seat)
            return
        if isinstance(step, DealCards):
            await self.clock.sleep(timers.deal_pace)
            async with table.lock:
                if table.closed or match.expecting()[0] != "deal":
                    return
                await self._apply(table, SYSTEM, Deal(step.count))
            return
        kind, actor = match.expecting()
        deadline = self.deadline(table)
        assert deadline is not None
        if not isinstance(step, Turn):  # closing the bidding, the next hand: on a timer
            table.changed.clear()
            if await self.clock.wait(table.changed, deadline):
                return  # a bid came in: keep waiting until the window closes
            async with table.lock:
                if table.closed or match.expecting()[0] != kind:
                    return
                if self.clock.now() < (self.deadline(table) or deadline):
                    return  # a bid stored while this waited for the lock: a fresh window
                if kind == "next_hand" and not all(h.may_deal(table) for h in self.hooks):
                    await self._close(table, CloseReason.TIME_UP)
                    return
                closing = system_action(step)
                assert closing is not None
                await self._apply(table, SYSTEM, closing)
            return
        assert actor is not None and actor != SYSTEM
        if self._computer_plays(table, actor):
            await self._computer_turn(table, actor)
            return
        # a human decides: warn, then play for them
        table.changed.clear()
        warn_at = deadline - timers.warn_before
        seq = match.seq
        if self.clock.now() < warn_at:
            if await self.clock.wait(table.changed, warn_at):
                return
            if match.seq == seq:
                warning = int(timers.warn_before)
                self._emit(table, UpdateKind.WARNING, actor=actor, seconds=warning)
        if await self.clock.wait(table.changed, deadline):
            return
        async with table.lock:
            if table.closed or match.seq != seq or self._computer_plays(table, actor):
                return
            await self._apply(table, actor, None)
            await self._signal(table, actor, SeatSignal.TIMED_OUT)

    async def _computer_turn(self, table: Table, seat: int) -> None:
        """A computer player's burial or play, at a human pace; a search thinks off the loop."""
        match = table.match
        assert match is not None
        seq, view = match.seq, match.view(seat)
        player = self._player(table, seat)
        thinking = None
        if isinstance(player, ExpertPlayer) and view.expecting == "play":
            # due from now, not from when a thinker is free: waiting for one comes out
            # of the search (several tables' experts may be thinking at once)
            thinking = asyncio.get_running_loop().run_in_executor(
                THINKERS, player.act, view, player.due()
            )
        await self.clock.sleep(table.timers.bot_delay)
        action = None
        if thinking is not None:
            try:
                action = await thinking
            except Exception:
                _failed(table, seat)
        async with table.lock:
            if table.closed or match.seq != seq or not self._computer_plays(table, seat):
                return  # the table moved on meanwhile: this answer is stale
            if thinking is None:
                action = _asked(table, seat, lambda: player.act(view))
            try:  # None: the timer's choice, or the safest move (``Match.timeout``)
                await self._apply(table, seat, action, auto=True)
            except NotSaved:
                raise
            except UserError:  # a computer player's mistake must not stall the table
                if table.closed:
                    return  # closed under the play's write (``_not_saved``)
                log.warning("computer player at table %s seat %s erred", table.id, seat)
                await self._apply(table, seat, None)

    async def _ask_bid(self, table: Table, seat: int) -> None:
        """The driver asks ``seat`` whether it bids: a computer answers, a person bids at will."""
        match = table.match
        assert match is not None
        if not self._computer_plays(table, seat) or not match.legal_bids(seat):
            return
        player, view = self._player(table, seat), match.view(seat)
        action = _asked(table, seat, lambda: player.act(view))  # None: no bid
        if isinstance(action, Declare):
            try:
                await self._apply(table, seat, action, auto=True)
            except NotSaved:
                raise
            except UserError:
                pass  # a bid the rules refuse: the computer simply does not bid

    async def _computer_bids(self, table: Table) -> None:
        """Answer the bid questions the driver has queued (after a person's bid)."""
        while (seat := table.driver.take_question()) is not None:
            await self._ask_bid(table, seat)


def _asked(table: Table, seat: int, decide: Callable[[], Action]) -> Action | None:
    """A computer player's answer, or None if it raised: the table goes on with the safest
    move (or no bid), since a bug in one computer player must not close a whole table."""
    try:
        return decide()
    except Exception:
        _failed(table, seat)
        return None


def _failed(table: Table, seat: int) -> None:
    log.exception("computer player at table %s seat %s failed: the safest move", table.id, seat)
