"""A read-only database is refused at start-up with a clear message, like a corrupt one."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from bot.store import Store, StoreError


async def test_a_read_only_database_is_refused_when_opened(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "db.sqlite3"
    store = await Store.open(path)
    await store.close()
    real = aiosqlite.connect

    def read_only(database: object, **kwargs: object) -> object:
        # a read-only mount or file (chmod does not stop root, so the mode is asked for)
        return real(f"file:{database}?mode=ro", uri=True, **kwargs)

    monkeypatch.setattr("bot.store.store.aiosqlite.connect", read_only)
    with pytest.raises(StoreError, match="read-only"):
        await Store.open(path)
    monkeypatch.undo()
    store = await Store.open(path)  # writable again: opens, nothing was changed
    await store.close()
