"""Benchmark of the expert's search: rollouts per second from mid-hand views.

Run: ``python3 -m bench.rollout_bench [--seconds 2] [--seed 1]`` (one core).

Four heuristic players play a hand up to a given number of plays; from the view
of the seat to act, the expert's sampler deals the unseen cards and the rollout
engine plays the heuristic's favourite candidate to the end of the hand, again
and again. Reported per checkpoint (cards left in the seat's hand): samples per
second, rollouts per second on a fixed sample, and both together, which is what
bounds how many samples a ``think_ms`` buys.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import time
from collections.abc import Callable

from bot.ai import make_player, play_hand
from bot.ai.context import Context
from bot.ai.expert_policy import ranked_candidates
from bot.ai.playout import outcome
from bot.ai.sampler import Sampler
from bot.game import Match, Play, SeatView

CHECKPOINTS = (1, 20, 40, 60, 80)  # plays before the view is taken


class _Stop(Exception):
    pass


def checkpoint(seed: int, plays: int) -> Match:
    match = Match.new(seed)
    count = 0

    def hook(m: Match, seat: int, action: object) -> None:
        nonlocal count
        if isinstance(action, Play):
            if count == plays:
                raise _Stop
            count += 1

    with contextlib.suppress(_Stop):
        play_hand(match, [make_player("ai") for _ in range(4)], on_action=hook)
    return match


def rate(fn: Callable[[], object], seconds: float) -> float:
    count = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        fn()
        count += 1
    return count / elapsed


def measure(view: SeatView, seconds: float, seed: int) -> dict[str, float]:
    """Samples, rollouts and both per second from one view."""
    ctx = Context(view)
    sampler = Sampler(ctx)
    cand = ranked_candidates(ctx)[0]
    rng = random.Random(seed)
    world = sampler.sample(rng)
    assert world is not None
    hands, kitty = world

    def both() -> None:
        sampled = sampler.sample(rng)
        assert sampled is not None
        outcome(ctx, [list(h) for h in sampled[0]], sampled[1], cand)

    return {
        "cards_left": len(view.hand),
        "samples_per_s": rate(lambda: sampler.sample(rng), seconds / 3),
        "rollouts_per_s": rate(
            lambda: outcome(ctx, [list(h) for h in hands], kitty, cand), seconds / 3
        ),
        "both_per_s": rate(both, seconds / 3),
    }


def run(seconds: float, seed: int) -> list[dict[str, float]]:
    rows = []
    for plays in CHECKPOINTS:
        match = checkpoint(seed, plays)
        _, seat = match.expecting()
        if seat is not None and seat >= 0:
            rows.append(measure(match.view(seat), seconds, seed))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per checkpoint")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON list")
    args = parser.parse_args()
    rows = run(args.seconds, args.seed)
    if args.json:
        print(json.dumps(rows))
        return
    print("expert search from mid-hand views (per second)")
    print(f"  {'cards left':>10} {'samples':>9} {'rollouts':>9} {'both':>9}")
    for row in rows:
        print(
            f"  {row['cards_left']:10d} {row['samples_per_s']:9.0f}"
            f" {row['rollouts_per_s']:9.0f} {row['both_per_s']:9.0f}"
        )


if __name__ == "__main__":
    main()
