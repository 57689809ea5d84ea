"""Fencing: with several bot processes, each table is driven by exactly one of them.

A process runs some of Discord's shards (``SHENGJI_SHARDS``, ``SHENGJI_SHARD_IDS``)
and restores only the tables of guilds on those shards. That alone is not enough:
a process restarted with a wrong shard range, two started by mistake, or one that
hangs and comes back would drive the same table twice. So each live table is
fenced by a lease ``table:<id>`` in the store (``bot.store.leases``), held by the
process driving it and renewed in the background: all of a process's table
leases together, one statement every ``ttl / 3`` (``LeaseGroup``), so the leases
cost one write per interval whatever the number of tables.

- A table whose lease another process holds is not restored; it stays *pending*
  and is claimed as soon as the lease is free (a killed process's leases expire
  after ``ttl`` seconds, a cleanly stopped one's at once).
- A process whose lease is lost (it could not renew in time, or another took it
  over) stops touching the table at once: the driver and the publisher stop,
  nothing more is posted or written for it, and it waits to be claimed again.
- The process's own belief is not the last word: every append and snapshot
  carries the lease's token and the store refuses it (``LeaseLost``) once
  another process has taken the table, e.g. after this one stalled past its
  lease between the check and the write.

Without sharding (``Fence`` absent) nothing changes: one process, every table.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import uuid
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from bot.store import LeaseGroup, LeaseKeeper, Store, shard_of, table_resource

log = logging.getLogger("bot.service")


def process_owner() -> str:
    """This process's name in the leases table: readable, and never reused."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


@dataclass
class Fence:
    """This process's shards and the leases of the tables it drives."""

    shards: frozenset[int]
    shard_count: int
    ttl: float = 30.0
    owner: str = field(default_factory=process_owner)
    keepers: dict[int, LeaseKeeper] = field(default_factory=dict)  # by table id
    pending: set[int] = field(default_factory=set)  # own tables another process holds
    group: LeaseGroup | None = None  # renews every table's lease in one statement

    @classmethod
    def of(cls, shards: Collection[int], shard_count: int, ttl: float = 30.0) -> Fence:
        return cls(frozenset(shards), shard_count, ttl)

    def owns_guild(self, guild_id: int) -> bool:
        """Whether the guild is on one of this process's shards (so are its tournaments)."""
        return shard_of(guild_id, self.shard_count) in self.shards

    async def claim(self, store: Store, table_id: int, on_lost: Callable[[int], object]) -> bool:
        """Take the table's lease (and keep renewing it); False while another process has
        it, or while the store refuses the claim: the table stays pending either way, and
        the claimer asks again (a refusal that escaped failed the start, or ended the
        claimer for every table). A claim committed whose answer was lost is this owner's
        when asked again."""
        if self.group is None or self.group.store is not store:
            self.group = LeaseGroup(store, self.owner, self.ttl, margin=self.ttl / 6)
        try:
            keeper = await self.group.acquire(
                table_resource(table_id), on_lost=lambda _lease: on_lost(table_id)
            )
        except Exception as exc:
            log.warning("table %s: its lease not claimed (%r); asking again later", table_id, exc)
            keeper = None
        if keeper is None:
            self.pending.add(table_id)
            return False
        self.pending.discard(table_id)
        self.keepers[table_id] = keeper
        return True

    def token(self, table_id: int) -> int | None:
        """The token the table's writes carry (the store refuses a stale one); None if not held."""
        keeper = self.keepers.get(table_id)
        return keeper.lease.token if keeper is not None and keeper.held else None

    def lost(self, table_id: int) -> None:
        """The lease is gone (or not held in time): stop renewing it, wait to claim it again."""
        keeper = self.keepers.pop(table_id, None)
        if keeper is not None:
            keeper.group.discard(keeper)
        self.pending.add(table_id)

    async def release(self, table_id: int) -> None:
        keeper = self.keepers.pop(table_id, None)
        self.pending.discard(table_id)
        if keeper is not None:
            with contextlib.suppress(Exception):  # it expires on its own all the same
                await keeper.release()

    async def release_all(self) -> None:
        self.keepers.clear()
        self.pending.clear()
        if self.group is not None:
            with contextlib.suppress(Exception):  # they expire on their own all the same
                await self.group.release_all()
