"""Settings, preferences and tournaments with a slow store: acknowledged in time, answered
with what was committed (issue 14 item 2).

Each command or button below writes to the store; with the write held (as if it took
longer than Discord's 3 s), the interaction is still acknowledged (deferred, ephemeral)
within ``IN_TIME``, and its answer, sent through the follow-up once the write is done,
reports the change the store now holds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from fakediscord.driver import InteractionHandle
from fakediscord.state import User

from .helpers import Env
from .test_slow_store import Held, acknowledged_while_held, held_writes
from .test_tournament_flow import message_with, organiser

WRITES = ("save_guild_settings", "save_user_prefs", "create_tournament", "save_tournament")


async def answered(handle: InteractionHandle) -> str:
    """The ephemeral answer of an interaction whose write is done."""
    answer = await handle.wait_message()
    assert answer.ephemeral
    return answer.content + " ".join(str(e) for e in answer.embeds)


async def answered_after_its_write(
    env: Env, held: Held, send: Callable[[], InteractionHandle]
) -> str:
    """What ``send()`` sends is acknowledged while its write is held, answered after it."""
    held.close()
    writes = len(held.made)
    handle = send()
    await env.until(lambda: len(held.made) > writes)
    await acknowledged_while_held(handle)
    held.open()
    return await answered(handle)


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
    with held_writes(monkeypatch, *WRITES) as held:
        # three commands at once, each held up by its own write
        settings = slash(env, owner, "settings", field="decks", value="3")
        prefs = slash(env, bob, "prefs", field="four_color", value="on")
        create = slash(env, alice, "tournament create", name="Slow Cup")
        await env.until(lambda: len(held.made) == 3)
        for handle in (settings, prefs, create):
            await acknowledged_while_held(handle)
        held.open()
        assert "`decks` = three decks `3`" in await answered(settings)
        assert "Saved" in await answered(prefs)
        assert "registration is open" in await answered(create)
        assert {"save_guild_settings", "save_user_prefs", "create_tournament"} <= set(held.made)
        assert (await env.store.guild_settings(guild)).rules.decks == 3
        assert (await env.store.user_prefs(bob.id)).four_color is True
        cup = env.bot.tournaments.cup_in(env.world.tables.id)

        # the buttons: the partner picked in the menu, then the partner's Confirm
        reg = await env.until(lambda: message_with(env, env.world.tables, ":reg"))
        menu_click = env.driver.click(reg, f"sj:c:{cup.id}:reg", carol)
        menu = await menu_click.wait_message()  # the menu itself writes nothing
        picked = await answered_after_its_write(
            env, held, lambda: env.driver.select(menu, f"sj:c:{cup.id}:partner", [bob], carol)
        )
        assert "registered" in picked
        assert [t.members for t in cup.teams] == [[carol.id, bob.id]]
        confirmed = await answered_after_its_write(
            env, held, lambda: env.driver.click(reg, f"sj:c:{cup.id}:ok", bob)
        )
        assert "confirmed" in confirmed
        assert cup.teams[0].confirmed
    (stored,) = await env.store.live_tournaments()  # what the answers said is committed
    assert stored.name == "Slow Cup"
    assert [(t["members"], t["confirmed"]) for t in stored.state["teams"]] == [
        ([carol.id, bob.id], True)
    ]
