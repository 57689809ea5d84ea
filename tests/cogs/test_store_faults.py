"""A table never freezes, as the players see it: the store failing under a live table.

Through the real SQLite store and the fake Discord: a database locked by another
connection and a full disk pause the table, say so in its thread, refuse the play
that could not be stored ("couldn't be saved"), resume by themselves once the store
takes writes again and play on with nothing lost; a lobby does the same (its
refused join answered, then taken once it resumed), and one paused past the outage
limit closes; a broken database and a bug in the table's driver close the table
with a message and free the channel. The
service-level cases (every write path, the outage limit) are in
``tests/test_service_faults.py``; these check what reaches Discord.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace

import pytest

from bot.game import Phase
from bot.service import Table
from bot.service.driver import DriverMixin
from bot.store import ConnectionLost, UserPrefs
from cogs import playerprefs
from tests.test_service import caught_up
from tests.test_service_faults import disk_full, failing_writes, nothing_lost

from .helpers import Env
from .test_bad_input import _started
from .test_language_chain import chinese

PAUSED = "Paused: storage unavailable"
RESUMED = "Storage is back: the table resumes"
NOT_SAVED = "couldn't be saved, so it didn't happen"
FAILED = "cannot recover from"

Fault = Callable[[Env, pytest.MonkeyPatch], AbstractAsyncContextManager[None]]


@asynccontextmanager
async def locked(env: Env, _monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    """Another connection holds the database's write lock (another process, a backup)."""
    await env.store._db.conn.execute("PRAGMA busy_timeout = 50")  # refused in 50 ms, not 5 s
    blocker = sqlite3.connect(env.store.path, isolation_level=None, check_same_thread=False)
    blocker.execute("PRAGMA busy_timeout = 60000")
    # off the loop: a write of the table's in flight needs the loop to finish first
    await asyncio.to_thread(blocker.execute, "BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()


@asynccontextmanager
async def full_disk(_env: Env, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    """Every write the store makes fails with SQLITE_FULL."""
    with failing_writes(monkeypatch, disk_full()):
        yield


def said(env: Env, text: str) -> int:
    """How many of the table thread's messages say ``text``."""
    return sum(text in m.content for m in env.place_messages())


async def humans_turn(env: Env) -> int:
    """Alice (the one human, three computers) is to play a card: her seat."""
    await _started(env, humans=1)
    match = env.match()
    await env.until(lambda: match.expecting() == ("play", 0))
    # the computers' plays before hers stored too: a write still under way when the fault
    # begins would be refused, and the table rolled back to before it
    await caught_up(env.clock, env.store, env.table())
    return 0


async def play_refused(env: Env, seat: int, by: str) -> str:
    """The seat plays its suggestion through its panel or ``/shengji play``: the reply."""
    cards = env.suggestion(seat)
    if by == "panel":
        handle = await env.play_with_panel(seat, cards, accepted=False)
        (answer,) = await handle.wait_followups(1)
        assert answer.ephemeral
        return answer.content
    return await env.reply(env.seat_user(seat), "play", cards=" ".join(map(str, cards)))


async def hand_played_out(env: Env, table: Table) -> None:
    """The one human lets the computer play (托管); the hand runs to its score."""
    match = env.match()
    assert "computer" in (await env.reply(env.users[0], "auto")).lower()
    await env.until(lambda: match.expecting()[0] == "next_hand", timeout=30)
    await caught_up(env.clock, env.store, table)  # the last play's write may be under way
    log = await env.store.action_log(table.id)
    assert [seq for seq, _, _ in log] == list(range(1, match.seq + 1))
    await nothing_lost(env.store, table)


async def resumes_unprompted(env: Env) -> None:
    """The store takes writes again: the table says so once, without anyone acting
    (the store is probed with backoff, at most every 30 s of the clock)."""
    await env.tick_until(lambda: said(env, RESUMED), 1)
    assert said(env, PAUSED) == 1 and said(env, RESUMED) == 1


@pytest.mark.parametrize("fault", [locked, full_disk], ids=["locked", "full-disk"])
@pytest.mark.parametrize("by", ["panel", "command"])
async def test_a_passing_store_fault_pauses_refuses_and_resumes_by_itself(
    shengji: Env, monkeypatch: pytest.MonkeyPatch, fault: Fault, by: str
) -> None:
    env = shengji
    seat = await humans_turn(env)
    table = env.table()
    if by == "panel":
        await env.fresh_panel(env.seat_user(seat), seat)  # sent before the fault
    seq, state = env.match().seq, env.match().to_dict()
    async with fault(env, monkeypatch):
        answer = await play_refused(env, seat, by)
        assert NOT_SAVED in answer, answer
        # refused, not done: the table holds what the store holds (a rolled-back match)
        assert env.match().to_dict() == state
        await env.until(lambda: said(env, PAUSED))
        for _ in range(8):  # past her turn's 30 s: nothing is decided while paused
            await env.tick(5)
        assert env.match().to_dict() == state and not table.closed
    await resumes_unprompted(env)
    assert env.match().to_dict() == state  # her turn still: nothing was played for her
    # she plays again (by command): her panel is redrawn without its Play button, the
    # refused click notwithstanding (the next computer waits for the clock meanwhile)
    table.timers = replace(table.timers, bot_delay=1.0)
    user, turn = env.seat_user(seat), f"sj:p:{table.id}:{seat}:{seq}:"
    assert env.panel(user, turn)
    text = await env.play_with_slash(seat, env.suggestion(seat))
    assert text.startswith("You played")
    await env.until(lambda: not env.panel(user, turn))
    table.timers = replace(table.timers, bot_delay=0.0)
    await env.tick(1)
    await hand_played_out(env, table)


@asynccontextmanager
async def paused_lobby(env: Env, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Table]:
    """Alice's lobby, then a full disk (held) refuses Bob's join: answered so, said once."""
    assert "Table opened" in await env.reply(env.users[0], "new")
    table = env.table()
    # its thread open first: the opening's own writes done
    await env.until(lambda: table.meta.get("thread_id") and not table.meta.get("thread_opening"))
    async with full_disk(env, monkeypatch):
        answer = await env.reply(env.users[1], "join")
        assert NOT_SAVED in answer, answer
        await env.until(lambda: said(env, PAUSED))
        yield table


async def test_a_paused_lobby_resumes_by_itself_and_takes_the_join(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = shengji
    async with paused_lobby(env, monkeypatch) as table:
        for _ in range(8):  # nobody acts; the store stays full
            await env.tick(5)
        assert table.seats[1] is None and not table.closed
    await resumes_unprompted(env)
    assert await env.reply(env.users[1], "join") == "You sit in seat 2."
    assert table.seats[1] is not None and table.seats[1].user_id == env.users[1].id


async def test_a_lobby_paused_past_the_outage_limit_closes_and_frees_the_channel(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = shengji
    async with paused_lobby(env, monkeypatch) as table:
        paused = table.paused_since
        assert paused is not None
        await env.tick_until(lambda: said(env, FAILED), 30)
        assert env.clock.now() - paused >= table.timers.store_outage
    assert said(env, PAUSED) == 1 and not said(env, RESUMED)
    await closed_and_freed(env, table, FAILED)


async def closed_and_freed(env: Env, table: Table, message: str) -> None:
    """The thread says ``message``, the table's tasks are all done and a new table opens."""
    await env.until(lambda: said(env, message))
    await env.until(lambda: all(t.done() for t in table.tasks))
    assert table.closed and env.world.tables.id not in env.bot.service.tables
    opened = await env.reply(env.users[1], "new")
    assert "Table opened" in opened, opened
    assert env.table().id != table.id
    assert [t.table_id for t in await env.store.live_tables()] == [env.table().id]


@pytest.mark.parametrize("by", ["command", "timer"])
async def test_a_permanent_store_failure_closes_the_table_and_frees_the_channel(
    shengji: Env, monkeypatch: pytest.MonkeyPatch, by: str
) -> None:
    # by the human's own play, or by the driver playing for her when her time runs out
    env = shengji
    seat = await humans_turn(env)
    table = env.table()
    broken = sqlite3.DatabaseError("database disk image is malformed")
    with failing_writes(monkeypatch, broken):
        if by == "command":
            answer = await play_refused(env, seat, by)
            assert "couldn't be saved and the table had to close" in answer, answer
        else:
            await env.tick(table.rules.play_seconds + 1)
        await env.until(lambda: table.closed)
        await env.until(lambda: said(env, FAILED))
    assert said(env, "(storage failed)") == 1 and not said(env, PAUSED)
    await closed_and_freed(env, table, FAILED)


async def test_a_bug_in_the_driver_closes_the_table_says_so_and_frees_the_channel(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = shengji
    seat = await humans_turn(env)
    table = env.table()

    async def bug(*_args: object) -> None:
        raise RuntimeError("a bug in a computer player's turn")

    monkeypatch.setattr(DriverMixin, "_computer_turn", bug)
    match = env.match()
    for _ in range(25):  # she plays until a computer's turn comes (a trick she wins is hers)
        assert (await env.play_with_slash(seat, env.suggestion(seat))).startswith("You played")
        await env.until(lambda: table.closed or match.expecting() == ("play", seat))
        if table.closed:  # at the next computer's turn
            break
    assert table.closed
    monkeypatch.undo()
    await env.until(lambda: said(env, "hit an error in the bot"))
    assert not said(env, "storage")  # not blamed on the store
    await closed_and_freed(env, table, "hit an error in the bot")


async def test_a_panel_whose_players_preferences_the_store_cannot_read_comes_all_the_same(
    shengji: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The store fails as a panel reads its player's preferences (on PostgreSQL, a session
    ended under it: the monkey, seed 8502): the panel comes anyway, in the language read
    last, and nothing is logged as an error."""
    env = shengji
    alice = env.users[0]
    await _started(env, humans=1)
    match = env.match()
    await env.until(lambda: match.to_act == 0 and match.expecting()[0] == "play")
    presenter = env.bot.presenter
    await env.store.save_user_prefs(alice.id, UserPrefs(locale="zh-CN"))
    presenter.forget_prefs(alice.id)
    monkeypatch.setattr(playerprefs, "PREFS_TTL", 0.0)  # each panel reads them again
    assert (await presenter.prefs_of(alice.id)).locale == "zh-CN"

    async def lost(user_id: int) -> UserPrefs:
        raise ConnectionLost("The connection to the database was lost.")

    monkeypatch.setattr(env.store, "user_prefs", lost)
    await env.play_with_panel(0, env.suggestion(0))
    await env.until(lambda: match.to_act == 0)
    assert match.phase is Phase.PLAY  # early in the hand: her next turn
    panel = await env.fresh_panel(alice, 0)
    assert chinese(panel.content + str(panel.embeds))
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
    assert any("preferences of" in r.getMessage() for r in caplog.records)
