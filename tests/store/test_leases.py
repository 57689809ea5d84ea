"""Leases: one process drives a resource at a time, and a process that lost one knows it."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Collection
from contextlib import asynccontextmanager
from types import SimpleNamespace
from typing import Any

import asyncpg
import pytest

from bot.rules import RuleSet
from bot.store import Store, leases, table_resource
from bot.store.db import Database
from bot.store.leases import Lease, LeaseGroup, LeaseKeeper, LeaseLost

from .helpers import GUILD, HUMANS

# A lease time no stall of a busy machine's loop or database comes near, so a lease is lost
# only where a test means it to be; renewals still come often (``every``), so the tests
# wait for them in fractions of a second. A lease meant to run out uses a short ttl.
LONG = 60.0


async def _expire(store: Store, resource: str) -> None:
    """As if the holder stopped renewing long ago (a hung or killed process)."""
    async with store._write() as db:
        await db.execute("UPDATE leases SET expires_at = 0 WHERE resource = ?", (resource,))


async def test_one_owner_at_a_time_and_tokens_grow_with_each_new_owner(store: Store) -> None:
    a = await store.acquire_lease("shard:0", "proc-a", 30)
    assert a is not None and (a.owner, a.token) == ("proc-a", 1)
    assert await store.acquire_lease("shard:0", "proc-b", 30) is None
    again = await store.acquire_lease("shard:0", "proc-a", 60)  # its own: extended
    assert again is not None and again.token == 1 and again.expires_at > a.expires_at
    other = await store.acquire_lease("shard:1", "proc-b", 30)  # another resource is free
    assert other is not None and other.token == 1

    await _expire(store, "shard:0")
    b = await store.acquire_lease("shard:0", "proc-b", 30)
    assert b is not None and (b.owner, b.token) == ("proc-b", 2)
    with pytest.raises(LeaseLost, match="proc-a lost shard:0"):
        await store.renew_lease(a, 30)
    await store.release_lease(a)  # a stale release changes nothing
    assert await store.acquire_lease("shard:0", "proc-c", 30) is None
    assert [(x.resource, x.owner) for x in await store.leases("shard:")] == [
        ("shard:0", "proc-b"),
        ("shard:1", "proc-b"),
    ]


async def test_release_frees_at_once_and_an_untaken_expired_lease_renews(store: Store) -> None:
    a = await store.acquire_lease("table:7", "proc-a", 30)
    assert a is not None
    await store.release_lease(a)
    assert await store.leases("table:") == []
    b = await store.acquire_lease("table:7", "proc-b", 30)
    assert b is not None and b.token == 2

    await _expire(store, "table:7")
    renewed = await store.renew_lease(b, 30)  # nobody took it in between: still b's
    assert renewed.token == 2 and renewed.owner == "proc-b"
    assert [x.owner for x in await store.leases()] == ["proc-b"]


async def test_two_processes_on_one_database(db_url: str) -> None:
    one, two = await Store.open(db_url), await Store.open(db_url)
    try:
        results = await asyncio.gather(
            one.acquire_lease("shard:3", "proc-one", 30),
            two.acquire_lease("shard:3", "proc-two", 30),
        )
        winners = [r for r in results if r is not None]
        assert len(winners) == 1
        loser = two if winners[0].owner == "proc-one" else one
        assert await loser.acquire_lease("shard:3", "proc-x", 30) is None
        assert [x.owner for x in await loser.leases("shard:")] == [winners[0].owner]
    finally:
        await one.close()
        await two.close()


async def test_a_keeper_renews_and_reports_a_lost_lease(store: Store) -> None:
    lost: list[Lease] = []
    keeper = await LeaseKeeper.acquire(
        store, "shard:5", "proc-a", LONG, every=0.2, on_lost=lost.append
    )
    assert keeper is not None and keeper.held
    assert await LeaseKeeper.acquire(store, "shard:5", "proc-b", LONG) is None
    first = keeper.lease.expires_at

    async def renewed() -> None:
        while keeper.lease.expires_at == first:
            await asyncio.sleep(0.05)

    await asyncio.wait_for(renewed(), 10)  # it renews by itself
    assert keeper.held and keeper.lease.token == 1

    await _expire(store, "shard:5")  # proc-a stalled; proc-b takes over
    taker = await store.acquire_lease("shard:5", "proc-b", 30)
    assert taker is not None and taker.token == 2
    await asyncio.wait_for(keeper.lost.wait(), 10)
    assert not keeper.held and [x.owner for x in lost] == ["proc-a"]
    await keeper.release()  # after a loss: nothing to hand back, the taker keeps it
    assert [x.owner for x in await store.leases("shard:5")] == ["proc-b"]


async def test_a_keeper_hands_its_lease_back(store: Store) -> None:
    keeper = await LeaseKeeper.acquire(store, "shard:6", "proc-a", 30)
    assert keeper is not None
    await keeper.release()
    assert not keeper.held
    taken = await store.acquire_lease("shard:6", "proc-b", 30)
    assert taken is not None and taken.token == 2


async def test_a_stale_lease_token_is_refused_by_appends_and_snapshots(store: Store) -> None:
    """A fenced-out process's late writes never land, alone or in a group commit."""
    one, two, free = [
        await store.create_table(GUILD, channel, 101, RuleSet(), 5, HUMANS, 0, 0.0)
        for channel in (1, 2, 3)
    ]
    deal = {"kind": "deal", "count": 100}
    old = await store.acquire_lease(table_resource(one), "proc-a", 30)
    assert old is not None
    await store.append_action(one, 1, -1, deal, 0.0, token=old.token)  # alone: the single path
    await _expire(store, table_resource(one))
    new = await store.acquire_lease(table_resource(one), "proc-b", 30)
    assert new is not None and new.token == old.token + 1

    with pytest.raises(LeaseLost, match=f"Table {one} is driven by another process"):
        await store.append_action(one, 2, -1, deal, 0.0, token=old.token)
    # in one group commit: the stale one is refused, the others land
    results = await asyncio.gather(
        store.append_action(two, 1, -1, deal, 0.0),
        store.append_action(one, 2, -1, deal, 0.0, token=old.token),
        store.append_action(free, 1, -1, deal, 0.0, token=None),
        return_exceptions=True,
    )
    assert results[0] is None and results[2] is None and isinstance(results[1], LeaseLost)
    with pytest.raises(LeaseLost):
        await store.save_snapshot(one, 1, {"seq": 1}, token=old.token)
    # a token for a table with no lease at all is refused too
    with pytest.raises(LeaseLost):
        await store.append_action(free, 2, -1, deal, 0.0, token=1)

    await store.append_action(one, 2, -1, deal, 0.0, token=new.token)
    await store.save_snapshot(one, 2, {"seq": 2}, token=new.token)
    assert [seq for seq, _, _ in await store.action_log(one)] == [1, 2]
    assert [seq for seq, _, _ in await store.action_log(free)] == [1]


