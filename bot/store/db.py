"""The database connection under the store: one connection, one lock, one transaction at a time
(on SQLite a second connection takes the read transactions: ``SqliteDatabase.reader``).

The store's SQL is written once, with ``?`` placeholders and standard SQL that
SQLite and PostgreSQL both accept; a ``Database`` runs it on its engine (the
PostgreSQL one rewrites the placeholders, see ``postgres``). Each store call runs
alone on the connection behind an ``asyncio.Lock``, so one coroutine's
multi-statement transaction never takes in another coroutine's statements; calls
are short (milliseconds), so the lock costs nothing noticeable at a few dozen
tables per process.

Rows come back as mappings by column name (``sqlite3.Row`` or ``asyncpg.Record``),
so callers read ``row["seq"]``, never ``row[11]``.
"""

from __future__ import annotations

import asyncio
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Any, Generic, Protocol, TypeVar

import aiosqlite

from .models import ConnectionLost, StoreError

BUSY_TIMEOUT_MS = 5000  # SQLite waits this long for another connection's write lock


class Row(Protocol):
    """A result row: columns by name (both engines' row types also index by position)."""

    def __getitem__(self, key: str, /) -> Any: ...

    def keys(self) -> Any: ...


Params = Sequence[Any]


class IntegrityViolation(Exception):
    """A unique, foreign-key or check constraint refused a write (either engine)."""


class Database(ABC):
    """One connection to the store's database, used by one coroutine at a time."""

    #: "sqlite" or "postgresql"; for the few places where the SQL must differ.
    dialect: str
    #: Appended to a ``SELECT`` of ``game_tables`` rows in a write transaction to lock
    #: them against other processes until the commit (PostgreSQL; SQLite's
    #: ``BEGIN IMMEDIATE`` already holds the whole file).
    lock_rows: str = ""
    #: The database's clock in seconds since the epoch, as an SQL expression.
    now_sql: str

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.closed = False

    @property
    def reader(self) -> Database:
        """Where read transactions run: this connection, unless the engine keeps a
        second one for reads (``SqliteDatabase.reader``)."""
        return self

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Sequence[Params]) -> None: ...

    @abstractmethod
    async def one(self, sql: str, params: Params = ()) -> Row | None: ...

    @abstractmethod
    async def all(self, sql: str, params: Params = ()) -> list[Row]: ...

    @abstractmethod
    async def begin(self, write: bool) -> None: ...

    @abstractmethod
    async def commit(self) -> None: ...

    @abstractmethod
    async def rollback(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def reconnect_if_needed(self) -> None:
        """Open a new connection if the old one was lost (a server restarted)."""

    def forget_if_lost(self, exc: Exception) -> bool:
        """Drop a connection that ``exc`` shows is gone, so the next call connects again."""
        return False

    @asynccontextmanager
    async def use(self) -> AsyncIterator[Database]:
        """The connection, alone (for statements outside a transaction)."""
        async with self.lock:
            if self.closed:
                raise StoreError("The store is closed.")
            await self.reconnect_if_needed()
            try:
                yield self
            except Exception as exc:
                if self.forget_if_lost(exc):
                    raise ConnectionLost(
                        f"The connection to the database was lost ({exc!r}); "
                        "the next call connects again."
                    ) from exc
                raise

    @asynccontextmanager
    async def transaction(self, write: bool) -> AsyncIterator[Database]:
        """One transaction, alone on the connection; rolled back on any error."""
        async with self.use():
            try:
                await self.begin(write)
            except BaseException:
                # a BEGIN cancelled in flight may still run on the connection (aiosqlite's
                # thread): end it, or the next transaction would start inside this one
                with suppress(Exception):
                    await self.rollback()
                raise
            try:
                yield self
            except BaseException:
                await self.rollback()
                raise
            await self.commit()


class SqliteDatabase(Database):
    """aiosqlite in autocommit mode; transactions are explicit ``BEGIN``/``COMMIT``."""

    dialect = "sqlite"
    now_sql = "((julianday('now') - 2440587.5) * 86400.0)"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        super().__init__()
        conn.row_factory = sqlite3.Row
        self.conn = conn
        self._reader: SqliteDatabase | None = None

    @property
    def reader(self) -> Database:
        """A second connection, for the records' reads only (``open_reader``,
        ``StoreBase._read_records``), else this one.

        In WAL mode readers never wait for the writer, so a write that is slow inside
        SQLite (an fsync, another process's lock held up to the busy timeout) does not
        hold up a leaderboard, a player's stats or a hand's history asked for meanwhile.
        A read there sees every transaction committed before it began, not one under
        way: reads that must follow the writes asked for before them (settings,
        preferences, live tables, tournaments) stay on this connection.
        """
        return self._reader or self

    async def open_reader(self, path: str) -> None:
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await conn.execute("PRAGMA query_only = ON")
        except BaseException:
            await conn.close()
            raise
        self._reader = SqliteDatabase(conn)

    async def execute(self, sql: str, params: Params = ()) -> int:
        try:  # no cursor close: one thread hop less on the append path
            cur = await self.conn.execute(sql, params)
            return cur.rowcount
        except sqlite3.IntegrityError as exc:
            raise IntegrityViolation(str(exc)) from exc

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        try:
            await self.conn.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise IntegrityViolation(str(exc)) from exc

    async def one(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.all(sql, params)
        return rows[0] if rows else None

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        # One trip to aiosqlite's thread (execute, fetch and close there), not three:
        # every group commit and every read pays each trip on the event loop.
        try:
            return list(await self.conn.execute_fetchall(sql, params))
        except sqlite3.IntegrityError as exc:  # INSERT ... RETURNING
            raise IntegrityViolation(str(exc)) from exc

    async def begin(self, write: bool) -> None:
        await self.conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")

    async def commit(self) -> None:
        await self.conn.execute("COMMIT")

    async def rollback(self) -> None:
        await self.conn.execute("ROLLBACK")

    async def reconnect_if_needed(self) -> None:
        return None  # a file connection is not lost to the network

    async def close(self) -> None:
        if self._reader is not None:
            async with self._reader.lock:
                self._reader.closed = True
                await self._reader.conn.close()
        await self.conn.close()


Item = TypeVar("Item")


class GroupCommit(Generic[Item]):
    """Writes that arrive while a commit is under way are committed together in the next.

    ``commit(batch)`` writes a batch and returns an error (or None) per item: a
    burst of many tables costs one transaction for the whole group, not one each.
    Each ``submit`` returns once its item is committed, or raises its error.
    """

    def __init__(self, commit: Callable[[list[Item]], Awaitable[list[Exception | None]]]) -> None:
        self._commit = commit
        self._pending: list[tuple[Item, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None

    async def submit(self, item: Item) -> None:
        done = asyncio.get_running_loop().create_future()
        self._pending.append((item, done))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        await done

    async def drain(self) -> None:
        """Wait until every item already submitted is committed (or refused)."""
        if self._flusher is not None and not self._flusher.done():
            await self._flusher

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                errors = await self._commit([item for item, _ in batch])
            except BaseException as exc:
                for _, done in batch:
                    if not done.done():
                        done.set_exception(
                            exc if isinstance(exc, Exception) else StoreError("Store closed.")
                        )
                if not isinstance(exc, Exception):
                    raise
                continue
            for (_, done), error in zip(batch, errors, strict=True):
                if done.done():
                    continue
                if error is None:
                    done.set_result(None)
                else:
                    done.set_exception(error)
