"""Benchmark of the rules core: µs per check_follow, trick_winner and resolve_throw.

Run: ``python3 -m bench.rules_bench`` (one core, no arguments needed).

The plays are drawn from real random deals under a random trump: a mix of single,
pair, tractor and throw leads with legal follows, so the figures reflect typical
two-deck play rather than a best case.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from bot.rules import (
    RuleSet,
    Trump,
    check_follow,
    deck,
    decompose,
    follow_candidates,
    order_for,
    resolve_throw,
    trick_winner,
)
from bot.rules.units import decompose_in


def _deal(rng: random.Random) -> tuple[Trump, list[list]]:
    cards = deck(2)
    rng.shuffle(cards)
    trump = Trump(rng.choice("23456789TJQKA"), rng.choice(["S", "H", "D", "C", None]))
    return trump, [cards[i * 25 : (i + 1) * 25] for i in range(4)]


def _lead(rng: random.Random, hand: list, trump: Trump, kind: str) -> list | None:
    order = order_for(trump)
    by_suit: dict[str, list] = {}
    for c in hand:
        by_suit.setdefault(order.suit_of[c], []).append(c)
    suit_cards = by_suit[rng.choice(sorted(by_suit))]
    units = decompose_in(order, suit_cards)
    pick = {
        "single": [u for u in units if u.kind == "single"],
        "pair": [u for u in units if u.kind == "pair"],
        "tractor": [u for u in units if u.kind == "tractor"],
    }
    if kind == "throw":
        if len(units) < 2:
            return None
        chosen = rng.sample(units, min(len(units), rng.randint(2, 3)))
        return [c for u in chosen for c in u.cards]
    if not pick[kind]:
        return None
    return list(rng.choice(pick[kind]).cards)


def build_cases(n: int, seed: int) -> list[tuple]:
    rng = random.Random(seed)
    cases = []
    kinds = ["single"] * 5 + ["pair"] * 3 + ["tractor"] + ["throw"]
    while len(cases) < n:
        trump, hands = _deal(rng)
        kind = rng.choice(kinds)
        lead = _lead(rng, hands[0], trump, kind)
        if lead is None:
            continue
        plays = [lead]
        for hand in hands[1:]:
            options = follow_candidates(hand, lead, trump)
            plays.append(rng.choice(options))
        cases.append((trump, hands, kind, lead, plays))
    return cases


def _time(fn: Callable[..., object], *args: object, repeat: int = 20) -> float:
    """Mean µs of ``fn(*args)`` over ``repeat`` calls."""
    start = time.perf_counter_ns()
    for _ in range(repeat):
        fn(*args)
    return (time.perf_counter_ns() - start) / repeat / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cases = build_cases(args.cases, args.seed)
    rules = RuleSet()
    rows: dict[tuple[str, str], list[float]] = {}
    for trump, hands, kind, lead, plays in cases:
        timings = {
            "check_follow": _time(check_follow, hands[1], lead, plays[1], trump, rules),
            "trick_winner": _time(trick_winner, plays, trump, rules),
            "decompose": _time(decompose, lead, trump, rules),
        }
        if kind == "throw":
            timings["resolve_throw"] = _time(resolve_throw, lead, hands[1:], trump, rules)
        for name, us in timings.items():
            rows.setdefault((name, kind), []).append(us)
            rows.setdefault((name, "all"), []).append(us)
    print(f"rules benchmark: {len(cases)} plays from random 2-deck deals")
    print(f"  {'function':14} {'lead':8} {'median µs':>10} {'p99 µs':>8}")
    for (name, kind), values in sorted(rows.items()):
        print(f"  {name:14} {kind:8} {statistics.median(values):10.1f} {_p99(values):8.1f}")


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


if __name__ == "__main__":
    main()
