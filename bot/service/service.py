"""The table service (the facade): drives every live table, owns their clocks, never loses a game.

The Discord layer (``cogs``) parses interactions and calls this service; the
service checks who may do what, applies actions to the ``Match`` under a per-table
lock, commits each accepted action to the store *before* anyone is told it was
accepted, and hands the resulting updates to a ``Sink`` (the presenter that posts
to Discord) through a per-table queue, so a slow or failing Discord call never
blocks or breaks the game, and messages go out in order.

Each live table has one driver task: it deals in rounds, gives computer players
their turns at a human pace, closes the bidding window, warns and then plays for
players whose time runs out, and starts the next hand after the summary. Timers
are derived from the time of the last accepted action, which the store keeps, so
they resume after a restart without extra writes.

Decisions where the issues are silent:

* The host sits in seat 0 when opening a table. Anyone may add computer players
  to empty seats in the lobby; the host or an admin may kick before the start.
* A player who leaves mid-match is replaced by a computer player under their
  name; when the last human leaves, the table is aborted.
* Abort: the host or an admin at once, or a majority of the seated humans.
* A table whose channel is gone or whose posts are refused keeps its state; the
  presenter reports it and the table is aborted (after a restart it is gone).
"""

from __future__ import annotations

from dataclasses import replace

from bot.ai import suggest_cards
from bot.game import (
    Action,
    Declare,
    Event,
    SeatView,
)
from bot.rules import Card
from bot.service.driver import DriverMixin
from bot.service.lifecycle import LifecycleMixin
from bot.service.opening import OpeningMixin
from bot.service.records import RecordsMixin
from bot.service.reviews import ReviewMixin
from bot.service.table import SeatSignal, Table, UpdateKind, UserError


class TableService(LifecycleMixin, OpeningMixin, DriverMixin, ReviewMixin, RecordsMixin):
    """Every live table of this bot process: the one object the Discord layer talks to."""

    async def shutdown(self, flush_seconds: float = 10.0) -> None:
        await super().shutdown(flush_seconds)
        self.close_reviews()  # a review under way ends with the process

    async def act(
        self, channel_id: int, user_id: int, action: Action, seq: int | None = None
    ) -> list[Event]:
        """A player's bid, burial or play. Raises ``UserError`` with the reason if refused.

        ``seq``: the match's seq the player chose at (their panel's, or the table's when
        their command arrived). If the table moved on meanwhile, the choice is refused:
        the turn timer may have played for them while the click waited for the lock, and
        the same cards must not become their next decision (a lead they never chose).
        """
        self._check_accepting()
        table = self.table_in(channel_id)
        seat = self._seated(table, user_id, started=True)
        async with self._holding(table):
            assert table.match is not None
            if seq is not None and table.match.seq != seq:
                raise UserError(
                    "The game moved on before your move arrived (your time may have run "
                    "out), so it was not made.",
                    key="service-moved-on",
                )
            events = await self._apply(table, seat, action)
            await self._signal(table, seat, SeatSignal.ACTED)
            if isinstance(action, Declare):
                await self._computer_bids(table)  # computer players may overcall at once
            return events

    async def hint(self, channel_id: int, user_id: int) -> tuple[Card, ...]:
        table = self.table_in(channel_id)
        seat = table.seat_of(user_id)
        if seat is None or table.match is None:
            raise UserError(
                "Hints are for seated players once the game has started.", key="service-hint-who"
            )
        if table.rules.assistance == "none":  # seed 000: 不许提示
            raise UserError(
                "Hints and suggestions are off at this table (no assistance).",
                key="service-hint-off",
            )
        view = table.match.view(seat)
        if view.expecting in ("deal", "end_bidding"):
            raise UserError(
                "Hints start once the cards are dealt and played.", key="service-hint-deal"
            )
        if view.expecting not in ("play", "bury") or view.to_act != seat:
            raise UserError(
                "It isn't your turn, so there is nothing to suggest yet.", key="service-hint-turn"
            )
        return suggest_cards(view)

    async def set_auto(self, channel_id: int, user_id: int, on: bool | None = None) -> bool:
        """Toggle (or set) 托管: the computer plays for this player until they toggle back."""
        table = self.table_in(channel_id)
        async with self._holding(table):
            seat = self._seated(table, user_id)
            info = table.seats[seat]
            assert info is not None
            value = (not info.auto) if on is None else on
            await self._set_seat(table, seat, replace(info, auto=value))
            await self._signal(table, seat, SeatSignal.ACTED)
        table.changed.set()
        self._emit(table, UpdateKind.SEATS)
        return value

    def view_for(self, channel_id: int, user_id: int) -> tuple[Table, int, SeatView]:
        """The caller's own view (for the hand panel), or UserError."""
        table = self.table_in(channel_id)
        seat = self._seated(table, user_id, started=True)
        assert table.match is not None
        return table, seat, table.match.view(seat)
