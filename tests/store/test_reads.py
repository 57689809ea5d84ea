"""The records are not held up by a slow write (issue 14 item 2): on SQLite they are read
on a second connection, which WAL mode lets read while the writer waits or commits; the
reads that must follow the writes before them stay on the writer's connection."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.rules import RuleSet
from bot.store import GuildSettings, Store, StoreError, UserPrefs, simulate

from .helpers import GUILD


async def test_records_answer_while_a_write_waits_for_another_process_lock(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    store = await Store.open(path)
    await simulate(store, hands=2, seed=1, guild_id=GUILD)
    board = await store.leaderboard(GUILD, "league")
    (recent,) = await store.recent_matches(GUILD)
    (hand_id, *_) = await store.hands_of_table(recent.table_id)
    other = sqlite3.connect(path, isolation_level=None)  # another process, say a backup
    try:
        other.execute("BEGIN IMMEDIATE")  # holds the write lock
        write = asyncio.create_task(store.save_guild_settings(GUILD, GuildSettings(RuleSet())))
        while not store._db.lock.locked():  # the write is in, waiting for the lock
            await asyncio.sleep(0)
        # answered while the write still waits, not after its 5 s busy timeout ends it
        assert await store.leaderboard(GUILD, "league") == board != []
        assert await store.player_stats(GUILD, board[0].user_id) is not None
        assert [m.table_id for m in await store.recent_matches(GUILD)] == [recent.table_id]
        assert await store.hand_record(hand_id) is not None
        assert not write.done()
        other.execute("COMMIT")
        await write  # and the write goes through once the lock is free
        assert await store.guild_settings(GUILD) == GuildSettings(RuleSet())
    finally:
        other.close()
        await store.close()


async def test_a_closed_store_refuses_reads(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.db")
    await store.close()
    with pytest.raises(StoreError, match="closed"):
        await store.user_prefs(1)
    with pytest.raises(StoreError, match="closed"):
        await store.leaderboard(GUILD, "league")


async def test_settings_and_preferences_read_what_was_written_before_them(
    tmp_path: Path,
) -> None:
    """A write asked for before a read (its commit still to come) is what the read answers."""
    store = await Store.open(tmp_path / "bot.db")
    try:
        for n in range(20):
            chosen = UserPrefs(theme="light" if n % 2 else "dark", four_color=n % 3 == 0)
            write = asyncio.create_task(store.save_user_prefs(42, chosen))
            await asyncio.sleep(0)  # the write has the connection
            assert await store.user_prefs(42) == chosen
            await write
    finally:
        await store.close()
