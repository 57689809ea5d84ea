"""A table never freezes: the store failing under a live table, through the real store.

A locked database (another connection holding the write lock), a full disk (the
store's writes raising SQLITE_FULL) and a broken database (a permanent error):
the table pauses and says so, refuses what it could not store, resumes by itself
with nothing lost, or closes and frees its channel; a lobby as well as a table in
play. Votes belong to seated players.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.game import DealProgress, Match, MatchStarted, fallback_action
from bot.service import (
    AbortOutcome,
    CloseReason,
    Limits,
    Table,
    TableService,
    UpdateKind,
    UserError,
    writes,
)
from bot.service.faults import NotSaved
from bot.service.table import OUTBOX_BACKLOG, OUTBOX_LIMIT, Outbox, Update
from bot.store import ConnectionLost, LiveTable, Store
from bot.store.db import SqliteDatabase
from tests.test_service import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    Recorder,
    _full_table,
    caught_up,
    env,
    run_until,
    settle,
)

__all__ = ["env"]  # the fixture, shared with the service tests


def storage(sink: Any) -> list[str]:
    """The store's state as each STORAGE update said it, in order."""
    updates = [u for _, u in sink.updates if u.kind is UpdateKind.STORAGE]
    return ["paused" if u.paused else "resumed" for u in updates]


@contextmanager
def failing_writes(
    monkeypatch: pytest.MonkeyPatch, error: Exception, only: str = ""
) -> Iterator[None]:
    """Every INSERT/UPDATE the store runs (``only`` those holding that text) raises
    ``error`` (a full disk, a broken file)."""
    real_execute, real_many = SqliteDatabase.execute, SqliteDatabase.executemany
    real_all = SqliteDatabase.all

    def refuse(sql: str) -> None:
        head = sql.lstrip().upper()
        writes = head.startswith(("INSERT", "UPDATE")) or (
            head.startswith("WITH") and "INSERT" in head
        )
        if writes and only in sql:
            raise error

    async def all_rows(self: SqliteDatabase, sql: str, params: Any = ()) -> Any:
        refuse(sql)  # INSERT ... RETURNING, and the appends' one statement (WITH ... INSERT)
        return await real_all(self, sql, params)

    async def execute(self: SqliteDatabase, sql: str, params: Any = ()) -> int:
        refuse(sql)
        return await real_execute(self, sql, params)

    async def executemany(self: SqliteDatabase, sql: str, rows: Any) -> None:
        refuse(sql)
        await real_many(self, sql, rows)

    with monkeypatch.context() as patch:
        patch.setattr(SqliteDatabase, "execute", execute)
        patch.setattr(SqliteDatabase, "executemany", executemany)
        patch.setattr(SqliteDatabase, "all", all_rows)
        yield


def disk_full() -> sqlite3.OperationalError:
    err = sqlite3.OperationalError("database or disk is full")
    err.sqlite_errorcode = sqlite3.SQLITE_FULL
    return err


async def stored(store: Store, table: Table) -> LiveTable:
    """The table as the store holds it."""
    return next(t for t in await store.live_tables() if t.table_id == table.id)


async def nothing_lost(store: Store, table: Table) -> None:
    """The store holds exactly the match the table plays: every told action is durable."""
    assert table.match is not None
    live = [t for t in await store.live_tables() if t.table_id == table.id]
    assert (await store.restore(live[0])).to_dict() == table.match.to_dict()


async def started(service: TableService, clock: Any, humans: int = 1) -> Table:
    table = await _full_table(service, humans=humans)
    await service.start(CHANNEL, ALICE)
    assert table.match is not None
    await run_until(clock, lambda: table.match.seq >= 8)
    return table


async def alices_turn(env: Any) -> tuple[Table, Match]:
    """A started table at Alice's first play (or bury), everything before it stored."""
    service, store, clock, _ = env
    table = await started(service, clock)
    match = table.match
    assert match is not None
    await run_until(clock, lambda: match.expecting() in (("play", 0), ("bury", 0)))
    await caught_up(clock, store, table)
    return table, match


