"""A table whose restore fails is never left holding its channel with no one driving it.

Before, ``_adopt`` logged the failure and gave up: the table's row stayed live, so its
players heard "there is no table in this channel" and ``/shengji new`` there said "this
channel already has a table", until a later restart happened to restore it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.ai import suggest_cards
from bot.clock import ManualClock
from bot.game import Play
from bot.service import TableService
from bot.store import GuildSettings, Store

from .test_service import ALICE, CHANNEL, GUILD, Recorder, alice_to_play, run_until


async def _stopped_mid_hand(path: Path, clock: ManualClock) -> int:
    """A table stopped with Alice to play; its id."""
    store, service, table = await alice_to_play(path, clock)
    await service.shutdown()
    await store.close()
    return table.id


async def _reopened(tmp_path: Path) -> tuple[ManualClock, int, Store]:
    """A table stopped mid-hand, and the store a new process opens: the clock, its id."""
    clock = ManualClock()
    table_id = await _stopped_mid_hand(tmp_path / "db.sqlite3", clock)
    return clock, table_id, await Store.open(tmp_path / "db.sqlite3")


def _busy() -> sqlite3.OperationalError:
    err = sqlite3.OperationalError("database is locked")
    err.sqlite_errorcode = sqlite3.SQLITE_BUSY  # type: ignore[attr-defined]
    return err


async def test_a_restore_the_store_refuses_in_passing_is_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock, table_id, store = await _reopened(tmp_path)
    real, refusals = Store.guild_settings, [_busy(), _busy()]

    async def busy_at_first(self: Store, guild_id: int) -> GuildSettings:
        if refusals:  # the old process still holds the file for a moment
            raise refusals.pop()
        return await real(self, guild_id)

    monkeypatch.setattr(Store, "guild_settings", busy_at_first)
    service = TableService(store, Recorder(), clock)
    try:
        assert await service.restore_all() == 0
        await run_until(clock, lambda: CHANNEL in service.tables)
        table = service.tables[CHANNEL]
        assert table.id == table_id and not refusals
        _, seat, view = service.view_for(CHANNEL, ALICE)  # Alice plays on
        assert view.to_act == seat == 0
        await service.act(CHANNEL, ALICE, Play(suggest_cards(view)))
    finally:
        await service.shutdown()
        await store.close()


async def test_a_table_that_cannot_be_restored_closes_and_frees_its_channel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    clock, table_id, store = await _reopened(tmp_path)

    async def unreadable(self: Store, live: object) -> None:
        raise ValueError("unsupported match state version 99")  # a log this code cannot replay

    monkeypatch.setattr(Store, "restore", unreadable)
    service = TableService(store, Recorder(), clock)
    try:
        assert await service.restore_all() == 0
        assert "could not restore table" in caplog.text
        assert await store.live_tables() == []  # closed, as aborted
        (summary,) = await store.recent_matches(GUILD)
        assert summary.table_id == table_id and summary.status == "aborted"
        again = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")  # the channel is free
        assert again.id != table_id
    finally:
        await service.shutdown()
        await store.close()


async def test_a_restore_that_fails_as_the_shutdown_begins_leaves_the_table_live(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the failure, then: the next start restores it (closing it would lose it)."""
    clock, table_id, store = await _reopened(tmp_path)

    async def closing(self: Store, live: object) -> None:
        raise ValueError("the process is stopping")

    monkeypatch.setattr(Store, "restore", closing)
    service = TableService(store, Recorder(), clock)
    service.accepting = False  # the shutdown has begun
    try:
        assert await service.restore_all() == 0
        assert [t.table_id for t in await store.live_tables()] == [table_id]
    finally:
        await service.shutdown()
        await store.close()
