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
from .test_tournament_flow import message_with, organiser, saved_message

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


async def each_refused(
    env: Env, forged: list[tuple[str, str, int, Any]], users: tuple[User, ...], expected: str
) -> None:
    """Send every forged option value as each user; each gets ``expected``, ephemerally."""
    for name, option, otype, value in forged:
        for user in users:
            handle = forged_slash(
                env, name, user, [{"name": option, "type": otype, "value": value}]
            )
            answer = await handle.wait_message()
            assert answer.ephemeral, (name, value)
            assert answer.content == expected, (name, option, value, answer.content)


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
    await each_refused(env, FORGED, (alice, bob), expected)
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
    junk = ["", "x", "sj", "sj:", "sj:l", "sj:x:1:2", "sj:l:1:dance", f"sj:l:{BIG}x:join"]
    junk += ["sj:l:²:join", "🂡" * 40]  # a digit to str.isdigit, not to int()
    tid = env.table().id  # bound to this table and channel: these reach the store's lookups
    junk += [f"sj:r:{tid}:9999999999999999999", f"sj:r:{tid}:{BIG}", f"sj:b:{tid}:1:{BIG}:play"]
    junk += [
        "".join(rng.choice("sj:lbtdpr0123456789x") for _ in range(rng.randint(1, 60)))
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


# the same for the nested ``/shengji tournament`` group (discord.py runs only a
# subcommand's nearest group's check, so the group has to be checked itself)
FORGED_CUP: list[tuple[str, str, int, Any]] = [
    ("shengji tournament create", "name", 3, "x" * 61),
    ("shengji tournament create", "name", 3, 12),
    ("shengji tournament create", "preset", 3, "no-such-preset"),
    ("shengji tournament create", "round_minutes", 4, 0),
    ("shengji tournament create", "advance", 4, BIG),
    ("shengji tournament create", "podium", 4, HUGE),
    ("shengji tournament create", "grace_minutes", 4, -(2**70)),
    ("shengji tournament register", "team", 3, "t" * 41),
    ("shengji tournament register", "team", 3, ""),
    ("shengji tournament addbots", "count", 4, 65),
    ("shengji tournament addbots", "count", 4, "three"),
    ("shengji tournament extend", "minutes", 4, 601),
    ("shengji tournament extend", "minutes", 4, HUGE),
    ("shengji tournament extend", "minutes", 4, 2.5),
    ("shengji tournament pause", "on", 5, "maybe"),
    ("shengji tournament register", "partner", 6, "not-a-user"),
    ("shengji tournament register", "partner", 6, str(HUGE)),
]


async def cup_state(env: Env) -> tuple[Any, ...]:
    cups = env.bot.tournaments.cups
    stored = await env.store.live_tournaments()
    return tuple(c.to_state() for c in cups.values()), tuple(s.state for s in stored)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
async def test_forged_tournament_options_and_ids_get_a_short_answer_and_change_nothing(
    shengji: Env, caplog: pytest.LogCaptureFixture, locale: str
) -> None:
    env = shengji
    alice, bob = env.users[0], env.users[1]
    organiser(env, alice)
    await env.until(lambda: True)
    cup_cmd = env.driver.send_slash(
        "shengji tournament create", alice, env.world.tables, {"name": "Cup"}
    )
    assert "registration is open" in (await cup_cmd.wait_message()).content
    cup = env.bot.tournaments.cup_in(env.world.tables.id)
    reg = await env.until(lambda: message_with(env, env.world.tables, ":reg"))
    await saved_message(env, cup.id, "registration", reg.id)
    before = await cup_state(env)
    alice.locale = bob.locale = locale
    caplog.set_level(logging.WARNING)
    expected = t(locale, "reply-bad-value")
    await each_refused(env, FORGED_CUP, (alice, bob), expected)
    other = env.fake.create_text_channel(env.world.guild, "elsewhere")
    junk: list[tuple[Any, dict[str, Any]]] = [
        (env.world.tables, {"custom_id": "sj:c:", "component_type": 2}),
        (env.world.tables, {"custom_id": "sj:c:x:reg", "component_type": 2}),
        (env.world.tables, {"custom_id": "sj:c:²:reg", "component_type": 2}),
        (env.world.tables, {"custom_id": f"sj:c:{cup.id}:dance", "component_type": 2}),
        (env.world.tables, {"custom_id": f"sj:c:{cup.id}:reg:x", "component_type": 2}),
        (env.world.tables, {"custom_id": f"sj:c:{'9' * 40}:ok", "component_type": 2}),
        (other, {"custom_id": f"sj:c:{cup.id}:reg", "component_type": 2}),  # another channel
        (other, {"custom_id": f"sj:c:{cup.id}:wd", "component_type": 2}),
    ]
    for values in ([], ["x"], [str(bob.id), str(alice.id)], [str(HUGE)], "12", [None]):
        junk.append(
            (
                env.world.tables,
                {"custom_id": f"sj:c:{cup.id}:partner", "component_type": 5, "values": values},
            )
        )
    for channel, data in junk:
        handle = env.driver._start(3, bob, channel, data, reg if channel is not other else None)
        answer = await handle.wait_message()
        assert answer.ephemeral and answer.content == expected, data
    await asyncio.sleep(0.2)
    assert await cup_state(env) == before
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


async def test_a_forged_user_id_in_an_autocompletion_is_ignored_without_an_error(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """discord.py reads a user option's id while building an autocompletion's namespace
    (before any check of a command): a forged one is dropped at the command tree."""
    env = shengji
    await env.reply(env.users[0], "new")
    caplog.set_level(logging.WARNING)
    cmd, path, _ = env.driver._resolve_command("shengji play", env.users[0], env.world.tables)
    typed = {"name": "cards", "type": 3, "value": "A", "focused": True}
    for forged in ("junk", str(HUGE), "12345"):
        user_option = {"name": "who", "type": 6, "value": forged}
        data = env.driver._command_data(cmd, path, [typed, user_option], {})
        env.driver._start(4, env.users[0], env.world.tables, data)
    answered = env.driver.autocomplete("shengji play", env.users[0], env.world.tables, "cards")
    await answered  # an honest autocompletion after them is still answered
    await asyncio.sleep(0.2)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


async def test_forged_picker_values_get_a_short_answer_and_stage_nothing(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    from .test_bad_input import _started

    env = shengji
    await _started(env)
    table, match = env.table(), env.match()
    seat, seq = match.to_act, match.seq
    user = env.seat_user(seat)
    panel = await env.fresh_panel(user, seat)  # their DM panel, its action's menus
    menus = [c for row in panel.components for c in row["components"] if c["type"] == 3]
    assert len(menus) >= 2, "a dealt hand spans several menus"
    first, second = ([o["value"] for o in m["options"]] for m in menus[:2])
    picker, v = menus[0]["custom_id"], first[0]
    forged: dict[str, tuple[str, list[Any]]] = {
        "repeated": (picker, [v, v]),
        "repeated and unknown": (picker, [v, v, "ZZ.9"]),
        "unknown": (picker, ["ZZ.9"]),
        "another menu's": (picker, [second[0]]),
        "more than it holds": (picker, [*first, v]),
        "not a string": (picker, [5]),
        "no such menu": (picker.rsplit(":", 1)[0] + ":7", [v]),
    }
    await env.fake.idle()
    edits = panel.edits
    caplog.set_level(logging.WARNING)
    dm = env.fake.channels[panel.channel_id]
    for case, (custom_id, values) in forged.items():
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        handle = env.driver._start(3, user, dm, data, panel)
        answer = await handle.wait_message()
        assert answer.ephemeral and answer.content == t("en-US", "reply-bad-value"), case
        assert env.bot.presenter.staged_values(table, seat, seq) == [], case
    assert match.seq == seq and panel.edits == edits, "nothing staged, the panel as it was"
    await env.driver.select(panel, picker, [v], user)  # what the client sends is taken
    await env.until(lambda: env.bot.presenter.staged_values(table, seat, seq) == [v])
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


async def test_a_late_redraw_of_an_older_panel_keeps_the_current_selection(
    shengji: Env,
) -> None:
    """The bot still redrawing a panel of an earlier action (catching up with moves made
    before) must not empty what the player has picked for the current one."""
    from .test_bad_input import _started

    env = shengji
    await _started(env)
    table, match = env.table(), env.match()
    seat, seq = match.to_act, match.seq
    user = env.seat_user(seat)
    panel = await env.fresh_panel(user, seat)
    menu = next(c for row in panel.components for c in row["components"] if c["type"] == 3)
    value = menu["options"][0]["value"]
    await env.driver.select(panel, menu["custom_id"], [value], user)
    presenter = env.bot.presenter
    await env.until(lambda: presenter.staged_values(table, seat, seq) == [value])
    assert presenter.staged_values(table, seat, seq - 1) == []  # the older panel's own
    assert presenter.staged_values(table, seat, seq) == [value]  # still there
