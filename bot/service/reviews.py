"""Post-hand reviews at the table: a player's costliest decisions of a recorded hand.

The review itself is ``bot.ai.review`` (pure): every play of the seat is replayed
from the seat's view at that moment and judged like the expert judges its own.
Here it is found, checked and run:

* which hand: by id (``/shengji review hand_id``, any hand of this server), by
  table and number (the Review button under a hand's summary, only in that
  table's channel or thread), or the last recorded hand of the table here;
* who: only a person who sat in that hand has decisions to review; computer
  players and spectators have none, and are told so;
* where: only where the table's ``assistance`` is ``full`` (seed 000's
  tournament rules, ``none``, allow no looking back);
* how: in a worker process of its own (one per service, spawned at the first
  review and kept), so a review never delays a table: a review is seconds of pure
  Python, which in a thread would hold the interpreter's lock against the event
  loop and the experts' searches (``bench.review_bench``: an expert thinking 100 ms
  drew 20-24 samples a decision alone, 6-11 beside reviews in a thread, 17-18
  beside them in a worker process); within ``BUDGET_S`` (what was not judged by
  then is left out, and the answer says so); seeded by the hand's id, so the same
  hand gives the same figures; kept (``KEPT`` reviews) so a second click answers at once, and two
  clicks at once share one computation. A worker that dies (killed, out of
  memory) fails the reviews it held with a "try again" and is replaced.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial

from bot.ai.review import WORLDS, Review, review_hand
from bot.service.records import RecordsMixin
from bot.service.table import UserError
from bot.store import ReplaySource

BUDGET_S = 20.0
KEPT = 256


def _off() -> UserError:
    text = "Reviews are off at that table: its rules allow no assistance."
    return UserError(text, key="review-off")


class ReviewMixin(RecordsMixin):
    _reviews: dict[tuple[int, int], asyncio.Future[Review]] | None = None
    _reviewer: ProcessPoolExecutor | None = None

    async def review(
        self,
        guild_id: int,
        place_id: int | None,
        user_id: int,
        *,
        hand_id: int | None = None,
        table_id: int | None = None,
        hand_no: int | None = None,
    ) -> tuple[int, Review]:
        """``user_id``'s review of a hand: (hand id, review), or UserError saying why not.

        ``hand_id``: any recorded hand of this server; ``table_id`` and ``hand_no``:
        the hand under whose summary the Review button was pressed (in ``place_id``,
        that table's channel or thread); neither: the last recorded hand of the
        table in ``place_id``.
        """
        button = table_id is not None and hand_no is not None
        if button:
            assert table_id is not None and hand_no is not None
            hand_id = await self.store.hand_id_of(table_id, hand_no)
        elif hand_id is None:
            hand_id = await self._last_hand_here(place_id)
        source = None if hand_id is None else await self.store.replay_source(hand_id)
        if source is None or source.guild_id != guild_id:
            raise UserError(
                "There is no such hand on this server (`/shengji history` lists them).",
                key="review-no-hand",
            )
        if button and place_id not in (source.channel_id, source.thread_id):
            raise UserError("That isn't your table's panel.", key="service-wrong-place")
        if source.rules.assistance != "full":
            raise _off()
        record = await self.store.hand_record(source.hand_id)
        seat = next(
            (
                p.seat
                for p in (record.players if record else [])
                if p.kind == "human" and p.user_id == user_id
            ),
            None,
        )
        if seat is None:
            raise UserError(
                "You did not play that hand, so there is nothing of yours to review.",
                key="review-not-yours",
            )
        if not source.actions:
            raise UserError(
                "That hand's record is no longer kept, so it can't be reviewed.",
                key="review-gone",
            )
        return source.hand_id, await self._reviewed(source, seat)

    async def _last_hand_here(self, place_id: int | None) -> int | None:
        table = self.tables.get(self.channel_of(place_id)) if place_id is not None else None
        if table is None:
            raise UserError(
                "Give a hand id (`/shengji history` lists them), or ask at the table.",
                key="review-which",
            )
        if table.rules.assistance != "full":
            raise _off()
        hands = await self.store.hands_of_table(table.id)
        if not hands:
            raise UserError("No hand has been finished at this table yet.", key="review-none-yet")
        return hands[-1]

    async def _reviewed(self, source: ReplaySource, seat: int) -> Review:
        """The review, computed once per hand and seat in the review worker."""
        if self._reviews is None:
            self._reviews = {}
        key = (source.hand_id, seat)
        future = self._reviews.get(key)
        if future is None or (future.done() and future.exception() is not None):
            job = partial(
                review_hand,
                source.seed,
                source.actions,
                seat,
                rules=source.rules,
                hand_no=source.hand_no,
                first_dealer=source.first_dealer,
                review_seed=source.hand_id,
                worlds=WORLDS,
                budget_s=BUDGET_S,
            )
            future = self._submit(job)
            self._reviews[key] = future
            while len(self._reviews) > KEPT:  # forget the oldest
                del self._reviews[next(iter(self._reviews))]
        try:
            review = await asyncio.shield(future)
        except BrokenProcessPool:  # the worker died: the next ask gets a new one
            raise UserError(
                "The review could not be finished; please try again.", key="review-failed"
            ) from None
        if not review.complete and self._reviews.get(key) is future:
            del self._reviews[key]  # out of time (a busy machine): the next ask tries again
        return review

    def _submit(self, job: Callable[[], Review]) -> asyncio.Future[Review]:
        """``job`` in the review worker: spawned at the first review (not forked: the
        bot's threads and their locks stay here), and anew once one died."""
        loop = asyncio.get_running_loop()
        if self._reviewer is not None:
            try:
                return loop.run_in_executor(self._reviewer, job)
            except BrokenProcessPool:  # killed, out of memory: its reviews have failed
                self.close_reviews()
        spawn = multiprocessing.get_context("spawn")
        self._reviewer = ProcessPoolExecutor(max_workers=1, mp_context=spawn)
        return loop.run_in_executor(self._reviewer, job)

    def close_reviews(self) -> None:
        """Stop the review worker (at shutdown); a review asked later starts a new one."""
        pool, self._reviewer = self._reviewer, None
        if pool is None:
            return
        # a review runs for seconds: end its process now (Python 3.14 has
        # ``terminate_workers`` for this) rather than let shutdown wait for it
        processes = getattr(pool, "_processes", None) or {}
        for process in list(processes.values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
