"""Fixtures for the store tests: real SQLite files under tmp_path."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store

from .helpers import HUMANS


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "shengji.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(db_path)
    for seat in HUMANS:
        assert seat.user_id is not None
        await s.upsert_player(seat.user_id, seat.name)
    yield s
    await s.close()
