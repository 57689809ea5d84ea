"""A process's tables across restarts: restoring them, shutting down, the retention schedule."""

from __future__ import annotations

import asyncio
import contextlib

from bot.game import HandScored
from bot.rules import BIG_LIGHT_LEAGUE
from bot.service.faults import NotSaved, backoff, store_passing
from bot.service.fencing import Fence
from bot.service.runtime import Runtime, log
from bot.service.table import Table, Timers, UpdateKind
from bot.store import LiveTable

OPENING_POLL = 0.01  # seconds between two looks at the tables still being opened, at shutdown


class LifecycleMixin(Runtime):
    async def restore_all(self) -> int:
        """Bring back every table that was live when the bot stopped; returns how many.

        Also starts the retention schedule (``_prune_logs``) and, with a ``Fence``,
        the claiming of own tables another process still holds (``_claim_pending``).
        """
        if self._pruner is None:
            self._pruner = asyncio.create_task(self._prune_logs(), name="prune-logs")
        fence = self.fence
        if fence is None:
            lives = await self.store.live_tables()
        else:
            lives = await self.store.live_tables(fence.shards, fence.shard_count)
            self._claimer = asyncio.create_task(self._claim_pending(fence), name="claimer")
        restored = 0
        for live in lives:
            restored += await self._adopt(live)
        return restored

    async def _adopt(self, live: LiveTable) -> bool:
        """Restore one live table and drive it, if it is this process's to drive."""
        if self.fence is not None and not await self.fence.claim(
            self.store, live.table_id, self._fenced_out
        ):
            log.info("table %s is driven by another process; waiting for it", live.table_id)
            return False
        try:
            table = await self._restore(live)
        except Exception as exc:  # one broken table never stops the others
            if self.fence is not None:
                await self.fence.release(live.table_id)
            if not self.accepting:  # shutting down: the next start restores it
                log.warning("table %s not restored before the shutdown (%s)", live.table_id, exc)
            elif store_passing(exc):
                log.warning("table %s not restored yet (%s): trying again", live.table_id, exc)
                self._unrestored.add(live.table_id)
                if self._restorer is None or self._restorer.done():
                    self._restorer = asyncio.create_task(self._restore_later(), name="restorer")
            else:  # it would hold its channel for good: closed, so a new table may start
                log.exception("could not restore table %s: it closes", live.table_id)
                self._unrecorded_closes[live.channel_id] = (live.table_id, "aborted")
                with contextlib.suppress(NotSaved):  # else recorded before the next table
                    await self._free_channel(live.channel_id)
            return False
        self.tables[table.channel_id] = table
        self._start_tasks(table)
        if table.match is not None:  # the player to act gets a panel from this process
            self._emit(table, UpdateKind.SEATS)
        elif table.meta.get("thread_opening"):  # the presenter finishes opening its thread
            self._emit(table, UpdateKind.LOBBY)
        return True

    async def _restore_later(self) -> None:
        """Restore again, with backoff, the tables whose restore the store refused in
        passing (a busy file while the old process lets go, a failover): read again each
        time, as another process may have played or closed them meanwhile."""
        failures = 0
        while self._unrestored and self.accepting:
            failures += 1
            await self.clock.sleep(backoff(failures))
            for table_id in sorted(self._unrestored):
                try:
                    lives = await self.store.live_tables(table_id=table_id)
                except Exception as exc:
                    log.warning("table %s still cannot be read (%s)", table_id, exc)
                    continue
                self._unrestored.discard(table_id)  # again if refused again
                for live in lives:
                    await self._adopt(live)

    async def _claim_pending(self, fence: Fence) -> None:
        """Take over own tables whose lease another process held, once it expires."""
        while self.accepting:
            await asyncio.sleep(fence.ttl / 3)
            if not fence.pending or not self.accepting:
                continue
            try:
                lives = await self.store.live_tables(fence.shards, fence.shard_count)
            except Exception as exc:
                log.warning("cannot look for tables to take over (%s)", exc)
                continue
            for live in lives:
                if live.table_id in fence.pending and self.accepting and await self._adopt(live):
                    log.info("took over table %s", live.table_id)
            live_ids = {live.table_id for live in lives}
            fence.pending &= live_ids  # finished or aborted elsewhere meanwhile

    async def _restore(self, live: LiveTable) -> Table:
        settings = await self.store.guild_settings(live.guild_id)
        meta = dict(live.meta)
        timers = Timers.from_dict(meta.get("timers", settings.timers))
        table = Table(
            id=live.table_id,
            guild_id=live.guild_id,
            channel_id=live.channel_id,
            host_id=int(meta.get("host_id") or live.host_id),
            rules=live.rules,
            timers=timers,
            seed=live.seed,
            seats=list(live.seats),
            meta=meta,
        )
        if meta.get("started"):
            match = await self.store.restore(live)
            table.match = match
            result = match.result
            if result is not None and live.hands_recorded <= result.hand_no:
                # the bot stopped between the last play and the hand's record
                big = int(meta.get("big_light_league", BIG_LIGHT_LEAGUE))
                await self.store.record_hand(
                    table.id, result, list(match.tricks), table.full_seats, self.clock.now(), big
                )  # heard as the play would have been (a tournament's tally counts it)
                await self._tell_hooks(
                    table, lambda hook: hook.on_events(table, [HandScored(result)])
                )
            if match.winner_team is not None:
                # or between the last hand's record and the match's, whose second call
                # changes nothing: the match closes as finished, its result counted
                await self.store.record_match_end(table.id, match.winner_team, self.clock.now())
            table.last_action_at = live.last_action_at
            table.resumed_at = self.clock.now()
        return table

    async def shutdown(self, flush_seconds: float = 10.0) -> None:
        """Stop accepting actions, let in-flight ones finish, stop drivers.

        Every table stops at once, those a command was opening too once open; messages
        still queued for Discord get ``flush_seconds`` in all (the game state is
        already committed).
        """
        self.accepting = False
        if self._pruner is not None:
            self._pruner.cancel()
        if self._claimer is not None:
            self._claimer.cancel()
        if self._restorer is not None:
            self._restorer.cancel()
        if self._closer is not None:
            self._closer.cancel()

        async def stop(table: Table) -> None:
            async with table.lock:
                pass  # in-flight actions are committed before the lock is released
            if table.closed:  # a close under way (not all hold the lock): its last update
                await table.close_queued.wait()  # goes before the publisher stops
            await self._stop_tasks(table, flush=True)

        async def stop_all() -> None:
            # a table being opened holds no lock yet: its writes would meet the store
            # closed after this, and its opening be half saved; it is stopped once live
            while self._opening:
                await asyncio.sleep(OPENING_POLL)
            await asyncio.gather(*(stop(t) for t in list(self.tables.values())))
            await asyncio.gather(*self._draining, return_exceptions=True)
            # closings the store refused in passing: a last try, or the next process
            # would bring those tables back
            await self._record_closes()

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop_all(), flush_seconds)
        for table in list(self.tables.values()):
            for task in table.tasks:
                task.cancel()
        for task in list(self._draining):
            task.cancel()
        if self.fence is not None:
            await self.fence.release_all()  # a restarted process takes over at once

    async def _prune_logs(self) -> None:
        """Closed tables' action logs hold every hidden card: drop them after the retention.

        Hands, tricks, results and leaderboards stay; runs every ``Limits.prune_every``.
        """
        while True:
            cutoff = self.clock.now() - self.limits.retention_days * 86400
            try:
                pruned = await self.store.prune_logs(cutoff)
            except Exception as exc:  # the store may be paused: next time, then
                log.warning("could not prune old action logs: %s", exc)
            else:
                if pruned:
                    log.info("pruned the action logs of %d closed tables", pruned)
            await self.clock.sleep(self.limits.prune_every)
