"""Computer levels at a table: kept with the seat, the table's think time, and an
expert that thinks without holding up the event loop (a real store, a manual clock)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import bot.ai.expert
import bot.service.driver
from bot.ai import ExpertPlayer, GreedyPlayer, HeuristicPlayer
from bot.clock import ManualClock
from bot.rules import RuleSet
from bot.service import TableService, UserError
from bot.store import GuildSettings, Store

from .test_service import ALICE, BOB, CHANNEL, FAST, GUILD, OTHER, Recorder


async def _service(path: Path, clock: ManualClock, **timers: Any) -> tuple[TableService, Store]:
    store = await Store.open(path)
    await store.save_guild_settings(GUILD, GuildSettings(RuleSet(), {**FAST, **timers}))
    return TableService(store, Recorder(), clock, seed_source=lambda: 5), store


async def test_levels_are_kept_with_the_seat_and_survive_a_restart(tmp_path: Path) -> None:
    path, clock = tmp_path / "db.sqlite3", ManualClock()
    service, store = await _service(path, clock, think_ms=40)
    table = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    assert table.meta["think_ms"] == 40
    with pytest.raises(UserError) as refused:
        await service.add_bot(CHANNEL, 1, "godlike")
    assert refused.value.key == "service-bot-level" and table.seats[1] is None
    assert await service.add_bot(CHANNEL, 1, "expert") == 1
    assert await service.add_bot(CHANNEL, 2, "greedy") == 2  # the algorithm's name: easy
    assert await service.add_bot(CHANNEL, 3) == 3  # the default: normal
    assert [s.ai for s in table.seats[1:] if s is not None] == ["expert", "easy", "normal"]
    await service.start(CHANNEL, ALICE)
    await service.shutdown()
    await store.close()

    store2 = await Store.open(path)
    service2 = TableService(store2, Recorder(), clock)
    assert await service2.restore_all() == 1
    restored = service2.tables[CHANNEL]
    assert [s.ai for s in restored.seats[1:] if s is not None] == ["expert", "easy", "normal"]
    players = [service2._player(restored, seat) for seat in (1, 2, 3)]
    assert isinstance(players[0], ExpertPlayer) and players[0].think_ms == 40
    assert isinstance(players[1], GreedyPlayer)
    assert type(players[2]) is HeuristicPlayer
    await service2.shutdown()
    await store2.close()


async def test_a_table_without_the_setting_thinks_250_ms(tmp_path: Path) -> None:
    service, store = await _service(tmp_path / "db.sqlite3", ManualClock())
    table = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    await service.add_bot(CHANNEL, 1, "expert")
    assert table.meta["think_ms"] == 250
    player = service._player(table, 1)
    assert isinstance(player, ExpertPlayer) and player.think_ms == 250
    await service.shutdown()
    await store.close()


async def test_an_expert_thinks_while_another_table_is_answered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While an expert searches for 1 s, another table's lobby commands are answered."""
    searching, done = threading.Event(), threading.Event()
    search = bot.ai.expert.search

    def watched(*args: Any, **kwargs: Any) -> Any:
        searching.set()
        try:
            return search(*args, **kwargs)
        finally:
            done.set()

    monkeypatch.setattr(bot.ai.expert, "search", watched)
    # no race: a search whose challengers all trail early would end in milliseconds,
    # and this test needs one that takes its 1 s (a lobby command takes milliseconds)
    monkeypatch.setattr(bot.ai.expert, "RACE_AFTER", 10**9)
    clock = ManualClock()
    service, store = await _service(tmp_path / "db.sqlite3", clock, think_ms=1000)
    table = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    for _ in range(3):
        await service.add_bot(CHANNEL, level="expert")
    await service.set_auto(CHANNEL, ALICE, True)
    await service.start(CHANNEL, ALICE)
    give_up = time.monotonic() + 60
    while not searching.is_set():  # deal, bids, burial and plays until an expert searches
        assert time.monotonic() < give_up and not table.closed
        await clock.advance(0.5)
        await asyncio.sleep(0.005)
    seq = table.match.seq if table.match else 0
    started = time.monotonic()
    other = await service.new_table(GUILD, OTHER, BOB, "Bob")
    assert await service.add_bot(OTHER, level="easy") == 1
    answered = time.monotonic() - started
    assert not done.is_set(), f"the other table waited for the search ({answered:.2f} s)"
    assert other.seats[1] is not None and table.match is not None and table.match.seq == seq
    give_up = time.monotonic() + 30
    while table.match.seq == seq:  # the expert's play arrives once it has thought
        assert time.monotonic() < give_up
        await asyncio.sleep(0.02)
    assert done.is_set()
    await service.shutdown()
    await store.close()


class Thinkers(ThreadPoolExecutor):
    """The tables' two thinkers, noting when each job was asked and when it started;
    the first jobs hold their workers until ``asked`` jobs are queued, so some wait."""

    def __init__(self, queued: int) -> None:
        super().__init__(max_workers=2, thread_name_prefix="test-think")
        self.queued = queued
        self.jobs: list[tuple[float, float]] = []  # (asked, started), in the asking order
        self.all_asked = threading.Event()
        self.asked_at = 0.0  # when the ``queued``-th job was asked
        self.local = threading.local()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        asked = time.perf_counter()
        if len(self.jobs) + 1 == self.queued:
            self.asked_at = asked
            self.all_asked.set()
        index = len(self.jobs)
        self.jobs.append((asked, 0.0))

        def job() -> Any:
            self.jobs[index] = (asked, time.perf_counter())
            self.local.asked = asked
            return fn(*args, **kwargs)

        return super().submit(job)


async def test_experts_waiting_for_a_thinker_think_less_not_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six tables' experts ask the two thinkers at once: each search's deadline is
    ``think_ms`` from the question, not from when a thinker took it, so no answer
    waits for two others' full searches. The searches stand in for the expert's: each
    takes its whole time, then leaves the choice to the base policy."""
    tables, think_ms = 6, 400
    thinkers = Thinkers(queued=tables)
    budgets: list[float] = []  # each search's deadline, from its question

    def full_search(ctx: Any, candidates: Any, deadline: float, *args: Any, **kw: Any) -> None:
        thinkers.all_asked.wait(timeout=60)
        budgets.append(deadline - thinkers.local.asked)
        time.sleep(max(0.0, deadline - time.perf_counter()))

    monkeypatch.setattr(bot.ai.expert, "search", full_search)
    monkeypatch.setattr(bot.service.driver, "THINKERS", thinkers)
    clock = ManualClock()
    service, store = await _service(tmp_path / "db.sqlite3", clock, think_ms=think_ms)
    for k in range(tables):
        host, channel = 200 + k, 20 + k
        await service.new_table(GUILD, channel, host, f"host {k}")
        for _ in range(3):
            await service.add_bot(channel, level="expert")
        await service.set_auto(channel, host, True)
        await service.start(channel, host)
    give_up = time.monotonic() + 60
    while len(budgets) < 2 * tables:
        assert time.monotonic() < give_up
        await clock.advance(0.5)
        await asyncio.sleep(0.005)
    await service.shutdown()
    await store.close()
    thinkers.shutdown(wait=True)
    waited = [started for _, started in thinkers.jobs[:tables] if started > thinkers.asked_at]
    assert len(waited) >= tables - 2, "the jobs did not queue for the thinkers"
    assert max(budgets) <= think_ms / 1000 + 1e-6, [f"{b:.3f}" for b in budgets]
