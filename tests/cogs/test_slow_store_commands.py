"""Settings, preferences and tournaments with a slow store: acknowledged in time, answered
with what was committed (issue 14 item 2).

Each command or button below writes to the store; with the write held past Discord's
3 s (``SLOW``), the interaction is still acknowledged (deferred, ephemeral) within
``IN_TIME``, and its answer, sent through the follow-up once the write is done,
reports the change the store now holds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from bot.store import Store
from fakediscord.driver import InteractionHandle
from fakediscord.state import User

from .helpers import Env
from .test_slow_store import IN_TIME, SLOW
from .test_tournament_flow import message_with, organiser

WRITES = ("save_guild_settings", "save_user_prefs", "create_tournament", "save_tournament")


@contextmanager
def slow_writes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Each store write in ``WRITES`` takes ``SLOW`` s; yields the names of those made."""
    made: list[str] = []

    def slowed(name: str) -> Any:
        real = getattr(Store, name)

        async def write(self: Store, *args: Any, **kwargs: Any) -> Any:
            made.append(name)
            await asyncio.sleep(SLOW)
            return await real(self, *args, **kwargs)

        return write

    with monkeypatch.context() as patch:
        for name in WRITES:
            patch.setattr(Store, name, slowed(name))
        yield made


async def answered_in_time(handle: InteractionHandle) -> str:
    """The answer of an interaction that was acknowledged within ``IN_TIME``."""
    await handle
    assert handle.ack_latency is not None and handle.ack_latency < IN_TIME, handle
    answer = await handle.wait_message(timeout=SLOW + 10)
    assert answer.ephemeral
    return answer.content + " ".join(str(e) for e in answer.embeds)


def slash(env: Env, user: User, command: str, **options: Any) -> InteractionHandle:
    return env.driver.send_slash(f"shengji {command}", user, env.world.tables, options or None)


async def test_settings_prefs_and_tournament_writes_are_acknowledged_in_time(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = shengji
    alice, bob, carol, _ = env.users
    owner = next(u for u in env.fake.users.values() if u.id == env.world.guild.owner_id)
    organiser(env, alice)
    guild = env.world.guild.id
    with slow_writes(monkeypatch) as made:
        # three commands at once, each held up by its own slow write
        settings = slash(env, owner, "settings", field="decks", value="3")
        prefs = slash(env, bob, "prefs", field="four_color", value="on")
        create = slash(env, alice, "tournament create", name="Slow Cup")
        assert "`decks` = 3" in await answered_in_time(settings)
        assert "Saved" in await answered_in_time(prefs)
        assert "registration is open" in await answered_in_time(create)
        assert {"save_guild_settings", "save_user_prefs", "create_tournament"} <= set(made)
        assert (await env.store.guild_settings(guild)).rules.decks == 3
        assert (await env.store.user_prefs(bob.id)).four_color is True
        cup = env.bot.tournaments.cup_in(env.world.tables.id)

        # the buttons: the partner picked in the menu, then the partner's Confirm
        reg = await env.until(lambda: message_with(env, env.world.tables, ":reg"))
        menu_click = env.driver.click(reg, f"sj:c:{cup.id}:reg", carol)
        menu = await menu_click.wait_message()  # the menu itself writes nothing
        picked = env.driver.select(menu, f"sj:c:{cup.id}:partner", [bob], carol)
        assert "registered" in await answered_in_time(picked)
        assert [t.members for t in cup.teams] == [[carol.id, bob.id]]
        confirmed = env.driver.click(reg, f"sj:c:{cup.id}:ok", bob)
        assert "confirmed" in await answered_in_time(confirmed)
        assert cup.teams[0].confirmed
    (stored,) = await env.store.live_tournaments()  # what the answers said is committed
    assert stored.name == "Slow Cup"
    assert [(t["members"], t["confirmed"]) for t in stored.state["teams"]] == [
        ([carol.id, bob.id], True)
    ]
