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

from bot.store import Store, UserPrefs
from fakediscord.driver import InteractionHandle
from fakediscord.state import Channel, Message

from .helpers import Env
from .test_bad_input import _started
from .test_language_chain import chinese

IN_TIME = 2.5  # within Discord's 3 s to acknowledge, with room for a busy test machine


class Held:
    """Store writes held until the test opens the gate (and held again once it closes it).

    ``made`` names every write that reached the gate, held or not.
    """

    def __init__(self) -> None:
        self.made: list[str] = []
        self._gate = asyncio.Event()

    def open(self) -> None:
        self._gate.set()

    def close(self) -> None:
        self._gate.clear()

    async def passing(self, name: str) -> None:
        self.made.append(name)
        await self._gate.wait()


@contextmanager
def held_writes(
    monkeypatch: pytest.MonkeyPatch, *names: str, table_id: int | None = None
) -> Iterator[Held]:
    """The store methods ``names`` wait at the gate (with ``table_id``: only that table's)."""
    held = Held()

    def holding(name: str) -> Any:
        real = getattr(Store, name)

        async def write(self: Store, *args: Any, **kwargs: Any) -> Any:
            if table_id is None or args[0] == table_id:
                await held.passing(name)
            return await real(self, *args, **kwargs)

        return write

    with monkeypatch.context() as patch:
        for name in names:
            patch.setattr(Store, name, holding(name))
        try:
            yield held
        finally:
            held.open()


async def acknowledged_while_held(handle: InteractionHandle) -> None:
    """The interaction was deferred within ``IN_TIME`` and is not yet answered."""
    await handle
    assert handle.ack_latency is not None and handle.ack_latency < IN_TIME, handle
    original = handle.interaction.original
    assert original is not None and original.loading, original


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
    with held_writes(monkeypatch, "update_seats", table_id=table.id) as held:
        handle = env.driver.click(lobby, f"sj:l:{table.id}:join", env.users[1])
        await env.until(lambda: held.made)
        await acknowledged_while_held(handle)  # acknowledged (deferred) before the write
        held.open()
        answer = await handle.wait_message()
        assert "You sit in seat 2" in answer.content and answer.ephemeral
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
    with held_writes(monkeypatch, "update_seats", table_id=slow_table.id) as held:
        stuck = env.driver.send_slash("shengji join", carol, env.world.tables)
        await env.until(lambda: held.made)  # table A's write is under way, and stays so
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
        assert "You sit in seat 2" in answers[0].content
        assert "computer player" in answers[1].content
        assert answers[2].embeds
        assert [s is not None for s in fast_table.seats] == [True, True, True, False]
        # table A's join is acknowledged too, and answered once its write is done
        await acknowledged_while_held(stuck)
        held.open()
        assert "You sit in seat 2" in (await stuck.wait_message()).content
    assert slow_table.seats[1] is not None


@pytest.mark.parametrize(
    ("command", "read", "public"),
    [
        ("leaderboard", "leaderboard", True),  # posted for the channel
        ("stats", "player_stats", False),
        ("history", "recent_matches", False),
        ("rules", "guild_settings", False),
    ],
)
async def test_a_command_that_reads_the_store_is_acknowledged_before_the_read(
    shengji: Env, monkeypatch: pytest.MonkeyPatch, command: str, read: str, public: bool
) -> None:
    # a read waits behind a locked or busy database as a write does
    env = shengji
    with held_writes(monkeypatch, read) as held:
        handle = env.driver.send_slash(f"shengji {command}", env.users[0], env.world.tables)
        await env.until(lambda: held.made)
        await acknowledged_while_held(handle)
        held.open()
        answer = await handle.wait_message()
    assert answer.ephemeral is not public and (answer.content or answer.embeds)


async def test_a_reply_goes_out_while_the_players_preferences_are_still_being_read(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Rules button and ``/shengji hint`` answer at once, with no deferral; their
    language comes from the player's stored setting, which must not hold up that first
    response: with the read of it stuck, they answer in her Discord client's language,
    and once the read is done, in her own setting's."""
    env = shengji
    alice = env.users[0]
    await _started(env, humans=1)
    match = env.match()
    await env.until(lambda: match.to_act == 0 and match.expecting()[0] == "play")
    rules = f"sj:t:{env.table().id}:rules"
    await env.store.save_user_prefs(alice.id, UserPrefs(locale="zh-CN"))

    async def click_rules() -> InteractionHandle:
        return env.driver.click(await env.with_button(rules), rules, alice)

    async def hint() -> InteractionHandle:
        return env.driver.send_slash("shengji hint", alice, env.world.tables)

    for name, ask in {"rules": click_rules, "hint": hint}.items():
        env.bot.presenter.forget_prefs(alice.id)  # not read yet by this process
        with held_writes(monkeypatch, "user_prefs") as held:
            handle = await ask()
            answer = await handle.wait_message()  # answered while the read is held
            assert held.made, name  # her preferences were being read
            assert not chinese(answer.content + str(answer.embeds)), name  # her client's
            held.open()
            await env.until(lambda: env.bot.presenter.cached_prefs(alice.id))
        again = await (await ask()).wait_message()
        assert chinese(again.content + str(again.embeds)), name
