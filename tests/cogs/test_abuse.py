"""Adversaries through the fake Discord: forged ids from elsewhere, pinging names, floods.

Component ids are bound to their table's guild and channel; every message goes out
with no mentions allowed unless it pings on purpose; slash commands past the
per-user limit get a polite cooldown reply; none of it changes a table.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import pytest

from bot.service import Limits

from .helpers import Env


def forged_click(env: Env, user: Any, channel: Any, custom_id: str) -> Any:
    """A component interaction with any id, from any channel (what a forger can send)."""
    return env.driver._start(3, user, channel, {"custom_id": custom_id, "component_type": 2})


async def test_forged_ids_from_another_guild_or_channel_do_nothing(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    env = shengji
    await env.reply(env.users[0], "new")
    table = env.table()
    other_guild = env.fake.create_guild("Elsewhere")
    lair = env.fake.create_text_channel(other_guild, "lair")
    mallory = env.fake.create_user("mallory", guild=other_guild)
    bob = env.users[1]
    caplog.set_level(logging.WARNING)
    for user, channel in ((mallory, lair), (bob, env.world.general)):
        for what in ("join", "bot", "start"):
            handle = forged_click(env, user, channel, f"sj:l:{table.id}:{what}")
            await handle
            answer = await handle.wait_message()
            assert answer.ephemeral and "isn't your table's panel" in answer.content
    assert [s is not None for s in table.seats] == [True, False, False, False]
    assert not table.started
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def _dm_click(env: Env, user: Any, custom_id: str) -> Any:
    """A forged component from ``user``'s DM with the bot: a button, or a menu (values)."""
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
    if custom_id.split(":")[1] in ("p", "g"):
        data = {"custom_id": custom_id, "component_type": 3, "values": ["overview"]}
    return env.driver._start(3, user, env.fake.dm_channel(user), data)


WRONG_PLACE = "That isn't your table's panel."
NOT_YOURS = "That panel belongs to another player."  # a seated player, another seat's panel


@pytest.mark.parametrize(
    "what", ["l:{t}:bot", "l:{t}:start", "l:{t}:leave", "t:{t}:hand", "t:{t}:rules", "g:{t}"]
)
async def test_a_lobby_table_or_topic_id_from_a_seated_players_dm_does_nothing(
    shengji: Env, what: str
) -> None:
    env = shengji
    alice = env.users[0]
    await env.reply(alice, "new")
    await env.reply(env.users[1], "join")
    table = env.table()
    seats = list(table.seats)
    handle = _dm_click(env, alice, "sj:" + what.format(t=table.id))  # Alice sits at seat 0
    await handle
    answer = await handle.wait_message()
    assert answer.ephemeral and answer.content == WRONG_PLACE
    assert list(table.seats) == seats and not table.started and not table.closed


