"""Computer levels through Discord: /shengji addbot level: and the think_ms setting."""

from __future__ import annotations

from fakediscord.state import User

from .helpers import Env


async def _admin_reply(env: Env, field: str, value: str) -> str:
    owner = env.world.guild.owner_id
    admin: User = next(u for u in env.fake.users.values() if u.id == owner)
    handle = env.driver.send_slash(
        "shengji settings", admin, env.world.tables, {"field": field, "value": value}
    )
    await handle
    message = await handle.wait_message()
    return message.content or str(message.embeds[0]["description"])


async def test_addbot_offers_three_levels_in_both_languages(shengji: Env) -> None:
    env = shengji
    command = next(c for c in env.fake.commands.values() if c.name == "shengji")
    addbot = next(o for o in command.raw["options"] if o["name"] == "addbot")
    level = next(o for o in addbot["options"] if o["name"] == "level")
    assert [c["value"] for c in level["choices"]] == ["easy", "normal", "expert"]
    chinese = [c["name_localizations"]["zh-CN"] for c in level["choices"]]
    assert chinese == ["简单", "普通", "高手"]

    alice = env.users[0]
    await env.reply(alice, "new")
    assert "seat 2" in await env.reply(alice, "addbot", seat=2, level="expert")  # seats 1-4
    await env.reply(alice, "addbot", seat=4)
    seats = env.table().seats
    assert seats[1] is not None and seats[1].ai == "expert"
    assert seats[3] is not None and seats[3].ai == "normal"
    assert seats[2] is None
    stored = await env.store.live_tables()
    assert [s.ai if s else None for s in stored[0].seats] == [None, "expert", None, "normal"]


async def test_think_ms_is_a_server_setting_each_table_keeps(shengji: Env) -> None:
    env = shengji
    assert "milliseconds from 20 to 2000" in await _admin_reply(env, "think_ms", "5")
    assert "whole number of milliseconds" in await _admin_reply(env, "think_ms", "fast")
    assert "`think_ms` = 120" in await _admin_reply(env, "think_ms", "120")
    alice = env.users[0]
    await env.reply(alice, "new")
    assert env.table().meta["think_ms"] == 120
    await _admin_reply(env, "think_ms", "400")
    assert env.table().meta["think_ms"] == 120, "a table keeps the value it started with"
