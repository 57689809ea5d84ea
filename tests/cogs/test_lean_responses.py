"""A deferred command's acknowledgement and follow-up as plain requests (``cogs.respond``).

The same requests as discord.py's (bodies and the follow-up's query), the player
sees the same; a refusal raises discord.py's exception; a 429 is retried by
discord.py's path; and this discord.py still keeps what the plain requests rely on.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from cogs import respond
from fakediscord.http import RequestRecord

from .helpers import Env

CALLBACK = "/interactions/{interaction_id}/{token}/callback"
FOLLOW_UP = "/webhooks/{application_id}/{token}"


def test_this_discord_py_keeps_what_the_plain_requests_rely_on() -> None:
    """Should this fail (a new discord.py), every acknowledgement and follow-up goes
    through discord.py again: check ``cogs.respond``'s private names and update it."""
    assert respond.LEAN


async def _answered(env: Env) -> tuple[list[RequestRecord], str, int]:
    """``/shengji play`` with no table here: acknowledged, then answered by a follow-up.
    Its requests (callbacks and follow-ups), what the player read, and its flags."""
    since = len(env.fake.requests)
    table = env.world.tables
    handle = env.driver.send_slash("shengji play", env.world.alice, table, {"cards": "AH"})
    message = await handle.wait_message()
    routes = (CALLBACK, FOLLOW_UP)
    return (
        [r for r in list(env.fake.requests)[since:] if r.route in routes],
        message.content,
        (message.flags),
    )


def _shape(requests: list[RequestRecord]) -> list[tuple[str, str | None, Any, str | None]]:
    return [(r.method, r.route, r.json, r.query.get("wait")) for r in requests]


async def test_the_same_requests_as_discord_py(
    shengji: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = shengji
    lean, lean_said, lean_flags = await _answered(env)
    monkeypatch.setattr(respond, "LEAN", False)
    full, full_said, full_flags = await _answered(env)
    assert "table" in lean_said.lower()  # the refusal: no table here
    assert (lean_said, lean_flags) == (full_said, full_flags)
    assert _shape(lean) == _shape(full)
    assert [r.route for r in lean] == [CALLBACK, FOLLOW_UP]
    assert lean[0].json == {"type": 5, "data": {"flags": 64}}
    # asked for nothing back, the acknowledgement is answered 204 (discord.py asks)
    assert ("with_response" in lean[0].query, lean[0].status) == (False, 204)
    assert ("with_response" in full[0].query, full[0].status) == (True, 200)
    assert lean[1].status == full[1].status == 200


async def test_a_refused_follow_up_raises_discord_py_s_error(
    shengji: Env, caplog: pytest.LogCaptureFixture
) -> None:
    env = shengji
    env.fake.faults.fail("POST", FOLLOW_UP, 400, 50035, "Invalid Form Body")
    with caplog.at_level(logging.WARNING, logger="cogs"):
        handle = await env.slash(env.world.alice, "play", cards="AH")
        await env.until(lambda: "could not answer" in caplog.text)
    assert handle.interaction.response_type == 5  # acknowledged; the answer refused
    assert not handle.interaction.followups


async def test_an_acknowledgement_too_late_runs_nothing_and_logs_a_warning(
    shengji: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Past Discord's 3 s (a starved bot) the callback gets 404 Unknown interaction, as
    discord.py's own ``defer`` does: the command does not run, nothing is answered, and
    a warning is logged (it was an unretrieved task's traceback at error level)."""
    env = shengji
    loop = asyncio.get_running_loop()
    raised: list[BaseException] = []
    loop.set_exception_handler(lambda _, context: raised.append(context["exception"]))
    try:
        with caplog.at_level(logging.WARNING):
            for count, lean in enumerate((True, False), start=1):
                monkeypatch.setattr(respond, "LEAN", lean)
                env.fake.faults.late_ack()
                table = env.world.tables
                handle = env.driver.send_slash("shengji new", env.world.alice, table)
                await env.until(lambda n=count: caplog.text.count("too late") == n)
                assert handle.interaction.response_type is None
                assert not handle.interaction.followups
                assert handle.interaction.errors[0][1]["code"] == 10062
    finally:
        loop.set_exception_handler(None)
    assert not raised
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert env.world.tables.id not in env.bot.service.tables  # /shengji new did not run


@pytest.mark.parametrize("route", [CALLBACK, FOLLOW_UP])
async def test_a_rate_limited_request_is_retried_by_discord_py(shengji: Env, route: str) -> None:
    env = shengji
    env.fake.faults.rate_limit("POST", route, retry_after=0.05)
    requests, said, flags = await _answered(env)
    assert said and flags & 64
    assert [r.route for r in requests].count(route) == 2  # refused once, then again
    assert next(r.status for r in requests if r.route == route) == 429
