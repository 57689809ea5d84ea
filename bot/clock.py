"""Time for the table service: wall-clock deadlines that survive restarts.

Deadlines are stored as wall-clock seconds (``time.time()``), so a table restored
after a restart resumes its timers where they were. Tests swap in ``ManualClock``,
whose time moves only when the test says so, to check timeouts and warnings
without waiting for them.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...

    async def wait(self, event: asyncio.Event, until: float) -> bool:
        """Wait for ``event`` or the wall-clock time ``until``; True if the event fired."""
        ...


class SystemClock:
    """Real time."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    async def wait(self, event: asyncio.Event, until: float) -> bool:
        timeout = until - self.now()
        if event.is_set():
            return True
        if timeout <= 0:
            return False
        try:
            # not ``wait_for``: before Python 3.12 it could swallow a cancellation that
            # came as the event fired, and a table's stopped driver would go on
            async with asyncio.timeout(timeout):
                await event.wait()
        except TimeoutError:
            return False
        return True


class ManualClock:
    """A clock for tests: ``advance`` moves time and wakes whoever it concerns."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start
        self._changed = asyncio.Condition()

    def now(self) -> float:
        return self._now

    async def advance(self, seconds: float) -> None:
        """Move time on and let every sleeper that is due run until it blocks again."""
        self._now += seconds
        async with self._changed:
            self._changed.notify_all()
        for _ in range(20):  # let woken tasks reach their next await
            await asyncio.sleep(0)

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        await self._sleep_until(self._now + seconds)

    async def _sleep_until(self, until: float) -> None:
        # an absolute time: a task that starts late must not push its wake-up later
        async with self._changed:
            await self._changed.wait_for(lambda: self._now >= until)

    async def wait(self, event: asyncio.Event, until: float) -> bool:
        if event.is_set():
            return True
        if self._now >= until:
            return False
        waiter = asyncio.ensure_future(event.wait())
        sleeper = asyncio.ensure_future(self._sleep_until(until))
        try:
            await asyncio.wait({waiter, sleeper}, return_when=asyncio.FIRST_COMPLETED)
        finally:  # the loser goes; a cancellation of the caller's own is never swallowed
            for task in (waiter, sleeper):
                task.cancel()
            await asyncio.wait({waiter, sleeper})
        return event.is_set()
