"""Benchmark of post-hand reviews: what one costs, and what it costs a table beside it.

Run: ``python3 -m bench.review_bench [--seed 3] [--think-ms 100] [--json]``.

A hand of four heuristic players is recorded and reviewed for seat 0 at the
service's samples per decision (``review.WORLDS``): seconds per review. Then an
expert thinking ``think_ms`` decides the same twelve views of another hand three
times: alone, beside reviews running back to back in a thread of this process,
and beside them in a spawned worker process (as ``bot.service.reviews`` runs
them); its samples per decision say how much of the interpreter a review leaves
to a table. With ``--json`` the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import partial
from typing import Any

from bot.ai import ExpertPlayer, make_player, play_hand
from bot.ai.review import WORLDS, review_hand
from bot.game import Action, Match, SeatView


def recorded(seed: int) -> list[tuple[int, Action]]:
    """A hand of four heuristic players, as its log of accepted actions."""
    match = Match.new(seed)
    log: list[tuple[int, Action]] = []
    apply = match.apply

    def recording(seat: int, action: Action, **kw: bool) -> Any:
        events = apply(seat, action, **kw)
        log.append((seat, action))
        return events

    match.apply = recording  # type: ignore[method-assign]
    play_hand(match, [make_player("ai") for _ in range(4)])
    return log


def views(seed: int, count: int = 12) -> list[SeatView]:
    """The first ``count`` play decisions of a hand of heuristic players, as views."""
    match = Match.new(seed)
    out: list[SeatView] = []
    for seat, action in recorded(seed):
        if match.expecting() == ("play", seat) and len(out) < count:
            out.append(match.view(seat))
        match.apply(seat, action)
    return out


def review(seed: int, log: list[tuple[int, Action]]) -> int:
    return review_hand(seed, log, 0, review_seed=1, worlds=WORLDS, budget_s=60.0).judged


def samples(decisions: list[SeatView], think_ms: float) -> float:
    """The expert's mean samples per decision over ``decisions``."""
    expert = ExpertPlayer(think_ms)
    expert.traces = []
    for view in decisions:
        expert.memory = None  # each view on its own, as a fresh seat would see it
        expert.act(view)
    return statistics.mean(trace.samples for trace in expert.traces)


def beside(executor: Executor, job: Callable[[], int], work: Callable[[], float]) -> float:
    """``work()`` while ``job`` runs again and again in ``executor``."""
    stop = threading.Event()
    executor.submit(int).result()  # the worker is up (a process: spawned, imported)

    def again() -> None:
        while not stop.is_set():
            executor.submit(job).result()

    feeder = threading.Thread(target=again)
    feeder.start()
    time.sleep(0.2)
    try:
        return work()
    finally:
        stop.set()
        feeder.join()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m bench.review_bench")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--think-ms", type=float, default=100.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    log = recorded(args.seed)
    start = time.perf_counter()
    judged = review(args.seed, log)
    seconds = time.perf_counter() - start
    decisions = views(args.seed + 2)
    job = partial(review, args.seed, log)  # picklable: a worker process runs it too
    alone = samples(decisions, args.think_ms)
    with ThreadPoolExecutor(1) as threads:
        in_thread = beside(threads, job, lambda: samples(decisions, args.think_ms))
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=spawn) as processes:
        in_process = beside(processes, job, lambda: samples(decisions, args.think_ms))
    result = {
        "review_s": round(seconds, 2),
        "worlds": WORLDS,
        "judged": judged,
        "think_ms": args.think_ms,
        "samples_alone": round(alone, 1),
        "samples_beside_thread": round(in_thread, 1),
        "samples_beside_process": round(in_process, 1),
    }
    print(f"a review of seed {args.seed}, seat 0: {seconds:.2f} s, {judged} decisions judged")
    print(f"an expert's samples a decision at {args.think_ms:.0f} ms:")
    print(f"  alone {alone:.1f}, beside a review in a thread {in_thread:.1f}, ", end="")
    print(f"beside one in a worker process {in_process:.1f}")
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
