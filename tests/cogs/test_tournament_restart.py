"""Issue 13: a restart while a round's match tables are being opened.

The bot stops in the middle of ``/shengji tournament start``: the first match is
open and saved with the tournament; the second's table is in the store (started,
or only created) when the process dies before the tournament records it, or only
its thread exists (the process dies between the thread and the table); the third
has nothing yet. After the restart every match has exactly one table and one
thread (the second's table is adopted, its thread found again, neither opened
twice, no thread left empty) and the tournament runs to its podium. The default run
checks the tables after every restart point; the play on to the podium (the same
whichever point it was, a few seconds each) runs after every point under ``-m slow``,
and a restarted tournament's play to its podium stays in the default run through
``test_tournament_flow``'s restart mid-round.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from functools import partial
from typing import Any

import pytest

from bot.tournament.rounds import Rounds
from fakediscord.state import Message, Perm

from .helpers import Env, restart
from .test_tournament_ended import computer_cup
from .test_tournament_flow import cmd, play_until, registered_cup, threads

POST = "/channels/{channel_id}/messages"


@pytest.mark.parametrize(
    ("dies_in", "to_the_podium"),
    [
        ("open_match", False),  # after the table started, before the tournament saved it
        ("_start", False),  # after the table's row and meta, before its match started
        ("open_place", False),  # after the thread was opened, before the table's row
        pytest.param("open_match", True, marks=pytest.mark.slow),
        pytest.param("_start", True, marks=pytest.mark.slow),
        pytest.param("open_place", True, marks=pytest.mark.slow),
    ],
)
async def test_a_restart_while_the_round_opens_its_tables(
    shengji: Env, dies_in: str, to_the_podium: bool
) -> None:
    env = shengji
    await registered_cup(env, round_minutes=1)
    await cmd(env, env.users[0], "addbots", count=2)  # six teams: three matches, no bye
    service: Any = env.bot.tournaments.sink if dies_in == "open_place" else env.bot.service
    real = getattr(service, dies_in)
    calls: list[int] = []
    stuck: list[asyncio.Task[Any]] = []

    async def dies_on_the_second_table(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 2 and dies_in == "_start":
            await _die(stuck)
        result = await real(*args, **kwargs)
        if len(calls) == 2:
            await _die(stuck)
        return result

    setattr(service, dies_in, dies_on_the_second_table)
    env.driver.send_slash("shengji tournament start", env.users[0], env.world.tables)
    await env.until(lambda: stuck, timeout=60)
    cup = env.bot.tournaments.cup_in(env.world.tables.id)
    assert len(cup.slots) == 1, "only the first match was saved with the tournament"
    assert len(threads(env)) == 2
    if dies_in == "_start":  # the stuck start holds its opening: the close would wait its 10 s
        env.bot.service.shutdown = partial(env.bot.service.shutdown, flush_seconds=0.1)
    running = await restart(env)
    for task in stuck:
        task.cancel()
    bot = env.bot
    try:
        again = bot.tournaments.cup_in(env.world.tables.id)
        assert again.bracket is not None
        games = [g for g in again.bracket.rounds[0].games if not g.bye]
        assert len(games) == 3
        await env.until(lambda: len(again.slots) == 3, timeout=60)
        live = Counter(
            (t.meta["round"], t.meta["match"])
            for t in bot.service.tables.values()
            if t.meta.get("tournament") == again.id and not t.closed
        )
        assert live == Counter({(1, g.index): 1 for g in games}), "one table per match"
        assert len(threads(env)) == 3, "no second thread for a match that had one"
        assert {t.id for t in threads(env)} == {s.place_id for s in again.slots.values()}
        assert again.openings == {}
        for key, slot in again.slots.items():
            table = bot.service.tables[slot.place_id]
            assert table.id == slot.table_id and table.match is not None, key
        if not to_the_podium:
            return
        # the round proceeds: every match ends, the winners play the final
        await play_until(env, lambda: again.phase == "finished")
        assert again.bracket.podium is not None
        assert all(g.outcome is not None for g in games)
    finally:
        await running.stop()


async def test_a_first_message_deleted_before_the_retry_gets_a_new_one(shengji: Env) -> None:
    """Refused for lack of the thread permission, the start leaves its first match's first
    message alone in the channel; a moderator deletes it; the retry posts another."""
    env = shengji
    await registered_cup(env)
    env.fake.revoke_permissions(env.world.tables, Perm.CREATE_PUBLIC_THREADS)
    await asyncio.sleep(0.2)  # CHANNEL_UPDATE reaches the bot
    assert "Create Public Threads" in await cmd(env, env.users[0], "start")
    cup = env.bot.tournaments.cup_in(env.world.tables.id)
    [(key, opening)] = cup.openings.items()
    env.fake.delete_message(env.fake.messages[opening])
    env.fake.restore_permissions(env.world.tables)
    await asyncio.sleep(0.2)
    assert "Started: 4 teams" in await cmd(env, env.users[0], "start")
    await env.until(lambda: len(cup.slots) == 2, timeout=60)
    assert cup.openings == {} and cup.slots[key].place_id != opening
    assert {t.id for t in threads(env)} == {s.place_id for s in cup.slots.values()}


async def _die(stuck: list[asyncio.Task[Any]]) -> None:
    """The process stops here: this task never goes on (the test cancels it after the close)."""
    task = asyncio.current_task()
    assert task is not None
    stuck.append(task)
    await asyncio.Event().wait()


async def test_a_round_ended_but_not_moved_on_before_a_stop_moves_on_after_it(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stop came between the round's last outcome (saved) and the next round (a
    store busy under that save, say): the restarted process moves the round on."""
    env = shengji
    stuck: list[asyncio.Task[Any]] = []
    monkeypatch.setattr(Rounds, "_advance", lambda self, cup: _die(stuck))
    cup = await computer_cup(env, teams=4)
    await play_until(env, lambda: bool(stuck), budget=60)
    saved = await env.store.tournament(cup.id)
    assert saved is not None and all(s["done"] for s in saved.state["slots"].values())
    monkeypatch.undo()
    running = await restart(env)
    try:
        for task in stuck:
            task.cancel()
        moved = env.bot.tournaments.cup_in(env.world.tables.id)
        await env.until(lambda: len(threads(env)) == 3, timeout=60)  # the final's thread
        assert moved.bracket is not None and moved.bracket.current is not None
        assert moved.bracket.current.number == 2
    finally:
        await running.stop()


