"""Another process holds the store's write lock (a backup, a ``sqlite3`` shell) longer
than SQLite's own busy wait, under a command that writes outside a table's own writes
(which pause the table: ``tests/test_service_faults.py``).

Found by the monkey's store weather (``bench.monkey_weather.lock_store``): opening a
table, or a tournament's registration, answered "something went wrong" and logged a
traceback; a tournament's change is made in memory before it is saved, so it now waits
the lock out instead.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from bot.store import Store
from bot.tournament import base as tournament_base

from .helpers import Env
from .test_tournament_flow import cmd, organiser


@asynccontextmanager
async def store_locked(store: Store) -> AsyncIterator[sqlite3.Connection]:
    path = store.path
    blocker = sqlite3.connect(path, isolation_level=None, timeout=60, check_same_thread=False)
    # off the loop: a write of the bot's in flight needs the loop to finish
    await asyncio.to_thread(blocker.execute, "BEGIN IMMEDIATE")
    try:
        yield blocker
    finally:
        if blocker.in_transaction:
            blocker.execute("ROLLBACK")
        blocker.close()


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_command_the_locked_store_refused_says_it_was_not_saved(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    env = shengji
    await env.store._db.conn.execute("PRAGMA busy_timeout = 50")  # fail fast, not in 5 s
    async with store_locked(env.store):
        said = await env.reply(env.users[0], "new")
    assert said == "That couldn't be saved, so it didn't happen; please try again."
    assert env.bot.service.tables == {}
    assert "opened" in (await env.reply(env.users[0], "new")).lower()  # once it is free
    assert not _errors(caplog)


async def test_a_tournament_change_waits_the_lock_out(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    env = shengji
    alice, bob = env.users[:2]
    organiser(env, alice)
    await cmd(env, alice, "create", name="Night Cup")
    await cmd(env, alice, "register", partner=bob)
    await env.store._db.conn.execute("PRAGMA busy_timeout = 50")
    async with store_locked(env.store) as blocker:
        asyncio.get_running_loop().call_later(1.0, blocker.execute, "ROLLBACK")
        assert "confirmed" in (await cmd(env, bob, "confirm")).lower()
    cup = env.bot.tournaments.cup_in(env.world.tables.id)
    stored = await env.store.tournament(cup.id)
    assert stored is not None and stored.state["teams"][0]["confirmed"]
    assert not _errors(caplog)
    assert any("not saved" in r.getMessage() for r in caplog.records)


async def test_a_registration_change_the_store_still_refuses_is_undone(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer says it didn't happen, so it must not stand in memory either (to be
    saved with the next change, or shown by the registration message)."""
    env = shengji
    alice, bob, carol, dave = env.users
    organiser(env, alice)
    await cmd(env, alice, "create", name="Night Cup")
    await cmd(env, carol, "register", partner=dave, team="Tigers")
    cup = env.bot.tournaments.cup_in(env.world.tables.id)
    monkeypatch.setattr(tournament_base, "SAVE_AGAIN", (0.01,))
    await env.store._db.conn.execute("PRAGMA busy_timeout = 50")
    refused = "That couldn't be saved, so it didn't happen; please try again."
    async with store_locked(env.store):
        for user, sub, options in (
            (alice, "register", {"partner": bob}),  # a new team
            (dave, "confirm", {}),
            (carol, "withdraw", {}),
            (alice, "addbots", {"count": 2}),
            (alice, "close", {}),
        ):
            assert await cmd(env, user, sub, **options) == refused, sub
    assert [(team.name, team.confirmed) for team in cup.teams] == [("Tigers", False)]
    assert cup.phase == "registration"
    assert "registered" in await cmd(env, alice, "register", partner=bob)  # once it is free
    stored = await env.store.tournament(cup.id)
    assert stored is not None
    assert [team["name"] for team in stored.state["teams"]] == ["Tigers", "Alice & Bob"]
    assert not stored.state["teams"][0]["confirmed"]


async def test_a_change_waits_for_the_one_before_it_to_be_saved_or_undone(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each change is saved with the whole tournament: one coming in while another's save
    is still being tried must not save that one with it, and the store then keep a team
    its player was told was not registered."""
    env = shengji
    alice, bob, carol, dave = env.users
    organiser(env, alice)
    await cmd(env, alice, "create", name="Night Cup")
    cup = env.bot.tournaments.cup_in(env.world.tables.id)
    monkeypatch.setattr(tournament_base, "SAVE_AGAIN", (0.2, 0.2))
    save = env.store.save_tournament
    refused: list[asyncio.Task[object] | None] = []  # the task whose saves the store refuses

    async def refusing(*args: object, **kwargs: object) -> None:
        if not refused:
            refused.append(asyncio.current_task())
        if asyncio.current_task() is refused[0]:
            raise sqlite3.OperationalError("database is locked")
        await save(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(env.store, "save_tournament", refusing)
    first = asyncio.create_task(cmd(env, alice, "register", partner=bob, team="Lions"))
    await env.until(lambda: bool(refused))
    assert "registered" in await cmd(env, carol, "register", partner=dave, team="Tigers")
    assert await first == "That couldn't be saved, so it didn't happen; please try again."
    stored = await env.store.tournament(cup.id)
    assert stored is not None
    assert [team["name"] for team in stored.state["teams"]] == ["Tigers"]
    assert [team.name for team in cup.teams] == ["Tigers"]
