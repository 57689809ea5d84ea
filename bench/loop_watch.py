"""What holds the bot's event loop: long callbacks and the collector's pauses (``--stalls``).

Issue 14 item 10's acknowledgement tail: an interaction waits while the event loop's
thread runs something else, so its p99 is set by the longest stretches the loop does
not come back to its selector. With ``LOAD_STALLS=FILE`` the load benchmark's bot
(``bench.load_bot``) times every callback the loop runs (``asyncio.Handle._run``) and
every collection of the garbage collector (``gc.callbacks``) and, at shutdown, writes
to FILE those over ``SLOW_MS`` as JSON lines: wall-clock time, milliseconds, the
thread's CPU milliseconds in them (on a busy machine most of a long callback's wall
time is the process waiting for a core, or the render thread holding the GIL: only
the CPU says what the loop itself did), the collector's share, and what ran (the
task's coroutine and where it stopped, or the callback). ``bench.load_bench
--stalls`` reads them back for its window of play.

Timing every callback costs four clock reads each (a few % of the loop's CPU): a
run with ``--stalls`` is for finding stalls, not for the CPU figure.
"""

from __future__ import annotations

import asyncio
import gc
import json
import time
from pathlib import Path
from typing import Any

#: a callback or a collection that long (milliseconds) is written down
SLOW_MS = 20.0


class LoopWatch:
    def __init__(self, slow_ms: float = SLOW_MS) -> None:
        self.slow = slow_ms / 1000
        self.events: list[dict[str, Any]] = []
        self.gc_seconds = 0.0  # the collector's time so far (read around each callback)
        self._gc_start = 0.0
        self._gc_cpu = 0.0
        self._run = asyncio.events.Handle._run  # what ``remove`` puts back

    def install(self) -> None:
        """Time every callback and collection from now on, in this process."""
        gc.callbacks.append(self._on_gc)
        run = self._run = asyncio.events.Handle._run
        watch = self

        def timed_run(handle: asyncio.Handle) -> None:
            start = time.perf_counter()
            cpu = time.thread_time()
            in_gc = watch.gc_seconds
            run(handle)
            took = time.perf_counter() - start
            if took >= watch.slow:
                cpu = time.thread_time() - cpu
                watch.slow_callback(handle, took, cpu, watch.gc_seconds - in_gc)

        asyncio.events.Handle._run = timed_run  # type: ignore[method-assign]

    def remove(self) -> None:
        asyncio.events.Handle._run = self._run  # type: ignore[method-assign]
        gc.callbacks.remove(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._gc_start = now
            self._gc_cpu = time.thread_time()
            return
        took = now - self._gc_start
        self.gc_seconds += took
        if took >= self.slow:
            self.events.append(
                {
                    "at": time.time(),
                    "kind": "gc",
                    "ms": 1000 * took,
                    "cpu_ms": 1000 * (time.thread_time() - self._gc_cpu),
                    "generation": info["generation"],
                    "collected": info["collected"],
                }
            )

    def slow_callback(self, handle: asyncio.Handle, took: float, cpu: float, gc: float) -> None:
        self.events.append(
            {"at": time.time(), "kind": "callback", "ms": 1000 * took, "cpu_ms": 1000 * cpu}
            | {"gc_ms": 1000 * gc, "what": describe(handle)}
        )

    def write(self, path: str) -> None:
        Path(path).write_text("".join(json.dumps(e) + "\n" for e in self.events))


def describe(handle: asyncio.Handle) -> str:
    """The task's coroutine and the chain of awaits it stopped in after this step (a task
    that finished in it: only its coroutine), or the callback's name."""
    callback = handle._callback  # type: ignore[attr-defined]
    task = getattr(callback, "__self__", None)
    if not isinstance(task, asyncio.Task):
        return getattr(callback, "__qualname__", repr(callback))
    names = []
    coro: Any = task.get_coro()
    while coro is not None and len(names) < 12:
        code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
        if code is None:
            names.append(type(coro).__qualname__)
            break
        names.append(code.co_qualname)
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return " > ".join(names)


def summary(events: list[dict[str, Any]], since: float, until: float) -> dict[str, Any]:
    """The stalls within ``[since, until]`` (wall-clock), as figures for the JSON line."""
    inside = [e for e in events if since <= e["at"] <= until]
    calls = [e for e in inside if e["kind"] == "callback"]
    pauses = [e for e in inside if e["kind"] == "gc"]
    by_what: dict[str, float] = {}
    for e in calls:
        by_what[e["what"]] = by_what.get(e["what"], 0.0) + e["cpu_ms"]
    slowest = sorted(by_what.items(), key=lambda item: -item[1])[:8]
    return {
        "loop_callbacks_over_20ms": len(calls),
        "loop_callbacks_over_100ms": sum(1 for e in calls if e["ms"] >= 100),
        "loop_callback_max_ms": max((e["ms"] for e in calls), default=0.0),
        "loop_callbacks_cpu_over_20ms": sum(1 for e in calls if e["cpu_ms"] >= 20),
        "loop_callback_max_cpu_ms": max((e["cpu_ms"] for e in calls), default=0.0),
        "gc_pauses_over_20ms": len(pauses),
        "gc_pause_max_ms": max((e["ms"] for e in pauses), default=0.0),
        "gc_pause_max_cpu_ms": max((e["cpu_ms"] for e in pauses), default=0.0),
        "gc_pauses_ms": sum(e["ms"] for e in pauses),
        # where the long callbacks' CPU went: milliseconds by what ran, the largest
        "loop_callbacks_ms_by_what": dict(slowest),
    }
