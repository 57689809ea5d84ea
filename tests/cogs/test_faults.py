"""Restarts, concurrent clicks, rate limits, a deleted channel, lost permissions."""

from __future__ import annotations

import asyncio

from bot.game import Phase
from bot.rules import pretty_cards
from fakediscord.state import Message, Perm

from .helpers import Env, restart
from .test_bad_input import _started


async def test_restart_mid_hand_continues_with_timers(shengji: Env, tmp_path) -> None:
    env = shengji
    await _started(env, humans=2)
    match = env.match()
    # play a few cards, then stop the bot while a human is to act
    for _ in range(60):
        seat = match.to_act
        info = env.table().seats[seat]
        if info.kind == "human" and len(match.tricks) >= 2:
            break
        if info.kind == "bot":
            seq = match.seq
            await env.until(lambda s=seq: match.seq > s)
        else:
            await env.play_with_slash(seat, env.suggestion(seat))
    state = match.to_dict()
    waiting = match.to_act
    deadline = env.bot.service.deadline(env.table())
    running = await restart(env)  # a new process on the same database file
    bot = env.bot
    try:
        table = bot.service.tables[env.world.tables.id]
        assert table.match is not None and table.match.to_dict() == state
        assert bot.service.deadline(table) == deadline
        text = await env.play_with_slash(waiting, env.suggestion(waiting))
        assert text.startswith("You played")
        # the timer still runs: the next human's turn times out and the computer plays
        for _ in range(40):
            seat = table.match.to_act
            if table.seats[seat].kind == "human":
                break
            seq = table.match.seq
            await env.until(lambda s=seq: table.match.seq > s)
        seq = table.match.seq
        await env.tick(table.rules.play_seconds + 1)
        await env.until(lambda: table.match.seq > seq)
    finally:
        await running.stop()


async def test_two_simultaneous_clicks_play_once(shengji: Env) -> None:
    env = shengji
    await _started(env)
    match = env.match()
    seat = match.to_act
    user = env.seat_user(seat)
    cards = " ".join(str(c) for c in env.suggestion(seat))
    first = env.driver.send_slash("shengji play", user, env.world.tables, {"cards": cards})
    second = env.driver.send_slash("shengji play", user, env.world.tables, {"cards": cards})
    await asyncio.gather(first, second)
    replies = sorted([(await first.wait_message()).content, (await second.wait_message()).content])
    assert sum(r.startswith("You played") for r in replies) == 1
    # the second: after the first (not its turn), or while the first was stored (moved on)
    refused = ("not your turn", "don't hold", "moved on before your move arrived")
    assert any(any(why in r for why in refused) for r in replies), replies
    assert match.trick[0][0] == seat and len(match.trick) == 1


async def test_rate_limits_are_respected(shengji: Env) -> None:
    env = shengji
    env.fake.faults.rate_limit(route="/channels/{channel_id}/messages", retry_after=0.05, times=5)
    await _started(env, humans=1)
    assert env.match().phase == Phase.PLAY
    assert any(r.status == 429 for r in env.fake.requests)
    # every limited request was retried and went through: nothing else failed
    assert not [e for e in env.fake.errors if e.status not in (429,)]


async def test_deleted_channel_aborts_only_that_table(shengji: Env) -> None:
    env = shengji
    other = env.fake.create_text_channel(env.world.guild, "other-table")
    await _started(env, humans=1)
    handle = env.driver.send_slash("shengji new", env.users[1], other)
    await handle  # acknowledged at once (deferred); the table follows
    await env.until(lambda: env.bot.service.tables.get(other.id) is not None)
    env.fake.delete_channel(env.world.tables)
    await env.until(lambda: env.world.tables.id not in env.bot.service.tables)
    assert other.id in env.bot.service.tables
    live = await env.store.live_tables()
    assert [t.channel_id for t in live] == [other.id]


async def test_losing_permission_to_post_closes_the_table_and_tells_the_players(
    shengji: Env,
) -> None:
    env = shengji
    await _started(env, humans=2)
    table = env.table()
    match = env.match()
    lost = Perm.VIEW_CHANNEL | Perm.SEND_MESSAGES | Perm.SEND_MESSAGES_IN_THREADS
    env.fake.revoke_permissions(env.world.tables, lost)
    # the game moves on; the next post or edit is refused and the table closes
    for _ in range(20):
        if table.closed:
            break
        seat = match.to_act
        seq = match.seq
        if table.seats[seat].kind == "human":
            await env.slash(
                env.seat_user(seat), "play", cards=" ".join(map(str, env.suggestion(seat)))
            )
        await env.until(lambda s=seq: match.seq > s or table.closed)
    await env.until(lambda: table.closed)
    alice = env.users[0]
    await env.until(lambda: any("can no longer post" in m.content for m in env.fake.dms(alice)))
    assert await env.store.live_tables() == []


def _table_messages(env: Env) -> list[Message]:
    """The first hand's table message, by its nonce (the deal message has its buttons too)."""
    nonce = f"sj{env.table().id}h0table."
    return [m for m in env.place_messages() if (m.nonce or "").startswith(nonce)]


async def test_a_dropped_connection_sends_the_table_message_again(shengji: Env) -> None:
    """A connection Discord dropped (a stale keep-alive connection: aiohttp's
    ``ServerDisconnectedError``) costs the hand's messages no state: the table message's
    post is made again (its nonce keeps it one message), and so is an edit, though no
    newer state follows (the next player is a person thinking)."""
    env = shengji
    posted = env.fake.faults.disconnect(
        "POST",
        "/channels/{channel_id}/messages",
        when=lambda r: str((r.json or {}).get("nonce", "")).endswith("table.0"),
    )
    await _started(env)
    match = env.match()
    await env.until(lambda: _table_messages(env))
    assert posted.hits == 1
    (table_message,) = _table_messages(env)
    edited = env.fake.faults.disconnect(
        "PATCH",
        "/channels/{channel_id}/messages/{message_id}",
        when=lambda r: r.params.get("message_id") == str(table_message.id),
    )
    seat = match.to_act
    cards = env.suggestion(seat)
    await env.play_with_slash(seat, cards)
    await env.until(lambda: pretty_cards(cards) in _table_messages(env)[0].content)
    assert edited.hits == 1
    assert len(_table_messages(env)) == 1
