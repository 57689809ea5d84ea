"""Leases: a resource (a shard's tables, one table...) driven by one process at a time.

Several bot processes share one PostgreSQL database, each driving its own
shards' tables; a lease makes "its own" hold even when a process hangs, is
restarted with the wrong shard range, or two are started by mistake. A lease is
a row (resource, owner, token, expiry) in ``leases``; expiry uses the database's
clock, so the hosts' clocks never have to agree. It works the same on SQLite
(processes sharing one file).

- ``acquire_lease(resource, owner, ttl)`` takes a free or expired resource (or
  extends one the owner already holds) and returns a ``Lease``; ``None`` while
  another owner holds it.
- ``renew_lease(lease, ttl)`` extends it, or raises ``LeaseLost`` once another
  owner has taken it (after it expired): from then on the process must not touch
  that resource.
- ``release_lease(lease)`` hands it back at once (on a clean shutdown).

``token`` grows every time the resource changes owner, so it is a fencing token:
a write that carries it is refused if it is stale. ``append_action`` and
``save_snapshot`` take the token of the table's lease (``table_resource``) and
raise ``LeaseLost`` once another process has taken the table over, so a
fenced-out process's late write never lands, whatever the process believes.
``LeaseKeeper`` is what a service runs: it renews in the background and says
when the lease may no longer be held, before anyone else can have it (``held``,
``lost``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from .base import StoreBase
from .db import Row
from .models import StoreError

log = logging.getLogger(__name__)


class LeaseLost(StoreError):
    """Another process holds the resource now; this one must stop touching it."""


@dataclass(frozen=True, slots=True)
class Lease:
    resource: str
    owner: str
    token: int  # grows each time the resource changes owner (a fencing token)
    expires_at: float  # the database's clock, seconds since the epoch


def table_resource(table_id: int) -> str:
    """The lease that fences one live table (``append_action`` and snapshots check it)."""
    return f"table:{table_id}"


def _lease(row: Row) -> Lease:
    return Lease(row["resource"], row["owner"], row["token"], row["expires_at"])


class Leases(StoreBase):
    async def acquire_lease(self, resource: str, owner: str, ttl: float) -> Lease | None:
        """The resource for ``ttl`` seconds, if it is free, expired or already ``owner``'s."""
        now = self._db.now_sql
        async with self._write() as db:
            row = await db.one(
                "INSERT INTO leases (resource, owner, token, expires_at)"
                f" VALUES (?, ?, 1, {now} + ?) ON CONFLICT (resource) DO UPDATE SET"
                " token = CASE WHEN leases.owner = excluded.owner THEN leases.token"
                " ELSE leases.token + 1 END,"
                " owner = excluded.owner, expires_at = excluded.expires_at"
                f" WHERE leases.owner = excluded.owner OR leases.expires_at <= {now}"
                " RETURNING resource, owner, token, expires_at",
                (resource, owner, float(ttl)),
            )
        return None if row is None else _lease(row)

    async def renew_lease(self, lease: Lease, ttl: float) -> Lease:
        """The same lease for ``ttl`` more seconds; ``LeaseLost`` if it changed hands.

        A lease that expired but was taken by nobody is still this owner's (the
        token shows nobody else held it in between), so it renews.
        """
        async with self._write() as db:
            row = await db.one(
                f"UPDATE leases SET expires_at = {self._db.now_sql} + ?"
                " WHERE resource = ? AND owner = ? AND token = ?"
                " RETURNING resource, owner, token, expires_at",
                (float(ttl), lease.resource, lease.owner, lease.token),
            )
        if row is None:
            raise LeaseLost(f"{lease.owner} lost {lease.resource} to another process.")
        return _lease(row)

    async def release_lease(self, lease: Lease) -> None:
        """Expire it now, so another process may take it at once (nothing if already lost)."""
        async with self._write() as db:
            await db.execute(
                "UPDATE leases SET expires_at = 0 WHERE resource = ? AND owner = ? AND token = ?",
                (lease.resource, lease.owner, lease.token),
            )

    async def leases(self, prefix: str = "") -> list[Lease]:
        """The unexpired leases whose resource starts with ``prefix`` (who drives what)."""
        async with self._read() as db:
            rows = await db.all(
                "SELECT resource, owner, token, expires_at FROM leases"
                f" WHERE substr(resource, 1, ?) = ? AND expires_at > {self._db.now_sql}"
                " ORDER BY resource",
                (len(prefix), prefix),
            )
        return [_lease(r) for r in rows]


class LeaseKeeper:
    """Holds one lease: renews it every ``ttl / 3`` and says when it may be lost.

    ``held`` turns false as soon as the lease could have expired in the database
    (measured from before the last successful renewal was sent, less ``margin``),
    which is before any other process can take it; ``lost`` is set then, or when
    a renewal finds another owner, and ``on_lost`` is called once. The service
    checks ``held`` before acting for the resource and stops when ``lost`` is set.
    """

    def __init__(
        self,
        store: Leases,
        lease: Lease,
        ttl: float,
        *,
        margin: float = 1.0,
        on_lost: Callable[[Lease], object] | None = None,
    ) -> None:
        self.store = store
        self.lease = lease
        self.ttl = ttl
        self.margin = min(margin, ttl / 3)
        self.on_lost = on_lost
        self.lost = asyncio.Event()
        self._deadline = time.monotonic() + ttl - self.margin
        self._task: asyncio.Task[None] | None = None

    @classmethod
    async def acquire(
        cls,
        store: Leases,
        resource: str,
        owner: str,
        ttl: float,
        *,
        margin: float = 1.0,
        on_lost: Callable[[Lease], object] | None = None,
    ) -> LeaseKeeper | None:
        """Acquire ``resource`` and start renewing it; ``None`` if another owner holds it."""
        sent = time.monotonic()
        lease = await store.acquire_lease(resource, owner, ttl)
        if lease is None:
            return None
        keeper = cls(store, lease, ttl, margin=margin, on_lost=on_lost)
        keeper._deadline = sent + ttl - keeper.margin
        keeper._task = asyncio.create_task(keeper._renew_forever())
        return keeper

    @property
    def held(self) -> bool:
        return not self.lost.is_set() and time.monotonic() < self._deadline

    async def _renew_forever(self) -> None:
        while not self.lost.is_set():
            await asyncio.sleep(max(0.0, min(self.ttl / 3, self._deadline - time.monotonic())))
            if not self.held:
                self._lose("its renewals did not get through in time")
                return
            sent = time.monotonic()
            try:
                self.lease = await self.store.renew_lease(self.lease, self.ttl)
            except LeaseLost:
                self._lose("another process took it")
                return
            except Exception:  # the database is unreachable: keep trying until the deadline
                log.warning("renewing the lease on %s failed", self.lease.resource, exc_info=True)
                continue
            self._deadline = sent + self.ttl - self.margin

    def _lose(self, why: str) -> None:
        log.warning("lease on %s lost: %s", self.lease.resource, why)
        self.lost.set()
        if self.on_lost is not None:
            self.on_lost(self.lease)

    async def release(self) -> None:
        """Stop renewing and hand the lease back (a clean shutdown)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if not self.lost.is_set():
            self.lost.set()
            await self.store.release_lease(self.lease)
