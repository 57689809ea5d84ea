"""``Store``: the bot's records, leaderboards and restart-proof tables.

The facade over the store's parts, each a job of its own: ``db`` (the connection,
transactions, group commit), ``live`` (live tables) with ``actionlog`` (the action
log, snapshots) and ``restore`` (reading them back after a restart), ``records``
(scored hands and match results; the rows themselves are computed without I/O by
``rows.hand_rows``) and ``queries`` (leaderboards, stats, history).

Durability (SQLite). Every ``append_action`` is its own committed transaction
before it returns. The file runs in WAL mode with ``synchronous=NORMAL``: a
commit is a write to the WAL without an fsync, which survives the bot's process
being killed (the data is in the OS page cache and reaches the file) but not a
power cut or a kernel crash, where the last commits may be lost and the database
is still consistent. That trade keeps the hot path well under a millisecond; a
host that must survive power loss passes ``synchronous="FULL"`` to
``Store.open`` (an fsync per action).

PostgreSQL. ``Store.open("postgresql://user@host/db")`` runs the same store on a
server (``postgres``), for several processes over one database; a path or
``sqlite:///path`` keeps SQLite.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import aiosqlite

from .db import BUSY_TIMEOUT_MS, Database, SqliteDatabase
from .leases import Leases
from .live import LiveTables
from .migrations import inspect_file, migrate, migrate_postgres
from .models import StoreError
from .postgres import PostgresDatabase, is_url, redact
from .prefs import UserPrefsStore
from .queries import Queries
from .records import HandRecords
from .tournaments import TournamentRecords


class Store(LiveTables, HandRecords, Queries, TournamentRecords, Leases, UserPrefsStore):
    """The bot's database. Open with ``await Store.open(path)``; close when done."""

    def __init__(self, db: Database, location: str, version: int, path: Path | None) -> None:
        super().__init__(db, location, version)
        #: The SQLite file (None for a server database); ``location`` reopens either.
        self.path = path
        self._start_appends()

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: str = "NORMAL",
        check: bool = True,
        migrate_to: int | None = None,
    ) -> Store:
        """Open (or create) the database at ``path`` and bring its schema up to date.

        A missing file is created along with its folder. An existing file is first
        checked without writing to it (``migrations.inspect_file``): not SQLite,
        corrupt, truncated, someone else's database or a newer schema all raise
        ``StoreError`` and leave it untouched (``check=False`` skips the full-file
        ``quick_check`` but not the header and version checks). ``migrate_to``
        stops at an older schema version (for upgrade tests and tools only: the
        rest of the API needs the latest).

        ``path`` may also be a ``postgresql://`` URL (``synchronous`` and ``check``
        are SQLite's and do not apply) or ``sqlite:///path``.
        """
        if isinstance(path, str) and is_url(path):
            return await cls._open_postgres(path, migrate_to)
        if isinstance(path, str) and path.startswith("sqlite:///"):
            path = path.removeprefix("sqlite:///")
        path = Path(path)
        if synchronous.upper() not in ("NORMAL", "FULL", "EXTRA"):
            raise ValueError("synchronous must be NORMAL, FULL or EXTRA")
        if path.exists():
            await asyncio.to_thread(inspect_file, path, check=check)
        else:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"Cannot create the folder for {path}: {exc}") from exc
        # the file and its folder (SQLite's -wal and -shm files): said here, where SQLite
        # would say only "unable to open database file" of a read-only mount
        if any(p.exists() and not os.access(p, os.W_OK) for p in (path, path.parent)):
            raise _read_only(path)
        try:
            conn = await aiosqlite.connect(path, isolation_level=None)
        except Exception as exc:  # sqlite3.Error or OSError, depending on the cause
            raise StoreError(f"Cannot open the database {path}: {exc}") from exc
        try:
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await conn.execute("PRAGMA foreign_keys = ON")
            # WAL before the migrations: each one commits as a WAL write, atomic like any
            # other commit, without the rollback journal's fsyncs (a new file is created
            # about ten times faster, which every test that opens a store pays)
            mode = await conn.execute_fetchall("PRAGMA journal_mode = WAL")
            if next(iter(mode))[0].lower() != "wal":
                raise StoreError(f"{path} cannot be switched to WAL mode.")
            await conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            version = await migrate(conn, path, migrate_to)  # refuses newer versions
            await _check_writable(conn, path)
            db = SqliteDatabase(conn)
            await db.open_reader(str(path))
        except BaseException as exc:
            await conn.close()
            if isinstance(exc, aiosqlite.Error):
                raise StoreError(f"Cannot use the database {path}: {exc}") from exc
            raise
        return cls(db, str(path), version, path)

    @classmethod
    async def _open_postgres(cls, url: str, migrate_to: int | None) -> Store:
        where = redact(url)
        try:
            db = await PostgresDatabase.connect(url)
        except Exception as exc:  # OSError, asyncpg's errors, a malformed URL
            raise StoreError(f"Cannot connect to the database {where}: {exc}") from exc
        try:
            await _check_postgres_writable(db, where)
            version = await migrate_postgres(db, where, migrate_to)
        except BaseException:
            await db.close()
            raise
        return cls(db, url, version, None)

    async def close(self) -> None:
        await self._appends.drain()  # appends already accepted still get committed
        async with self._db.lock:
            if not self._db.closed:
                self._db.closed = True
                await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


async def _check_postgres_writable(db: PostgresDatabase, where: str) -> None:
    """Refuse a server the bot could read but never write (a standby, or a role or
    database with ``default_transaction_read_only``), as ``_check_writable`` does a file:
    said at start-up in a sentence, not as a traceback at the first write."""
    row = await db.one("SHOW transaction_read_only")
    if row is not None and row["transaction_read_only"] == "on":
        raise StoreError(
            f"The database {where} is read-only (a standby server, or"
            " default_transaction_read_only set for the database or its user); the bot"
            " needs to write to it: point SHENGJI_DB at the primary server."
        )


def _read_only(path: Path) -> StoreError:
    return StoreError(
        f"The database {path} is read-only; the bot needs to write to it"
        " (check the file's and its folder's permissions, or the disk's mount)."
    )


async def _check_writable(conn: aiosqlite.Connection, path: Path) -> None:
    """Refuse a database the bot could read but never write (a read-only file or mount).

    Found at start-up rather than at the first move of the first table: a write
    that is rolled back at once, so nothing changes.
    """
    await conn.execute("BEGIN IMMEDIATE")
    try:
        await conn.execute("CREATE TABLE _writable_probe (x INTEGER)")
    except sqlite3.OperationalError as exc:
        if getattr(exc, "sqlite_errorcode", sqlite3.SQLITE_READONLY) & 0xFF == (
            sqlite3.SQLITE_READONLY
        ):
            raise _read_only(path) from exc
        raise
    finally:
        await conn.execute("ROLLBACK")
