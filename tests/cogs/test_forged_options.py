"""Forged slash-command option values and junk component ids (issue 14, item 9).

Discord's client keeps option values inside their ranges and choices, but an
interaction can be forged: seats outside 0-3, integers past 2^53 (and past
SQLite's 64 bits), strings where numbers belong, values no choice offers, strings
longer than the limit, component ids that are no button of ours. Each gets a
short ephemeral "that didn't work" in the player's language, logs nothing at
error level and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import pytest

from bot.i18n import t
from fakediscord.driver import InteractionHandle
from fakediscord.state import User

from .helpers import Env

BIG = 2**53 + 1
HUGE = 2**64 + 7  # past SQLite's integers too

# (command, option name, option type (3 string, 4 integer), forged value)
FORGED: list[tuple[str, str, int, Any]] = [
    ("shengji join", "seat", 4, 7),
    ("shengji join", "seat", 4, -1),
    ("shengji join", "seat", 4, BIG),
    ("shengji join", "seat", 4, "two"),
    ("shengji addbot", "seat", 4, HUGE),
    ("shengji addbot", "level", 3, "godlike"),
    ("shengji kick", "seat", 4, -(2**70)),
    ("shengji new", "preset", 3, "no-such-preset"),
    ("shengji play", "cards", 3, ""),
    ("shengji play", "cards", 3, "AH " * 300),
    ("shengji rules", "topic", 3, "no-such-topic"),
    ("shengji history", "hand_id", 4, HUGE),
    ("shengji history", "hand_id", 4, 0),
    ("shengji settings", "field", 3, "no_such_field"),
]


def forged_slash(
    env: Env, name: str, user: User, options: list[dict[str, Any]]
) -> InteractionHandle:
    """A slash command carrying any option values (what a forger can send)."""
    driver = env.driver
    cmd, path, _ = driver._resolve_command(name, user, env.world.tables)
    return driver._start(2, user, env.world.tables, driver._command_data(cmd, path, options, {}))


def state(env: Env) -> tuple[Any, ...]:
    table = env.table()
    return (list(table.seats), table.started, table.closed, dict(table.meta))


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
async def test_forged_option_values_get_a_short_answer_and_change_nothing(
    shengji: Env, caplog: pytest.LogCaptureFixture, locale: str
) -> None:
    env = shengji
    alice, bob = env.users[0], env.users[1]
    await env.reply(alice, "new")
    await env.reply(bob, "join")
    await env.until(lambda: "thread_id" in env.table().meta)  # the table's place is settled
    before = state(env)
    alice.locale = bob.locale = locale
    caplog.set_level(logging.WARNING)
    expected = t(locale, "reply-bad-value")
    for name, option, otype, value in FORGED:
        for user in (alice, bob):
            handle = forged_slash(
                env, name, user, [{"name": option, "type": otype, "value": value}]
            )
            answer = await handle.wait_message()
            assert answer.ephemeral, (name, value)
            assert answer.content == expected, (name, option, value, answer.content)
    await asyncio.sleep(0.2)
    assert state(env) == before
    assert len(await env.store.live_tables()) == 1
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


async def test_junk_component_ids_get_a_short_answer(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    env = shengji
    await env.reply(env.users[0], "new")
    await env.until(lambda: "thread_id" in env.table().meta)
    before = state(env)
    caplog.set_level(logging.WARNING)
    rng = random.Random(9)
    junk = ["", "x", "sj", "sj:", "sj:l", "sj:x:1:2", "sj:l:1:dance", f"sj:l:{BIG}x:join", "🂡" * 40]
    junk += [
        "".join(rng.choice("sj:lbtdp0123456789x") for _ in range(rng.randint(1, 60)))
        for _ in range(20)
    ]
    for custom_id in junk:
        data = {"custom_id": custom_id, "component_type": rng.choice([2, 3])}
        handle = env.driver._start(3, env.users[1], env.world.tables, data)
        answer = await handle.wait_message()
        assert answer.ephemeral and answer.content == t("en-US", "reply-bad-value"), custom_id
    assert state(env) == before
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
