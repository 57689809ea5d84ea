"""Reads are not held up by a slow write (issue 14 item 2): on SQLite they run on a
second connection, which WAL mode lets read while the writer waits or commits."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.rules import RuleSet
from bot.store import GuildSettings, Store, StoreError, UserPrefs

from .helpers import GUILD


async def test_reads_answer_while_a_write_waits_for_another_process_lock(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    store = await Store.open(path)
    await store.save_user_prefs(42, UserPrefs(theme="light"))
    other = sqlite3.connect(path, isolation_level=None)  # another process, say a backup
    try:
        other.execute("BEGIN IMMEDIATE")  # holds the write lock
        write = asyncio.create_task(store.save_guild_settings(GUILD, GuildSettings(RuleSet())))
        while not store._db.lock.locked():  # the write is in, waiting for the lock
            await asyncio.sleep(0)
        # answered while the write still waits, not after its 5 s busy timeout ends it
        assert await store.user_prefs(42) == UserPrefs(theme="light")
        assert await store.guild_settings(GUILD) == GuildSettings()
        assert await store.leaderboard(GUILD, "league") == []
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


async def test_a_read_issued_while_a_write_is_under_way_sees_it(tmp_path: Path) -> None:
    """The reader waits (briefly) for the writes already started: what was written
    before a read was asked for is what the read answers."""
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
