"""Lifecycle edges through the real store and the fake Discord (issue 14, item 8).

A ``/new`` that loses the race for a channel, an aborted table, a channel lost
mid-match, a lobby whose channel vanished while the bot was down, a restart with
a human to act, a DM Discord kept refusing with 429s.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.game import Phase
from bot.service import Table, Update, UpdateKind
from bot.store import Store
from cogs import live
from fakediscord.state import Message, User

from .helpers import Env, restart
from .test_bad_input import _others_play_until, _started

PANEL_PREFIXES = ("sj:p:", "sj:d:", "sj:b:")
EDIT = "/channels/{channel_id}/messages/{message_id}"


def panels_to(env: Env, user: User) -> list[Any]:
    """DMs to ``user`` that carry hand-panel components."""
    return [
        m for m in env.fake.dms(user) if any(c.startswith(PANEL_PREFIXES) for c in m.custom_ids())
    ]


def panel_requests(env: Env) -> int:
    """Posts and edits of DMs the bot has made (panels, turn notices)."""
    dm_ids = {c.id for c in env.fake.channels.values() if c.type == 1}
    return sum(
        1
        for r in env.fake.requests
        if r.method in ("POST", "PATCH")
        and (r.route or "").startswith("/channels/{channel_id}/messages")
        and int(r.params.get("channel_id", 0)) in dm_ids
    )


async def test_a_new_table_that_loses_the_race_says_the_channel_has_one(shengji: Env) -> None:
    env = shengji
    alice, bob = env.users[0], env.users[1]
    first = env.driver.send_slash("shengji new", alice, env.world.tables)
    second = env.driver.send_slash("shengji new", bob, env.world.tables)
    answers = sorted([(await first.wait_message()).content, (await second.wait_message()).content])
    assert sum("Table opened" in a for a in answers) == 1, answers
    assert sum("already has a table" in a for a in answers) == 1, answers
    assert len(await env.store.live_tables()) == 1


async def test_an_aborted_table_sends_no_more_panels(shengji: Env) -> None:
    env = shengji
    await _started(env, humans=2)
    table = env.table()
    await env.reply(env.users[0], "abort")
    await env.until(lambda: table.closed)
    await env.fake.idle(quiet=0.3)  # what was in flight at the abort has gone out
    assert not env.buttoned(), "a closed table's messages keep no buttons"
    before = panel_requests(env)
    for _ in range(5):  # timers would deal, bid and play on: none may run
        await env.tick(60)
    await asyncio.sleep(0.3)
    assert panel_requests(env) == before


async def _abort(env: Env) -> None:
    await env.reply(env.users[0], "abort")


async def _delete_thread(env: Env) -> None:
    env.fake.delete_channel(env.place())


def _driver_stopped_at_once(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """The close stops the table's driver before its timers move on (the usual case)."""


