"""Opening a database file safely and bringing its schema up to date.

Two steps, so a bad file is never touched:

1. ``inspect_file`` looks at an existing file without writing anything: the
   16-byte SQLite header, then a read-only ``immutable`` connection (no locks, no
   -wal/-shm files created; a plain read-only one when a WAL with content is
   there, so what it holds counts too) that runs ``PRAGMA quick_check`` and reads
   the schema version. Anything wrong raises ``StoreError`` and the file stays
   byte for byte as it was.
2. ``migrate`` runs the numbered scripts of ``data/migrations`` that the database
   has not seen, each in one transaction with its row in ``schema_version``, so a
   crash mid-upgrade leaves the previous version intact.
"""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import aiosqlite

from .models import StoreError

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "data" / "migrations"
SQLITE_MAGIC = b"SQLite format 3\x00"
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(folder: Path = MIGRATIONS_DIR) -> list[Migration]:
    """The migration scripts in order; numbering must run 1, 2, 3... without gaps."""
    found: list[Migration] = []
    for path in sorted(folder.glob("*.sql")):
        m = _NAME.match(path.name)
        if m is None:
            raise RuntimeError(f"migration file {path.name} is not named NNNN_name.sql")
        found.append(Migration(int(m.group(1)), m.group(2), path.read_text("utf-8")))
    for i, mig in enumerate(found, start=1):
        if mig.version != i:
            raise RuntimeError(f"migrations must be numbered 1..N; {mig.version} is out of place")
    if not found:
        raise RuntimeError(f"no migrations in {folder}")
    return found


MIGRATIONS = load_migrations()
LATEST_VERSION = MIGRATIONS[-1].version


def _newer_message(path: Path, version: int) -> str:
    return (
        f"The database {path} has schema version {version}, but this version of "
        f"shengji-bot only knows up to {LATEST_VERSION}. It was written by a newer "
        "bot: upgrade the bot, or point it at another file. The file was not changed."
    )


def inspect_file(path: Path, *, check: bool = True) -> int:
    """The schema version of an existing database file (0 for an empty one).

    Raises ``StoreError`` for anything that is not a healthy shengji-bot database.
    Writes nothing, creates nothing. ``check=False`` skips ``quick_check``, which
    reads the whole file (about 0.35 s for 200 MiB): the header, schema and
    version checks still run.
    """
    if path.is_dir():
        raise StoreError(f"{path} is a folder, not a database file.")
    size = path.stat().st_size
    if size == 0:
        return 0  # SQLite treats an empty file as an empty database
    with path.open("rb") as f:
        header = f.read(len(SQLITE_MAGIC))
    if header != SQLITE_MAGIC:
        raise StoreError(
            f"{path} is not a SQLite database (its first bytes are not a SQLite header). "
            "Refusing to use it; the file was not changed."
        )
    # immutable=1 takes no locks and creates no -wal/-shm files, but ignores a WAL;
    # when a WAL with content is there (a crash, or a bot still running) read it too.
    wal = path.with_name(path.name + "-wal")
    live_wal = wal.exists() and wal.stat().st_size > 0
    uri = f"file:{quote(str(path.resolve()))}?mode=ro" + ("" if live_wal else "&immutable=1")
    try:
        conn = sqlite3.connect(uri, uri=True)
        try:
            problems = [row[0] for row in conn.execute("PRAGMA quick_check(5)")] if check else []
            if check and problems != ["ok"]:
                raise StoreError(
                    f"The database {path} is damaged ({'; '.join(problems)}). Restore it "
                    "from a backup or move it away; the file was not changed."
                )
            names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
            if not names:
                return 0
            if "schema_version" not in names:
                raise StoreError(
                    f"{path} is a SQLite database but not a shengji-bot one (it has no "
                    "schema_version table). Refusing to change it."
                )
            row = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
            version = int(row[0])
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(
            f"The database {path} cannot be read ({exc}). It may be corrupt or truncated; "
            "restore it from a backup or move it away. The file was not changed."
        ) from exc
    if version > LATEST_VERSION:
        raise StoreError(_newer_message(path, version))
    return version


async def current_version(conn: aiosqlite.Connection) -> int:
    rows = await conn.execute_fetchall(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    )
    if not rows:
        return 0
    rows = await conn.execute_fetchall("SELECT COALESCE(MAX(version), 0) FROM schema_version")
    return int(next(iter(rows))[0])


async def migrate(conn: aiosqlite.Connection, path: Path, upto: int | None = None) -> int:
    """Apply the pending migrations (up to ``upto``, default all); return the version.

    ``conn`` must be in autocommit mode (``isolation_level=None``): each script runs
    between its own ``BEGIN IMMEDIATE`` and ``COMMIT``.
    """
    target = LATEST_VERSION if upto is None else upto
    version = await current_version(conn)
    if version > LATEST_VERSION:
        raise StoreError(_newer_message(path, version))
    for mig in MIGRATIONS:
        if mig.version <= version or mig.version > target:
            continue
        script = (
            "BEGIN IMMEDIATE;\n"
            "CREATE TABLE IF NOT EXISTS schema_version (\n"
            "    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL);\n"
            f"{mig.sql}\n;\n"
            f"INSERT INTO schema_version VALUES ({mig.version}, '{mig.name}', {time.time()!r});\n"
            "COMMIT;"
        )
        try:
            await conn.executescript(script)
        except sqlite3.Error as exc:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise StoreError(
                f"Upgrading {path} to schema {mig.version} ({mig.name}) failed: {exc}. "
                "Nothing of that step was applied."
            ) from exc
        version = mig.version
    return version
