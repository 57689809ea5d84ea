"""The lobby: opening, joining, seating computers, leaving, kicking, starting, aborting.

Permission rules: the host sits in seat 0 when opening a table. Anyone may add
computer players to empty seats in the lobby; the host or an admin may kick
before the start and start the match. A player who leaves mid-match is replaced
by a computer player under their name (a tournament's match keeps the seat on 托管
for its grace period first); when the last human leaves, the table is aborted.
Abort: the host or an admin at once, or a majority of the seated humans.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.ai import level_of
from bot.ai.expert import THINK_MS
from bot.game import (
    Match,
    MatchStarted,
)
from bot.i18n import t
from bot.logs import bind_table
from bot.rules import BIG_LIGHT_LEAGUE, RuleSet, seat_number
from bot.service.faults import NotSaved, transient
from bot.service.runtime import Runtime, log
from bot.service.table import (
    AbortOutcome,
    CloseReason,
    LeaveOutcome,
    SeatSignal,
    Table,
    Timers,
    UpdateKind,
    UserError,
)
from bot.store import (
    GuildSettings,
    SeatInfo,
    StoreError,
)


def kept_settings(settings: GuildSettings) -> dict[str, Any]:
    """The server settings a table keeps from its opening to its end, tournament
    matches included: the 大光 league points (seed 001 特殊房间配置) and the expert's
    time per decision (ms)."""
    return {
        "big_light_league": settings.timers.get("big_light_league", BIG_LIGHT_LEAGUE),
        "think_ms": settings.timers.get("think_ms", THINK_MS),
    }


class LobbyMixin(Runtime):
    async def new_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        rules: RuleSet | None = None,
        locale: str | None = None,
    ) -> Table:
        """Open a lobby; ``locale`` is the server's preferred language (its setting wins)."""
        self._check_accepting()
        existing = self.tables.get(channel_id)
        if existing is not None and not existing.closed:
            raise UserError(
                "This channel already has a table: join it, or open one elsewhere.",
                key="service-table-exists",
            )
        settings: GuildSettings = await self.store.guild_settings(guild_id)
        self._check_room(guild_id, host_id, settings)
        self._opening.append((guild_id, host_id))  # no await between the check and this
        try:
            return await self._open(
                guild_id, channel_id, host_id, host_name, settings, rules, locale
            )
        finally:
            self._opening.remove((guild_id, host_id))

    async def _open(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        settings: GuildSettings,
        rules: RuleSet | None,
        locale: str | None,
    ) -> Table:
        rules = rules or settings.rules
        timers = Timers.from_dict(settings.timers)
        seats: list[SeatInfo | None] = [SeatInfo("human", host_id, host_name, None, False)]
        seats += [None, None, None]
        await self.store.upsert_player(host_id, host_name)
        await self._free_channel(channel_id)
        seed = self._seed()
        now = self.clock.now()
        table_id = await self._create(guild_id, channel_id, host_id, rules, seed, seats, now)
        table = Table(table_id, guild_id, channel_id, host_id, rules, timers, seed, seats)
        bind_table(*self._log_as(table))  # the rest of this command logs as the table's
        table.meta = {"timers": timers.to_dict(), "started": False, "votes": []}
        table.meta["locale"] = settings.timers.get("language") or locale  # for table messages
        table.meta.update(kept_settings(settings))
        await self._first_meta(table)
        self.tables[channel_id] = table
        self._start_tasks(table)
        self._emit(table, UpdateKind.LOBBY)
        return table

    async def _first_meta(self, table: Table) -> None:
        """A new table's meta, written just after its row: refused, the row is closed (or
        its closing kept for the channel's next table, ``_free_channel``) and the opener
        told it was not saved, so no live row is left that nothing drives."""
        try:
            await self.store.set_table_meta(table.id, table.meta)
        except Exception as exc:
            log.warning("could not open table %s: %s", table.id, exc)
            await self._record_close(table, "aborted")
            if self.fence is not None:
                await self.fence.release(table.id)
            raise NotSaved(transient(exc)) from None

    async def _create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        rules: RuleSet,
        seed: int,
        seats: list[SeatInfo | None],
        now: float,
    ) -> int:
        """The new table's row; a /new that lost the race for the channel is told so."""
        try:
            table_id = await self.store.create_table(
                guild_id, channel_id, host_id, rules, seed, seats, None, now
            )
        except StoreError:  # a concurrent /new (or another process) took the channel first
            raise UserError(
                "This channel already has a table: join it, or open one elsewhere.",
                key="service-table-exists",
            ) from None
        except Exception as exc:
            log.warning("could not open a table in %s: %s", channel_id, exc)
            raise NotSaved(transient(exc)) from None
        if self.fence is not None:  # fenced before anything drives it
            await self.fence.claim(self.store, table_id, self._fenced_out)
        return table_id

    def _check_room(self, guild_id: int, host_id: int, settings: GuildSettings) -> None:
        """Refuse a table past ``Limits`` (a server's ``max_tables`` setting may lower it).

        The host limit counts the user's tables in every server: it bounds one user's
        use of the bot, which opening tables in several servers would otherwise get round.
        """
        live = [(t.guild_id, t.host_id) for t in self.tables.values() if not t.closed]
        live += self._opening  # tables a concurrent command is opening count already
        here = sum(1 for guild, _host in live if guild == guild_id)
        most = min(self.limits.tables_per_guild, int(settings.timers.get("max_tables", 10**9)))
        if here >= most:
            raise UserError(
                f"This server already has {most} open tables; finish or end one first.",
                key="service-guild-full",
                count=most,
            )
        hosted = sum(1 for _guild, host in live if host == host_id)
        if hosted >= self.limits.tables_per_host:
            raise UserError(
                f"You already host {hosted} open tables; finish or end one first.",
                key="service-host-full",
                count=hosted,
            )

    async def open_match(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        rules: RuleSet,
        seats: list[SeatInfo],
        meta: dict[str, Any],
    ) -> Table:
        """A table whose four seats are already decided (a tournament match), started at once.

        Such a table (``meta["keep_without_humans"]``) plays on when its last human
        leaves: the match must produce a result.
        """
        self._check_accepting()
        existing = self.tables.get(channel_id)
        if existing is not None and not existing.closed:
            raise UserError("This channel already has a table.", key="service-table-exists-short")
        settings = await self.store.guild_settings(guild_id)
        timers = Timers.from_dict(settings.timers)
        for info in seats:
            if info.kind == "human" and info.user_id is not None:
                await self.store.upsert_player(info.user_id, info.name)
        await self._free_channel(channel_id)
        seed = self._seed()
        now = self.clock.now()
        table_id = await self._create(guild_id, channel_id, host_id, rules, seed, list(seats), now)
        table = Table(table_id, guild_id, channel_id, host_id, rules, timers, seed, list(seats))
        table.meta = {**meta, "timers": timers.to_dict(), "started": False, "votes": []}
        table.meta.update(kept_settings(settings))
        await self._first_meta(table)
        self.tables[channel_id] = table
        self._start_tasks(table)
        return await self.start(channel_id, host_id, is_admin=True)

    async def seat_computer(
        self, channel_id: int, seat: int, still: Callable[[], bool] = lambda: True
    ) -> SeatInfo:
        """A computer player takes a human's seat mid-match, under their name; the old seat.

        ``still`` is asked once the table's lock is taken: the reason to replace them
        (absent, quiet) may have ended while the lock was held by their own move."""
        table = self.table_in(channel_id)
        async with table.lock:
            info = table.seats[seat]
            if info is None or info.kind != "human" or not still():
                raise UserError("That seat has no player to replace.", key="service-no-player")
            replaced = _stand_in(table, info)
            await self._set_seat(table, seat, replaced)
        self._emit(table, UpdateKind.SEATS)
        table.changed.set()
        return info

    async def join(self, channel_id: int, user_id: int, name: str, seat: int | None = None) -> int:
        table = self.table_in(channel_id)
        async with table.lock:
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
        async with table.lock:
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
        async with table.lock:
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
                replaced = _stand_in(table, info)
                await self._unseat(table, seat, replaced)
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
        async with table.lock:
            if by_user != table.host_id and not is_admin:
                raise UserError("Only the host or an admin can kick.", key="service-kick-host")
            if table.started:
                raise UserError("You can only kick before the start.", key="service-kick-before")
            if not 0 <= seat < 4 or table.seats[seat] is None:
                number = seat_number(seat)
                raise UserError(f"Seat {number} is empty.", key="service-seat-empty", seat=number)
            info = table.seats[seat]
            assert info is not None
            await self._unseat(table, seat, None)
        self._emit(table, UpdateKind.LOBBY)
        return info

    async def _unseat(self, table: Table, seat: int, replaced: SeatInfo | None) -> None:
        """A player leaves ``seat`` (left, or kicked): their abort vote goes with them, and
        a host keeps no rights (the next seated human hosts), all in the seat's one write."""
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
        await self._set_seat(table, seat, replaced, **changes)
        table.host_id = changes.get("host_id", table.host_id)

    async def start(self, channel_id: int, by_user: int, is_admin: bool = False) -> Table:
        self._check_accepting()
        table = self.table_in(channel_id)
        async with table.lock:
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
        async with table.lock:
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


def _stand_in(table: Table, info: SeatInfo) -> SeatInfo:
    """The computer player that plays on for a human who left, under their name (said in
    the table's language when it sits down: a seat's name is kept, like a player's)."""
    name = t(table.meta.get("locale"), "service-bot-stands-in", name=info.name)
    return SeatInfo("bot", None, name, "heuristic", False)
