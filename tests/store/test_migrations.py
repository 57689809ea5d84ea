"""Schema migrations: a database from migration 1 with rows upgrades in place."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from bot.store import LATEST_VERSION, SimulationResult, Store, simulate
from bot.store.migrations import MIGRATIONS, Migration, load_migrations

from .helpers import GUILD

V1_TABLES = [
    "guild_settings",
    "players",
    "game_tables",
    "actions",
    "snapshots",
    "hands",
    "tricks",
    "hand_players",
    "match_players",
    "ratings",
]


def _rows(path: Path, table: str) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return sorted(conn.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
    finally:
        conn.close()


def test_migrations_are_numbered_in_order() -> None:
    versions = [m.version for m in MIGRATIONS]
    assert versions == sorted(set(versions)) and versions[0] == 1
    assert LATEST_VERSION == versions[-1] >= 2
    assert load_migrations() == MIGRATIONS
    for mig in MIGRATIONS:  # each runs inside the transaction the runner opens
        assert not re.search(r"^\s*(BEGIN|COMMIT|ROLLBACK|END)\b", mig.sql, re.M | re.I)


async def test_database_at_migration_1_upgrades_in_place(
    tmp_path: Path, short_matches: None
) -> None:
    # The reference: matches played and recorded by the current code.
    reference = tmp_path / "reference.db"
    store = await Store.open(reference)
    sim: SimulationResult = await simulate(store, matches=1, hands=30, seed=4, guild_id=GUILD)
    await simulate(store, hands=3, seed=50, guild_id=GUILD, players=["Ann", "Bo", "Cy", "Di"])
    stats_before = [await store.player_stats(GUILD, uid) for uid in (1, 2, 3, 4)]
    boards = {m: await store.leaderboard(GUILD, m) for m in ("league", "rating", "wins", "hands")}
    await store.close()
    assert sim.matches_finished == 1 and stats_before[0] is not None

    # The same rows in a database that stopped at migration 1 ...
    old = tmp_path / "old.db"
    store = await Store.open(old, migrate_to=1)
    assert store.schema_version == 1
    await store.close()
    conn = sqlite3.connect(old)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("ATTACH DATABASE ? AS ref", (str(reference),))
    for table in V1_TABLES:
        conn.execute(f"INSERT INTO main.{table} SELECT * FROM ref.{table}")
    conn.commit()
    conn.execute("DETACH DATABASE ref")
    assert {r[0] for r in conn.execute("SELECT name FROM sqlite_master")} >= set(V1_TABLES)
    assert "player_stats" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()
    v1_rows = {table: _rows(old, table) for table in V1_TABLES}

    # ... opened by the current code: upgraded, nothing lost, aggregates rebuilt.
    store = await Store.open(old)
    try:
        assert store.schema_version == LATEST_VERSION
        for table in V1_TABLES:
            assert _rows(old, table) == v1_rows[table], table
        assert [await store.player_stats(GUILD, uid) for uid in (1, 2, 3, 4)] == stats_before
        for metric, board in boards.items():
            assert await store.leaderboard(GUILD, metric) == board
        assert _rows(old, "player_stats") == _rows(reference, "player_stats")
        # and the upgraded database keeps working
        more = await simulate(store, hands=2, seed=9, guild_id=GUILD)
        assert len(more.hands) == 2
    finally:
        await store.close()
    assert sorted(r[0] for r in _rows(old, "schema_version")) == [m.version for m in MIGRATIONS]


async def test_store_opened_at_an_old_version_refuses_api_calls(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "x.db", migrate_to=1)
    try:
        try:
            await store.leaderboard(GUILD, "league")
        except Exception as exc:
            assert "schema" in str(exc)
        else:  # pragma: no cover
            raise AssertionError("expected a StoreError")
    finally:
        await store.close()


async def test_a_script_numbered_below_applied_ones_still_runs(tmp_path: Path) -> None:
    """Branches reserve numbers and land in any order: a lower number arriving later runs."""
    path = tmp_path / "gap.db"
    await (await Store.open(path)).close()
    # pretend the database never saw the last script but one that makes a table (one
    # still there: 0008's are renamed into place)
    conn = sqlite3.connect(path)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def made(m: Migration) -> list[str]:
        return [t for t in tables if re.search(rf"CREATE TABLE {t}\b", m.sql)]

    middle = next(m for m in reversed(MIGRATIONS[:-1]) if made(m))
    created = made(middle)
    for table in created:
        conn.execute(f"DROP TABLE {table}")
    conn.execute("DELETE FROM schema_version WHERE version = ?", (middle.version,))
    conn.commit()
    conn.close()
    store = await Store.open(path)
    try:
        assert store.schema_version == LATEST_VERSION
    finally:
        await store.close()
    assert sorted(r[0] for r in _rows(path, "schema_version")) == [m.version for m in MIGRATIONS]