async def test_tournament_work_spawned_as_the_tables_stop_ends_with_the_bot(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """A table's last move at a stop (its in-flight action committed while the tables
    stop) may win a match and spawn the tournament's next step, after the tournament's
    tasks were cancelled: it then posted through the closed client, an ERROR (found by
    the monkey with restarts weighted up). The tournament's tasks are stopped again
    once the tables have, and awaited, before the client closes."""
    env = shengji
    cup = await computer_cup(env)
    tournaments = env.bot.tournaments
    service = env.bot.service
    real = service.shutdown
    posted: list[str] = []

    async def announce_later() -> None:  # the round moving on after the stop began
        await asyncio.sleep(0.2)
        await tournaments.sink.changed(cup)
        posted.append("late")

    async def stopping(*args: Any) -> None:
        tournaments._spawn(cup, announce_later())
        await real(*args)

    service.shutdown = stopping  # type: ignore[method-assign]
    await env.bot.close()
    await asyncio.sleep(0.4)
    assert posted == []
    assert all(task.done() for task in cup.tasks)
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_tournament_message_on_its_way_when_the_bot_stops_is_kept(shengji: Env) -> None:
    """Discord takes a while to answer the registration message's post and the bot stops
    meanwhile: the stop waits for the answer and keeps the message's id, so the restarted
    bot edits that message. Cut off, Discord posted it all the same and the restarted bot
    posted a second one, the first's buttons live beside it."""
    from fakediscord.faults import Rule

    from .test_tournament_flow import organiser

    env = shengji
    alice, bob = env.users[:2]
    tables = env.world.tables.id
    held = env.fake.faults.add(
        Rule("delay", "POST", POST, None, 1, delay=1.0, when=lambda r: r.channel_id == tables)
    )
    organiser(env, alice)
    await cmd(env, alice, "create", name="Night Cup", advance=2, podium=1)
    await env.until(lambda: held.hits == 1)  # the registration message is on its way
    running = await restart(env)
    try:
        [posted] = [r for r in env.fake.requests if r.fault == "delay"]
        await env.until(lambda: posted.status == 200)  # Discord made it, answered or not
        await cmd(env, alice, "register", partner=bob)
        await env.until(lambda: "Alice" in str([m.embeds for m in _registrations(env)]))
        assert [m.id for m in _registrations(env)] == [int(posted.response["id"])]
    finally:
        await running.stop()


def _registrations(env: Env) -> list[Message]:
    return [
        m
        for m in env.fake.channel_messages(env.world.tables)
        if any(c.endswith(":reg") for c in m.custom_ids())
    ]


async def test_a_tournament_message_posted_just_before_a_stop_is_kept(shengji: Env) -> None:
    """Its id is saved in the background; the stop waits for that write before the store
    closes, so the restarted bot edits the message rather than post another."""
    from .test_tournament_flow import organiser

    env = shengji
    alice, bob = env.users[:2]
    presenter = env.bot.tournament_presenter
    keep = presenter.keep
    assert keep is not None

    async def slowly(cup: Any) -> None:
        await asyncio.sleep(1.0)  # a busy store
        await keep(cup)

    presenter.keep = slowly
    organiser(env, alice)
    await cmd(env, alice, "create", name="Night Cup", advance=2, podium=1)
    [first] = await env.until(lambda: _registrations(env))
    running = await restart(env)  # at once: the write is still waiting
    try:
        await cmd(env, alice, "register", partner=bob)
        await env.until(lambda: "Alice" in str([m.embeds for m in _registrations(env)]))
        assert [m.id for m in _registrations(env)] == [first.id]
    finally:
        await running.stop()
