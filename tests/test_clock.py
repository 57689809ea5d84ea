"""The clocks' waits end as asked: at the event, at the time, or cancelled, and a
cancellation is never swallowed (a closed table's driver must stop)."""

from __future__ import annotations

import asyncio

import pytest

from bot.clock import ManualClock, SystemClock


async def _stopped_as_it_ends(waiting: asyncio.Task[bool], turns: int) -> None:
    """Stop ``waiting`` ``turns`` turns of the loop after its end came: a stop asked of a
    wait still running is kept (one that had returned has nothing left to stop)."""
    for _ in range(turns):
        await asyncio.sleep(0)
    if waiting.done():
        return
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting


@pytest.mark.parametrize("turns", range(8))
async def test_a_manual_wait_cancelled_as_its_time_comes_ends_cancelled(turns: int) -> None:
    clock = ManualClock()
    waiting = asyncio.create_task(clock.wait(asyncio.Event(), clock.now() + 5))
    await asyncio.sleep(0)
    await clock.advance(5)  # the time comes
    await _stopped_as_it_ends(waiting, turns)


@pytest.mark.parametrize("turns", range(8))
async def test_a_real_wait_cancelled_as_its_event_fires_ends_cancelled(turns: int) -> None:
    clock, event = SystemClock(), asyncio.Event()
    waiting = asyncio.create_task(clock.wait(event, clock.now() + 60))
    await asyncio.sleep(0)
    event.set()  # the event fires
    await _stopped_as_it_ends(waiting, turns)


async def test_waits_end_at_the_event_or_the_time() -> None:
    clock, event = ManualClock(), asyncio.Event()
    late = asyncio.create_task(clock.wait(event, clock.now() + 5))
    await asyncio.sleep(0)
    await clock.advance(5)
    assert await late is False
    soon = asyncio.create_task(clock.wait(event, clock.now() + 5))
    await asyncio.sleep(0)
    event.set()
    assert await soon is True
    assert await SystemClock().wait(asyncio.Event(), SystemClock().now() - 1) is False
