"""What waited for the table looks again once it holds it.

A bid whose write is slow holds the table past the bidding window's old deadline; the
driver, woken by that deadline, waits for the table meanwhile. It must then look at the
time again: the bid opened a fresh window (others may overcall it), which closing the
bidding at once would take away. A command that waited through the start of a shutdown
must not write to the store that closes after it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.game import Declare
from bot.rules import RuleSet
from bot.service import TableService, UserError
from bot.store import GuildSettings, Store

from .test_service import ALICE, BOB, CHANNEL, FAST, GUILD, Recorder, caught_up, run_until, settle


async def test_a_bid_stored_after_the_old_window_ran_out_gets_a_fresh_window(
    tmp_path: Path,
) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    settings = GuildSettings(RuleSet(), {**FAST, "bid_window": 8.0})
    await store.save_guild_settings(GUILD, settings)
    clock = ManualClock()
    service = TableService(store, Recorder(), clock, seed_source=lambda: 1)
    try:
        table = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
        for user, name in ((BOB, "Bob"), (103, "Carol"), (104, "Dave")):  # people: no
            await service.join(CHANNEL, user, name)  # computer bids
        await service.start(CHANNEL, ALICE)
        match = table.match
        assert match is not None
        await run_until(clock, lambda: match.expecting()[0] == "end_bidding")
        await caught_up(clock, store, table)
        (bid, *_) = match.legal_bids(0)  # deal seed 1: Alice may bid, nobody has
        assert not match.bids
        window = service.deadline(table)
        assert window is not None
        await clock.advance(window - clock.now() - 1)  # a second before the window closes
        await settle(clock)
        stored, write = asyncio.Event(), store.append_action

        async def slow(*args, **kwargs):  # a busy disk
            await stored.wait()
            return await write(*args, **kwargs)

        store.append_action = slow  # type: ignore[method-assign]
        bidding = asyncio.create_task(service.act(CHANNEL, ALICE, Declare(bid.cards)))
        await settle(clock)
        await clock.advance(2)  # the old window's deadline passes while the bid is stored
        await settle(clock)
        store.append_action = write  # type: ignore[method-assign]
        stored.set()
        await bidding
        await settle(clock)
        assert match.expecting()[0] == "end_bidding" and match.bids  # still open to overcall
        fresh = service.deadline(table)
        assert fresh == table.last_action_at + 8.0
        await run_until(clock, lambda: match.expecting()[0] != "end_bidding")
        assert clock.now() >= fresh  # closed at the fresh window's end, not before
    finally:
        await service.shutdown()
        await store.close()


async def test_a_command_that_waited_through_the_start_of_a_shutdown_is_refused(
    tmp_path: Path,
) -> None:
    """Its write would meet the store closed after the shutdown: the table not closed after
    all, and an error logged (an abort, from a tournament's cancel going table by table)."""
    store = await Store.open(tmp_path / "db.sqlite3")
    service = TableService(store, Recorder(), ManualClock())
    try:
        table = await service.new_table(GUILD, CHANNEL, ALICE, "Alice")
        async with table.lock:  # a move of the table's, being stored
            aborting = asyncio.create_task(service.abort(CHANNEL, ALICE, is_admin=True))
            await asyncio.sleep(0.01)
            service.accepting = False  # the shutdown begins
        with pytest.raises(UserError, match="restarting"):
            await aborting
        assert not table.closed
    finally:
        await service.shutdown()
        await store.close()
    (again,) = [t for t in await _live(tmp_path) if t.table_id == table.id]  # a restart
    assert again.channel_id == CHANNEL  # brings it back


async def _live(tmp_path: Path) -> list:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        return await store.live_tables()
    finally:
        await store.close()