async def test_in_a_dm_only_the_players_own_hand_panel_counts(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    from .test_bad_input import _started

    env = shengji
    await _started(env, humans=4)
    table, match = env.table(), env.match()
    seat = match.to_act
    user, other = env.seat_user(seat), (seat + 1) % 4
    seq, seats = match.seq, list(table.seats)
    caplog.set_level(logging.WARNING)
    for forged in (  # another seat's panel, in the acting player's own DM
        f"sj:b:{table.id}:{other}:{seq}:play",
        f"sj:b:{table.id}:{other}:{seq}:suggest",
        f"sj:p:{table.id}:{other}:{seq}:0",
        f"sj:d:{table.id}:{other}:pass",
    ):
        handle = _dm_click(env, user, forged)
        await handle
        answer = await handle.wait_message()
        assert answer.ephemeral and answer.content == NOT_YOURS, forged
    assert match.seq == seq and list(table.seats) == seats
    await env.play_with_panel(seat, env.suggestion(seat))  # their own panel still plays
    assert match.seq > seq
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_names_never_ping(shengji: Env) -> None:
    env = shengji
    pinger = env.fake.create_user("@everyone", guild=env.world.guild)
    roler = env.fake.create_user("<@&123456789>", guild=env.world.guild)
    await env.reply(env.users[0], "new")
    await env.reply(pinger, "join")
    await env.reply(roler, "join")
    await env.reply(env.users[0], "addbot")
    await env.reply(env.users[0], "start")
    await env.until(lambda: env.table().match is not None and env.match().dealt > 0)
    sent = [
        r.json.get("data", r.json)
        for r in env.fake.requests
        if r.method in ("POST", "PATCH") and isinstance(r.json, dict)
    ]
    with_text = [j for j in sent if j.get("content")]
    assert with_text
    for payload in with_text:  # a name in any of them could not ping anyone
        allowed = payload.get("allowed_mentions")
        assert allowed is not None and allowed.get("parse") == [], payload
        assert not allowed.get("roles") and not allowed.get("everyone"), payload


async def test_too_many_commands_get_a_cooldown_reply_and_change_nothing(shengji: Env) -> None:
    env = shengji
    env.bot.service.limits = Limits(commands=3)
    alice, bob = env.users[0], env.users[1]
    await env.reply(alice, "new")
    await env.reply(alice, "rules")
    await env.reply(alice, "leaderboard")
    assert "Slow down" in await env.reply(alice, "addbot")
    assert [s is not None for s in env.table().seats] == [True, False, False, False]
    assert "Slow down" not in await env.reply(bob, "join")  # the limit is per user


async def test_a_slow_store_write_is_acknowledged_in_time(shengji: Env, monkeypatch) -> None:
    env = shengji
    real = type(env.store).create_table

    async def slow(self: Any, *args: Any, **kwargs: Any) -> Any:
        # past Discord's 3 s to acknowledge, on the fake's clock: an acknowledgement
        # sent after the write would be refused as Discord refuses it
        await env.fake.clock.advance(3.3)
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(type(env.store), "create_table", slow)
    handle = env.driver.send_slash("shengji new", env.users[0], env.world.tables)
    await handle  # acknowledged (deferred) before the write, not "This interaction failed"
    assert handle.ack_latency is not None and handle.ack_latency < 1.0
    answer = await handle.wait_message()
    assert "Table opened" in answer.content and answer.ephemeral
    assert env.table().seats[0] is not None


async def test_fuzzed_component_ids_and_values_change_nothing(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    from .test_bad_input import _started

    env = shengji
    await _started(env, humans=4)
    match = env.match()
    table = env.table()
    seq, seats = match.seq, list(table.seats)
    acting = match.expecting()[1]
    outsider = env.fake.create_user("mallory", guild=env.world.guild)
    senders = [u for i, u in enumerate(env.users) if i != acting] + [outsider]
    tid, big = table.id, str(2**53 + 1)
    ids = [
        "",
        "sj",
        "sj:",
        "sj:x:1:2",
        f"sj:l:{tid}:explode",
        f"sj:l:{big}:join",
        f"sj:t:{tid}:{'x' * 90}",
        f"sj:d:{tid}:0:AHAHAHAH",
        f"sj:d:{tid}:9:AH",
        f"sj:d:{tid}:-1:AH",
        f"sj:b:{tid}:0:{big}:play",
        f"sj:b:{tid}:1:{seq}:confirm",
        f"sj:b:{tid}:2:{seq}:suggest",
        f"sj:p:{tid}:3:{seq}:{big}",
        f"sj:p:{tid}:0:{seq}:0",
        f"sj:l:{tid}:start",
        f"sj:l:{tid}:bot",
        "sj:l:99999999999999999999:join",
    ]
    values = [["AH.0", "AH.0"], ["ZZ.1"], [big], ["", "x" * 200], ["3S.0"] * 30]
    caplog.set_level(logging.WARNING)
    place = env.place()
    rng = random.Random(14)
    for n in range(120):
        user = rng.choice(senders)
        custom_id = rng.choice(ids)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if custom_id.startswith("sj:p") or rng.random() < 0.2:
            data = {"custom_id": custom_id, "component_type": 3, "values": rng.choice(values)}
        env.driver._start(3, user, place, data)
        if n % 8 == 7:
            # eight at a time, answered or ignored (ids not ours get no answer at all):
            # either way the bot is quiet again, without waiting out a timeout for each
            await env.fake.idle(quiet=0.02)
    await env.fake.idle()
    assert match.seq == seq and list(table.seats) == seats and not table.closed
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


async def test_a_command_cut_off_by_shutdown_is_committed_and_logs_no_traceback(
    shengji: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """SIGTERM between a command's write and its answer: the table stands, one log line."""
    env = shengji
    real = type(env.store).create_table
    closing: list[asyncio.Task[None]] = []

    async def then_shutdown(self: Any, *args: Any, **kwargs: Any) -> Any:
        row = await real(self, *args, **kwargs)
        closing.append(asyncio.create_task(env.bot.close()))
        await env.until(env.bot.is_closed)
        return row

    monkeypatch.setattr(type(env.store), "create_table", then_shutdown)
    # the opening waits for the close and the close for the opening (a table being
    # opened is stopped once open), so the close's bound on that wait ends it: a second
    service = type(env.bot.service)
    shutdown = service.shutdown
    monkeypatch.setattr(service, "shutdown", lambda self, flush_seconds=1.0: shutdown(self, 1.0))
    caplog.set_level(logging.WARNING)
    await env.slash(env.users[0], "new")
    await env.until(lambda: closing and closing[0].done())
    assert env.world.tables.id in env.bot.service.tables
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("shutting down" in r.getMessage() for r in caplog.records)


async def test_a_click_cut_off_by_shutdown_logs_no_traceback(
    shengji: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """SIGTERM while a click's panel is redrawn: one log line, as for a command (the
    redraw's edit meets the closed HTTP session)."""
    from .test_bad_input import _started

    env = shengji
    await _started(env, humans=4)
    match, table = env.match(), env.table()
    seat = match.to_act
    user = env.seat_user(seat)
    panel = await env.fresh_panel(user, seat)
    presenter = env.bot.presenter
    real = presenter.panel_for
    closing: list[asyncio.Task[None]] = []

    async def then_shutdown(*args: Any, **kwargs: Any) -> Any:
        drawn = await real(*args, **kwargs)
        closing.append(asyncio.create_task(env.bot.close()))
        await env.until(env.bot.is_closed)
        return drawn

    monkeypatch.setattr(presenter, "panel_for", then_shutdown)
    caplog.set_level(logging.WARNING)
    await env.driver.click(panel, f"sj:b:{table.id}:{seat}:{match.seq}:clear", user)
    await env.until(lambda: closing and closing[0].done())
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("shutting down" in r.getMessage() for r in caplog.records)


async def test_suggestions_cut_off_by_shutdown_log_no_traceback(
    shengji: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """SIGTERM while a play's suggestions are made: their answer meets the closed HTTP
    session; a line, not discord.py's "Ignoring exception in autocomplete" at ERROR (the
    slow tier's monkey met it, seed 20)."""
    from cogs import play

    from .test_bad_input import _started

    env = shengji
    await _started(env, humans=4)
    match = env.match()
    user = env.seat_user(match.to_act)
    real = play.play_options
    closing: list[asyncio.Task[None]] = []

    def then_shutdown(*args: Any, **kwargs: Any) -> Any:
        closing.append(asyncio.ensure_future(env.bot.close()))
        return real(*args, **kwargs)

    async def closed_before_the_answer(*args: Any, **kwargs: Any) -> Any:
        await env.until(env.bot.is_closed)

    monkeypatch.setattr(play, "play_options", then_shutdown)
    monkeypatch.setattr(play, "reply_locale", closed_before_the_answer)
    caplog.set_level(logging.WARNING)
    env.driver.autocomplete("shengji play", user, env.world.tables, "cards", {"cards": ""})
    await env.until(lambda: closing and closing[0].done())
    await env.until(lambda: any("shutting down" in r.getMessage() for r in caplog.records))
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
