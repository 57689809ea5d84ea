"""The "your turn" DM waits: posted once the turn has waited ``ping_after`` seconds with
the panel shown, never when the player acts first, and deleted once they act or the
timer acts for them."""

from __future__ import annotations

import asyncio
import gc
import inspect
import logging
from typing import Any

import pytest

from cogs import live
from fakediscord.state import Message

from .helpers import Env
from .test_bad_input import _started

WAIT = 10.0
DELETE = "/channels/{channel_id}/messages/{message_id}"
SEND = "/channels/{channel_id}/messages"


def _notices(env: Env, seat: int) -> list[Message]:
    user = env.seat_user(seat)
    return [m for m in env.fake.dms(user, include_deleted=True) if m.content.startswith("🔔")]


async def _waiting_turn(env: Env) -> int:
    """A started table whose human to act has their turn panel; the seat."""
    env.bot.presenter.ping_after = WAIT
    await _started(env, humans=4)
    match = env.match()
    seat = match.to_act
    assert seat is not None
    await env.fresh_panel(env.seat_user(seat), seat)
    await env.until(lambda: _waiting(env, seat))
    return seat


def _waiting(env: Env, seat: int) -> bool:
    """The seat's notice waits on the table's clock: its task has begun to sleep, so the
    wake-up time is set (a tick before the task first runs would not count towards it;
    under a load of 13 the first test here timed out waiting for the notice so)."""
    ping = env.bot.presenter.ui(env.table()).pings.get(seat)
    task = ping.due if ping is not None else None
    return task is not None and inspect.getcoroutinestate(task.get_coro()) == inspect.CORO_SUSPENDED


async def test_the_notice_is_posted_after_the_wait_and_deleted_when_they_act(
    shengji: Env,
) -> None:
    env = shengji
    seat = await _waiting_turn(env)
    await env.tick(WAIT - 1)
    assert _notices(env, seat) == []  # a player looking at the panel is not pinged
    await env.tick(2)
    await env.until(lambda: _notices(env, seat))
    notice = _notices(env, seat)[0]
    assert not notice.deleted
    user_id = env.seat_user(seat).id
    kept = env.bot.service.kept_notices
    await env.until(lambda: kept(env.table()) == {seat: (user_id, notice.id, "dm")})
    await env.play_with_slash(seat, env.suggestion(seat))
    await env.until(lambda: env.fake.messages[notice.id].deleted)
    await env.until(lambda: seat not in kept(env.table()))  # kept only while it stands


async def test_the_notice_goes_when_the_timer_plays_for_them(shengji: Env) -> None:
    """A turn that passed without the player (the timer played for them) takes its
    notice along, as a play would: it would otherwise say "your turn" to nobody's turn."""
    env = shengji
    seat = await _waiting_turn(env)
    seq = env.match().seq
    await env.tick(WAIT + 1)
    await env.until(lambda: _notices(env, seat))
    (notice,) = _notices(env, seat)
    deadline = env.bot.service.deadline(env.table())
    assert deadline is not None
    await env.tick(deadline - env.clock.now() - 5)  # the warning edits the notice
    await env.until(lambda: env.fake.messages[notice.id].content.startswith("⏰"))
    assert env.match().seq == seq
    await env.tick(6)  # time is up
    await env.until(lambda: env.match().seq > seq)
    assert env.match().to_act != seat
    await env.until(lambda: env.fake.messages[notice.id].deleted)


async def test_no_notice_when_they_act_before_the_wait(shengji: Env) -> None:
    env = shengji
    seat = await _waiting_turn(env)
    await env.tick(WAIT / 2)
    await env.play_with_slash(seat, env.suggestion(seat))
    nxt = env.match().to_act
    assert nxt is not None and nxt != seat
    await env.fresh_panel(env.seat_user(nxt), nxt)
    await env.until(lambda: _waiting(env, nxt))
    await env.tick(WAIT / 2 + 1)  # past the first player's wait, not the next one's
    await env.until(lambda: env.match().to_act == nxt)
    for _ in range(5):
        await env.tick(0)
    assert _notices(env, seat) == []  # cancelled when they played: never posted
    assert env.bot.presenter.ui(env.table()).pings[nxt].due is not None  # still waiting


