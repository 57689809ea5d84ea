"""The service's core: commit-before-tell, on the live tables and their store writes.

Every other part of the service (lobby, play, driver, records) builds on
``Runtime``: ``_apply`` applies an action, commits it, then queues the update, and
``_record`` writes what a hand's end or a match's end leaves behind. Below it,
``writes`` (``StoreWrites``: a table's writes, a refused write's pause or close, and
``_close``, which frees the channel) and ``live`` (``LiveTables``: the tables, their
leases, tasks, deadlines and the updates the publisher feeds the presenter).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from functools import partial

from bot.ai import suggest
from bot.game import (
    Action,
    Event,
    GameError,
    HandScored,
    HandStarted,
    MatchOver,
    NotYourTurn,
    SeatView,
    action_to_dict,
)
from bot.rules import BIG_LIGHT_LEAGUE, RulesError
from bot.service.table import SeatSignal, Table, TableHooks, UpdateKind, UserError
from bot.service.writes import StoreWrites
from bot.store import LeaseLost, SeatInfo

log = logging.getLogger("bot.service")


class Runtime(StoreWrites):
    """The live tables with their writes, and the one way an action is taken."""

    # --- commit-before-tell ------------------------------------------------------------

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
                events = match.timeout(seat, partial(_suggest, table.id, seat))
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
                table.id, match.seq, seat, action_to_dict(accepted, auto=auto), now, token=token
            )
        except LeaseLost:
            self._fence_refused(table.id)
        except Exception as exc:
            await self._action_refused(table, exc)
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
        await self._tell_hooks(table, lambda hook: hook.on_events(table, events))

    async def _signal(
        self, table: Table, seat: int, signal: SeatSignal, player: SeatInfo | None = None
    ) -> None:
        """Tell the hooks what the person at ``seat`` did (``player``: who sat there)."""
        player = player or table.seats[seat]
        if player is not None and player.kind == "human":
            await self._tell_hooks(table, lambda hook: hook.on_seat(table, seat, signal, player))

    async def _tell_hooks(
        self, table: Table, call: Callable[[TableHooks], Awaitable[None]]
    ) -> None:
        for hook in self.hooks:
            try:
                await call(hook)
            except Exception:  # a feature's failure never stops the game
                log.exception("hook failed at table %s", table.id)


def _suggest(table_id: int, seat: int, view: SeatView) -> Action:
    """The timer's choice for ``seat``; an error is logged here, and ``Match.timeout`` then
    takes the safest move, so the game goes on."""
    try:
        return suggest(view)
    except Exception:
        log.exception("the timer's choice at table %s seat %s failed", table_id, seat)
        raise