async def test_locked_database_pauses_the_table_and_it_resumes(env) -> None:
    service, store, clock, sink = env
    table = await started(service, clock)
    await service.set_auto(CHANNEL, ALICE, True)  # the computers play every seat
    await caught_up(clock, store, table)
    assert table.match is not None
    await store._db.conn.execute("PRAGMA busy_timeout = 50")  # fail fast, not in 5 s
    # wait for the table's own writes in flight (a busy machine may be mid-commit)
    blocker = sqlite3.connect(store.path, isolation_level=None, timeout=60, check_same_thread=False)
    # off the loop: the table's own transaction in flight needs the loop to finish
    await asyncio.to_thread(blocker.execute, "BEGIN IMMEDIATE")  # another process holds it
    try:
        seq = table.match.seq
        for _ in range(20):  # 10 s of table time with the lock held
            await clock.advance(0.5)
            await caught_up(clock, store, table)
        assert storage(sink) == ["paused"]
        assert table.paused_since is not None and not table.closed
        assert table.match.seq == seq  # nothing went on that could not be stored
        with pytest.raises(UserError, match="couldn't be saved"):
            await service.set_auto(CHANNEL, ALICE, False)
        assert table.seats[0] is not None and table.seats[0].auto  # unchanged
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    await run_until(clock, lambda: table.match.seq >= seq + 10)
    assert storage(sink) == ["paused", "resumed"]
    assert table.paused_since is None and service.tables[CHANNEL] is table
    await caught_up(clock, store, table)
    await nothing_lost(store, table)


async def test_full_disk_refuses_a_play_then_the_table_resumes(env, monkeypatch) -> None:
    service, store, clock, sink = env
    table, match = await alices_turn(env)
    assert match.expecting()[1] == 0
    with failing_writes(monkeypatch, disk_full()):
        seq = match.seq
        action = fallback_action(match.view(0))
        with pytest.raises(UserError, match="couldn't be saved"):
            await service.act(CHANNEL, ALICE, action)
        assert table.match is not None and table.match.seq == seq  # refused, not done
        await settle(clock)
        assert storage(sink) == ["paused"]
    await service.act(CHANNEL, ALICE, action)  # the disk has room again: the same play
    assert table.match.seq > seq
    await run_until(clock, lambda: storage(sink) == ["paused", "resumed"])
    await caught_up(clock, store, table)
    await nothing_lost(store, table)


async def test_a_refused_play_whose_rollback_is_refused_once_too_pauses_the_table(
    env, monkeypatch
) -> None:
    """The failure that refused a play refuses the rollback's read once more (on
    PostgreSQL a failover ends the session the store connected again, found by the
    monkey on PostgreSQL, seed 8201): the read is tried again and the table pauses,
    it is not closed."""
    service, store, clock, sink = env
    table, match = await alices_turn(env)
    real_live_tables = store.live_tables
    lost = ConnectionLost("The connection to the database was lost; the next call connects again.")
    reads: list[str] = []

    async def live_tables_lost_thrice(**kwargs: Any) -> Any:
        reads.append("lost" if len(reads) < 3 else "read")
        if reads[-1] == "lost":
            raise lost
        return await real_live_tables(**kwargs)

    monkeypatch.setattr(writes, "ROLLBACK_AGAIN", (0.01,), raising=False)
    with failing_writes(monkeypatch, lost), monkeypatch.context() as patch:
        patch.setattr(store, "live_tables", live_tables_lost_thrice)
        seq = match.seq
        action = fallback_action(match.view(0))
        with pytest.raises(UserError, match="couldn't be saved"):
            await service.act(CHANNEL, ALICE, action)
        # the look-up of whether it was stored after all (tried twice), then the
        # rollback's (refused once more, then read)
        assert reads == ["lost", "lost", "lost", "read"]
        assert not table.closed and service.tables[CHANNEL] is table
        assert table.match is not None and table.match.seq == seq  # put back, not done
        await settle(clock)
        assert storage(sink) == ["paused"]
    await service.act(CHANNEL, ALICE, action)  # the store answers again: the same play
    assert table.match.seq > seq
    await run_until(clock, lambda: storage(sink) == ["paused", "resumed"])
    await caught_up(clock, store, table)
    await nothing_lost(store, table)


