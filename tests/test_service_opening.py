"""Openings racing a shutdown: a table is either opened whole and stopped, or refused.

The shutdown waits for the openings it sees (``_opening``); these tests hold an opening
at each store call before it is registered and let the shutdown begin there, as a
restart (SIGTERM, a deploy) can at any moment while players type ``/shengji new`` or a
tournament opens its round's matches.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.rules import RuleSet
from bot.service import Table, TableService, UserError
from bot.store import GuildSettings, SeatInfo, Store
from tests.test_service import ALICE, CHANNEL, FAST, GUILD, Recorder

SEATS = [SeatInfo.bot(f"Bot {i}") for i in range(4)]


async def _open(service: TableService, how: str) -> Table:
    if how == "new":
        return await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
    return await service.open_match(GUILD, CHANNEL, ALICE, RuleSet(), SEATS, {"tournament": 1})


async def _held_at(
    monkeypatch: pytest.MonkeyPatch, store: Store, method: str
) -> tuple[asyncio.Event, asyncio.Event]:
    """``method`` of the store waits for the first event once the second is set."""
    gate, reached = asyncio.Event(), asyncio.Event()
    real = getattr(type(store), method)

    async def held(self: Store, *args: Any, **kwargs: Any) -> Any:
        reached.set()
        await gate.wait()
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(type(store), method, held)
    return gate, reached


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    store = await Store.open(tmp_path / "db.sqlite3")
    await store.save_guild_settings(GUILD, GuildSettings(RuleSet(), dict(FAST)))
    yield store
    await store.close()


@pytest.mark.parametrize("how", ["new", "match"])
async def test_an_opening_that_read_the_settings_as_the_shutdown_began_is_refused(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, how: str
) -> None:
    """Monkey seed 402: the shutdown looked for openings while a ``/new`` read the
    server's settings, saw none and closed the store; the opening then wrote its row and
    met the store closed at its meta (an ERROR, and a refusal saying it was not saved)."""
    service = TableService(store, Recorder(), ManualClock(), seed_source=lambda: 7)
    gate, reached = await _held_at(monkeypatch, store, "guild_settings")
    opening = asyncio.create_task(_open(service, how))
    await reached.wait()
    await service.shutdown()
    gate.set()
    with pytest.raises(UserError) as refused:
        await opening
    assert refused.value.key == "service-restarting"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert await store.live_tables() == [] and not service.tables


async def test_a_match_opened_as_the_shutdown_begins_is_saved_started(
    tmp_path: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tournament's match the shutdown found opening is waited for and started (the
    start is part of its opening, not a command the restart refuses), so the restarted
    process finds it live and dealing rather than a lobby nobody will start."""
    service = TableService(store, Recorder(), ManualClock(), seed_source=lambda: 7)
    gate, reached = await _held_at(monkeypatch, store, "create_table")
    opening = asyncio.create_task(_open(service, "match"))
    await reached.wait()
    stopping = asyncio.create_task(service.shutdown())
    await asyncio.sleep(0.05)
    assert not stopping.done()  # it waits for the opening
    gate.set()
    await stopping
    table = await opening
    (live,) = await store.live_tables()
    assert live.table_id == table.id and live.meta["started"] is True