async def test_the_time_warning_posts_a_notice_still_waiting(shengji: Env) -> None:
    """A notice set to wait longer than the turn has before its warning is posted with
    the warning, at once, and its own wait is called off (it would replace the warning)."""
    env = shengji
    env.bot.presenter.ping_after = 25.0  # the warning comes at 20 s of a 30 s turn
    await _started(env, humans=4)
    seat = env.match().to_act
    assert seat is not None
    await env.fresh_panel(env.seat_user(seat), seat)
    await env.until(lambda: seat in env.bot.presenter.ui(env.table()).pings)
    assert _notices(env, seat) == []
    rules = env.table().rules
    await env.tick(rules.play_seconds - 10 + 1)  # the warning comes 10 s before the end
    user = env.seat_user(seat)

    def warnings() -> list[Message]:
        return [m for m in env.fake.dms(user) if m.content.startswith("⏰")]

    await env.until(warnings)
    assert len(warnings()) == 1  # the notice, posted now with the warning's words
    assert "10 seconds left" in warnings()[0].content  # ``warn_before``, as the service said
    await env.tick(5)  # past the notice's own wait, before the turn's end
    for _ in range(5):
        await env.tick(0)
    assert env.match().to_act == seat
    assert len(warnings()) == 1 and _notices(env, seat) == []  # its own wait was called off


async def test_a_player_whose_dms_are_closed_is_pinged_in_the_thread(shengji: Env) -> None:
    """Their turn was said only in the table message's edits, which notify no one (and
    mention no one: its mentions are off); the notice goes in the thread then, mentioning
    them alone, and is deleted when they act."""
    env = shengji
    env.bot.presenter.ping_after = WAIT
    for user in env.users:
        env.fake.close_dms(user)
    await _started(env, humans=4)
    seat = env.match().to_act
    assert seat is not None
    user = env.seat_user(seat)
    await env.until(lambda: _waiting(env, seat))
    await env.tick(WAIT + 1)

    def notice() -> Message | None:
        return next(
            (m for m in env.place_messages() if m.content.startswith(f"🔔 <@{user.id}>")), None
        )

    posted = await env.until(notice)
    (sent,) = [
        r
        for r in env.fake.requests
        if r.method == "POST" and r.response and r.response.get("id") == str(posted.id)
    ]
    assert [int(u) for u in sent.json["allowed_mentions"]["users"]] == [user.id]
    assert not sent.json["allowed_mentions"].get("parse")
    await env.play_with_slash(seat, env.suggestion(seat))
    await env.until(lambda: env.fake.messages[posted.id].deleted)


async def test_a_restart_does_not_say_again_that_a_players_dms_are_closed(shengji: Env) -> None:
    """Closed DMs were known in memory only: the restarted bot tried them at the player's
    next turn and posted its "I can't send you direct messages" (a ping) a second time."""
    from .helpers import restart

    env = shengji
    bob = env.users[1]
    env.fake.close_dms(bob)
    await _started(env, humans=4)

    def said() -> list[Message]:
        return [m for m in env.place_messages() if "can't send you direct" in m.content]

    await env.until(lambda: said() and bob.id in env.table().meta.get("dms_closed", ()))
    running = await restart(env)
    try:
        match = env.match()
        seat = env.table().seat_of(bob.id)
        while match.to_act != seat:  # everyone plays until Bob's turn comes again
            await env.play_with_slash(match.to_act, env.suggestion(match.to_act))
        await env.until(lambda: env.bot.presenter.ui(env.table()).turn_seen.get(seat))
        await env.fake.idle(quiet=0.2)
        assert len(said()) == 1
    finally:
        await running.stop()


async def test_a_restart_deletes_the_notice_the_old_process_left(shengji: Env) -> None:
    """The notice was known in memory only: a restart left it standing for good ("your
    turn" long after the turn), beside the new process's own notice for the same turn."""
    from .helpers import restart

    env = shengji
    seat = await _waiting_turn(env)
    await env.tick(WAIT + 1)
    [notice] = await env.until(lambda: _notices(env, seat))
    await env.until(lambda: env.bot.service.kept_notices(env.table()))
    running = await restart(env)
    try:
        await env.until(lambda: env.fake.messages[notice.id].deleted)
        await env.until(lambda: not env.bot.service.kept_notices(env.table()))
        await env.until(lambda: _waiting(env, seat))  # the new process's own wait
        await env.tick(WAIT + 1)
        # the panel and the new process's notice (or its time warning, edited into it)
        user = env.seat_user(seat)
        await env.until(lambda: len(env.fake.dms(user)) == 2)
        assert notice.id not in {m.id for m in env.fake.dms(user)}
    finally:
        await running.stop()


