"""Several processes over one database: each drives only its shards' tables, each under a lease.

Each "process" is a ``TableService`` with its own ``Store`` connection to one
real SQLite file (the leases work the same on PostgreSQL); the leases run on
real time with a two-second ttl (one second where a lease is made to expire),
the game on a manual clock.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import logs
from bot.clock import ManualClock
from bot.rules import RuleSet
from bot.service import Table, TableService, UpdateKind
from bot.service.fencing import Fence
from bot.store import GuildSettings, Store, shard_of, table_resource
from bot.tournament.bracket import Game
from bot.tournament.cup import Cup
from bot.tournament.service import TournamentService
from tests.test_service import FAST, Recorder, run_until, settle

GUILD0, GUILD1 = 2 << 22, 1 << 22  # shards 0 and 1 of 2
ALICE, BOB = 101, 102
TTL = 2.0  # long enough that a busy machine's stalls (up to a second) never lose a lease


@pytest.fixture(autouse=True)
def log_fields() -> Iterator[None]:
    """Records carry shard and table (``bot.logs``) as in the bot: process shards ``0``."""
    factory = logging.getLogRecordFactory()
    logs.install("0")
    yield
    logging.setLogRecordFactory(factory)


async def _process(
    path: Path, clock: ManualClock, shards: set[int], ttl: float = TTL
) -> TableService:
    store = await Store.open(path)
    fence = Fence.of(shards, 2, ttl=ttl)
    service = TableService(store, Recorder(), clock, seed_source=lambda: 42, fence=fence)
    await service.restore_all()
    return service


async def _playing(service: TableService, guild: int, channel: int, user: int) -> Table:
    await service.store.save_guild_settings(guild, GuildSettings(RuleSet(), dict(FAST)))
    table = await service.new_table(guild, channel, user, "Host")
    while None in table.seats:
        await service.add_bot(channel)
    await service.start(channel, user)
    return table


async def _stop(*services: TableService) -> None:
    for service in services:
        await service.shutdown()
        await service.store.close()


def _seq(table: Table) -> int:
    """How many actions the (started) table's match has taken."""
    assert table.match is not None
    return table.match.seq


def _fence(service: TableService) -> Fence:
    assert service.fence is not None
    return service.fence


def _sent(service: TableService) -> int:
    """How many updates the process has published for the presenter to show."""
    assert isinstance(service.sink, Recorder)
    return sum(u.kind is not UpdateKind.HANDED_OVER for _, u in service.sink.updates)


def _handed_over(service: TableService) -> list[int]:
    """The tables the presenter was told to forget, shown by another process now."""
    assert isinstance(service.sink, Recorder)
    return [table for table, u in service.sink.updates if u.kind is UpdateKind.HANDED_OVER]


def _where(record: logging.LogRecord) -> tuple[object, object]:
    """The shard and table ``bot.logs`` put on a record."""
    return record.__dict__["shard"], record.__dict__["table"]


async def test_each_process_restores_only_its_shards_and_a_lease_fences_every_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    assert (shard_of(GUILD0, 2), shard_of(GUILD1, 2)) == (0, 1)
    db, clock = tmp_path / "bot.sqlite3", ManualClock()
    first = await _process(db, clock, {0})
    second = await _process(db, clock, {1})
    try:
        t0 = await _playing(first, GUILD0, 10, ALICE)
        t1 = await _playing(second, GUILD1, 11, BOB)
        await run_until(clock, lambda: _seq(t0) > 20 and _seq(t1) > 20)
        held = {lease.resource: lease.owner for lease in await first.store.leases("table:")}
        assert held == {
            f"table:{t0.id}": _fence(first).owner,
            f"table:{t1.id}": _fence(second).owner,
        }

        # started by mistake with the first one's shards: it touches nothing of it
        with caplog.at_level(logging.INFO, "bot.service"):  # started as the bot starts:
            start = _process(db, clock, {0})  # in a task of its own, about no table
            intruder = await asyncio.create_task(start, context=contextvars.Context())
        assert intruder.tables == {} and _fence(intruder).pending == {t0.id}
        [waiting] = [r for r in caplog.records if "driven by another process" in r.message]
        assert _where(waiting) == ("0", "-")
        seq = _seq(t0)
        await asyncio.sleep(TTL * 1.5)  # renewals keep the first one's lease alive
        await run_until(clock, lambda: _seq(t0) > seq + 10)
        assert intruder.tables == {} and not _sent(intruder)
        assert first.tables[10] is t0 and not t0.closed
        await _stop(intruder)
    finally:
        await _stop(first, second)


async def test_a_process_that_loses_a_lease_stops_and_another_takes_the_table_over(
    tmp_path: Path,
) -> None:
    db, clock = tmp_path / "bot.sqlite3", ManualClock()
    first = await _process(db, clock, {0}, ttl=1.0)  # its lease is made to expire
    other = await _process(db, clock, {1}, ttl=60)  # never notices anything
    second: TableService | None = None  # stopped however the test ends: its store's
    # thread would keep pytest from exiting
    try:
        table = await _playing(first, GUILD0, 10, ALICE)
        untouched = await _playing(other, GUILD1, 11, BOB)
        await run_until(clock, lambda: _seq(table) > 20)
        second = await _process(db, clock, {0})  # a second process for shard 0, waiting
        assert second.tables == {}
        # the first one's renewals stop reaching the database: the lease expires
        renewing = _fence(first).keepers[table.id].group._task
        assert renewing is not None
        renewing.cancel()
        for _ in range(100):
            await asyncio.sleep(0.2)
            await settle(clock)
            if 10 in second.tables:
                break
        taken = second.tables[10]
        assert taken.id == table.id and taken is not table
        # the first one notices before its next write: nothing more from it
        seen = _sent(first)
        await run_until(clock, lambda: _seq(taken) > _seq(table) + 10)
        assert table.closed and 10 not in first.tables
        assert _sent(first) <= seen + 1
        assert _handed_over(first) == [table.id] and not _handed_over(second)
        await second.shutdown()  # its action in flight is committed before the log is read
        log = await second.store.action_log(table.id)
        assert [entry[0] for entry in log] == list(range(1, _seq(taken) + 1))
        assert _seq(untouched) > 0 and 11 in other.tables and not untouched.closed
        live = {t.table_id: t for t in await second.store.live_tables()}
        assert set(live) == {table.id, untouched.id}  # nobody closed either table
    finally:
        await _stop(first, other, *([second] if second is not None else []))


