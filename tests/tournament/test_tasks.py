"""A tournament's background task that raises is logged at once, naming its tournament."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import pytest

from bot.tournament.base import ServiceBase
from bot.tournament.cup import Cup


async def test_a_failed_task_is_logged_with_its_tournament(
    caplog: pytest.LogCaptureFixture,
) -> None:
    cup = Cup(7, 1, 2, 3, "Night Cup", "seed")

    async def fails() -> None:
        raise RuntimeError("boom")

    async def waits() -> None:
        await asyncio.sleep(10)

    ServiceBase._spawn(cup, fails())
    ServiceBase._spawn(cup, waits())
    failed, waiting = cup.tasks
    with contextlib.suppress(RuntimeError):
        await failed
    waiting.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await waiting
    await asyncio.sleep(0)  # the done callbacks run
    logged = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert [r.getMessage() for r in logged] == ["a task of tournament 7 failed"]
    assert logged[0].exc_info is not None and "boom" in str(logged[0].exc_info[1])
