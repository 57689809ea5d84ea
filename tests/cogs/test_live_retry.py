"""A live message whose connection dropped is sent again, unless the bot stopped meanwhile;
one whose refusal cannot be handled (the client closing) ends quietly."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest

import cogs.live
from cogs.live import LiveMessage

from .helpers import Env
from .test_bad_input import _started


class _Channel:
    """A place whose first post loses its connection (aiohttp's ServerDisconnectedError)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, **kwargs: Any) -> Any:
        self.sent.append(kwargs)
        if len(self.sent) == 1:
            raise aiohttp.ServerDisconnectedError()
        return SimpleNamespace(id=42, content=kwargs.get("content", ""))


async def _shown(stop_in_the_wait: bool, caplog: pytest.LogCaptureFixture) -> tuple[int, Any]:
    channel = _Channel()

    async def target() -> Any:
        return channel

    live = LiveMessage(target)
    live.nonce = "sj1h0table"  # a post Discord keeps once: safe to send again
    built: list[int] = []

    async def build() -> dict[str, Any]:
        built.append(1)
        return {"content": f"state {len(built)}"}

    live.show(build)
    while not channel.sent:
        await asyncio.sleep(0.01)
    if stop_in_the_wait:
        live.stopped = True  # the bot shut down (``Outlet.close``)
    await asyncio.sleep(0.3)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    return len(built), live.message_id


async def test_a_dropped_post_is_sent_again(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(cogs.live, "NETWORK_WAITS", (0.05, 0.05, 0.05))
    assert await _shown(False, caplog) == (2, 42)


async def test_a_bot_that_stopped_sends_nothing_again(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """At shutdown a waiting retry ends: its state would be built from a closed store."""
    monkeypatch.setattr(cogs.live, "NETWORK_WAITS", (0.05, 0.05, 0.05))
    assert await _shown(True, caplog) == (1, None)


async def test_closing_the_bot_stops_every_live_message(shengji: Env) -> None:
    env = shengji
    await _started(env)
    ui = env.bot.presenter.ui(env.table())
    assert ui.live_messages() and not any(m.stopped for m in ui.live_messages())
    await env.bot.close()
    assert all(m.stopped for m in ui.live_messages())


class _Closing:
    """A place that refuses the message (the DMs closed) while the client is closing."""

    async def send(self, **kwargs: Any) -> Any:
        response = SimpleNamespace(status=403, reason="Forbidden")
        raise discord.Forbidden(response, {"code": 50007, "message": "Cannot send messages"})


async def test_a_refusal_whose_handling_meets_the_client_closed_ends_quietly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Monkey seed 602, at its last shutdown: a DM panel was refused, its handler posted in
    the thread about it, and that post met the HTTP session closed; raised from the
    handler, the error ended the message's task ("Task exception was never retrieved")."""
    channel = _Closing()

    async def target() -> Any:
        return channel

    async def handled(err: Exception) -> bool:
        raise RuntimeError("Session is closed")

    async def build() -> dict[str, Any]:
        return {"content": "your turn"}

    live = LiveMessage(target, on_error=handled)
    caplog.set_level(logging.INFO)
    live.show(build)
    await live.settle()
    task = live._task
    assert task is not None and task.done() and task.exception() is None
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("dropped at shutdown" in r.getMessage() for r in caplog.records)