async def test_a_read_cancelled_while_it_begins_leaves_the_connection_usable(
    store: Store,
) -> None:
    """The service cancels tasks that may be inside a store call (a fenced-out table's,
    the claimer at shutdown): the next transaction must not start inside theirs."""
    table = await store.create_table(GUILD, 1, 101, RuleSet(), 5, HUMANS, 0, 0.0)
    for _ in range(3):
        reading = asyncio.create_task(store.action_log(table))
        await asyncio.sleep(0)  # it holds the connection and waits for its BEGIN
        reading.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reading
        await store.append_action(table, len(await store.action_log(table)) + 1, -1, {}, 0.0)
    assert [seq for seq, _, _ in await store.action_log(table)] == [1, 2, 3]


def _count_lease_writes(db: Database) -> list[str]:
    """Every statement that writes ``leases`` on this connection, as it is sent."""
    sent: list[str] = []
    for name in ("execute", "one", "all"):
        run = getattr(db, name)

        def counting(sql: str, params: Any = (), _run: Callable[..., Any] = run) -> Any:
            if sql.startswith(("UPDATE leases", "INSERT INTO leases")):
                sent.append(sql)
            return _run(sql, params)

        setattr(db, name, counting)
    return sent


async def _group_of(
    store: Store, count: int, ttl: float = LONG, every: float | None = None
) -> tuple[LeaseGroup, list[str]]:
    group = LeaseGroup(store, "proc-a", ttl, margin=ttl / 6, every=every)
    lost: list[str] = []

    def on_lost(lease: Lease) -> None:
        lost.append(lease.resource)

    for n in range(count):
        keeper = await group.acquire(f"table:{n}", on_lost=on_lost)
        assert keeper is not None
    return group, lost


