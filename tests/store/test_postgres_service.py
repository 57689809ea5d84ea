"""A live table over PostgreSQL when the server drops the bot's connection mid-write.

The SQLite faults (a locked file, a full disk) are in ``tests/test_service_faults.py``;
what only a server has is a connection that can go away under a write in flight.
That must pause the table and resume it on a new connection, like any passing
fault, never close it as a store that failed for good.
"""

from __future__ import annotations

import asyncio

import asyncpg

from bot.clock import ManualClock
from bot.rules import RuleSet
from bot.service import TableService
from bot.service.faults import transient
from bot.store import ConnectionLost, GuildSettings, Store, StoreError
from bot.store.pglocal import LocalPostgres
from bot.store.postgres import PostgresDatabase
from tests.test_service import ALICE, CHANNEL, FAST, GUILD, Recorder, _full_table, run_until
from tests.test_service_faults import nothing_lost, storage

from .conftest import fresh_database


def test_a_lost_connection_passes_and_other_store_errors_do_not() -> None:
    assert transient(ConnectionLost("the connection to the database was lost"))
    assert not transient(StoreError("Table 3 is closed."))


async def test_a_connection_lost_under_a_write_pauses_the_table_and_it_resumes(
    pg_server: LocalPostgres,
) -> None:
    url = await fresh_database(pg_server)
    store = await Store.open(url)
    await store.save_guild_settings(GUILD, GuildSettings(RuleSet(), dict(FAST)))
    clock, sink = ManualClock(), Recorder()
    service = TableService(store, sink, clock, seed_source=lambda: 42)
    other = await asyncpg.connect(url)
    try:
        table = await _full_table(service)
        await service.start(CHANNEL, ALICE)
        await service.set_auto(CHANNEL, ALICE, True)  # the computers play every seat
        await run_until(clock, lambda: table.match is not None and table.match.seq >= 12)
        assert isinstance(store._db, PostgresDatabase) and table.match is not None
        pid = store._db.conn.get_server_pid()
        # hold the log so the table's next append waits on the server, then end its session
        lock = other.transaction()
        await lock.start()
        await other.execute("LOCK TABLE actions IN EXCLUSIVE MODE")
        seq = table.match.seq
        while not await other.fetchval(
            "SELECT count(*) FROM pg_locks WHERE pid = $1 AND NOT granted", pid
        ):
            await clock.advance(0.5)
            await asyncio.sleep(0.01)
        assert await other.fetchval("SELECT pg_terminate_backend($1)", pid)
        await lock.rollback()
        await run_until(clock, lambda: storage(sink) == ["paused", "resumed"])
        await run_until(clock, lambda: table.match is not None and table.match.seq >= seq + 8)
        assert not table.closed and service.tables[CHANNEL] is table
        await run_until(clock, lambda: not table.lock.locked() and table.outbox.empty())
        await nothing_lost(store, table)
    finally:
        await other.close()
        await service.shutdown()
        await store.close()
