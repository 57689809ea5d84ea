"""A slow store write: acknowledged in time, and no other table waits for it.

Discord shows "This interaction failed" when a click or a command is not
acknowledged within 3 s, although the change may then be committed. Every
interaction that writes is deferred before the write and answered through the
follow-up; a write of one table that takes long delays neither the acknowledgement
nor the answer of an interaction at another table.

A write slower than any deadline is simulated by holding it until the test lets
it go: what must happen "in time" is shown to happen while the write is still
pending, which no write speed can change and no test needs to wait out.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from bot.store import Store
from fakediscord.state import Channel, Message

from .helpers import Env

IN_TIME = 2.5  # within Discord's 3 s to acknowledge, with room for a busy test machine


@contextmanager
def held_seat_writes(
    monkeypatch: pytest.MonkeyPatch, table_id: int
) -> Iterator[tuple[list[int], asyncio.Event]]:
    """Every seat write of table ``table_id`` is held until the event is set.

    Yields the ids of the writes held so far and the event that lets them go.
    """
    real = Store.update_seats
    held: list[int] = []
    release = asyncio.Event()

    async def update_seats(self: Store, tid: int, seats: Any) -> None:
        if tid == table_id:
            held.append(tid)
            await release.wait()
        await real(self, tid, seats)

    with monkeypatch.context() as patch:
        patch.setattr(Store, "update_seats", update_seats)
        try:
            yield held, release
        finally:
            release.set()


async def lobby_message(env: Env, channel: Channel) -> Message:
    return await env.until(
        lambda: next((m for m in env.fake.channel_messages(channel) if any(m.custom_ids())), None)
    )


async def test_a_lobby_button_with_a_slow_write_is_acknowledged_in_time(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = shengji
    await env.reply(env.users[0], "new")
    table = env.table()
    lobby = await lobby_message(env, env.world.tables)
    with held_seat_writes(monkeypatch, table.id) as (held, release):
        handle = env.driver.click(lobby, f"sj:l:{table.id}:join", env.users[1])
        await handle  # acknowledged (deferred) before the write
        assert handle.ack_latency is not None and handle.ack_latency < IN_TIME
        await env.until(lambda: held)
        assert handle.interaction.original is not None and handle.interaction.original.loading
        release.set()
        answer = await handle.wait_message()
        assert "You sit in seat 1" in answer.content and answer.ephemeral
    assert table.seats[1] is not None


async def test_a_slow_write_at_one_table_delays_no_other_table(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = shengji
    alice, bob, carol, dave = env.users
    other = env.fake.create_text_channel(env.world.guild, "other-table")
    await env.reply(alice, "new")
    slow_table = env.table()
    handle = env.driver.send_slash("shengji new", dave, other)
    assert "Table opened" in (await handle.wait_message()).content
    fast_table = env.bot.service.tables[other.id]
    other_lobby = await lobby_message(env, other)
    with held_seat_writes(monkeypatch, slow_table.id) as (held, release):
        stuck = env.driver.send_slash("shengji join", carol, env.world.tables)
        await env.until(lambda: held)  # table A's write is under way, and stays so
        joined = env.driver.send_slash("shengji join", bob, other)
        clicked = env.driver.click(other_lobby, f"sj:l:{fast_table.id}:bot", dave)
        rules = env.driver.send_slash("shengji rules", bob, other)
        answers = [
            await joined.wait_message(),
            await clicked.wait_message(),
            await rules.wait_message(),
        ]
        # table B was answered in full while table A's write had not finished
        assert not stuck.interaction.original or stuck.interaction.original.loading
        assert "You sit in seat 1" in answers[0].content
        assert "computer player" in answers[1].content
        assert answers[2].embeds
        assert [s is not None for s in fast_table.seats] == [True, True, True, False]
        # table A's join is acknowledged too, and answered once its write is done
        await stuck
        assert stuck.ack_latency is not None and stuck.ack_latency < IN_TIME
        release.set()
        assert "You sit in seat 1" in (await stuck.wait_message()).content
    assert slow_table.seats[1] is not None
