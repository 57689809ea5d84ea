"""Leases: one process drives a resource at a time, and a process that lost one knows it."""

from __future__ import annotations

import asyncio

import pytest

from bot.rules import RuleSet
from bot.store import Store, table_resource
from bot.store.leases import Lease, LeaseKeeper, LeaseLost

from .helpers import GUILD, HUMANS


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
    keeper = await LeaseKeeper.acquire(store, "shard:5", "proc-a", 0.6, on_lost=lost.append)
    assert keeper is not None and keeper.held
    assert await LeaseKeeper.acquire(store, "shard:5", "proc-b", 0.6) is None
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
