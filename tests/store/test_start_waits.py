"""The bot's start waits out a store that refuses it in passing, and only that.

Another process holding SQLite's write lock past the busy wait (a backup, a
``sqlite3`` shell) used to stop the start with "database is locked"; a corrupt file
must still stop it at once (``tests/store/test_readonly.py`` and the migrations'
tests say the words).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest

from app import client
from bot.store import Store, StoreError


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's busy wait and the start's waits in tenths of a second, not seconds."""
    monkeypatch.setattr("bot.store.store.BUSY_TIMEOUT_MS", 50)
    monkeypatch.setattr(client, "OPEN_AGAIN", (0.1, 0.1, 0.1, 0.1, 0.1, 0.1))


async def _locked(path: Path) -> sqlite3.Connection:
    await (await Store.open(path)).close()
    blocker = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    blocker.execute("BEGIN IMMEDIATE")  # another process's write lock
    return blocker


async def test_a_start_waits_for_another_process_to_let_the_store_go(
    tmp_path: Path, quick: None, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "bot.sqlite3"
    blocker = await _locked(path)

    def waits() -> list[str]:
        return [r.getMessage() for r in caplog.records if "trying again" in r.getMessage()]

    async def let_go_after_a_wait() -> None:  # not after a fixed time: a busy machine's
        while not waits():  # start may come after it, and meet no lock
            await asyncio.sleep(0.01)
        blocker.execute("ROLLBACK")

    letting_go = asyncio.ensure_future(let_go_after_a_wait())
    store = await client.open_store(str(path))
    try:
        assert store.path == path
    finally:
        await store.close()
        letting_go.cancel()
        blocker.close()
    assert "database is locked" in waits()[0]


async def test_a_lock_that_is_never_let_go_stops_the_start_after_the_waits(
    tmp_path: Path, quick: None, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "bot.sqlite3"
    blocker = await _locked(path)
    try:
        with pytest.raises(StoreError, match="database is locked"):
            await client.open_store(str(path))
    finally:
        blocker.close()
    tries = [r for r in caplog.records if "trying again" in r.getMessage()]
    assert len(tries) == len(client.OPEN_AGAIN)
    assert all(r.levelno == logging.WARNING for r in tries)


async def test_a_corrupt_file_stops_the_start_at_once(
    tmp_path: Path, quick: None, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "bot.sqlite3"
    path.write_bytes(b"not a database, and no amount of waiting makes it one" * 100)
    with pytest.raises(StoreError):
        await client.open_store(str(path))
    assert not [r for r in caplog.records if "trying again" in r.getMessage()]
