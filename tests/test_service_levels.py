"""Computer levels at a table: kept with the seat, the table's think time, and an
expert that thinks without holding up the event loop (a real store, a manual clock)."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import bot.ai.expert
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
