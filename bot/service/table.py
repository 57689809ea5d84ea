"""A table: its record (what the store keeps) and its runtime (lock, queue, tasks).

``TableRecord`` holds what survives a restart (seats, rules, seed, meta); ``Table``
adds what lives only in this process: the lock every change takes, the event the
driver waits on, the presenter's queue and the tasks. The small result and update
types the Discord layer reads live here too.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Protocol

from bot.game import (
    Event,
    Match,
    SeatView,
)
from bot.game.driver import Driver
from bot.rules import RuleSet
from bot.store import (
    SeatInfo,
)


class UserError(Exception):
    """A request the service refuses; the message is a short, friendly reply.

    ``str()`` is the English text; ``key`` and ``params`` name the same sentence in
    the catalogs (``service.ftl``), and ``reason`` is the rules' own explanation
    when the rules refused, so the Discord layer can say it in the player's
    language (``bot.i18n``).
    """

    def __init__(
        self, text: str, *, key: str = "", reason: Exception | None = None, **params: object
    ) -> None:
        super().__init__(text)
        self.key = key
        self.reason = reason
        self.params = params


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
    store_outage: float = 600.0  # a store refusing writes this long is given up for good

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Timers:
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


@dataclass(frozen=True)
class Limits:
    """What bounds use, per process (a server's settings may lower the table limits).

    ``tables_per_guild`` live tables in one server, ``tables_per_host`` of them
    opened by one user, ``commands`` (slash commands) per user per ``command_window`` seconds (more
    get a polite "slow down"), ``retention_days`` before a closed table's action
    log (every hidden card) is pruned, checked every ``prune_every`` seconds.
    """

    tables_per_guild: int = 25
    tables_per_host: int = 3
    commands: int = 30
    command_window: float = 10.0
    retention_days: float = 30.0
    prune_every: float = 6 * 3600.0


class UpdateKind(StrEnum):
    """What an ``Update`` is about."""

    LOBBY = "lobby"  # the seats before the start
    SEATS = "seats"  # the seats changed mid-match (a leave, 托管)
    EVENTS = "events"  # the match moved: ``events`` says how
    WARNING = "warning"  # ``actor``'s time runs out in ``seconds``
    CLOSED = "closed"  # the table is gone: ``reason`` says why
    STORAGE = "storage"  # ``paused``: the store refuses writes (True) or takes them again
    HANDED_OVER = "handed_over"  # the lease is lost: another process drives it; show nothing


class CloseReason(StrEnum):
    """Why a table closed; the presenter words it (or stays silent) from this."""

    FINISHED = "finished"  # the match is over
    TIME_UP = "time_up"  # no new hand may start (a tournament round's time ran out)
    ABORTED = "aborted"
    EVERYONE_LEFT = "everyone_left"
    CHANNEL_GONE = "channel_gone"
    FAILED = "failed"  # the store failed for good
    BUG = "bug"  # the table's driver hit an error in the bot

    @property
    def finished(self) -> bool:
        """Recorded as finished (played to its end), not aborted."""
        return self in (CloseReason.FINISHED, CloseReason.TIME_UP)


class LeaveOutcome(StrEnum):
    """What leaving a seat did."""

    LEFT = "left"  # the seat is free again (before the start)
    REPLACED = "replaced"  # a computer player plays the seat from now on
    AWAY = "away"  # the seat is kept for them on 托管 for the table's ``leave_grace``
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
    reason: CloseReason | None = None  # set on CLOSED updates
    seconds: int = 0  # WARNING: the time left
    paused: bool = False  # STORAGE: True when the store refuses writes, False once it takes them

    def seeing(self, newer: Update) -> Update:
        """This update showing ``newer``'s state: its views, seats and deadline."""
        return replace(
            self, public=newer.public, views=newer.views, seats=newer.seats, deadline=newer.deadline
        )


class Sink(Protocol):
    """Where updates go (the Discord presenter; a list in tests)."""

    async def publish(self, table: Table, update: Update) -> None: ...


class SeatSignal(StrEnum):
    """What a seated person did, or what happened to them, told to the hooks (``on_seat``).

    The game's events say what happened at the table, not whether a person was there:
    a card played by the turn timer and one played by its player look alike. A feature
    that follows people (a tournament's presence, its leavers) hears it here instead,
    never from a seat's name.
    """

    ACTED = "acted"  # an accepted bid, burial or play of their own, or 托管 switched
    TIMED_OUT = "timed-out"  # their decision's time ran out: the computer played for them
    LEFT = "left"  # they left mid-match: a computer player took their seat
    # they left mid-match where the seat is kept for them (``meta["leave_grace"]``): on
    # 托管 until they act again (they are back) or the hooks replace them
    AWAY = "away"


class TableHooks(Protocol):
    """Another feature's say in a table's life (tournaments: ``bot.tournament.service``).

    ``on_events`` runs with the table's lock held, after the events are committed:
    it must be quick and must not call back into the table. ``on_seat`` says what the
    person ``player`` at ``seat`` did (a leaver's seat already holds the computer
    player, or them on 托管: ``AWAY``); it may run with the lock held too, under the
    same terms. ``may_deal`` is
    asked before each next hand; False ends the table after the hand just scored.
    """

    async def on_events(self, table: Table, events: list[Event]) -> None: ...

    async def on_seat(
        self, table: Table, seat: int, signal: SeatSignal, player: SeatInfo
    ) -> None: ...

    def may_deal(self, table: Table) -> bool: ...


OUTBOX_BACKLOG = 64  # updates queued for the presenter before new ones are merged


class Outbox(asyncio.Queue["Update | None"]):
    """The presenter's queue of one table: bounded by merging, whatever the kinds.

    Past ``OUTBOX_BACKLOG`` waiting updates (Discord is slow or rate-limited), a new
    update is merged into the newest waiting one of its kind, wherever it waits: the
    events are joined in order and the newest views, seats and deadline win, for it
    and for every update waiting after it (none of them may show an older state once
    the newer one has been shown). Only EVENTS updates carry events, so every event
    still reaches the presenter once and in order, in fewer messages.

    A WARNING ("ten seconds left") is about the decision pending when it was issued:
    one waiting after the EVENTS that a new EVENTS update is merged into would now come
    after the events that made or timed out that decision, so it is dropped; a new
    WARNING replaces one waiting after the newest EVENTS and is queued otherwise. So
    past the backlog each kind waits at most once, a WARNING twice (one before the
    newest EVENTS, one after): at most ``OUTBOX_LIMIT`` updates, however long Discord
    stalls and whatever the table does meanwhile.
    """

    def _init(self, maxsize: int) -> None:
        # asyncio.Queue's storage (its methods use ``_queue``), under a typed name of our own
        self._waiting: deque[Update | None] = deque()
        self._queue = self._waiting

    def put_update(self, update: Update) -> None:
        if self.qsize() < OUTBOX_BACKLOG or not self._merge(update):
            self.put_nowait(update)

    def _merge(self, update: Update) -> bool:
        """``update`` folded into a waiting one (True), or to be queued (False)."""
        waiting = self._waiting
        kinds = [None if u is None else u.kind for u in waiting]
        at = _last(kinds, update.kind)
        if at is None:
            return False
        events = _last(kinds, UpdateKind.EVENTS)
        if update.kind is UpdateKind.WARNING and events is not None and events > at:
            return False
        old = waiting[at]
        assert old is not None
        waiting[at] = replace(update, events=old.events + update.events)
        later: list[Update | None] = []
        for u in list(waiting)[at + 1 :]:
            if u is None:  # the presenter's stop stays last
                later.append(u)
            elif u.kind is not UpdateKind.WARNING or update.kind is not UpdateKind.EVENTS:
                later.append(u.seeing(update))
            # else a WARNING that the events just merged supersede: dropped
        while len(waiting) > at + 1:
            waiting.pop()
        waiting.extend(later)
        return True


def _last(kinds: list[UpdateKind | None], kind: UpdateKind) -> int | None:
    """Where the newest waiting update of ``kind`` is, if one waits."""
    for i in range(len(kinds) - 1, -1, -1):
        if kinds[i] is kind:
            return i
    return None


OUTBOX_LIMIT = OUTBOX_BACKLOG + len(UpdateKind) + 1  # the most updates an ``Outbox`` holds


@dataclass(eq=False)
class TableRecord:
    """What the store keeps of a table; rebuilt from ``LiveTable`` after a restart."""

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

    @property
    def started(self) -> bool:
        return self.match is not None

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
    def full_seats(self) -> list[SeatInfo]:
        """The four seats of a started table (all taken: a match never starts short)."""
        seats = [s for s in self.seats if s is not None]
        assert len(seats) == 4
        return seats

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is not None and s.kind == "human"]


@dataclass(eq=False)
class Table(TableRecord):
    """A live table in this process: its record plus the runtime around it."""

    resumed_at: float = 0.0  # when a restart brought the table back
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # one change of ``meta`` at a time, each made on the meta the last one left: taken
    # after ``lock`` when both are held, never the other way round
    meta_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    outbox: Outbox = field(default_factory=Outbox)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    closed: bool = False
    # set once a close has queued the table's last update (CLOSED), or the lease was lost
    # (no close comes): a shutdown under way waits for it, or that update would come
    # after the publisher stopped, never shown
    close_queued: asyncio.Event = field(default_factory=asyncio.Event)
    paused_since: float | None = None  # the store refused a write then; None: running
    _driver: Driver | None = None

    @property
    def driver(self) -> Driver:
        """The table procedure for the current match (a restored match gets a new one)."""
        assert self.match is not None
        if self._driver is None or self._driver.match is not self.match:
            self._driver = Driver(self.match, self.timers.deal_round)
        return self._driver
