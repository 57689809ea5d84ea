"""A server's ``max_tables`` setting, through the fake Discord: shown, checked, obeyed."""

from __future__ import annotations

from typing import Any

from fakediscord.state import Message

from .helpers import Env
from .test_replies_zh import admin


async def _settings(env: Env, user: Any, **options: Any) -> Message:
    handle = await env.slash(user, "settings", **options)
    return await handle.wait_message()


def _shown(message: Message) -> str:
    return message.embeds[0]["description"] if message.embeds else ""


async def test_max_tables_is_shown_checked_and_obeyed(shengji: Env) -> None:
    env = shengji
    owner, alice, bob = admin(env), env.users[0], env.users[1]
    assert "`max_tables` = 25" in _shown(await _settings(env, owner))  # the process's limit
    refused = await _settings(env, owner, max_tables=26)  # over the process's limit
    assert refused.content == "`max_tables` takes a whole number of tables from 1 to 25."
    assert "Only server admins" in (await _settings(env, bob, max_tables=1)).content
    assert "`max_tables` = 25" in _shown(await _settings(env, owner)), "nothing changed"
    changed = await _settings(env, owner, max_tables=1)
    assert changed.embeds[0]["title"] == "Settings changed"
    assert "`max_tables` = 1" in _shown(changed)
    await env.reply(alice, "new")  # in #tables: the server's one table
    handle = env.driver.send_slash("shengji new", bob, env.world.general, None)
    await handle
    told = await handle.wait_message()
    assert told.content == "This server already has 1 open table; finish or end one first."
    assert [t.channel_id for t in env.bot.service.tables.values()] == [env.world.tables.id]