async def test_a_group_renews_all_its_leases_with_one_statement_per_interval(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    group, lost = await _group_of(store, 40, every=0.3)
    acquired = {r: k.lease.expires_at for r, k in group.keepers.items()}
    sent = _count_lease_writes(store._db)
    batches: list[int] = []  # how many leases each renewal carried
    renew = store.renew_leases

    async def renewing(owner: str, resources: Collection[str], ttl: float) -> list[Lease]:
        batches.append(len(resources))
        return await renew(owner, resources, ttl)

    monkeypatch.setattr(store, "renew_leases", renewing)
    began = time.monotonic()
    while len(sent) < 3 or any(k.lease.expires_at == acquired[r] for r, k in group.keepers.items()):
        await asyncio.sleep(0.02)
    elapsed, statements = time.monotonic() - began, len(sent)
    assert 3 <= statements <= elapsed / 0.3 + 1  # one per interval, not one per lease
    assert all("RETURNING" in sql for sql in sent[:statements]) and set(batches) == {40}
    renewed = len(sent)
    await group.release_all()
    assert len(sent) == renewed + 1  # handed back together too
    assert not lost and group._task is None and await store.leases("table:") == []


async def test_a_lease_taken_over_between_batches_is_lost_and_only_that_one(store: Store) -> None:
    group, lost = await _group_of(store, 5, every=0.3)
    keepers = dict(group.keepers)
    await _expire(store, "table:3")  # proc-a stalled on it; proc-b takes it over
    taker = await store.acquire_lease("table:3", "proc-b", 30)
    assert taker is not None and taker.token == 2
    await asyncio.wait_for(keepers["table:3"].lost.wait(), 10)
    assert lost == ["table:3"] and not keepers["table:3"].held
    renewed = {r: k.lease.expires_at for r, k in keepers.items()}
    sent = _count_lease_writes(store._db)
    while len(sent) < 2:
        await asyncio.sleep(0.02)
    await asyncio.sleep(0)
    assert sorted(group.keepers) == ["table:0", "table:1", "table:2", "table:4"]
    assert all(k.held and k.lease.expires_at > renewed[r] for r, k in group.keepers.items())
    assert lost == ["table:3"]  # once
    await group.release_all()
    assert [(x.resource, x.owner) for x in await store.leases("table:")] == [("table:3", "proc-b")]


async def test_a_renewal_answered_in_time_but_read_late_keeps_its_leases(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer is in hand, but the loop (busy with other tables) gets to it only past
    the deadlines it renewed: the same tokens came back, so nobody took the leases in
    between, and they are renewed, not lost."""
    late = 0.0  # how far the group's clock is ahead of the real one

    def monotonic() -> float:
        return time.monotonic() + late

    monkeypatch.setattr(leases, "time", SimpleNamespace(monotonic=monotonic))
    group, lost = await _group_of(store, 3, every=0.2)
    before = {r: k.lease.expires_at for r, k in group.keepers.items()}
    renew = store.renew_leases

    async def answered_then_held_up(owner: str, resources: Collection[str], ttl: float) -> Any:
        nonlocal late
        answer = await renew(owner, resources, ttl)
        late += min(k.deadline for k in group.keepers.values()) + 0.01 - monotonic()
        return answer

    monkeypatch.setattr(store, "renew_leases", answered_then_held_up)
    while not lost and any(k.lease.expires_at == before[r] for r, k in group.keepers.items()):
        await asyncio.sleep(0.02)
    assert not lost and all(k.held for k in group.keepers.values()) and len(group.keepers) == 3
    await group.release_all()


@asynccontextmanager
async def _writes_blocked(store: Store) -> AsyncIterator[None]:
    """The database takes no writes: another connection holds the lock they need."""
    if store._db.dialect == "sqlite":
        other = sqlite3.connect(store.location, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            other.rollback()
            other.close()
        return
    conn = await asyncpg.connect(store.location)
    await conn.execute("BEGIN; LOCK TABLE leases IN ACCESS EXCLUSIVE MODE")
    try:
        yield
    finally:
        await conn.execute("ROLLBACK")
        await conn.close()


async def test_an_outage_longer_than_the_deadline_loses_every_lease_at_its_deadline(
    store: Store,
) -> None:
    """Each lease is lost when it may have expired, while the renewal still hangs."""
    group, lost = await _group_of(store, 6, ttl=0.6)  # deadlines 0.5 s after each renewal
    keepers = list(group.keepers.values())
    async with _writes_blocked(store):
        began = time.monotonic()
        latest = max(k.deadline for k in keepers)
        while len(lost) < len(keepers) and time.monotonic() < latest + 5:
            await asyncio.sleep(0.02)
        assert sorted(lost) == sorted(k.lease.resource for k in keepers)
        # at the deadline, not when the database answers (never, or SQLite's 5 s busy timeout)
        assert time.monotonic() < latest + 3.0
        assert not any(k.held for k in keepers) and group.keepers == {}
        assert time.monotonic() - began < 5  # the writes were still blocked all along
    while group._task is not None:  # until the hung renewal gets through late: still lost
        await asyncio.sleep(0.02)
    assert not any(k.held for k in keepers) and len(lost) == len(keepers)
