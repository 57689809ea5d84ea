"""A virtual clock for the fake's deadlines (and for a bot's own timers, if it wants).

Discord's interaction deadlines (3 s to acknowledge, 15 min token life) must be
testable without waiting and without flakiness on a slow CI machine. So the
fake never reads the wall clock for them: it reads :class:`VirtualClock`, which
only moves when a test calls :meth:`VirtualClock.advance` (frozen mode, the
default) or, for benchmarks, follows real time plus any manual advance.

:meth:`VirtualClock.sleep` lets code under test (a turn timer in a cog, say)
sleep on the same clock, so ``await clock.advance(60)`` fires a 60-second timer
at once and in a deterministic order.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import time


class VirtualClock:
    """Seconds since the Unix epoch, moved by :meth:`advance` (and by real time if asked)."""

    def __init__(self, start: float = 1_767_225_600.0, *, realtime: bool = False) -> None:
        # Default start: 2026-01-01T00:00:00Z, so timestamps and snowflakes are stable.
        self._start = start
        self._offset = 0.0
        self._realtime = realtime
        self._t0 = time.monotonic()
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    @property
    def realtime(self) -> bool:
        return self._realtime

    def time(self) -> float:
        """Current virtual time (epoch seconds)."""
        now = self._start + self._offset
        if self._realtime:
            now += time.monotonic() - self._t0
        return now

    def advance_nowait(self, seconds: float) -> None:
        """Move time forward and wake every sleeper whose deadline has passed."""
        if seconds < 0:
            raise ValueError("the clock does not go backwards")
        self._offset += seconds
        now = self.time()
        while self._sleepers and self._sleepers[0][0] <= now:
            _, _, fut = heapq.heappop(self._sleepers)
            if not fut.done():
                fut.set_result(None)

    async def advance(self, seconds: float) -> None:
        """Advance, then yield to the loop a few times so woken sleepers get to run."""
        self.advance_nowait(seconds)
        for _ in range(5):
            await asyncio.sleep(0)

    async def sleep(self, seconds: float) -> None:
        """Sleep on virtual time (real time too, in realtime mode)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        deadline = self.time() + seconds
        if self._realtime:
            # Either a manual advance or real time passing ends the sleep.
            fut = asyncio.get_running_loop().create_future()
            heapq.heappush(self._sleepers, (deadline, next(self._seq), fut))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(fut), timeout=seconds)
            return
        fut = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (deadline, next(self._seq), fut))
        await fut

    def pending_sleepers(self) -> int:
        """How many sleeps are waiting (tests use it to know a timer is armed)."""
        return sum(1 for _, _, fut in self._sleepers if not fut.done())
