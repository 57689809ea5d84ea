"""Benchmark of the computer players: milliseconds per decision, by kind.

Run: ``python3 -m bench.ai_bench [--hands 40] [--seed 1]`` (one core), or for the
expert ``python3 -m bench.ai_bench --player expert --think-ms 250 --hands 3``
(its p99 must stay within ``think_ms`` + 20 ms: a table waits that long at most).

Four players of one kind (the heuristic by default) play whole hands (deal, bids,
burial, tricks); every call to ``act`` is timed, including building the card
memory from the view, which is what a table pays on each turn. Bid questions are
asked after every dealt card, so they are reported apart from the decisions that
matter for a turn timer
(burial, leads, follows). For the expert, how its searches went: samples reached per
searched decision, the time before the first sample (memory, candidates, sampler), and
what ended each search (the race left no challenger, the next sample would not fit
the time, the deadline fell inside a sample, too few samples to overrule).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from bot.ai import ExpertPlayer, Player, make_player, play_hand
from bot.ai.expert import ENDINGS, Trace
from bot.game import SYSTEM, Action, Match, NextHand, SeatView


class TimedPlayer:
    """Wraps a player and records the time of every decision by its kind."""

    def __init__(self, inner: Player, times: dict[str, list[float]]) -> None:
        self.inner = inner
        self.name = inner.name
        self.times = times

    def act(self, view: SeatView) -> Action | None:
        start = time.perf_counter()
        action = self.inner.act(view)
        ms = (time.perf_counter() - start) * 1000
        kind = view.expecting or "other"
        if kind == "play":
            kind = "lead" if not view.trick else "follow"
        elif kind in ("deal", "end_bidding"):
            kind = "bid"
        self.times.setdefault(kind, []).append(ms)
        return action


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def run(
    hands: int, seed: int, player: str = "ai", think_ms: float | None = None
) -> dict[str, dict[str, float]]:
    times: dict[str, list[float]] = {}
    traces: list[Trace] = []
    players = [TimedPlayer(make_player(player, think_ms=think_ms), times) for _ in range(4)]
    for timed in players:
        if isinstance(timed.inner, ExpertPlayer):
            timed.inner.traces = traces
    match = Match.new(seed)
    for i in range(hands):
        play_hand(match, players)
        if match.phase == "over":
            match = Match.new(seed + i + 1)
        else:
            match.apply(SYSTEM, NextHand())
    turns = [t for k in ("bury", "lead", "follow") for t in times.get(k, [])]
    table: dict[str, dict[str, float]] = {}
    for kind, values in [*sorted(times.items()), ("turns", turns)]:
        table[kind] = {
            "n": len(values),
            "median_ms": statistics.median(values),
            "p99_ms": percentile(values, 0.99),
            "max_ms": max(values),
            # what a table pays in all: the mean (and the sum) carries the rare slow
            # decisions (the endgame's play-outs) that the median hides
            "mean_ms": statistics.fmean(values),
            "total_ms": sum(values),
        }
    if traces:
        table["search"] = searches(traces)
    return table


def searches(traces: list[Trace]) -> dict[str, float]:
    """Samples per searched decision, the time before the first, and what ended them."""
    samples = [t.samples for t in traces]
    setup = [t.setup_ms for t in traces]
    row: dict[str, float] = {
        "n": len(traces),
        "samples_median": statistics.median(samples),
        "samples_p10": percentile([float(n) for n in samples], 0.1),
        "samples_mean": statistics.fmean(samples),
        "setup_median_ms": statistics.median(setup),
        "setup_p99_ms": percentile(setup, 0.99),
        "too_few": sum(t.too_few for t in traces) / len(traces),
    }
    for ended in ENDINGS:
        row[f"ended_{ended.replace(' ', '_')}"] = sum(t.ended == ended for t in traces) / len(
            traces
        )
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player", default="ai", help="a level or kind (ai, expert, ...)")
    parser.add_argument("--think-ms", type=float, default=None, help="the expert's time")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    table = run(args.hands, args.seed, args.player, args.think_ms)
    if args.json:
        print(json.dumps(table))
        return
    think = f", think_ms {args.think_ms:g}" if args.think_ms is not None else ""
    print(f"{args.player} decision times over {args.hands} hands{think} (ms)")
    print(f"  {'kind':8} {'n':>7} {'median':>8} {'p99':>8} {'max':>8} {'mean':>8} {'total':>9}")
    for kind, row in table.items():
        if kind == "search":
            continue
        print(
            f"  {kind:8} {row['n']:7d} {row['median_ms']:8.3f} {row['p99_ms']:8.3f}"
            f" {row['max_ms']:8.2f} {row['mean_ms']:8.3f} {row['total_ms']:9.1f}"
        )
    found = table.get("search")
    if found:
        print(
            f"  searches {found['n']:.0f}: samples median {found['samples_median']:g},"
            f" p10 {found['samples_p10']:g}, mean {found['samples_mean']:.1f};"
            f" before the first sample median {found['setup_median_ms']:.2f} ms,"
            f" p99 {found['setup_p99_ms']:.2f} ms"
        )
        print(
            "  ended by: "
            + ", ".join(
                f"{key[6:].replace('_', ' ')} {found[key]:.0%}"
                for key in found
                if key.startswith("ended_")
            )
            + f"; too few samples to overrule {found['too_few']:.0%}"
        )


if __name__ == "__main__":
    main()
