"""The table service: drives every live table, owns their clocks, never loses a game.

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

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Protocol

from bot.ai import make_player, suggest
from bot.clock import Clock, SystemClock
from bot.game import (
    SYSTEM,
    Action,
    Deal,
    Declare,
    Event,
    GameError,
    HandScored,
    HandStarted,
    Match,
    MatchOver,
    MatchStarted,
    NotYourTurn,
    SeatView,
    action_to_dict,
)
from bot.game.driver import AskBid, DealCards, Driver, MatchDone, Turn, system_action
from bot.rules import RulesError, RuleSet
from bot.store import (
    GuildSettings,
    HandRecord,
    LeaderRow,
    LiveTable,
    MatchSummary,
    PlayerStats,
    SeatInfo,
    Store,
)
from bot.store.tournaments import TournamentResult

log = logging.getLogger(__name__)


class UserError(Exception):
    """A request the service refuses; the message is a short, friendly reply."""


@dataclass(frozen=True)
class Timers:
    """Pacing of a table (seconds). Play and kitty timers live in the ``RuleSet``."""

    bid_window: float = 8.0
    deal_round: int = 4  # cards per deal step: one round around the table
    deal_pace: float = 0.6
    bot_delay: float = 1.2
    next_hand: float = 8.0
    warn_before: float = 10.0
    restore_grace: float = 15.0

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Timers:
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


class UpdateKind(StrEnum):
    """What an ``Update`` is about."""

    LOBBY = "lobby"  # the seats before the start
    SEATS = "seats"  # the seats changed mid-match (a leave, 托管)
    EVENTS = "events"  # the match moved: ``events`` says how
    WARNING = "warning"  # ``actor``'s time is running out
    CLOSED = "closed"  # the table is gone: ``reason`` says why


class CloseReason(StrEnum):
    """Why a table closed; the presenter words it (or stays silent) from this."""

    FINISHED = "finished"
    ABORTED = "aborted"
    EVERYONE_LEFT = "everyone_left"
    CHANNEL_GONE = "channel_gone"


class LeaveOutcome(StrEnum):
    """What leaving a seat did."""

    LEFT = "left"  # the seat is free again (before the start)
    REPLACED = "replaced"  # a computer player plays the seat from now on
    CLOSED = "closed"  # the last human left: the table is closed


@dataclass(frozen=True)
class AbortOutcome:
    """An abort request: done at once, or one vote more of ``needed``."""

    aborted: bool
    votes: int = 0
    needed: int = 0


@dataclass(frozen=True)
class Update:
    """What the presenter needs about one change, captured when it happened.

    ``views`` are the four seats' views (each goes only to its own player) and
    ``public`` the spectators' view; ``deadline`` is when the current decision's
    timer runs out (wall clock) or None.
    """

    kind: UpdateKind
    events: tuple[Event, ...]
    public: SeatView | None
    views: tuple[SeatView, ...]
    seats: tuple[SeatInfo | None, ...]
    actor: int | None = None
    auto: bool = False
    deadline: float | None = None
    note: str = ""
    reason: CloseReason | None = None  # set on CLOSED updates


class Sink(Protocol):
    """Where updates go (the Discord presenter; a list in tests)."""

    async def publish(self, table: Table, update: Update) -> None: ...


class TableHooks(Protocol):
    """Another feature's say in a table's life (tournaments: ``bot.tournament.service``).

    ``on_events`` runs with the table's lock held, after the events are committed:
    it must be quick and must not call back into the table. ``may_deal`` is asked
    before each next hand; False ends the table after the hand just scored.
    """

    async def on_events(self, table: Table, events: list[Event]) -> None: ...

    def may_deal(self, table: Table) -> bool: ...


@dataclass(eq=False)
class Table:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    rules: RuleSet
    timers: Timers
    seed: int
    seats: list[SeatInfo | None]
    match: Match | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    last_action_at: float = 0.0
    resumed_at: float = 0.0  # when a restart brought the table back
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    outbox: asyncio.Queue[Update | None] = field(default_factory=asyncio.Queue)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    closed: bool = False
    _driver: Driver | None = None

    @property
    def started(self) -> bool:
        return self.match is not None

    @property
    def driver(self) -> Driver:
        """The table procedure for the current match (a restored match gets a new one)."""
        assert self.match is not None
        if self._driver is None or self._driver.match is not self.match:
            self._driver = Driver(self.match, self.timers.deal_round)
        return self._driver

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.kind == "human" and seat.user_id == user_id:
                return i
        return None

    def name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < 4 or self.seats[seat] is None:
            return "nobody"
        info = self.seats[seat]
        assert info is not None
        return info.name

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is not None and s.kind == "human"]


class TableService:
    """Every live table of this bot process."""

    def __init__(
        self,
        store: Store,
        sink: Sink,
        clock: Clock | None = None,
        *,
        seed_source: Callable[[], int] | None = None,
    ) -> None:
        self.store = store
        self.sink = sink
        self.clock = clock or SystemClock()
        self._seed = seed_source or (lambda: random.SystemRandom().randrange(1, 2**62))
        self.tables: dict[int, Table] = {}  # by channel id
        self.hooks: list[TableHooks] = []
        self.accepting = True
        self._players: dict[tuple[int, int], Any] = {}  # (table id, seat) -> AI player

    # --- lifecycle -----------------------------------------------------------------

    async def restore_all(self) -> int:
        """Bring back every table that was live when the bot stopped; returns how many."""
        restored = 0
        for live in await self.store.live_tables():
            try:
                table = await self._restore(live)
            except Exception:  # one broken table never stops the others
                log.exception("could not restore table %s", live.table_id)
                continue
            self.tables[table.channel_id] = table
            self._start_tasks(table)
            restored += 1
        return restored

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
                await self.store.record_hand(
                    table.id, result, list(match.tricks), list(table.seats), self.clock.now()
                )
                if match.winner_team is not None:
                    await self.store.record_match_end(table.id, match.winner_team, self.clock.now())
            table.last_action_at = live.last_action_at
            table.resumed_at = self.clock.now()
        return table

    async def shutdown(self, flush_seconds: float = 10.0) -> None:
        """Stop accepting actions, let in-flight ones finish, stop drivers.

        Every table stops at once; messages still queued for Discord get
        ``flush_seconds`` in all (the game state is already committed).
        """
        self.accepting = False

        async def stop(table: Table) -> None:
            async with table.lock:
                pass  # in-flight actions are committed before the lock is released
            await self._stop_tasks(table, flush=True)

        tables = list(self.tables.values())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(stop(t) for t in tables)), flush_seconds)
        for table in tables:
            for task in table.tasks:
                task.cancel()

    def _start_tasks(self, table: Table) -> None:
        table.tasks = [
            asyncio.create_task(self._publisher(table), name=f"publisher-{table.id}"),
        ]
        if table.match is not None:
            table.tasks.append(asyncio.create_task(self._driver(table), name=f"driver-{table.id}"))

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

    # --- lobby ---------------------------------------------------------------------

    def table_in(self, channel_id: int) -> Table:
        table = self.tables.get(channel_id)
        if table is None or table.closed:
            raise UserError("There is no table in this channel. Open one with `/shengji new`.")
        return table

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
            raise UserError("This channel already has a table: join it, or open one elsewhere.")
        settings: GuildSettings = await self.store.guild_settings(guild_id)
        rules = rules or settings.rules
        timers = Timers.from_dict(settings.timers)
        seats: list[SeatInfo | None] = [SeatInfo("human", host_id, host_name, None, False)]
        seats += [None, None, None]
        await self.store.upsert_player(host_id, host_name)
        seed = self._seed()
        now = self.clock.now()
        table_id = await self.store.create_table(
            guild_id, channel_id, host_id, rules, seed, seats, None, now
        )
        table = Table(table_id, guild_id, channel_id, host_id, rules, timers, seed, seats)
        table.meta = {"timers": timers.to_dict(), "started": False, "votes": []}
        table.meta["locale"] = settings.timers.get("language") or locale  # for table messages
        await self.store.set_table_meta(table_id, table.meta)
        self.tables[channel_id] = table
        self._start_tasks(table)
        self._emit(table, UpdateKind.LOBBY)
        return table

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
            raise UserError("This channel already has a table.")
        timers = Timers.from_dict((await self.store.guild_settings(guild_id)).timers)
        for info in seats:
            if info.kind == "human" and info.user_id is not None:
                await self.store.upsert_player(info.user_id, info.name)
        seed = self._seed()
        table_id = await self.store.create_table(
            guild_id, channel_id, host_id, rules, seed, list(seats), None, self.clock.now()
        )
        table = Table(table_id, guild_id, channel_id, host_id, rules, timers, seed, list(seats))
        table.meta = {**meta, "timers": timers.to_dict(), "started": False, "votes": []}
        await self.store.set_table_meta(table_id, table.meta)
        self.tables[channel_id] = table
        self._start_tasks(table)
        return await self.start(channel_id, host_id, is_admin=True)

    async def seat_computer(self, channel_id: int, seat: int) -> SeatInfo:
        """A computer player takes a human's seat mid-match, under their name; the old seat."""
        table = self.table_in(channel_id)
        async with table.lock:
            info = table.seats[seat]
            if info is None or info.kind != "human":
                raise UserError("That seat has no player to replace.")
            table.seats[seat] = SeatInfo("bot", None, f"{info.name} (bot)", "heuristic", False)
            await self.store.update_seats(table.id, table.seats)
        self._emit(table, UpdateKind.SEATS)
        table.changed.set()
        return info

    async def join(self, channel_id: int, user_id: int, name: str, seat: int | None = None) -> int:
        table = self.table_in(channel_id)
        async with table.lock:
            if table.started:
                raise UserError("This table has started; wait for the next one.")
            if table.seat_of(user_id) is not None:
                raise UserError(f"You already sit in seat {table.seat_of(user_id)}.")
            seat = self._free_seat(table, seat)
            table.seats[seat] = SeatInfo("human", user_id, name, None, False)
            await self.store.upsert_player(user_id, name)
            await self.store.update_seats(table.id, table.seats)
        self._emit(table, UpdateKind.LOBBY)
        return seat

    async def add_bot(self, channel_id: int, seat: int | None = None, ai: str = "heuristic") -> int:
        table = self.table_in(channel_id)
        async with table.lock:
            if table.started:
                raise UserError("Computer players join before the start.")
            seat = self._free_seat(table, seat)
            used = {s.name for s in table.seats if s is not None}
            name = next(n for n in _BOT_NAMES if n not in used)
            table.seats[seat] = SeatInfo("bot", None, name, ai, False)
            await self.store.update_seats(table.id, table.seats)
        self._emit(table, UpdateKind.LOBBY)
        return seat

    async def leave(self, channel_id: int, user_id: int) -> LeaveOutcome:
        table = self.table_in(channel_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You're not seated at this table.")
            info = table.seats[seat]
            assert info is not None
            if not table.started:
                table.seats[seat] = None
                await self.store.update_seats(table.id, table.seats)
                outcome = LeaveOutcome.LEFT
            else:
                table.seats[seat] = SeatInfo("bot", None, f"{info.name} (bot)", "heuristic", False)
                await self.store.update_seats(table.id, table.seats)
                outcome = LeaveOutcome.REPLACED
            if user_id == table.host_id and table.humans:
                # a host who left keeps no rights: the next seated human hosts
                successor = table.seats[table.humans[0]]
                assert successor is not None and successor.user_id is not None
                table.host_id = successor.user_id
                table.meta["host_id"] = table.host_id
                await self.store.set_table_meta(table.id, table.meta)
            no_humans = not table.humans and not table.meta.get("keep_without_humans")
        if no_humans:
            await self._close(
                table, CloseReason.EVERYONE_LEFT, note="Everyone left: the table is closed."
            )
            return LeaveOutcome.CLOSED
        self._emit(table, UpdateKind.SEATS if table.started else UpdateKind.LOBBY)
        table.changed.set()
        return outcome

    async def kick(self, channel_id: int, by_user: int, seat: int, is_admin: bool) -> SeatInfo:
        table = self.table_in(channel_id)
        async with table.lock:
            if by_user != table.host_id and not is_admin:
                raise UserError("Only the host or an admin can kick.")
            if table.started:
                raise UserError("You can only kick before the start.")
            if not 0 <= seat < 4 or table.seats[seat] is None:
                raise UserError(f"Seat {seat} is empty.")
            info = table.seats[seat]
            assert info is not None
            table.seats[seat] = None
            await self.store.update_seats(table.id, table.seats)
        self._emit(table, UpdateKind.LOBBY)
        return info

    async def start(self, channel_id: int, by_user: int, is_admin: bool = False) -> Table:
        self._check_accepting()
        table = self.table_in(channel_id)
        async with table.lock:
            if table.started:
                raise UserError("This table has already started.")
            if by_user != table.host_id and not is_admin:
                host = table.name(table.seat_of(table.host_id))
                raise UserError(f"Only the host ({host}) or an admin can start.")
            empty = [i for i, s in enumerate(table.seats) if s is None]
            if empty:
                seats = ", ".join(str(i) for i in empty)
                raise UserError(
                    f"Four players are needed: seat(s) {seats} empty (try `/shengji addbot`)."
                )
            table.match = Match.new(table.seed, table.rules)
            table.meta["started"] = True
            table.meta["started_at"] = self.clock.now()
            table.meta["votes"] = []
            # no snapshot needed: the seed rebuilds the match until its first one
            await self.store.set_table_meta(table.id, table.meta)
            table.last_action_at = self.clock.now()
        self._emit(table, UpdateKind.EVENTS, events=(MatchStarted(),))
        table.tasks.append(asyncio.create_task(self._driver(table), name=f"driver-{table.id}"))
        return table

    async def abort(self, channel_id: int, user_id: int, is_admin: bool) -> AbortOutcome:
        """Abort now (host/admin, or the vote that makes a majority) or add a vote."""
        table = self.table_in(channel_id)
        async with table.lock:
            if user_id != table.host_id and not is_admin:
                if table.seat_of(user_id) is None:
                    raise UserError("Only the host, an admin or a seated player can abort.")
                votes = set(table.meta.get("votes", [])) | {user_id}
                table.meta["votes"] = sorted(votes)
                await self.store.set_table_meta(table.id, table.meta)
                needed = len(table.humans) // 2 + 1
                if len(votes) < needed:
                    return AbortOutcome(aborted=False, votes=len(votes), needed=needed)
        await self._close(table, CloseReason.ABORTED, note="The table was aborted.")
        return AbortOutcome(aborted=True)

    # --- play ----------------------------------------------------------------------

    async def act(self, channel_id: int, user_id: int, action: Action) -> list[Event]:
        """A player's bid, burial or play. Raises ``UserError`` with the reason if refused."""
        self._check_accepting()
        table = self.table_in(channel_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise UserError("You're not seated at this table.")
        if table.match is None:
            raise UserError("The game hasn't started yet.")
        async with table.lock:
            if table.closed:
                raise UserError("This table is closed.")
            events = await self._apply(table, seat, action)
            if isinstance(action, Declare):
                await self._computer_bids(table)  # computer players may overcall at once
            return events

    async def hint(self, channel_id: int, user_id: int) -> Action:
        table = self.table_in(channel_id)
        seat = table.seat_of(user_id)
        if seat is None or table.match is None:
            raise UserError("Hints are for seated players once the game has started.")
        view = table.match.view(seat)
        if view.expecting not in ("play", "bury") or view.to_act != seat:
            raise UserError("It isn't your turn, so there is nothing to suggest yet.")
        return suggest(view)

    async def set_auto(self, channel_id: int, user_id: int, on: bool | None = None) -> bool:
        """Toggle (or set) 托管: the computer plays for this player until they toggle back."""
        table = self.table_in(channel_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You're not seated at this table.")
            info = table.seats[seat]
            assert info is not None
            value = (not info.auto) if on is None else on
            table.seats[seat] = replace(info, auto=value)
            await self.store.update_seats(table.id, table.seats)
        table.changed.set()
        self._emit(table, UpdateKind.SEATS)
        return value

    def view_for(self, channel_id: int, user_id: int) -> tuple[Table, int, SeatView]:
        """The caller's own view (for the hand panel), or UserError."""
        table = self.table_in(channel_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise UserError("You're not seated at this table.")
        if table.match is None:
            raise UserError("The game hasn't started yet.")
        return table, seat, table.match.view(seat)

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

    def _check_accepting(self) -> None:
        if not self.accepting:
            raise UserError("The bot is restarting; try again in a moment.")

    @staticmethod
    def _free_seat(table: Table, seat: int | None) -> int:
        if seat is None:
            for i, s in enumerate(table.seats):
                if s is None:
                    return i
            raise UserError("All four seats are taken.")
        if not 0 <= seat < 4:
            raise UserError("Seats are numbered 0 to 3 (0 and 2 are partners, 1 and 3).")
        if table.seats[seat] is not None:
            raise UserError(f"Seat {seat} is taken by {table.name(seat)}.")
        return seat

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
            raise UserError(f"It's not your turn: waiting for {table.name(waiting)}.") from None
        except (GameError, RulesError) as err:
            raise UserError(str(err)) from None
        accepted = match.last_action
        now = self.clock.now()
        try:
            await self.store.append_action(table.id, match.seq, seat, action_to_dict(accepted), now)
        except Exception:
            log.exception("could not persist action %s of table %s", match.seq, table.id)
            # the action is not durable: put the match back to what the store holds
            live = next(t for t in await self.store.live_tables() if t.table_id == table.id)
            table.match = await self.store.restore(live)
            raise UserError(
                "That couldn't be saved, so it didn't happen; please try again."
            ) from None
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
                    await self.store.record_hand(
                        table.id, result, list(match.tricks), list(table.seats), self.clock.now()
                    )
                    await self.store.save_snapshot(table.id, match.seq, match.to_dict())
                case HandStarted():
                    await self.store.save_snapshot(table.id, match.seq, match.to_dict())
                case MatchOver(team=team):
                    await self.store.record_match_end(table.id, team, self.clock.now())
        for hook in self.hooks:
            try:
                await hook.on_events(table, events)
            except Exception:  # a feature's failure never stops the game
                log.exception("hook failed at table %s", table.id)

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
        table.outbox.put_nowait(update)

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
        table.closed = True
        status = "finished" if reason is CloseReason.FINISHED else "aborted"
        await self.store.close_table(table.id, status, self.clock.now())
        self._emit(table, UpdateKind.CLOSED, note=note, reason=reason)
        if self.tables.get(table.channel_id) is table:
            del self.tables[table.channel_id]
        for seat in range(4):
            self._players.pop((table.id, seat), None)
        await self._stop_tasks(table, flush=False)

    async def channel_gone(self, channel_id: int) -> None:
        """The channel was deleted or the bot lost access: abort its table."""
        table = self.tables.get(channel_id)
        if table is not None:
            await self._close(table, CloseReason.CHANNEL_GONE, note="The channel is gone.")

    # --- lookups and records queries for the Discord layer ------------------------
    # (the cogs never reach into ``store`` or ``tables``: these are their doors)

    def table_by_id(self, table_id: int) -> Table:
        """The open table with this id (component ids carry it), or UserError."""
        for table in self.tables.values():
            if table.id == table_id and not table.closed:
                return table
        raise UserError("That table is closed; open a new one with `/shengji new`.")

    def channel_of(self, place_id: int) -> int:
        """The channel a table is keyed by, given the channel or the table's thread."""
        if place_id in self.tables:
            return place_id
        for table in self.tables.values():
            if table.meta.get("thread_id") == place_id:
                return table.channel_id
        return place_id

    async def remember_place(
        self, table: Table, thread_id: int | None, lobby_message_id: int | None
    ) -> None:
        """Where the table plays (its thread, or None: its channel), kept across restarts."""
        table.meta["thread_id"] = thread_id
        table.meta["lobby_message"] = lobby_message_id
        await self.store.set_table_meta(table.id, table.meta)

    async def thread_gone(self, thread_id: int) -> None:
        """A table's thread was deleted or archived: the table closes like a deleted channel."""
        channel_id = self.channel_of(thread_id)
        if channel_id != thread_id:
            await self.channel_gone(channel_id)

    async def rules_here(self, guild_id: int, channel_id: int) -> RuleSet:
        """The rules of the table in this channel, else the server's."""
        table = self.tables.get(channel_id)
        if table is not None and not table.closed:
            return table.rules
        return (await self.store.guild_settings(guild_id)).rules

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return await self.store.guild_settings(guild_id)

    async def save_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        await self.store.save_guild_settings(guild_id, settings)

    async def leaderboard(self, guild_id: int, metric: str, limit: int = 10) -> list[LeaderRow]:
        return await self.store.leaderboard(guild_id, metric, limit=limit)

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        return await self.store.player_stats(guild_id, user_id)

    async def player_tournaments(self, guild_id: int, user_id: int) -> list[TournamentResult]:
        return await self.store.player_tournaments(guild_id, user_id)

    async def recent_matches(self, guild_id: int, limit: int = 10) -> list[MatchSummary]:
        return await self.store.recent_matches(guild_id, limit=limit)

    async def hand_record(self, guild_id: int, hand_id: int) -> HandRecord | None:
        """One recorded hand of this server (another server's hands stay unseen)."""
        record = await self.store.hand_record(hand_id)
        if record is None or getattr(record, "guild_id", guild_id) != guild_id:
            return None
        return record

    # --- the driver ----------------------------------------------------------------

    def _player(self, table: Table, seat: int) -> Any:
        key = (table.id, seat)
        if key not in self._players:
            info = table.seats[seat]
            kind = info.ai if info is not None and info.ai else "heuristic"
            self._players[key] = make_player(kind, seed=table.seed + seat)
        return self._players[key]

    def _computer_plays(self, table: Table, seat: int) -> bool:
        info = table.seats[seat]
        return info is not None and (info.kind == "bot" or info.auto)

    async def _driver(self, table: Table) -> None:
        try:
            while not table.closed:
                await self._step(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("driver of table %s stopped", table.id)

    async def _step(self, table: Table) -> None:
        """One step of the table procedure (``bot.game.driver``), at the table's pace."""
        match = table.match
        assert match is not None
        timers = table.timers
        step = table.driver.next()
        if isinstance(step, MatchDone):
            await self._close(table, CloseReason.FINISHED, note="The match is over.")
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
                if kind == "next_hand" and not all(h.may_deal(table) for h in self.hooks):
                    await self._close(
                        table, CloseReason.FINISHED, note="Time is up: no new hand starts."
                    )
                    return
                closing = system_action(step)
                assert closing is not None
                await self._apply(table, SYSTEM, closing)
            return
        assert actor is not None and actor != SYSTEM
        if self._computer_plays(table, actor):
            await self.clock.sleep(timers.bot_delay)
            async with table.lock:
                if table.closed or match.expecting() != (kind, actor):
                    return
                if not self._computer_plays(table, actor):
                    return
                action = self._player(table, actor).act(match.view(actor))
                try:
                    await self._apply(table, actor, action or suggest(match.view(actor)), auto=True)
                except UserError:  # a computer player's mistake must not stall the table
                    log.warning("computer player at table %s seat %s erred", table.id, actor)
                    await self._apply(table, actor, None)
            return
        # a human decides: warn, then play for them
        table.changed.clear()
        warn_at = deadline - timers.warn_before
        seq = match.seq
        if self.clock.now() < warn_at:
            if await self.clock.wait(table.changed, warn_at):
                return
            if match.seq == seq:
                self._emit(
                    table, UpdateKind.WARNING, actor=actor, note=f"{int(timers.warn_before)}"
                )
        if await self.clock.wait(table.changed, deadline):
            return
        async with table.lock:
            if table.closed or match.seq != seq or self._computer_plays(table, actor):
                return
            await self._apply(table, actor, None)

    async def _ask_bid(self, table: Table, seat: int) -> None:
        """The driver asks ``seat`` whether it bids: a computer answers, a person bids at will."""
        match = table.match
        assert match is not None
        if not self._computer_plays(table, seat) or not match.legal_bids(seat):
            return
        action = self._player(table, seat).act(match.view(seat))
        if isinstance(action, Declare):
            with contextlib.suppress(UserError):
                await self._apply(table, seat, action, auto=True)

    async def _computer_bids(self, table: Table) -> None:
        """Answer the bid questions the driver has queued (after a person's bid)."""
        while (seat := table.driver.take_question()) is not None:
            await self._ask_bid(table, seat)


_BOT_NAMES = ("Bot Ana", "Bot Bai", "Bot Chen", "Bot Dong", "Bot Evi", "Bot Fang", "Bot Gao")
