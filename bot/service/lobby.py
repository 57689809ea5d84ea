"""The lobby: joining, seating computers, leaving, kicking, starting, aborting.

Permission rules: the host sits in seat 0 when opening a table (``bot.service.opening``).
Anyone may add computer players to empty seats in the lobby; the host or an admin may
kick before the start and start the match. A player who leaves mid-match is replaced
by a computer player under their name (a tournament's match keeps the seat on 托管
for its grace period first); when the last human leaves, the table is aborted.
Abort: the host or an admin at once, or a majority of the seated humans.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.ai import level_of
from bot.game import Match, MatchStarted
from bot.i18n import t
from bot.rules import seat_number
from bot.service.runtime import Runtime
from bot.service.table import (
    AbortOutcome,
    CloseReason,
    LeaveOutcome,
    SeatSignal,
    Table,
    UpdateKind,
    UserError,
)
from bot.store import Leaver, SeatInfo


class LobbyMixin(Runtime):
    async def seat_computer(
        self, channel_id: int, seat: int, still: Callable[[], bool] = lambda: True
    ) -> SeatInfo:
        """A computer player takes a human's seat mid-match, under their name; the old seat.

        ``still`` is asked once the table's lock is taken: the reason to replace them
        (absent, quiet) may have ended while the lock was held by their own move."""
        table = self.table_in(channel_id)
        async with self._holding(table):
            info = table.seats[seat]
            if info is None or info.kind != "human" or not still():
                raise UserError("That seat has no player to replace.", key="service-no-player")
            await self._set_seat(table, seat, _stand_in(table, info), _leaver(table, seat))
        self._emit(table, UpdateKind.SEATS)
        table.changed.set()
        return info

    async def join(self, channel_id: int, user_id: int, name: str, seat: int | None = None) -> int:
        table = self.table_in(channel_id)
        async with self._holding(table):
            if table.started:
                raise UserError(
                    "This table has started; wait for the next one.", key="service-started-wait"
                )
            if (sitting := table.seat_of(user_id)) is not None:
                number = seat_number(sitting)
                raise UserError(
                    f"You already sit in seat {number}.", key="service-already-seated", seat=number
                )
            seat = self._free_seat(table, seat)
            await self._write(table, self.store.upsert_player(user_id, name))
            await self._set_seat(table, seat, SeatInfo("human", user_id, name, None, False))
        self._emit(table, UpdateKind.LOBBY)
        return seat

    async def add_bot(self, channel_id: int, seat: int | None = None, level: str = "normal") -> int:
        """A computer player of ``level`` (easy, normal, expert) takes a seat; it is kept
        with the seat (so it survives a restart) and rates the seat on the leaderboards."""
        table = self.table_in(channel_id)
        try:
            level = level_of(level)
        except ValueError:
            raise UserError(
                "Computer players come in three levels: easy, normal and expert.",
                key="service-bot-level",
            ) from None
        async with self._holding(table):
            if table.started:
                raise UserError(
                    "Computer players join before the start.", key="service-bots-before-start"
                )
            seat = self._free_seat(table, seat)
            used = {s.name for s in table.seats if s is not None}
            names = (t(table.meta.get("locale"), "service-bot-name", n=n) for n in range(1, 8))
            name = next(n for n in names if n not in used)
            await self._set_seat(table, seat, SeatInfo("bot", None, name, level, False))
        self._emit(table, UpdateKind.LOBBY)
        return seat

    async def leave(self, channel_id: int, user_id: int) -> LeaveOutcome:
        """Mid-match a computer takes the seat, or where the table keeps seats for a while
        (``meta["leave_grace"]``) the player stays on 托管 and the hooks decide (AWAY)."""
        table = self.table_in(channel_id)
        async with self._holding(table):
            seat = self._seated(table, user_id)
            info = table.seats[seat]
            assert info is not None
            if not table.started:
                await self._unseat(table, seat, None)
                outcome = LeaveOutcome.LEFT
            elif table.meta.get("leave_grace"):
                await self._unseat(table, seat, replace(info, auto=True))
                outcome = LeaveOutcome.AWAY
            else:
                await self._unseat(table, seat, _stand_in(table, info), _leaver(table, seat))
                outcome = LeaveOutcome.REPLACED
            no_humans = not table.humans and not table.meta.get("keep_without_humans")
        if no_humans:
            await self._close(table, CloseReason.EVERYONE_LEFT)
            return LeaveOutcome.CLOSED
        if outcome is not LeaveOutcome.LEFT:
            signal = SeatSignal.AWAY if outcome is LeaveOutcome.AWAY else SeatSignal.LEFT
            await self._signal(table, seat, signal, info)
        self._emit(table, UpdateKind.SEATS if table.started else UpdateKind.LOBBY)
        table.changed.set()
        return outcome

    async def kick(self, channel_id: int, by_user: int, seat: int, is_admin: bool) -> SeatInfo:
        table = self.table_in(channel_id)
        async with self._holding(table):
            if by_user != table.host_id and not is_admin:
                raise UserError("Only the host or an admin can kick.", key="service-kick-host")
            if table.started:
                raise UserError("You can only kick before the start.", key="service-kick-before")
            if not 0 <= seat < 4 or table.seats[seat] is None:
                number = seat_number(seat)
                raise UserError(f"Seat {number} is empty.", key="service-seat-empty", seat=number)
            info = table.seats[seat]
            assert info is not None
            if info.user_id == by_user:
                raise UserError(
                    "That's your own seat: use `/shengji leave`.", key="service-kick-self"
                )
            await self._unseat(table, seat, None)
            no_humans = not table.humans
        if no_humans:  # an admin kicked the last person: nobody would host it
            await self._close(table, CloseReason.EVERYONE_LEFT)
            return info
        self._emit(table, UpdateKind.LOBBY)
        return info

    async def _unseat(
        self, table: Table, seat: int, replaced: SeatInfo | None, leaver: Leaver | None = None
    ) -> None:
        """A player leaves ``seat`` (left, or kicked): their abort vote goes with them, and
        a host keeps no rights (the next seated human hosts), all in the seat's one write
        (with ``leaver``, the one that counts them for the match, ``_set_seat``)."""
        info = table.seats[seat]
        assert info is not None
        changes: dict[str, Any] = {}
        votes = table.meta.get("votes", [])
        if info.user_id is not None and info.user_id in votes:
            changes["votes"] = [v for v in votes if v != info.user_id]
        if info.user_id == table.host_id:
            others = [table.seats[i] for i in table.humans if i != seat]
            if others:
                successor = others[0]
                assert successor is not None and successor.user_id is not None
                changes["host_id"] = successor.user_id
        await self._set_seat(table, seat, replaced, leaver, **changes)
        table.host_id = changes.get("host_id", table.host_id)

    async def start(self, channel_id: int, by_user: int, is_admin: bool = False) -> Table:
        self._check_accepting()
        return await self._start(channel_id, by_user, is_admin)

    async def _start(
        self, channel_id: int, by_user: int, is_admin: bool, *, opening: bool = False
    ) -> Table:
        table = self.table_in(channel_id)
        async with self._holding(table, opening=opening):
            if table.started:
                raise UserError("This table has already started.", key="service-already-started")
            if by_user != table.host_id and not is_admin:
                host = table.name(table.seat_of(table.host_id))
                raise UserError(
                    f"Only the host ({host}) or an admin can start.",
                    key="service-start-host",
                    host=host,
                )
            empty = [seat_number(i) for i, s in enumerate(table.seats) if s is None]
            if empty:
                raise UserError(
                    f"Four players are needed: seat(s) {empty} empty (try `/shengji addbot`).",
                    key="service-need-four",
                    seats=tuple(empty),  # listed as the reader's language lists (1、3)
                    count=len(empty),
                )
            # no snapshot needed: the seed rebuilds the match until its first one
            await self._set_meta(table, started=True, started_at=self.clock.now(), votes=[])
            table.match = Match.new(table.seed, table.rules)
            table.last_action_at = self.clock.now()
        self._emit(table, UpdateKind.EVENTS, events=(MatchStarted(),))
        table.changed.set()  # the driver, waiting in the lobby, deals
        return table

    async def abort(self, channel_id: int, user_id: int, is_admin: bool) -> AbortOutcome:
        """Abort now (host/admin, or the vote that makes a majority) or add a vote."""
        table = self.table_in(channel_id)
        async with self._holding(table):
            if user_id != table.host_id and not is_admin:
                if table.seat_of(user_id) is None:
                    raise UserError(
                        "Only the host, an admin or a seated player can abort.",
                        key="service-abort-who",
                    )
                # a vote belongs to a seated player: one who left no longer counts
                votes = {v for v in table.meta.get("votes", []) if table.seat_of(v) is not None}
                votes.add(user_id)
                await self._set_meta(table, votes=sorted(votes))
                needed = len(table.humans) // 2 + 1
                if len(votes) < needed:
                    return AbortOutcome(aborted=False, votes=len(votes), needed=needed)
        await self._close(table, CloseReason.ABORTED)
        return AbortOutcome(aborted=True)

    @staticmethod
    def _free_seat(table: Table, seat: int | None) -> int:
        if seat is None:
            for i, s in enumerate(table.seats):
                if s is None:
                    return i
            raise UserError("All four seats are taken.", key="service-full")
        if not 0 <= seat < 4:
            raise UserError(
                "Seats are numbered 1 to 4 (1 and 3 are partners, 2 and 4).",
                key="service-seat-range",
            )
        if table.seats[seat] is not None:
            raise UserError(
                f"Seat {seat_number(seat)} is taken by {table.name(seat)}.",
                key="service-seat-taken",
                seat=seat_number(seat),
                name=table.name(seat),
            )
        return seat


def _leaver(table: Table, seat: int) -> Leaver | None:
    """The human leaving ``seat`` mid-match, counted for it as a loss; None once the match
    is decided (its record already counted them in their seat)."""
    info = table.seats[seat]
    assert info is not None and info.user_id is not None
    if table.match is not None and table.match.winner_team is not None:
        return None
    return Leaver(seat, info.user_id, info.name)


def _stand_in(table: Table, info: SeatInfo) -> SeatInfo:
    """The computer player that plays on for a human who left, under their name (said in
    the table's language when it sits down: a seat's name is kept, like a player's)."""
    name = t(table.meta.get("locale"), "service-bot-stands-in", name=info.name)
    return SeatInfo("bot", None, name, "heuristic", False)
