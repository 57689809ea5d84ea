"""A server's settings through the fake Discord: ``max_tables`` shown, checked, obeyed; each
value named in the reader's language, and suggested as the admin types."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.rules import RuleSet
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


async def _suggested(env: Env, user: Any, typed: str = "", **options: Any) -> list[tuple[str, str]]:
    handle = env.driver.autocomplete(
        "shengji settings", user, env.world.tables, "value", {**options, "value": typed}
    )
    await handle
    return [(c["name"], c["value"]) for c in handle.choices]


async def test_values_are_named_and_suggested_in_the_readers_language(shengji: Env) -> None:
    env = shengji
    owner = admin(env)
    shown = _shown(await _settings(env, owner)).splitlines()
    assert "`overcall` = during the deal `deal`" in shown, shown
    assert "`fixed_two_trump` = no `no`" in shown and "`play_seconds` = 30" in shown, shown
    assert await _suggested(env, owner, field="overcall") == [
        ("during the deal (deal) (now)", "deal"),
        ("after the kitty is buried (after_bury)", "after_bury"),
    ]
    assert await _suggested(env, owner, "bur", field="overcall") == [
        ("after the kitty is buried (after_bury)", "after_bury")
    ]
    assert await _suggested(env, owner, field="play_seconds") == [("30 (now)", "30")]
    assert await _suggested(env, owner, "x", field="play_seconds") == []
    assert await _suggested(env, owner) == []  # no field chosen yet
    # what is picked is what the command takes
    changed = _shown(await _settings(env, owner, field="overcall", value="after_bury"))
    assert "`overcall` = after the kitty is buried `after_bury`" in changed.splitlines()
    assert await _suggested(env, owner, field="overcall") == [
        ("during the deal (deal)", "deal"),
        ("after the kitty is buried (after_bury) (now)", "after_bury"),
    ]
    # a reader of Chinese: the names in Chinese, the values as typed
    owner.locale = "zh-CN"
    assert await _suggested(env, owner, "flat", field="kitty_multiplier") == [
        ("一律×2 (flat)", "flat")
    ]
    # the kitty bonus's numbers are the rules' own (seed 002: a tractor of pairs ×5)
    assert await _suggested(env, owner, "linear", field="kitty_multiplier") == [
        ("单张×2，对子×3，拖拉机×5 (linear)", "linear")
    ]
    assert await _suggested(env, owner, field="language") == [
        ("跟随服务器 (auto)（现在）", "auto"),
        ("英文 (en-US)", "en-US"),
        ("中文 (zh-CN)", "zh-CN"),
    ]


def test_every_value_suggested_is_one_the_command_takes() -> None:
    from bot.store import GuildSettings
    from cogs.settings import RULE_FIELDS, TIMER_FIELDS, WORD_FIELDS, _changed, _codes, _values

    start = GuildSettings(RuleSet(), {})
    for field in (*RULE_FIELDS, *TIMER_FIELDS, *WORD_FIELDS):
        codes = _codes(field) or (_values(start, 25)[field],)  # a number field: its number
        for code in codes:
            changed = _changed(start, field, code, most_tables=25)
            assert _values(changed, 25)[field] == code, (field, code)


async def test_a_failing_store_still_suggests_the_values(
    shengji: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Without the server's settings the choices come without the one in force (a
    number field has none to offer), and nothing is logged as an error."""
    env = shengji

    async def broken(*args: Any) -> Any:
        raise RuntimeError("database is locked")

    monkeypatch.setattr(env.bot.service, "guild_settings", broken)
    caplog.set_level(logging.INFO)
    owner = admin(env)
    assert await _suggested(env, owner, field="overcall") == [
        ("during the deal (deal)", "deal"),
        ("after the kitty is buried (after_bury)", "after_bury"),
    ]
    assert await _suggested(env, owner, field="play_seconds") == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("not read in time" in r.getMessage() for r in caplog.records)
