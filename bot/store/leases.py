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
- ``renew_leases(owner, resources, ttl)`` extends many of one owner's at once
  and returns those it still holds.
- ``release_lease(lease)`` hands it back at once (on a clean shutdown).

``token`` grows every time the resource changes owner, so it is a fencing token:
a write that carries it is refused if it is stale. ``append_action`` and
``save_snapshot`` take the token of the table's lease (``table_resource``) and
raise ``LeaseLost`` once another process has taken the table over, so a
fenced-out process's late write never lands, whatever the process believes.
``LeaseGroup`` is what a service runs: it renews all of one owner's leases in
the background with one ``renew_leases`` statement per interval, and its
``LeaseKeeper`` per lease says when that lease may no longer be held, before
anyone else can have it (``held``, ``lost``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass

from .base import StoreBase, dumps
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

    async def renew_leases(self, owner: str, resources: Collection[str], ttl: float) -> list[Lease]:
        """``owner``'s leases among ``resources``, each ``ttl`` more seconds: one statement.

        A resource missing from the answer changed hands (or was never held); the
        caller compares tokens, so a lease this owner took back since is not
        mistaken for the one it renewed before. One array (PostgreSQL) or JSON
        list (SQLite) parameter keeps the statement the same text for any number
        of leases, so it is prepared once.
        """
        if not resources:
            return []
        among, names = self._among(resources)
        async with self._write() as db:
            rows = await db.all(
                f"UPDATE leases SET expires_at = {self._db.now_sql} + ?"
                f" WHERE owner = ? AND {among}"
                " RETURNING resource, owner, token, expires_at",
                (float(ttl), owner, names),
            )
        return [_lease(r) for r in rows]

    async def release_leases(self, owner: str, resources: Collection[str]) -> None:
        """Expire ``owner``'s leases among ``resources`` now, in one statement (a clean
        shutdown); one another owner took meanwhile is left alone."""
        if not resources:
            return
        among, names = self._among(resources)
        async with self._write() as db:
            await db.execute(
                f"UPDATE leases SET expires_at = 0 WHERE owner = ? AND {among}", (owner, names)
            )

    def _among(self, resources: Collection[str]) -> tuple[str, object]:
        """``resource`` is one of ``resources``, as SQL and its one parameter."""
        if self._db.dialect == "postgresql":
            return "resource = ANY(?)", list(resources)
        return "resource IN (SELECT value FROM json_each(?))", dumps(list(resources))

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


class LeaseGroup:
    """The leases one owner holds for ``ttl``: renewed together, one statement every ``every``
    seconds (``ttl / 3`` unless shorter).

    A process drives hundreds of tables, each fenced by its own lease; renewing
    each on its own would be a write every ``ttl / 3`` per table (40 a second at
    400 tables), all contending with the action log's group commit. One
    ``renew_leases`` statement covers them all instead. A lease missing from its
    answer (or back with another token) changed hands: lost. Each keeper's
    deadline is measured from before the statement was sent, less ``margin``, so
    ``held`` turns false before the database can let anyone else take it; while
    a renewal is failing or hanging, each lease is lost at its own deadline. A
    renewal's answer in hand counts even if the loop reads it after a deadline
    (another table's work held it up): it shows which leases nobody else took.
    ``every`` below ``ttl / 3`` learns of a take-over sooner for more writes; the
    tests use it to see renewals often under a lease time no stall comes near.
    """

    def __init__(
        self,
        store: Leases,
        owner: str,
        ttl: float,
        *,
        margin: float = 1.0,
        every: float | None = None,
    ) -> None:
        self.store = store
        self.owner = owner
        self.ttl = ttl
        self.margin = min(margin, ttl / 3)
        self.every = ttl / 3 if every is None else min(every, ttl / 3)
        self.keepers: dict[str, LeaseKeeper] = {}  # by resource
        self._task: asyncio.Task[None] | None = None
        self._sending = asyncio.Lock()  # a release never overtakes a renewal in flight

    async def acquire(
        self, resource: str, on_lost: Callable[[Lease], object] | None = None
    ) -> LeaseKeeper | None:
        """Take ``resource`` and keep it renewed with the others; ``None`` if another holds it."""
        sent = time.monotonic()
        lease = await self.store.acquire_lease(resource, self.owner, self.ttl)
        if lease is None:
            return None
        keeper = LeaseKeeper(self, lease, sent + self.ttl - self.margin, on_lost)
        self.keepers[resource] = keeper
        if self._task is None:
            self._task = asyncio.create_task(self._renew_forever(), name=f"leases-{self.owner}")
        return keeper

    async def _renew_forever(self) -> None:
        try:
            while self.keepers:
                soonest = min(k.deadline for k in self.keepers.values())
                await asyncio.sleep(max(0.0, min(self.every, soonest - time.monotonic())))
                self._lose_late()
                if self.keepers:
                    await self._renew()
        finally:
            if self._task is asyncio.current_task():
                self._task = None

    async def _renew(self) -> None:
        async with self._sending:
            batch = dict(self.keepers)
            sent = time.monotonic()
            call = asyncio.ensure_future(self.store.renew_leases(self.owner, batch, self.ttl))
            try:
                while not call.done():  # a hanging database: each lease lost at its deadline
                    soonest = min((k.deadline for k in self.keepers.values()), default=None)
                    wait = None if soonest is None else max(0.0, soonest - time.monotonic())
                    await asyncio.wait({call}, timeout=wait)
                    if not call.done():
                        self._lose_late()
            finally:
                call.cancel()
            try:
                renewed = {lease.resource: lease for lease in call.result()}
            except Exception:  # the database is unreachable: try again until the deadlines
                log.warning("renewing %d leases failed", len(batch), exc_info=True)
                return
        for resource, keeper in batch.items():
            if self.keepers.get(resource) is not keeper:
                continue  # released, lost or replaced meanwhile
            lease = renewed.get(resource)
            if lease is None or lease.token != keeper.lease.token:
                self._lose(keeper, "another process took it")
            else:
                keeper.lease = lease
                keeper.deadline = sent + self.ttl - self.margin

    def _lose_late(self) -> None:
        for keeper in list(self.keepers.values()):
            if not keeper.held:
                self._lose(keeper, "its renewals did not get through in time")

    def _lose(self, keeper: LeaseKeeper, why: str) -> None:
        log.warning("lease on %s lost: %s", keeper.lease.resource, why)
        self.discard(keeper)
        if keeper.on_lost is not None:
            keeper.on_lost(keeper.lease)

    def discard(self, keeper: LeaseKeeper) -> None:
        """Stop renewing the keeper's lease (it is lost, or about to be handed back)."""
        keeper.lost.set()
        if self.keepers.get(keeper.lease.resource) is keeper:
            del self.keepers[keeper.lease.resource]
        task = self._task
        if not self.keepers and task is not None and task is not asyncio.current_task():
            task.cancel()  # nothing left to renew
            self._task = None

    async def release(self, keeper: LeaseKeeper) -> None:
        """Hand the keeper's lease back at once (a clean shutdown, a closed table)."""
        if keeper.lost.is_set():
            return  # lost: nothing to hand back, the taker keeps it
        self.discard(keeper)
        async with self._sending:
            await self.store.release_lease(keeper.lease)

    async def release_all(self) -> None:
        """Hand every lease back at once, in one statement (a clean shutdown)."""
        keepers = list(self.keepers.values())
        for keeper in keepers:
            self.discard(keeper)
        async with self._sending:
            await self.store.release_leases(self.owner, [k.lease.resource for k in keepers])


class LeaseKeeper:
    """One lease of a ``LeaseGroup``: says when it may be lost.

    ``held`` turns false as soon as the lease could have expired in the database,
    which is before any other process can take it; ``lost`` is set then, or when
    a renewal finds another owner, and ``on_lost`` is called once. The service
    checks ``held`` before acting for the resource and stops when ``lost`` is set.
    """

    def __init__(
        self,
        group: LeaseGroup,
        lease: Lease,
        deadline: float,
        on_lost: Callable[[Lease], object] | None = None,
    ) -> None:
        self.group = group
        self.lease = lease
        self.deadline = deadline  # time.monotonic() past which it may have expired
        self.on_lost = on_lost
        self.lost = asyncio.Event()

    @classmethod
    async def acquire(
        cls,
        store: Leases,
        resource: str,
        owner: str,
        ttl: float,
        *,
        margin: float = 1.0,
        every: float | None = None,
        on_lost: Callable[[Lease], object] | None = None,
    ) -> LeaseKeeper | None:
        """One lease renewed on its own (a group of one); ``None`` if another owner holds it."""
        group = LeaseGroup(store, owner, ttl, margin=margin, every=every)
        return await group.acquire(resource, on_lost)

    @property
    def held(self) -> bool:
        return not self.lost.is_set() and time.monotonic() < self.deadline

    async def release(self) -> None:
        """Stop renewing and hand the lease back (a clean shutdown)."""
        await self.group.release(self)