def _driver_warns_after_the_close(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """The driver's ten-seconds warning comes after the CLOSED update, before the driver
    is stopped: its cancellation was lost as its timer fired (the test clock's wait could
    lose it, under load, as ``asyncio.wait_for`` can before Python 3.12)."""
    service = env.bot.service
    emit, stop = service._emit, service._stop_tasks
    emitted: list[UpdateKind] = []

    def spy(table: Table, kind: UpdateKind, **kwargs: Any) -> None:
        emitted.append(kind)
        emit(table, kind, **kwargs)

    async def late_stop(table: Table, *, flush: bool) -> None:
        assert emitted[-1:] == [UpdateKind.CLOSED]
        at = len(emitted)
        await env.clock.advance(20)  # the human's turn reaches its warning
        await env.until(lambda: UpdateKind.WARNING in emitted[at:])
        await stop(table, flush=flush)

    monkeypatch.setattr(service, "_emit", spy)
    monkeypatch.setattr(service, "_stop_tasks", late_stop)


Stopping = Callable[[Env, pytest.MonkeyPatch], None]  # how the close stops the driver


@pytest.mark.parametrize("close", [_abort, _delete_thread], ids=["aborted", "thread-deleted"])
@pytest.mark.parametrize(
    "stopping",
    [_driver_stopped_at_once, _driver_warns_after_the_close],
    ids=["stopped", "late-warning"],
)
async def test_a_table_closed_on_a_humans_turn_posts_and_books_nothing_more(
    shengji: Env,
    monkeypatch: pytest.MonkeyPatch,
    close: Callable[[Env], Awaitable[None]],
    stopping: Stopping,
) -> None:
    # the CLOSED update once ran the turn logic on a fresh UI state: a new panel with live
    # buttons and a "your turn" DM booked for a table that no longer was; so did an update
    # after it (the driver's warning), until the service stopped emitting at the close
    env = shengji
    env.bot.presenter.ping_after = 10.0
    await _started(env, humans=2)
    table, match = env.table(), env.match()
    await env.until(lambda: table.seats[match.to_act].kind == "human")
    seat = match.to_act
    await env.fresh_panel(env.seat_user(seat), seat)
    humans = [env.seat_user(s) for s in table.humans]
    before = {u.id: {m.id for m in env.fake.dms(u)} for u in humans}
    stopping(env, monkeypatch)
    await close(env)
    # the close is through (its driver stopped) before the clock moves on
    await env.until(lambda: table.closed and all(task.done() for task in table.tasks))
    await env.tick(20)  # past the turn notice's wait
    await env.fake.idle(quiet=0.3)
    for user in humans:
        new = [m for m in env.fake.dms(user) if m.id not in before[user.id]]
        assert all("table was closed" in m.content for m in new), [m.content for m in new]
        assert not any(m.components for m in env.fake.dms(user)), "no live buttons are left"
        assert "Hand 1 (the table was closed)." in [m.content for m in env.fake.dms(user)]
    assert env.bot.presenter.ui_by_table == {}


async def test_losing_the_channel_sends_each_player_one_dm(shengji: Env) -> None:
    env = shengji
    await _started(env, humans=2)
    table = env.table()
    humans = [env.seat_user(s) for s in table.humans]
    env.fake.delete_channel(env.world.tables)
    await env.until(lambda: table.closed)
    for _ in range(4):
        await env.tick(30)
    await asyncio.sleep(0.5)
    for user in humans:
        told = [m for m in env.fake.dms(user) if "can no longer" in m.content]
        assert len(told) == 1, [m.content for m in env.fake.dms(user)][-10:]


async def test_a_lobby_whose_channel_vanished_while_the_bot_was_down_is_closed(
    shengji: Env,
) -> None:
    env = shengji
    await env.reply(env.users[0], "new")
    await env.reply(env.users[1], "join")
    gone, kept = env.world.tables, env.fake.create_text_channel(env.world.guild, "kept")
    handle = env.driver.send_slash("shengji new", env.users[2], kept)
    await handle.wait_message()
    await env.bot.close()
    env.fake.delete_channel(gone)  # while no bot runs: no event reaches anyone
    store = await Store.open(env.store.path)
    assert len(await store.live_tables()) == 2
    await store.close()
    running = await restart(env)
    try:
        await env.until(lambda: gone.id not in env.bot.service.tables)
        assert kept.id in env.bot.service.tables
        live = await env.store.live_tables()
        assert [t.channel_id for t in live] == [kept.id]
    finally:
        await running.stop()


async def test_a_look_up_of_a_tables_channel_cut_off_by_the_shutdown_logs_no_error(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """The start-up looked a table's channel up (not in the cache), Discord answered a
    500, and the bot stopped while discord.py waited to ask again: the retry met the
    closed session, and the handler's error was logged at ERROR with its traceback, at a
    deploy (found by the monkey, seed 9401). The next start looks again."""
    env = shengji
    await env.reply(env.users[0], "new")
    await env.bot.close()
    env.fake.delete_channel(env.world.tables)  # while no bot runs
    failing = env.fake.faults.server_error("GET", "/channels/{channel_id}")
    running = await restart(env)
    try:
        await env.until(lambda: failing.hits == 1)
        await env.bot.close()  # within discord.py's second before it asks again
        await env.until(
            lambda: any(  # it asks again, on the closed session
                "on_guild_available" in r.getMessage() for r in caplog.records
            )
        )
        said = [r for r in caplog.records if "on_guild_available" in r.getMessage()]
        assert [r.levelno for r in said] == [logging.WARNING], said
    finally:
        await running.stop()
    running = await restart(env)
    try:
        await env.until(lambda: env.world.tables.id not in env.bot.service.tables)
    finally:
        await running.stop()


async def test_a_look_up_whose_connection_dropped_still_checks_the_servers_other_tables(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """Two tables' channels were deleted while the bot was down. The look-up of the first
    lost its connection (aiohttp's ``ServerDisconnectedError``, which discord.py does not
    retry): it ended the check at ERROR, and the second table held its channel for good."""
    env = shengji
    first, second = (env.fake.create_text_channel(env.world.guild, n) for n in ("a", "b"))
    for channel in (first, second):
        await env.driver.send_slash("shengji new", env.users[0], channel).wait_message()
    await env.bot.close()
    env.fake.delete_channel(first)
    env.fake.delete_channel(second)
    dropped = env.fake.faults.disconnect("GET", "/channels/{channel_id}", times=2)
    running = await restart(env)
    try:
        tables = env.bot.service.tables
        await env.until(lambda: dropped.hits == 2 and len(tables) == 1)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert any("could not look its channel up" in r.getMessage() for r in caplog.records)
    finally:
        await running.stop()


async def test_a_table_whose_lease_is_lost_is_forgotten_with_its_queued_edits_unsent(
    shengji: Env,
) -> None:
    """Another process drives the table now (``_fenced_out``). The presenter kept the
    table's state and its messages' queued edits, which went out after the hand-over,
    an older state over the new owner's; and a claim of the table back found that
    stale state instead of starting afresh, as a restart does."""
    env = shengji
    await _started(env, humans=1)
    table = env.table()
    presenter = env.bot.presenter
    ui = presenter.ui(table)
    held = asyncio.Event()

    async def held_back() -> dict[str, Any] | None:
        await held.wait()
        return {"content": "an older state"}

    queued = ui.deal or ui.table
    assert queued is not None
    queued.show(held_back)  # an edit still being built when the lease goes
    env.bot.service._fenced_out(table.id)
    await env.until(lambda: table.id not in presenter.ui_by_table)
    await env.fake.idle(quiet=0.3)  # a request already on its way when it was forgotten
    sent = len(env.fake.requests)
    held.set()
    await env.tick(60)  # turn timers, notices: none of this process's any more
    await env.fake.idle(quiet=0.3)
    assert [r for r in list(env.fake.requests)[sent:] if r.method != "GET"] == []
    assert not [m for m in env.place_messages() if m.content == "an older state"]


async def test_a_server_that_removes_the_bot_closes_its_tables_there(shengji: Env) -> None:
    env = shengji
    await _started(env, humans=2)
    table = env.table()
    humans = [env.seat_user(s) for s in table.humans]
    lobby = env.fake.create_text_channel(env.world.guild, "lobby")
    await env.driver.send_slash("shengji new", env.users[2], lobby).wait_message()
    other = env.fake.create_guild("Other server")
    elsewhere = env.fake.create_text_channel(other, "tables")
    host = env.fake.create_user("Olga", guild=other)
    await env.driver.send_slash("shengji new", host, elsewhere).wait_message()
    assert {lobby.id, elsewhere.id} <= set(env.bot.service.tables)

    env.fake.remove_bot(env.world.guild)
    await env.until(lambda: set(env.bot.service.tables) == {elsewhere.id})
    assert [t.channel_id for t in await env.store.live_tables()] == [elsewhere.id]
    for user in humans:  # told once, by DM, as for a deleted channel
        await env.until(lambda u=user: any("can no longer" in m.content for m in env.fake.dms(u)))


async def test_a_server_that_removed_the_bot_while_it_was_down_frees_its_tables(
    shengji: Env,
) -> None:
    env = shengji
    await env.reply(env.users[0], "new")
    other = env.fake.create_guild("Other server")
    elsewhere = env.fake.create_text_channel(other, "tables")
    host = env.fake.create_user("Olga", guild=other)
    await env.driver.send_slash("shengji new", host, elsewhere).wait_message()
    await env.bot.close()
    env.fake.remove_bot(env.world.guild)  # no bot runs: no event reaches anyone
    running = await restart(env)
    try:
        await env.until(lambda: env.world.tables.id not in env.bot.service.tables)
        assert elsewhere.id in env.bot.service.tables
        assert [t.channel_id for t in await env.store.live_tables()] == [elsewhere.id]
    finally:
        await running.stop()


async def _a_human_to_play(env: Env) -> None:
    """A table of two humans and two computers, played on to a human's turn after the
    first trick."""
    await _started(env, humans=2)
    match = env.match()
    for _ in range(80):
        seat = match.to_act
        if env.table().seats[seat].kind == "human" and match.tricks:
            return
        if env.table().seats[seat].kind == "bot":
            seq = match.seq
            await env.until(lambda s=seq: match.seq > s)
        else:
            await env.play_with_slash(seat, env.suggestion(seat))
    raise AssertionError("no human's turn in the play")


async def test_after_a_restart_the_player_to_act_finds_their_panel_redrawn_in_place(
    shengji: Env,
) -> None:
    """The panel's id is kept with the table: the new process edits it (its picker live
    again) instead of posting a second one and leaving the first with a dead picker."""
    env = shengji
    await _a_human_to_play(env)
    match = env.match()
    waiting = match.to_act
    user = env.seat_user(waiting)
    seq = match.seq
    prefix = f"sj:p:{env.table().id}:{waiting}:{seq}:"
    panel = await env.until(lambda: env.panel(user, prefix))
    await env.until(lambda: env.bot.service.panel_messages(env.table()).get(waiting))
    await env.fake.idle(quiet=0.3)  # the old process's panel for this turn has gone out
    before, edits = len(panels_to(env, user)), panel.edits
    running = await restart(env)
    try:
        table = env.bot.service.tables[env.world.tables.id]
        fresh = await env.until(lambda: panel.edits > edits and env.panel(user, prefix))
        assert fresh.id == panel.id and len(panels_to(env, user)) == before
        await env.play_with_panel(waiting, env.suggestion(waiting), fresh)
        assert table.match is not None and table.match.seq > seq
    finally:
        await running.stop()


@pytest.mark.parametrize("restarted", [False, True], ids=["", "restarted"])
async def test_a_leavers_panel_shrinks_at_once_and_stays_so(shengji: Env, restarted: bool) -> None:
    """A computer player has the seat: no redraw reaches the leaver's panel again, and a
    restart does not know it (``panel_messages`` keeps seated players' only), so its
    picker stood live for good after a restart. It shrinks when they leave."""
    env = shengji
    await _started(env, humans=4)
    seat = env.match().to_act
    bob = env.seat_user(seat)
    await env.fresh_panel(bob, seat)
    kept = env.bot.service.panel_messages
    _, panel_id = await env.until(lambda: kept(env.table()).get(seat))
    assert env.fake.messages[panel_id].custom_ids(), "the picker of the player to act"
    await env.reply(bob, "leave")
    panel = env.fake.messages[panel_id]
    await env.until(lambda: "you left the table" in panel.content)
    assert not panel.custom_ids() and not panel.attachments
    running = await restart(env) if restarted else None
    try:
        match, hand = env.match(), env.match().hand_no
        while match.hand_no == hand and match.phase is Phase.PLAY:  # the hand plays on
            if env.table().seats[match.to_act].kind == "human":
                await env.play_with_slash(match.to_act, env.suggestion(match.to_act))
            else:
                seq = match.seq
                await env.until(lambda s=seq: match.seq > s or match.phase is not Phase.PLAY)
        await env.fake.idle(quiet=0.3)
        assert "you left the table" in panel.content and not panel.custom_ids()
    finally:
        if running is not None:
            await running.stop()


async def test_a_click_drawn_while_the_table_closes_leaves_its_panel_shrunk(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A click's redraw (Suggest) was still being drawn when the table closed: its edit
    landed after the close had shrunk the panel and armed its picker again, on a table
    gone (the monkey, a moderator's step after a click)."""
    env = shengji
    await _a_human_to_play(env)
    match, table = env.match(), env.table()
    seat = match.to_act
    user = env.seat_user(seat)
    panel = await env.fresh_panel(user, seat)
    draw = env.bot.presenter.panel_for

    async def closing_meanwhile(*args: Any, **kwargs: Any) -> Any:
        drawn = await draw(*args, **kwargs)
        await env.reply(env.users[0], "abort")
        await env.until(lambda: table.closed)
        await env.until(lambda: not env.fake.messages[panel.id].custom_ids())  # shrunk
        return drawn

    monkeypatch.setattr(env.bot.presenter, "panel_for", closing_meanwhile)
    await env.driver.click(panel, f"sj:b:{table.id}:{seat}:{match.seq}:suggest", user)
    await env.fake.idle(quiet=0.3)
    assert not env.fake.messages[panel.id].custom_ids()
    assert "(the table was closed)" in env.fake.messages[panel.id].content


async def _a_panel_and_the_table_message(env: Env) -> tuple[Table, Message, int]:
    """At a human's turn: the table, that player's panel, the id of the hand's table
    message (the one with the table's buttons)."""
    await _a_human_to_play(env)
    table = env.table()
    seat = env.match().to_act
    panel = await env.fresh_panel(env.seat_user(seat), seat)
    await env.until(lambda: "table" in env.bot.service.hand_messages(table))
    return table, panel, env.bot.service.hand_messages(table)["table"]


async def test_a_close_shrinks_the_panels_before_it_waits_for_its_place(shengji: Env) -> None:
    """The close waited for the hand's messages in the thread first, each edit tried again
    for seconds when its connection dropped; a shutdown soon after (the monkey: a restart
    a few steps after a moderator archived the thread) then cut the close short and left
    the players' panels with live pickers."""
    env = shengji
    _, panel, message_id = await _a_panel_and_the_table_message(env)
    dropped = env.fake.faults.disconnect(
        "PATCH", EDIT, times=None, when=lambda r: r.path.endswith(f"/{message_id}")
    )
    await env.reply(env.users[0], "abort")  # its buttons taken off: an edit that drops
    await env.until(lambda: not env.fake.messages[panel.id].custom_ids())
    assert dropped.hits < len(live.NETWORK_WAITS) + 1, "shrunk while it was still tried"
    env.fake.faults.clear()  # the edit's next try goes through: no shutdown waits it out


async def test_a_clicks_redraw_on_its_way_as_the_table_closes_does_not_arm_the_panel_again(
    shengji: Env,
) -> None:
    """A click's redraw of its panel (Suggest) was sent before the table closed and reached
    Discord after the close had shrunk the panel: the panel's pickers and buttons were live
    again for good (monkey seed 10551). The shrinking now waits for a click's edit on its
    way, and goes after it."""
    from fakediscord.faults import Rule

    env = shengji
    table, panel, _ = await _a_panel_and_the_table_message(env)
    seat = env.match().to_act
    assert seat is not None
    user = env.seat_user(seat)
    original = "/webhooks/{application_id}/{token}/messages/{message_id}"
    held = env.fake.faults.add(
        Rule("delay", "PATCH", original, None, 1, delay=0.5, when=lambda r: "@original" in r.path)
    )
    suggest = next(c for c in panel.custom_ids() if c.endswith(":suggest"))
    env.driver.click(panel, suggest, user)
    await env.until(lambda: held.hits == 1)  # the redraw is on its way
    await env.reply(env.users[0], "abort")
    await env.until(lambda: table.closed)
    await env.fake.idle(quiet=0.7)
    assert not env.fake.messages[panel.id].custom_ids()


async def test_a_close_under_way_when_the_bot_stops_is_shown_before_it_stops(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An abort closes its table outside the table's lock; a shutdown while the close was
    still being recorded stopped the table's publisher first, and the close's last update,
    queued after, was never shown: the closed table (which the next process rightly does
    not bring back) kept its panels' pickers and its message's buttons for good (the
    monkey's calm-table checks)."""
    env = shengji
    table, panel, message_id = await _a_panel_and_the_table_message(env)
    close_table = env.store.close_table

    async def recorded_slowly(*args: Any, **kwargs: Any) -> None:
        await asyncio.sleep(0.2)  # the close is still being recorded as the bot stops
        await close_table(*args, **kwargs)

    monkeypatch.setattr(env.store, "close_table", recorded_slowly)
    env.driver.send_slash("shengji abort", env.users[0], env.world.tables)
    await env.until(lambda: table.closed)
    running = await restart(env)
    try:
        assert table.channel_id not in env.bot.service.tables  # recorded as closed
        assert not env.fake.messages[panel.id].custom_ids()
        assert not env.fake.messages[message_id].custom_ids()
    finally:
        await running.stop()


async def test_a_restart_mid_hand_edits_the_hands_messages_in_the_thread(shengji: Env) -> None:
    """The new process goes on editing the hand's deal and table messages (their ids are
    kept with the table): the thread gains no message for the hand, none is left stale."""
    env = shengji
    await _a_human_to_play(env)
    seat, hand = env.match().to_act, env.match().hand_no
    await env.until(lambda: env.bot.service.hand_messages(env.table()).keys() == {"deal", "table"})
    await env.fake.idle(quiet=0.3)  # the old process's edits have gone out
    deal, table = env.place_messages()[-2:]  # the hand's two, the table message last
    assert "▶" in table.content and deal.id < table.id
    before = len(env.place_messages())
    shown = {m.id: m.content for m in (deal, table)}
    running = await restart(env)
    try:
        await env.play_with_slash(seat, env.suggestion(seat))
        await env.until(lambda: env.fake.messages[table.id].content != shown[table.id])
        await env.fake.idle(quiet=0.3)
        assert env.match().hand_no == hand
        assert len(env.place_messages()) == before
        kept = env.bot.service.hand_messages(env.table())
        assert kept == {"deal": deal.id, "table": table.id}
    finally:
        await running.stop()


async def test_a_restart_before_the_ids_were_kept_edits_the_messages_it_posted(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process stopped between posting the hand's messages and keeping their ids:
    the new one posts them under the same nonces, which Discord enforces, so it gets the
    messages back instead of a second pair, and edits them to the hand's state."""
    env = shengji

    async def lost(*args: object) -> None:  # the write that would have kept an id
        return None

    monkeypatch.setattr(env.bot.service, "remember_hand_message", lost)
    await _a_human_to_play(env)
    seat, hand = env.match().to_act, env.match().hand_no
    await env.fake.idle(quiet=0.3)
    deal, table = env.place_messages()[-2:]
    assert "▶" in table.content and env.bot.service.hand_messages(env.table()) == {}
    before, shown = len(env.place_messages()), table.content
    running = await restart(env)
    try:
        await env.play_with_slash(seat, env.suggestion(seat))
        await env.until(lambda: env.fake.messages[table.id].content != shown)
        await env.fake.idle(quiet=0.3)
        assert env.match().hand_no == hand
        assert len(env.place_messages()) == before, [m.content[:30] for m in env.place_messages()]
        kept = env.bot.service.hand_messages(env.table())  # the deal's, if shown again
        assert kept["table"] == table.id and kept.get("deal", deal.id) == deal.id
    finally:
        await running.stop()


async def test_a_panel_dm_refused_with_repeated_429s_is_retried(shengji: Env) -> None:
    env = shengji
    await env.reply(env.users[0], "new")
    await env.reply(env.users[0], "addbot")
    await env.reply(env.users[0], "addbot")
    await env.reply(env.users[0], "addbot")
    alice = env.users[0]
    dm = env.fake.dm_channel(alice)
    # more 429s in a row than discord.py retries (five): the first panel DM is refused
    env.fake.faults.rate_limit(
        "POST",
        "/channels/{channel_id}/messages",
        retry_after=0.05,
        times=8,
        when=lambda r: int(r.params.get("channel_id", 0)) == dm.id and bool(r.uploads),
    )
    await env.reply(alice, "start")
    # her hand panel (an image of her cards; bid buttons only if she can bid)
    await env.until(lambda: [m for m in env.fake.dms(alice) if m.attachments], timeout=30)


async def test_a_one_off_dm_refused_with_repeated_429s_is_retried(shengji: Env) -> None:
    env = shengji
    await _started(env, humans=2)
    table = env.table()
    alice = env.seat_user(table.humans[0])
    dm = env.fake.dm_channel(alice)
    env.fake.faults.rate_limit(  # more 429s in a row than discord.py retries (five)
        "POST",
        "/channels/{channel_id}/messages",
        retry_after=0.05,
        times=8,
        when=lambda r: (
            int(r.params.get("channel_id", 0)) == dm.id
            and "can no longer" in str((r.json or {}).get("content"))
        ),
    )
    env.fake.delete_channel(env.world.tables)  # the table's place is lost: told once, by DM
    await env.until(lambda: table.closed)
    told = await env.until(
        lambda: [m for m in env.fake.dms(alice) if "can no longer" in m.content], timeout=20
    )
    assert len(told) == 1


async def test_a_restart_between_a_tables_thread_and_its_record_leaves_no_empty_thread(
    shengji: Env,
) -> None:
    """The process stops after Discord opened the table's thread, before the bot saved it:
    after the restart the table plays in that thread, from the same lobby message."""
    env = shengji
    alice, bob = env.users[0], env.users[1]
    service: Any = env.bot.service
    real = service.remember_place
    stuck: list[asyncio.Task[Any]] = []

    async def dies_once_the_thread_is_open(
        table: Any, thread_id: int | None, *args: Any, **kw: Any
    ) -> None:
        if thread_id is not None:  # the thread exists; the process stops before it is saved
            task = asyncio.current_task()
            assert task is not None
            stuck.append(task)
            await asyncio.Event().wait()
        await real(table, thread_id, *args, **kw)

    service.remember_place = dies_once_the_thread_is_open

    def threads() -> list[Any]:
        return [c for c in env.fake.channels.values() if c.parent_id == env.world.tables.id]

    def lobbies() -> list[Any]:
        return [m for m in env.fake.channel_messages(env.world.tables) if m.custom_ids()]

    assert "Table opened" in await env.reply(alice, "new")
    await env.until(lambda: stuck)
    assert len(threads()) == 1 and len(lobbies()) == 1
    # the stopped process never lets the table go: its close need not wait out the 10 s
    # it gives in-flight actions and queued messages
    service.shutdown = functools.partial(service.shutdown, flush_seconds=0.1)
    running = await restart(env)
    for task in stuck:
        task.cancel()
    try:
        table = env.table()  # restored: its lobby's update finishes the opening
        await env.until(lambda: table.meta.get("thread_id"))
        await env.reply(bob, "join")
        [thread] = threads()
        assert table.meta["thread_id"] == thread.id == table.meta["lobby_message"]
        assert not table.meta["thread_opening"] and len(lobbies()) == 1
        for _ in range(2):
            await env.reply(alice, "addbot")
        await env.reply(alice, "start")
        await env.until(lambda: env.fake.channel_messages(thread))  # the deal: it plays there
        assert threads() == [thread]
    finally:
        await running.stop()


async def _my_hand(env: Env, user: User) -> Any:
    """``user`` presses My hand on the table's newest message that has it: the ephemeral panel."""
    tid = env.table().id
    message = await env.until(
        lambda: next(
            (m for m in reversed(env.place_messages()) if f"sj:t:{tid}:hand" in m.custom_ids()),
            None,
        )
    )
    handle = env.driver.click(message, f"sj:t:{tid}:hand", user)
    (panel,) = await handle.wait_followups(1)
    assert panel.ephemeral
    return panel


async def test_a_closed_table_takes_the_buttons_off_my_hand_panels(shengji: Env) -> None:
    """Like the DM panels, the ephemeral one shrinks to the closing line, its buttons gone:
    none of its clicks could do anything once the table is gone."""
    env = shengji
    carol = env.users[2]
    env.fake.close_dms(carol)
    await _started(env, humans=3)
    table = env.table()
    await _others_play_until(env, env.match(), 2)
    panel = await _my_hand(env, carol)
    assert panel.custom_ids()  # her turn: the picker and its buttons
    await env.reply(env.users[0], "abort")
    await env.until(lambda: table.closed)
    shown = await env.until(lambda: (m := env.fake.messages[panel.id]) and not m.custom_ids() and m)
    assert "closed" in shown.content and not shown.attachments


async def test_my_hand_shows_the_newest_state_when_an_older_render_finishes_last(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two redraws of the ephemeral panel in a row, the first one's render held back: the
    second is what stays shown (the older render is never sent over it, and the interaction
    edits one at a time)."""
    env = shengji
    carol = env.users[2]
    env.fake.close_dms(carol)
    await _started(env, humans=3)
    table = env.table()
    panel = await _my_hand(env, carol)
    await env.fake.idle(quiet=0.3)
    presenter = env.bot.presenter
    held = asyncio.Event()
    real = presenter.panel_for

    async def slow_first(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("note") == "older":
            await held.wait()
        return await real(*args, **kwargs)

    monkeypatch.setattr(presenter, "panel_for", slow_first)
    match = table.match
    update = Update(
        kind=UpdateKind.EVENTS,
        events=(),
        public=match.view(None),
        views=tuple(match.view(s) for s in range(4)),
        seats=tuple(table.seats),
    )
    edits = env.fake.messages[panel.id].edits
    presenter._show_panel(table, update, 2, note="older")
    presenter._show_panel(table, update, 2, note="newer")
    await asyncio.sleep(0.05)
    held.set()
    await env.until(lambda: env.fake.messages[panel.id].edits > edits)
    await env.fake.idle(quiet=0.3)
    final = env.fake.messages[panel.id]
    assert "newer" in final.content and "older" not in final.content


@pytest.mark.parametrize("where", ["dm", "my-hand"])
async def test_the_hands_panel_shows_its_result_once_it_is_scored(shengji: Env, where: str) -> None:
    """Between the hand's end and the next deal, the panel (in DMs, or My hand for a player
    whose DMs are closed) says how the hand ended instead of still showing its last trick's
    "waiting for"; its buttons are gone. The My hand panel's interaction lasts, so the
    next hand draws it again."""
    env = shengji
    alice = env.users[0]
    if where == "my-hand":
        env.fake.close_dms(alice)
    await _started(env, humans=1)
    match = env.match()
    if where == "dm":
        panel = await env.until(
            lambda: next((m for m in env.fake.dms(alice) if m.attachments and not m.deleted), None)
        )
    else:
        panel = await _my_hand(env, alice)
    assert panel.attachments
    assert "computer" in (await env.reply(alice, "auto")).lower()
    await env.until(lambda: match.expecting()[0] == "next_hand", timeout=30)
    shown = await env.until(
        lambda: (m := env.fake.messages[panel.id]).content.startswith("Hand 1 (over). ") and m
    )
    assert not shown.custom_ids() and not shown.attachments
    assert match.hand_no == 0 and match.expecting()[0] == "next_hand"  # no new deal yet
    if where == "my-hand":
        assert "computer" not in (await env.reply(alice, "auto")).lower()  # she plays again
        await env.tick_until(lambda: match.hand_no == 1, 1)
        await env.tick_until(lambda: env.fake.messages[panel.id].attachments, 1)  # the new hand


async def test_a_restart_after_a_hand_began_unshown_takes_the_table_buttons_off_the_last(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process began the next hand (committed) and stopped before its presenter showed
    it: the last hand's table message kept the table's buttons, and the restarted process,
    which knows only the current hand's messages, left them there beside the new hand's
    (monkey seed 10653, restarts weighted up). It takes them off now."""
    env = shengji
    alice = env.users[0]
    await _started(env, humans=1)
    match, table = env.match(), env.table()
    assert "computer" in (await env.reply(alice, "auto")).lower()
    await env.until(lambda: match.expecting()[0] == "next_hand", timeout=30)
    await env.until(lambda: "table" in env.bot.service.hand_messages(table))
    last = env.bot.service.hand_messages(table)["table"]
    publish = env.bot.presenter.publish

    async def until_the_next_hand(t: Table, update: Update) -> None:
        if t is not table or match.hand_no == 0:  # the process stops before showing it
            await publish(t, update)

    monkeypatch.setattr(env.bot.presenter, "publish", until_the_next_hand)
    await env.tick_until(lambda: match.hand_no == 1, 1)
    assert env.fake.messages[last].custom_ids()  # not shown: its buttons are still on
    running = await restart(env)
    try:
        await env.until(lambda: not env.fake.messages[last].custom_ids())
        # the new hand's message, alone with the table's buttons
        [new] = await env.tick_until(env.buttoned, 1)  # the deal goes on as time passes
        assert new.id != last and new.content.startswith("**Hand 2")
    finally:
        await running.stop()


async def test_a_restart_takes_the_table_buttons_off_the_deal_message_once_the_table_message_is_up(
    shengji: Env,
) -> None:
    """The old process posted the hand's table message and stopped before the edit moving
    the table's buttons off the deal message went out (a stop drops the edits still
    waiting): both kept the buttons, and the restarted process, which takes them off the
    newest only, left them on the deal message for good (monkey seed 10653, again)."""
    env = shengji
    await _a_human_to_play(env)
    await env.until(lambda: env.bot.service.hand_messages(env.table()).keys() == {"deal", "table"})
    await env.fake.idle(quiet=0.3)
    deal, table = env.place_messages()[-2:]
    assert table.custom_ids() and not deal.custom_ids()
    deal.components = [dict(row) for row in table.components]  # that edit never went out
    running = await restart(env)
    try:
        await env.until(lambda: not env.fake.messages[deal.id].custom_ids())
        assert env.buttoned() == [env.fake.messages[table.id]]
    finally:
        await running.stop()
