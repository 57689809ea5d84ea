"""Copy a SQLite database into PostgreSQL (``python -m bot migrate-db --from FILE --to URL``).

Stop the bot first: the copy is one consistent read of the file, and anything
written after it would be left behind. The SQLite file is only read (the same
checks as ``Store.open``, then a read-only connection), never changed. The
target must be a new or empty shengji-bot database: it is brought to the file's
schema version, every table is copied in one transaction (foreign keys first,
by ``COPY``), the identity counters are moved past the copied ids, and the row
count of every table is compared with the file's before the commit; any
difference rolls the whole copy back. ``ANALYZE`` then gives the planner its
statistics at once (autovacuum would, later). Then the target is upgraded to the
latest schema like any other database, so an older file migrates too.
"""

from __future__ import annotations

import asyncio
import sqlite3
from graphlib import TopologicalSorter
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .migrations import inspect_file
from .models import StoreError
from .postgres import PostgresDatabase, is_url, redact
from .store import Store


def _read_sqlite(path: Path) -> dict[str, tuple[list[str], list[tuple[Any, ...]]]]:
    """Every table of the file (columns, rows), parents before children, in one read."""
    conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
    try:
        conn.execute("BEGIN")
        names = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
                " AND name NOT LIKE 'sqlite_%' AND name != 'schema_version'"
            )
        ]
        parents = {
            name: {r[2] for r in conn.execute(f'PRAGMA foreign_key_list("{name}")')} - {name}
            for name in names
        }
        tables = {}
        for name in TopologicalSorter(parents).static_order():
            columns = [r[1] for r in conn.execute(f'PRAGMA table_info("{name}")')]
            quoted = ", ".join(f'"{c}"' for c in columns)
            tables[name] = (columns, conn.execute(f'SELECT {quoted} FROM "{name}"').fetchall())
        conn.execute("COMMIT")
    finally:
        conn.close()
    return tables


async def copy_sqlite_to_postgres(source: str | Path, url: str) -> dict[str, int]:
    """Copy the SQLite file ``source`` into the PostgreSQL database ``url``; rows per table."""
    path = Path(source)
    if not is_url(url):
        raise StoreError(f"The target must be a postgresql:// URL, not {url!r}.")
    if not path.is_file():
        raise StoreError(f"There is no database file {path}.")
    version = await asyncio.to_thread(inspect_file, path)
    if version == 0:
        raise StoreError(f"{path} is an empty database: there is nothing to copy.")
    tables = await asyncio.to_thread(_read_sqlite, path)
    target = await Store.open(url, migrate_to=version)
    try:
        db = target._db
        assert isinstance(db, PostgresDatabase)
        async with db.transaction(write=True):
            for name in tables:
                if await db.one(f'SELECT 1 FROM "{name}" LIMIT 1') is not None:
                    raise StoreError(
                        f"{redact(url)} already holds rows in {name}: copy only into a new, "
                        "empty database. Nothing was copied."
                    )
            for name, (columns, rows) in tables.items():
                if rows:
                    await db.conn.copy_records_to_table(name, records=rows, columns=columns)
            await _move_identities_past_copied_ids(db)
            counts = {}
            for name, (_, rows) in tables.items():
                row = await db.one(f'SELECT COUNT(*) AS n FROM "{name}"')
                counts[name] = 0 if row is None else int(row["n"])
                if counts[name] != len(rows):
                    raise StoreError(
                        f"{name}: {len(rows)} rows in {path} but {counts[name]} copied; "
                        "the copy was rolled back."
                    )
        await db.execute("ANALYZE")  # the planner's statistics for the rows just copied
    finally:
        await target.close()
    await (await Store.open(url)).close()  # the rest of the migrations, as at start-up
    return counts


async def _move_identities_past_copied_ids(db: PostgresDatabase) -> None:
    """Ids the database assigns next come after the copied ones (they were given explicitly)."""
    identities = await db.all(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND is_identity = 'YES'"
    )
    for r in identities:
        table, column = r["table_name"], r["column_name"]
        await db.one(
            f'SELECT setval(pg_get_serial_sequence(?, ?), COALESCE(MAX("{column}"), 0) + 1,'
            f' false) FROM "{table}"',
            (f'"{table}"', column),
        )