async def test_a_play_stored_whose_answer_was_lost_stands(env, monkeypatch) -> None:
    """The store commits a play and the connection is lost before its answer comes (a
    PostgreSQL session ended at the commit; the monkey on PostgreSQL, seed 8802, saw
    the table then show a play nobody was told of): the play stands, as stored, and is
    told; the table does not pause."""
    service, store, clock, sink = env
    table, match = await alices_turn(env)
    real_append = store.append_action

    async def stored_then_lost(*args: Any, **kwargs: Any) -> None:
        await real_append(*args, **kwargs)
        raise ConnectionLost("The connection to the database was lost.")

    seq = match.seq
    told = len(sink.updates)
    with monkeypatch.context() as patch:
        patch.setattr(store, "append_action", stored_then_lost)
        await service.act(CHANNEL, ALICE, fallback_action(match.view(0)))  # no refusal
    assert table.match is match and match.seq == seq + 1 and not table.closed
    await settle(clock)
    assert any(u.kind is UpdateKind.EVENTS for _, u in sink.updates[told:])  # told
    assert storage(sink) == [] and table.paused_since is None
    await caught_up(clock, store, table)
    await nothing_lost(store, table)


async def test_a_play_whose_table_closed_under_its_write_is_refused_quietly(
    env, monkeypatch, caplog
) -> None:
    """The table closed while a play's write was under way (a moderator locked its
    thread; the monkey on PostgreSQL, seed 9823): the store refused the play, the table
    being aborted, and the bot tried to roll the match back from the store, which holds
    no live match for it, then logged two ERRORs and "closed" it again. The player is told
    the table is closed."""
    service, store, _clock, _sink = env
    table, match = await alices_turn(env)
    real_append = store.append_action

    async def closed_meanwhile(*args: Any, **kwargs: Any) -> None:
        await service.channel_gone(CHANNEL, table)
        await real_append(*args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(store, "append_action", closed_meanwhile)
        with pytest.raises(UserError, match="closed"):
            await service.act(CHANNEL, ALICE, fallback_action(match.view(0)))
    assert table.closed and not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_computers_play_whose_table_closed_under_its_write_ends_quietly(
    env, monkeypatch, caplog
) -> None:
    """The same for a computer's play: its refusal is not taken for the computer's mistake
    (a warning, and the table's fallback play tried at a closed table)."""
    service, store, clock, _sink = env
    table = await started(service, clock)
    await caught_up(clock, store, table)
    real_append = store.append_action
    tries = []

    async def closed_meanwhile(*args: Any, **kwargs: Any) -> None:
        tries.append(args)
        await service.channel_gone(CHANNEL, table)
        await real_append(*args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(store, "append_action", closed_meanwhile)
        await service.set_auto(CHANNEL, ALICE, True)  # every seat a computer's now
        await run_until(clock, lambda: table.closed)
        await settle(clock)
    assert len(tries) == 1
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING and "erred" in r.msg]


async def test_a_driver_write_on_a_full_disk_is_retried(env, monkeypatch) -> None:
    service, store, clock, sink = env
    table = await started(service, clock)
    await service.set_auto(CHANNEL, ALICE, True)
    await caught_up(clock, store, table)
    assert table.match is not None
    with failing_writes(monkeypatch, disk_full()):
        seq = table.match.seq
        for _ in range(10):
            await clock.advance(1)
            await caught_up(clock, store, table)
        assert table.match.seq == seq and storage(sink) == ["paused"]
        driver = [t for t in table.tasks if t.get_name().startswith("driver")]
        assert driver and not driver[0].done()  # the task lives on, retrying
    await run_until(clock, lambda: table.match.seq >= seq + 10)
    assert storage(sink) == ["paused", "resumed"]
    await caught_up(clock, store, table)
    await nothing_lost(store, table)


async def test_a_permanent_failure_closes_the_table_and_frees_the_channel(env, monkeypatch) -> None:
    service, _store, clock, sink = env
    table = await started(service, clock)
    await service.set_auto(CHANNEL, ALICE, True)
    with failing_writes(monkeypatch, sqlite3.DatabaseError("database disk image is malformed")):
        await run_until(clock, lambda: CHANNEL not in service.tables)
    assert table.closed and CHANNEL not in service.tables
    # the channel is freed as the closing is queued; its publisher delivers it on its next turn
    await run_until(clock, lambda: all(t.done() for t in table.tasks))
    closing = [u for _, u in sink.updates if u.kind is UpdateKind.CLOSED]
    assert [u.reason for u in closing] == [CloseReason.FAILED]
    assert all(t.done() for t in table.tasks) or not table.tasks
    again = await service.new_table(1, CHANNEL, BOB, "Bob")  # the channel is free
    assert again.id != table.id


async def test_a_store_down_too_long_closes_the_table(env, monkeypatch) -> None:
    service, store, clock, sink = env
    table = await started(service, clock)
    await service.set_auto(CHANNEL, ALICE, True)
    outage = table.timers.store_outage
    with failing_writes(monkeypatch, disk_full()):
        for _ in range(int(outage / 30) + 10):
            await clock.advance(30)
            await caught_up(clock, store, table)
            if CHANNEL not in service.tables:
                break
    assert table.closed and CHANNEL not in service.tables
    assert storage(sink) == ["paused"]


LobbyAction = Callable[[TableService], Awaitable[object]]


async def bob_seated(service: TableService) -> None:
    await service.join(CHANNEL, BOB, "Bob")


async def four_seated(service: TableService) -> None:
    while None in service.tables[CHANNEL].seats:
        await service.add_bot(CHANNEL)


# (what seats the lobby before the fault, the lobby action the full disk refuses)
LOBBY_WRITES: dict[str, tuple[LobbyAction | None, LobbyAction]] = {
    "join": (None, lambda s: s.join(CHANNEL, BOB, "Bob")),
    "addbot": (None, lambda s: s.add_bot(CHANNEL)),
    "kick": (bob_seated, lambda s: s.kick(CHANNEL, ALICE, 1, is_admin=False)),
    "leave": (bob_seated, lambda s: s.leave(CHANNEL, BOB)),
    "start": (four_seated, lambda s: s.start(CHANNEL, ALICE)),
}


@pytest.mark.parametrize("name", LOBBY_WRITES)
async def test_a_paused_lobby_resumes_by_itself(env, monkeypatch, name: str) -> None:
    """A lobby has no timer to wait on, yet nobody need act for it to resume: its
    driver probes the store with the same backoff as a table in play."""
    service, _store, clock, sink = env
    setup, action = LOBBY_WRITES[name]
    table = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    if setup is not None:
        await setup(service)
    seats = list(table.seats)
    probes = 0
    real_meta = Store.set_table_meta

    async def counted(self: Store, table_id: int, meta: dict[str, Any]) -> None:
        nonlocal probes
        probes += 1
        await real_meta(self, table_id, meta)

    monkeypatch.setattr(Store, "set_table_meta", counted)
    with failing_writes(monkeypatch, disk_full()):
        with pytest.raises(UserError, match="couldn't be saved"):
            await action(service)
        probes = 0
        for _ in range(120):  # a minute of nobody acting
            await clock.advance(0.5)
            await settle(clock, 5)
        assert storage(sink) == ["paused"]
        assert table.seats == seats and not table.started and not table.closed
        assert 3 <= probes <= 8, probes  # backing off (0.5 s doubling to 30 s), not spinning
    # resumed (``paused_since`` cleared), then said: the update goes out through the
    # table's publisher, a few turns of the loop later
    await run_until(clock, lambda: storage(sink) == ["paused", "resumed"])
    assert table.paused_since is None
    await action(service)  # the same action goes through now
    assert table.seats != seats or table.started
    assert not table.closed and service.tables[CHANNEL] is table


async def test_a_lobby_paused_too_long_closes_and_frees_the_channel(env, monkeypatch) -> None:
    service, _store, clock, sink = env
    table = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    with failing_writes(monkeypatch, disk_full()):
        with pytest.raises(UserError, match="couldn't be saved"):
            await service.join(CHANNEL, BOB, "Bob")
        paused = table.paused_since
        assert paused is not None
        # each probe's refusal takes the store's thread: real time, not only loop turns
        await run_until(clock, lambda: CHANNEL not in service.tables, steps=30, step=30)
        assert table.closed and clock.now() - paused >= table.timers.store_outage
    await run_until(clock, lambda: all(t.done() for t in table.tasks))
    assert storage(sink) == ["paused"]
    closing = [u for _, u in sink.updates if u.kind is UpdateKind.CLOSED]
    assert [u.reason for u in closing] == [CloseReason.FAILED]
    again = await service.new_table(GUILD, CHANNEL, BOB, "Bob")  # the channel is free
    assert again.id != table.id


async def test_an_abort_vote_leaves_with_its_voter(env) -> None:
    service, _store, _clock, _sink = env
    table = await service.new_table(1, CHANNEL, ALICE, "Alice")
    await service.join(CHANNEL, BOB, "Bob")
    assert await service.abort(CHANNEL, BOB, is_admin=False) == AbortOutcome(False, 1, 2)
    await service.leave(CHANNEL, BOB)
    assert table.meta["votes"] == []
    await service.join(CHANNEL, CAROL, "Carol")
    # Bob's vote went with him: Carol's alone is not the majority of Alice and Carol
    assert await service.abort(CHANNEL, CAROL, is_admin=False) == AbortOutcome(False, 1, 2)
    assert not table.closed


async def test_an_abort_vote_leaves_with_a_kicked_voter(env) -> None:
    service, store, _clock, _sink = env
    table = await service.new_table(1, CHANNEL, ALICE, "Alice")
    await service.join(CHANNEL, BOB, "Bob")
    await service.join(CHANNEL, CAROL, "Carol")
    assert await service.abort(CHANNEL, BOB, is_admin=False) == AbortOutcome(False, 1, 2)
    await service.kick(CHANNEL, ALICE, 1, is_admin=False)
    assert table.meta["votes"] == [] and (await stored(store, table)).meta["votes"] == []
    await service.join(CHANNEL, BOB, "Bob")  # back, without the vote he had
    assert await service.abort(CHANNEL, CAROL, is_admin=False) == AbortOutcome(False, 1, 2)
    assert not table.closed


async def test_a_leave_the_store_refuses_changes_nothing(env, monkeypatch) -> None:
    service, store, clock, sink = env
    table = await service.new_table(1, CHANNEL, ALICE, "Alice")
    await service.join(CHANNEL, BOB, "Bob")
    await service.join(CHANNEL, CAROL, "Carol")
    await service.abort(CHANNEL, BOB, is_admin=False)  # Bob's vote; Alice hosts
    before = list(table.seats), dict(table.meta)
    # the seat would be written, its meta not: the two must be one write
    with failing_writes(monkeypatch, disk_full(), only="SET meta"):
        for leaver in (BOB, ALICE):  # a voter, the host: seat, vote and rights in one write
            with pytest.raises(UserError, match="couldn't be saved"):
                await service.leave(CHANNEL, leaver)
    assert (list(table.seats), table.meta, table.host_id) == (*before, ALICE)
    row = await stored(store, table)
    assert (row.seats, row.meta) == before
    await run_until(clock, lambda: storage(sink) == ["paused", "resumed"])
    await service.leave(CHANNEL, BOB)
    await service.leave(CHANNEL, ALICE)  # the store takes writes again: all of it at once
    assert table.host_id == CAROL and table.meta["votes"] == [] and table.humans == [2]
    row = await stored(store, table)
    assert (row.meta["host_id"], row.meta["votes"], row.seats[:2]) == (CAROL, [], [None, None])


async def test_tables_per_guild_and_per_host_are_bounded(tmp_path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    service = TableService(store, Recorder(), ManualClock(), limits=Limits(2, 1))
    try:
        await service.new_table(1, 20, ALICE, "Alice")
        with pytest.raises(UserError, match="already host 1 open tables"):
            await service.new_table(1, 21, ALICE, "Alice")
        await service.new_table(1, 21, BOB, "Bob")
        with pytest.raises(UserError, match="already has 2 open tables"):
            await service.new_table(1, 22, CAROL, "Carol")
        await service.new_table(2, 30, CAROL, "Carol")  # another server has its own room
        with pytest.raises(UserError, match="already host 1 open tables"):
            await service.new_table(2, 31, ALICE, "Alice")  # but a host's tables add up
        assert len(await store.live_tables()) == 3
    finally:
        await service.shutdown()
        await store.close()


async def test_tables_opened_at_once_are_bounded_too(tmp_path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    service = TableService(store, Recorder(), ManualClock(), limits=Limits(3, 2))
    try:
        # one host in eight channels at once, then six hosts: each /new awaits the store
        # between its check and its table going live, so the limits must count those too
        opened = await asyncio.gather(
            *(service.new_table(1, 20 + n, ALICE, "Alice") for n in range(8)),
            return_exceptions=True,
        )
        refused = [r for r in opened if isinstance(r, UserError)]
        assert len(refused) == 6 and all(r.key == "service-host-full" for r in refused)
        opened = await asyncio.gather(
            *(service.new_table(2, 40 + n, 1000 + n, f"P{n}") for n in range(6)),
            return_exceptions=True,
        )
        refused = [r for r in opened if isinstance(r, UserError)]
        assert len(refused) == 3 and all(r.key == "service-guild-full" for r in refused)
        assert len(await store.live_tables()) == 5 and not service._opening
    finally:
        await service.shutdown()
        await store.close()


async def test_closed_tables_logs_are_pruned_after_the_retention(env) -> None:
    service, store, clock, _sink = env
    await service.restore_all()  # starts the retention schedule
    table = await started(service, clock)
    await caught_up(clock, store, table)
    assert await store.action_log(table.id)
    await service.abort(CHANNEL, ALICE, is_admin=True)
    await clock.advance(29 * 86400)
    await settle(clock)
    assert await store.action_log(table.id), "kept within the retention"
    for _ in range(8):  # a day more, in the schedule's steps
        await clock.advance(service.limits.prune_every)
        await settle(clock)
    # on a busy machine the task may still be inside a prune (in the store's thread) while
    # the clock moves on, and its next run is then due a step after the last one: time
    # goes on in the schedule's steps until it has run (up to 10 s)
    for _ in range(1000):
        if not await store.action_log(table.id):
            break
        await clock.advance(service.limits.prune_every)
        await asyncio.sleep(0.01)
    assert await store.action_log(table.id) == []


async def test_a_new_table_that_loses_the_race_is_told_the_channel_is_taken(env) -> None:
    service, store, _clock, _sink = env
    results = await asyncio.gather(
        service.new_table(1, CHANNEL, ALICE, "Alice"),
        service.new_table(1, CHANNEL, BOB, "Bob"),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], UserError)
    assert "already has a table" in str(refused[0])
    assert len(await store.live_tables()) == 1


async def test_the_presenter_queue_is_bounded_by_merging(env) -> None:
    # a human's timeout sends a WARNING, then the EVENTS of the play made for them
    service, _store, _clock, _sink = env
    table = await service.new_table(1, CHANNEL, ALICE, "Alice")
    for task in table.tasks:  # a presenter stuck on Discord: nothing is taken off
        task.cancel()
    for i in range(10 * OUTBOX_BACKLOG):
        service._emit(table, UpdateKind.WARNING, actor=0, seconds=10)
        service._emit(table, UpdateKind.EVENTS, events=(MatchStarted(),) * (i % 2 + 1))
    assert table.outbox.qsize() <= OUTBOX_LIMIT
    told = []
    while not table.outbox.empty():
        update = table.outbox.get_nowait()
        if update is not None and update.kind is UpdateKind.EVENTS:
            told.extend(update.events)
    assert len(told) == sum(i % 2 + 1 for i in range(10 * OUTBOX_BACKLOG))  # nothing lost


W, E = UpdateKind.WARNING, UpdateKind.EVENTS
KIND_CYCLES: dict[str, list[UpdateKind]] = {
    "timeouts: warning, events": [W, E],
    "auto toggled between plays": [UpdateKind.SEATS, E],
    "storage flapping": [UpdateKind.STORAGE, W, E, UpdateKind.STORAGE],
    "warnings only": [W],
    "every kind but closed": [E, W, UpdateKind.SEATS, UpdateKind.STORAGE, E, UpdateKind.LOBBY, W],
    "any order": random.Random(14).choices(
        [k for k in UpdateKind if k is not UpdateKind.CLOSED], k=97
    ),
}


@pytest.mark.parametrize("cycle", KIND_CYCLES.values(), ids=list(KIND_CYCLES))
def test_the_presenter_queue_is_bounded_whatever_the_kinds(cycle: list[UpdateKind]) -> None:
    # update i shows state i (its deadline); an EVENTS update carries event i, a WARNING says i
    outbox = Outbox()
    sent = 10 * OUTBOX_BACKLOG
    for i in range(sent):
        kind = cycle[i % len(cycle)]
        events = (DealProgress(i, sent),) if kind is E else ()
        outbox.put_update(Update(kind, events, None, (), (), deadline=float(i), seconds=i))
        assert outbox.qsize() <= OUTBOX_LIMIT
    drained = [outbox.get_nowait() for _ in range(outbox.qsize())]
    assert all(u is not None for u in drained)
    updates = [u for u in drained if u is not None]
    told = [e.dealt for u in updates for e in u.events if isinstance(e, DealProgress)]
    assert told == [i for i in range(sent) if cycle[i % len(cycle)] is E]  # all, once, in order
    shown = [u.deadline for u in updates]
    assert shown == sorted(shown) and shown[-1] == sent - 1  # never an older state after a newer
    for at, update in enumerate(updates):  # a warning never comes after events that followed it
        if update.kind is W:
            assert all(
                e <= update.seconds
                for u in updates[:at]
                for e in (x.dealt for x in u.events if isinstance(x, DealProgress))
            )


@pytest.mark.parametrize("closing", ["recorded", "refused"])
async def test_a_new_table_whose_first_meta_is_refused_leaves_no_live_row(
    env, monkeypatch: pytest.MonkeyPatch, closing: str
) -> None:
    # the row is written, then its meta: refused in between, the opener is told "not
    # saved" and the channel stays free (the row closed now, or before the next table)
    service, store, _clock, _sink = env
    real_close = Store.close_table

    async def meta_refused(self: Store, table_id: int, meta: Any) -> None:
        raise disk_full()

    async def close_refused(self: Store, *args: Any) -> None:
        raise disk_full()

    with monkeypatch.context() as patch:
        patch.setattr(Store, "set_table_meta", meta_refused)
        if closing == "refused":
            patch.setattr(Store, "close_table", close_refused)
        with pytest.raises(NotSaved):
            await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    assert CHANNEL not in service.tables
    if closing == "recorded":
        assert await store.live_tables() == []
    assert Store.close_table is real_close
    table = await service.new_table(GUILD, CHANNEL, BOB, "Bob")  # the channel is free
    assert [t.table_id for t in await store.live_tables()] == [table.id]


@contextmanager
def store_locked(store: Store) -> Iterator[None]:
    """Another process holds the store's write lock (a backup, a ``sqlite3`` shell)."""
    blocker = sqlite3.connect(store.path, isolation_level=None, timeout=60)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_closing_the_locked_store_refused_is_recorded_once_it_is_free(
    env, caplog: pytest.LogCaptureFixture
) -> None:
    """The channel is freed at once; the closing is recorded as soon as the store takes
    writes again, not only before the channel's next table: a restart meanwhile would
    bring the closed table back. A lock in passing is a warning, not an error."""
    service, store, clock, _sink = env
    table = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    await store._db.conn.execute("PRAGMA busy_timeout = 50")  # fail fast, not in 5 s
    with store_locked(store):
        assert (await service.abort(CHANNEL, ALICE, is_admin=True)).aborted
        assert table.closed and CHANNEL not in service.tables
        for _ in range(6):  # retried while the lock is held
            await clock.advance(1)
            await settle(clock)
        assert [t.table_id for t in await store.live_tables()] == [table.id]
    # recorded by two at once (two people open a table there), one of them alone wins
    results = await asyncio.gather(
        service.new_table(GUILD, CHANNEL, BOB, "Bob"),
        service.new_table(GUILD, CHANNEL, CAROL, "Carol"),
        return_exceptions=True,
    )
    [opened] = [r for r in results if isinstance(r, Table)]
    [refused] = [r for r in results if r is not opened]
    assert isinstance(refused, UserError) and "already has a table" in str(refused)
    assert not service._unrecorded_closes
    assert [t.table_id for t in await store.live_tables()] == [opened.id]  # not the old one
    assert errors_logged(caplog) == []
    assert any("closing not recorded yet" in r.getMessage() for r in caplog.records)


async def test_a_closing_still_unrecorded_at_shutdown_is_tried_once_more(env) -> None:
    """The store free again, but the retry not yet due: the stop records it, so the next
    process does not bring the closed table back."""
    service, store, _clock, _sink = env
    table = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    await store._db.conn.execute("PRAGMA busy_timeout = 50")
    with store_locked(store):
        assert (await service.abort(CHANNEL, ALICE, is_admin=True)).aborted
    assert service._unrecorded_closes and await store.live_tables() != []
    await service.shutdown()
    assert [t.table_id for t in await store.live_tables()] == []
    assert table.closed


async def test_where_a_table_plays_is_kept_though_the_store_refused_it_in_passing(
    env, caplog: pytest.LogCaptureFixture
) -> None:
    """Its thread exists by then: the write is retried (the table paused meanwhile), not
    refused, so commands in the thread find the table."""
    service, store, clock, sink = env
    table = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    await store._db.conn.execute("PRAGMA busy_timeout = 50")
    with store_locked(store):
        kept = asyncio.create_task(service.remember_place(table, 777, 555))
        await run_until(clock, lambda: table.paused_since is not None)
        assert not kept.done() and service.channel_of(777) == 777  # not known yet
    await run_until(clock, kept.done)
    await kept
    assert service.channel_of(777) == CHANNEL and table.paused_since is None
    assert (await stored(store, table)).meta["thread_id"] == 777
    assert storage(sink) == ["paused", "resumed"]
    assert errors_logged(caplog) == []


async def test_a_presenter_write_not_saved_is_a_warning(
    env, caplog: pytest.LogCaptureFixture
) -> None:
    """The service said it already (the table paused, or closed): not "presenter failed"."""
    service, _store, clock, sink = env

    async def refused(table: Table, update: Update) -> None:
        raise NotSaved(True)

    sink.publish = refused
    await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    await settle(clock)
    assert errors_logged(caplog) == []
    assert any("presenter's write not saved" in r.getMessage() for r in caplog.records)
