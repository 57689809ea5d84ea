"""The presenter's one render thread, with the player to act served first.

Drawing and encoding images is most of the presenter's CPU. It runs in one
thread, not a pool: renders hold the GIL most of the time, and each extra busy
thread takes a share of it from the event loop, which is what answers
interactions within Discord's three seconds.

Under load that thread has a queue, and a first-come queue starves the one
message a player is waiting for: with hundreds of tables, the panel of the
player whose turn it is waited behind every table image and deal redraw queued
before it ("your turn" 24 s late at 400 tables, issue 14). So jobs are taken
urgent first (the acting player's panel, a click on a panel), then in the order
they came.

Urgent first is not urgent only: at 400 tables the acting players' panels alone
kept the thread busy, and the tables' own messages (the table image, the deal)
were never drawn, so the thread's table message stopped changing. While other
work waits, at most ``URGENT_RUN`` urgent jobs are taken in a row before one
other job: the tables' messages keep at least a quarter of the thread, and a
player to act waits for at most one other render.

The worker is woken through a ``queue.SimpleQueue`` (one token a job, in C) and the
two queues are guarded by a plain lock: a ``threading.Condition`` (Python code,
a waiter lock made at every wait) cost the event loop about 2% of its time at 200
tables, one notify per render. Results go back the same way: one
``call_soon_threadsafe`` (a write to the loop's wake-up socket, and its read) for all
the results finished before the loop settles the first of them, not one a result
(``call_soon_threadsafe`` was 5% of the render thread at 400 tables).
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

log = logging.getLogger(__name__)
R = TypeVar("R")

URGENT_RUN = 3  # urgent jobs taken in a row while other work waits

Job = tuple[Callable[[], Any], asyncio.AbstractEventLoop, Any]
Done = tuple["asyncio.Future[Any]", Any, BaseException | None]  # a future, its result or error


class _Lane:
    """One thread's jobs. Each thread has its own, so that ``close``'s end mark ends the
    thread it was meant for: with one queue for all, a thread started by a job asked for
    after ``close`` could take the mark, and the closing thread waited for jobs for good
    (the bot's close waited its ten seconds for it)."""

    def __init__(self) -> None:
        self.urgent: deque[Job] = deque()
        self.normal: deque[Job | None] = deque()  # None: ``close``'s, the thread ends
        self.streak = 0  # urgent jobs taken in a row while others waited
        self.queued = threading.Lock()  # guards the two queues and the streak
        self.tokens: queue.SimpleQueue[None] = queue.SimpleQueue()  # one a job queued

    def put(self, job: Job, urgent: bool) -> None:
        with self.queued:
            (self.urgent if urgent else self.normal).append(job)
        self.tokens.put(None)

    def end(self) -> None:
        """The thread ends once the jobs queued before this are done."""
        with self.queued:
            self.normal.append(None)
        self.tokens.put(None)

    def next(self, urgent_run: int) -> Job | None:
        self.tokens.get()  # a job was queued for this token: one of the queues has it
        with self.queued:
            if self.urgent and (not self.normal or self.streak < urgent_run):
                self.streak = self.streak + 1 if self.normal else 0
                return self.urgent.popleft()
            self.streak = 0
            return self.normal.popleft()


class RenderQueue:
    """One worker thread taking urgent jobs first (``URGENT_RUN`` in a row at most while
    others wait), each kind first come.

    The thread is a daemon, started with the first job, and ends at ``close`` (the
    bot's shutdown) once the jobs queued before it are done; a job queued after
    ``close`` starts a thread again.
    """

    def __init__(self, name: str = "render", urgent_run: int = URGENT_RUN) -> None:
        self.name = name
        self.urgent_run = urgent_run
        self._thread: threading.Thread | None = None
        self._lane = _Lane()  # the running thread's jobs, or the next thread's
        self._lock = threading.Lock()  # guards the thread and its lane
        # results not yet settled on their loop, by loop; a loop listed here has a call
        # to ``_settle`` coming, which settles what is added before it runs
        self._done: dict[asyncio.AbstractEventLoop, list[Done]] = {}
        self._done_lock = threading.Lock()

    async def run(self, fn: Callable[[], R], *, urgent: bool = False) -> R:
        """``fn()`` in the render thread; its result (or its exception) here."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[R] = loop.create_future()
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._work, args=(self._lane,), name=self.name, daemon=True
                )
                self._thread.start()
            self._lane.put((fn, loop, future), urgent)
        return await future

    def close(self) -> threading.Thread | None:
        """End the thread once the jobs queued so far are done (the bot's shutdown); the
        thread, for the caller to wait for (``None`` if none was started)."""
        with self._lock:
            thread, self._thread = self._thread, None
            if thread is None:
                return None
            lane, self._lane = self._lane, _Lane()
        lane.end()
        return thread

    def _work(self, lane: _Lane) -> None:
        while self._run_next(lane):
            pass

    def _run_next(self, lane: _Lane) -> bool:
        """Run the next job; False at ``close``'s. Its own frame, so that an idle thread
        holds nothing of the last job (its function, result, future and loop): held, they
        kept a closed bot's objects alive until the thread ended, and freed them then, at
        any moment."""
        job = lane.next(self.urgent_run)
        if job is None:
            return False
        fn, loop, future = job
        if future.done():  # cancelled while it waited: its result is wanted by no one
            return True
        try:
            result = fn()
        except StopIteration as err:  # a future refuses it (TypeError), failing the batch
            failed = RuntimeError(f"a render raised StopIteration ({err!r})")
            self._hand_over(loop, (future, None, failed))
        except BaseException as err:  # handed to the awaiting coroutine, like an executor
            self._hand_over(loop, (future, None, err))
        else:
            self._hand_over(loop, (future, result, None))
        return True

    def _hand_over(self, loop: asyncio.AbstractEventLoop, done: Done) -> None:
        """``done`` to be settled on ``loop``: one wake-up of the loop for all the results
        that finish before it gets to them (each ``call_soon_threadsafe`` writes to the
        loop's wake-up socket, a system call on both sides)."""
        with self._done_lock:
            waiting = self._done.get(loop)
            if waiting is not None:  # a call to ``_settle`` is on its way: it takes this too
                waiting.append(done)
                return
            self._done[loop] = [done]
        try:
            loop.call_soon_threadsafe(self._settle, loop)
        except RuntimeError:  # the loop closed (shutdown) while the job ran
            with self._done_lock:
                del self._done[loop]
            log.info("render finished after its event loop closed")

    def _settle(self, loop: asyncio.AbstractEventLoop) -> None:
        """On ``loop``: every result finished for it so far."""
        with self._done_lock:
            batch = self._done.pop(loop)
        for future, result, error in batch:
            if future.done():
                continue
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)
