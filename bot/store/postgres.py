"""The store on PostgreSQL (``SHENGJI_DB=postgresql://...``), through asyncpg.

The store's SQL is shared with SQLite; this module only rewrites its ``?``
placeholders to ``$1, $2...`` and maps asyncpg's results and errors onto
``Database``. One connection per process, like SQLite: the group commit makes a
burst of appends one transaction, so a pool would add little but more ordering
questions.

Durability. A commit returns once PostgreSQL has it in its WAL (the server's
``synchronous_commit``, on by default, decides whether that includes an fsync).
A session the server ended while the connection sat idle (a failover, an
administrator's ``pg_terminate_backend``) can still look open to asyncpg: it has read
the server's goodbye but not yet the closed socket, and the next statement fails in
the client, before anything is sent ("cannot switch to state ..."; "connection is
closed"). Such a statement, if no transaction was open, runs again once on a new
connection (``_run``): it never reached the server, so it cannot run twice. Any
other loss (a statement sent, a transaction under way) fails the call as before.

Concurrency between processes. Each table is driven by one process at a time
(``leases``); the append's seq check also runs under a row lock on the table
(``lock_rows``) and the (table_id, seq) primary key refuses a duplicate, so even
two writers racing can never leave a gap or a fork in a table's log.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from functools import lru_cache
from typing import TypeVar

import asyncpg

from .db import Database, IntegrityViolation, Params, Row
from .models import StoreError

log = logging.getLogger(__name__)
T = TypeVar("T")
_PLACEHOLDER = re.compile(r"\?")


@lru_cache(maxsize=512)
def to_dollars(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's numbered ones (the store's SQL has no ``?`` in text)."""
    count = iter(range(1, 10_000))
    return _PLACEHOLDER.sub(lambda _: f"${next(count)}", sql)


def is_url(location: str) -> bool:
    return location.startswith(("postgresql://", "postgres://"))


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    return re.sub(r"^(\w+://[^:/@]*):[^@/]*@", r"\1:***@", url)


class PostgresDatabase(Database):
    dialect = "postgresql"
    lock_rows = " FOR UPDATE OF t"
    now_sql = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS DOUBLE PRECISION)"

    def __init__(self, conn: asyncpg.Connection, url: str) -> None:
        super().__init__()
        self.conn = conn
        self.url = url

    @classmethod
    async def connect(cls, url: str) -> PostgresDatabase:
        return cls(await cls._connect(url), url)

    @staticmethod
    async def _connect(url: str) -> asyncpg.Connection:
        # The statement cache keeps each of the store's few statements prepared.
        return await asyncpg.connect(url, statement_cache_size=256)

    def forget_if_lost(self, exc: Exception) -> bool:
        lost = (
            asyncpg.InterfaceError,
            asyncpg.PostgresConnectionError,
            asyncpg.exceptions.InternalClientError,
            OSError,
        )
        # 57P...: the server is ending the session (shutdown, pg_terminate_backend)
        if isinstance(exc, lost) or str(getattr(exc, "sqlstate", "") or "").startswith("57P"):
            self.conn.terminate()
            return True
        return False

    async def reconnect_if_needed(self) -> None:
        """The next call after a lost connection (server restart) connects again.

        The call that found the connection lost fails; the service handles that
        like any store error, and one outage never stops the bot for good.
        """
        if self.conn.is_closed():
            self.conn = await self._connect(self.url)

    async def _run(self, call: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        """``call(connection)``, once more on a new connection if the old one turned
        out to be gone before the statement left (see the module's docstring)."""
        try:
            return await call(self.conn)
        except (asyncpg.InterfaceError, asyncpg.exceptions.InternalClientError) as exc:
            if self.conn.is_in_transaction() or not _never_sent(exc):
                raise
        log.info("The database session had ended; the statement runs on a new connection.")
        self.conn.terminate()
        self.conn = await self._connect(self.url)
        return await call(self.conn)

    async def execute(self, sql: str, params: Params = ()) -> int:
        try:
            status: str = await self._run(lambda conn: conn.execute(to_dollars(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityViolation(str(exc)) from exc
        # "UPDATE 3", "DELETE 0", "INSERT 0 1": the count is the last word
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def executemany(self, sql: str, rows: Sequence[Params]) -> None:
        if not rows:
            return
        try:
            await self._run(lambda conn: conn.executemany(to_dollars(sql), rows))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityViolation(str(exc)) from exc

    async def one(self, sql: str, params: Params = ()) -> Row | None:
        try:
            row: Row | None = await self._run(lambda conn: conn.fetchrow(to_dollars(sql), *params))
            return row
        except asyncpg.IntegrityConstraintViolationError as exc:  # INSERT ... RETURNING
            raise IntegrityViolation(str(exc)) from exc

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        try:
            return list(await self._run(lambda conn: conn.fetch(to_dollars(sql), *params)))
        except asyncpg.IntegrityConstraintViolationError as exc:  # INSERT ... RETURNING
            raise IntegrityViolation(str(exc)) from exc

    # Plain BEGIN/COMMIT/ROLLBACK rather than asyncpg's Transaction objects: a BEGIN
    # cancelled in flight still runs on the server, and asyncpg would then take the next
    # transaction for a nested one (a SAVEPOINT); a plain ROLLBACK always ends it.
    async def begin(self, write: bool) -> None:
        await self._run(lambda conn: conn.execute("BEGIN" if write else "BEGIN READ ONLY"))

    async def commit(self) -> None:
        if await self.conn.execute("COMMIT") != "COMMIT":  # "ROLLBACK": it had failed
            raise StoreError("The transaction failed and was rolled back.")

    async def rollback(self) -> None:
        await self.conn.execute("ROLLBACK")  # a warning only, when none is in progress

    async def close(self) -> None:
        await self.conn.close()


def _never_sent(exc: Exception) -> bool:
    """Whether asyncpg refused the call before writing to the socket: a connection known
    closed, or a protocol left mid-message by the server's goodbye (its state checked
    before every send)."""
    if isinstance(exc, asyncpg.exceptions.InternalClientError):
        return str(exc).startswith("cannot switch to state")
    return type(exc) is asyncpg.InterfaceError and str(exc) == "connection is closed"