@pytest.mark.parametrize("when", ["at-start", "while-waiting"])
async def test_a_claim_the_store_refuses_in_passing_is_made_again_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    """Another writer held SQLite's lock as the second process claimed the table. The
    refusal escaped: at the start it failed ``restore_all`` (and the bot's start with it);
    later it ended the claimer silently, and no table of the process was taken over again
    until it restarted."""
    db, clock = tmp_path / "bot.sqlite3", ManualClock()
    first = await _process(db, clock, {0}, ttl=1.0)
    second: TableService | None = None
    acquire = Store.acquire_lease
    refused: list[object] = []

    async def locked_once(store: Store, *args: object, **kwargs: object) -> object:
        if store is not first.store and not refused:
            refused.append(args)
            raise sqlite3.OperationalError("database is locked")
        return await acquire(store, *args, **kwargs)  # type: ignore[arg-type]

    try:
        table = await _playing(first, GUILD0, 10, ALICE)
        await run_until(clock, lambda: _seq(table) > 5)
        if when == "at-start":
            monkeypatch.setattr(Store, "acquire_lease", locked_once)
        second = await _process(db, clock, {0})
        assert second.tables == {} and _fence(second).pending == {table.id}
        monkeypatch.setattr(Store, "acquire_lease", locked_once)
        renewing = _fence(first).keepers[table.id].group._task
        assert renewing is not None
        renewing.cancel()  # the first process stops renewing: its lease expires
        for _ in range(100):
            await asyncio.sleep(0.2)
            await settle(clock)
            if 10 in second.tables:
                break
        assert len(refused) == 1
        assert second.tables[10].id == table.id
    finally:
        await _stop(first, *([second] if second is not None else []))


async def test_the_store_refuses_the_writes_of_a_process_that_still_believes_it_holds_a_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A process that stalled past its lease resumes believing it holds the table: the
    lease token on its append is stale, so the store refuses it and the process stops."""
    db, clock = tmp_path / "bot.sqlite3", ManualClock()
    first = await _process(db, clock, {0}, ttl=60)  # no renewal runs during the test
    try:
        table = await _playing(first, GUILD0, 10, ALICE)
        await run_until(clock, lambda: _seq(table) > 5)
        resource = table_resource(table.id)
        async with first.store._write() as conn:  # its lease expired while it stalled...
            await conn.execute("UPDATE leases SET expires_at = 0 WHERE resource = ?", (resource,))
        thief = await first.store.acquire_lease(resource, "another-process", 60)  # ...taken
        assert thief is not None
        assert _fence(first).token(table.id) is not None
        stored = len(await first.store.action_log(table.id))
        await run_until(clock, lambda: table.closed)
        assert table.closed and 10 not in first.tables
        assert _fence(first).token(table.id) is None
        assert len(await first.store.action_log(table.id)) == stored
        assert [x.owner for x in await first.store.leases(resource)] == ["another-process"]
        assert [t.table_id for t in await first.store.live_tables()] == [table.id]  # not closed
        # the driver's warning carries the table and its shard (``bot.logs``)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # no "failure"
        [lost] = [r for r in caplog.records if "lease lost" in r.message]
        assert _where(lost) == (0, table.id)
        line = logging.Formatter(logs.FORMAT).format(lost)
        assert f" WARNING bot.service shard=0 table={table.id}: table {table.id}: lease" in line
    finally:
        await _stop(first)


class _Cups:
    async def post_opening(self, cup: Cup, title: str) -> int:
        raise AssertionError("no match opens in this test")

    async def open_place(self, cup: Cup, title: str, opening: int) -> int | None:
        raise AssertionError("no match opens in this test")

    async def match_opened(self, cup: Cup, game: Game, place_id: int) -> None: ...

    async def changed(self, cup: Cup, note: str = "", **args: int | str) -> None: ...


async def test_a_tournament_is_restored_by_the_process_of_its_servers_shard(
    tmp_path: Path,
) -> None:
    db, clock = tmp_path / "bot.sqlite3", ManualClock()
    first = await _process(db, clock, {0, 1})
    cups = TournamentService(first, first.store, _Cups())
    await cups.create(GUILD0, 20, ALICE, "Spring")
    await cups.create(GUILD1, 21, BOB, "Autumn")
    await _stop(first)
    for shard, guild, channel in ((0, GUILD0, 20), (1, GUILD1, 21)):
        process = await _process(db, clock, {shard})
        try:
            restored = TournamentService(process, process.store, _Cups())
            assert await restored.restore_all() == 1
            restored_cups = [(c.guild_id, c.channel_id) for c in restored.cups.values()]
            assert restored_cups == [(guild, channel)]
        finally:
            await _stop(process)
