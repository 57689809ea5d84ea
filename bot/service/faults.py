"""Store failures as the service sees them: passing (retry and pause) or permanent (close).

A write refused because the database is locked by another process, busy, the disk
is full, or the server connection dropped is *transient*: the table pauses, says
so, and retries with backoff until the store takes writes again (or until
``Timers.store_outage`` has passed, when it is given up as permanent). Anything
else (a corrupt file, a lease another process took, a seq the log refuses) is
*permanent*: the table closes with a message, freeing its channel. Either way an
action that could not be stored is refused, never reported as done.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from bot.service.table import UserError
from bot.store import ConnectionLost

log = logging.getLogger(__name__)
R = TypeVar("R")

# SQLite primary result codes that pass once the other writer or the disk frees up
_PASSING_SQLITE = {
    sqlite3.SQLITE_BUSY,
    sqlite3.SQLITE_LOCKED,
    sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_IOERR,
    sqlite3.SQLITE_PROTOCOL,
}
_PASSING_WORDS = ("locked", "busy", "full", "disk i/o")
# asyncpg's errors for a lost or overloaded server (by name: asyncpg is optional)
_PASSING_PG = (
    "ConnectionDoesNotExistError",
    "ConnectionFailureError",
    "CannotConnectNowError",
    "TooManyConnectionsError",
    "AdminShutdownError",
    "DiskFullError",
    "LockNotAvailableError",
    "DeadlockDetectedError",
    "SerializationError",
    "InterfaceError",
    "QueryCanceledError",
)


class NotSaved(UserError):
    """The store did not take a write, so the change did not happen (``transient`` or not)."""

    def __init__(self, transient: bool) -> None:
        if transient:
            super().__init__(
                "That couldn't be saved, so it didn't happen; please try again.",
                key="service-not-saved",
            )
        else:
            super().__init__(
                "That couldn't be saved and the table had to close; open a new one.",
                key="service-not-saved-closed",
            )
        self.transient = transient


def transient(exc: BaseException) -> bool:
    """Whether a store failure passes by itself (retry) rather than for good (close)."""
    if isinstance(exc, sqlite3.OperationalError):
        code = getattr(exc, "sqlite_errorcode", None)
        if code is not None:
            return (code & 0xFF) in _PASSING_SQLITE
        return any(word in str(exc).lower() for word in _PASSING_WORDS)
    if isinstance(exc, OSError | TimeoutError | ConnectionLost):
        return True
    kind = type(exc)
    return kind.__module__.startswith("asyncpg") and any(
        c.__name__ in _PASSING_PG for c in kind.__mro__
    )


def store_passing(exc: BaseException) -> bool:
    """A failure of the store's own (SQLite, PostgreSQL, its lost connection) that passes
    by itself: not an ``OSError`` or ``TimeoutError`` of anything else."""
    from_store = isinstance(exc, sqlite3.Error | ConnectionLost)
    from_store = from_store or type(exc).__module__.startswith("asyncpg")
    return from_store and transient(exc)


def backoff(failures: int) -> float:
    """Seconds before retry number ``failures`` (1, 2, ...): doubling from 0.5 s, at most 30 s."""
    return float(min(30.0, 0.5 * 2 ** min(failures - 1, 6)))


async def tried_while_passing(
    call: Callable[[], Awaitable[R]],
    waits: Sequence[float],
    what: str,
    passing: Callable[[BaseException], bool] = store_passing,
) -> R:
    """``call``, tried again after each of ``waits`` real seconds (SQLite's busy wait
    counts real time too) while it fails for a reason ``passing`` lets by, each try a
    warning naming ``what``; the last failure, or any other, is the caller's."""
    for wait in waits:
        try:
            return await call()
        except Exception as exc:
            if not passing(exc):
                raise
            log.warning("%s (%s); trying again in %g s", what, exc, wait)
        await asyncio.sleep(wait)
    return await call()