async def test_a_restart_whose_deletion_of_a_notice_fails_says_so_in_one_line(
    shengji: Env, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every connection dropped (aiohttp's ServerDisconnectedError, which aiohttp itself
    tries again only once): the deletion is tried again as everywhere else
    (``cogs.live.retried``), then given up with a warning. It ended the background
    deletion with an error nobody retrieved, which asyncio logged at ERROR."""
    from .helpers import restart

    monkeypatch.setattr(live, "NETWORK_WAITS", (0.01, 0.01, 0.01))
    env = shengji
    seat = await _waiting_turn(env)
    await env.tick(WAIT + 1)
    [notice] = await env.until(lambda: _notices(env, seat))
    await env.until(lambda: env.bot.service.kept_notices(env.table()))
    dropped = env.fake.faults.disconnect(
        "DELETE", DELETE, times=None, when=lambda r: str(notice.id) in r.path
    )
    caplog.set_level(logging.INFO)
    running = await restart(env)
    try:
        await env.until(lambda: f"could not delete message {notice.id}" in caplog.text)
        assert dropped.hits >= len(live.NETWORK_WAITS) + 1
        gc.collect()  # an unretrieved task's error is logged when it is collected
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    finally:
        await running.stop()


async def test_a_notice_posted_just_before_a_shutdown_is_deleted_after_it(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its id is kept in the background: the shutdown closed the store under that write,
    so the restarted bot did not know of the notice and left it standing."""
    from .helpers import restart

    env = shengji
    service = env.bot.service
    remember = service.remember_notice

    async def slow(*args: Any) -> None:
        await asyncio.sleep(1.0)  # a busy store
        await remember(*args)

    monkeypatch.setattr(service, "remember_notice", slow)
    seat = await _waiting_turn(env)
    await env.tick(WAIT + 1)
    [notice] = await env.until(lambda: _notices(env, seat))
    running = await restart(env)  # at once: the write is still waiting
    try:
        await env.until(lambda: env.fake.messages[notice.id].deleted)
    finally:
        await running.stop()


async def test_a_notice_on_its_way_when_the_bot_stops_is_deleted_after_it(shengji: Env) -> None:
    """Discord takes a while to answer the notice's post and the bot stops meanwhile: the
    stop waits for the answer (Discord posts the notice all the same), so its id is kept
    and the restarted bot deletes it. Cut off, the notice stood for good, its id never
    known (seed 10542 of the monkey, on PostgreSQL)."""
    from fakediscord.faults import Rule

    from .helpers import restart

    env = shengji
    seat = await _waiting_turn(env)
    dm = env.fake.dms(env.seat_user(seat))[0].channel_id  # the panel's channel
    held = env.fake.faults.add(
        Rule("delay", "POST", SEND, None, 1, delay=1.0, when=lambda r: r.channel_id == dm)
    )
    await env.tick(WAIT + 1)
    await env.until(lambda: held.hits == 1)  # the post is on its way
    running = await restart(env)
    try:
        [notice] = await env.until(lambda: _notices(env, seat))
        await env.until(lambda: env.fake.messages[notice.id].deleted)
    finally:
        await running.stop()


async def test_a_notice_a_restart_is_deleting_when_the_bot_stops_again_is_deleted(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The restarted bot deletes the notice the old one left in the background, and stops
    at once, before the deletion was sent: the stop waits for it. Cut off by the closed
    connection, it was given up with a warning; were the table closed meanwhile, no later
    process would bring it back to try again (monkey seed 10552, restarts weighted up)."""
    from cogs.turnnotices import TurnNotices

    from .helpers import restart

    env = shengji
    seat = await _waiting_turn(env)
    await env.tick(WAIT + 1)
    [notice] = await env.until(lambda: _notices(env, seat))
    await env.until(lambda: env.bot.service.kept_notices(env.table()))
    deleting = asyncio.Event()
    delete_left = TurnNotices._delete_left

    async def slowly(self: TurnNotices, *args: Any) -> None:
        deleting.set()
        await asyncio.sleep(0.5)  # the player's DM channel looked up slowly
        await delete_left(self, *args)

    monkeypatch.setattr(TurnNotices, "_delete_left", slowly)
    running = await restart(env)
    await deleting.wait()
    await running.stop()
    assert env.fake.messages[notice.id].deleted
