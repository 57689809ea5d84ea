"""``python -m bot arena``: two computer players compared on duplicate deals."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

from bot import compiled
from bot.ai import KINDS, level_of, make_player
from bot.ai.arena import arena, summarize

from .common import add_rules, parse_rules

ARENA_HELP = """\
Duplicate deals: each deal is played twice from the same deck, dealer fixed at
seat 0. Run 1: A holds seats 0 and 2 (the dealer's side) and B attacks; run 2: B
holds seats 0 and 2 and A attacks with the cards B had. Point difference of a
deal = A's attacking points in run 2 minus B's attacking points in run 1 (final
attacking points: tricks, kitty bonus, throw penalties); positive means A is the
better player. (With joker bidding the attackers may take the deal: each run then
counts for A when A's team attacked and against A when B's did.) Level
difference of a deal = levels gained by A's team minus
levels gained by B's team over both runs. Both are reported as a mean per deal
with a 95%% confidence interval (normal approximation). A player against itself
scores exactly 0. Players by level (easy, normal, expert) or kind (greedy, ai,
heuristic, random); --think-ms sets the expert's time per decision.
"""


def cmd_arena(args: argparse.Namespace) -> int:
    for kind in (args.a, args.b):
        make_player(kind)
    if should_build(args.a, args.b, source=args.source):
        _build_and_run_again()
    rules = parse_rules(args.decks, args.rule)
    start = time.perf_counter()
    outcomes = arena(args.a, args.b, args.deals, args.seed, rules, think_ms=args.think_ms)
    seconds = time.perf_counter() - start
    pts = summarize([o.point_diff for o in outcomes])
    lev = summarize([o.level_diff for o in outcomes])
    n = len(outcomes)
    a_att = sum(o.a_attacking for o in outcomes) / n
    b_att = sum(o.b_attacking for o in outcomes) / n
    print(f"arena: {args.a} (A) vs {args.b} (B), {n} duplicate deals, seed {args.seed}")
    print(f"  mean attacking points: A {a_att:.1f}, B {b_att:.1f}")
    print(
        f"  point difference per hand (A - B): {pts.mean:+.2f}  "
        f"95% CI [{pts.low:+.2f}, {pts.high:+.2f}]"
    )
    print(
        f"  level difference per deal (A - B): {lev.mean:+.3f}  "
        f"95% CI [{lev.low:+.3f}, {lev.high:+.3f}]"
    )
    print(f"  {seconds:.1f} s, {_engine()}")
    if args.json:
        print(
            json.dumps(
                {
                    "a": args.a,
                    "b": args.b,
                    "deals": n,
                    "seed": args.seed,
                    "a_mean_attacking": round(a_att, 3),
                    "b_mean_attacking": round(b_att, 3),
                    "point_diff": {"mean": pts.mean, "low": pts.low, "high": pts.high},
                    "level_diff": {"mean": lev.mean, "low": lev.low, "high": lev.high},
                    "seconds": round(seconds, 3),
                }
            )
        )
    return 0


def should_build(a: str, b: str, *, source: bool) -> bool:
    """Whether to compile the computer players before an arena: an expert plays (its
    time-boxed figures depend on the build: two to three times the samples in a
    ``think_ms``), no build is fresh, and nobody asked for the source (``--source``,
    ``SHENGJI_PURE=1``)."""
    return (
        "expert" in (level_of(a), level_of(b))
        and not source
        and os.environ.get("SHENGJI_PURE") != "1"
        and not compiled.active()
        and not compiled.fresh()
    )


def _build_and_run_again() -> None:
    """``python -m bot build`` (once: about a minute), then this same command again in a
    new process, which runs compiled; without a compiler the source plays, as it says."""
    print("arena: compiling the computer players first (python3 -m bot build) ...", file=sys.stderr)
    try:
        compiled.build()
    except RuntimeError as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else "no compiler"
        print(f"arena: not compiled ({reason}); the source plays", file=sys.stderr)
        return
    if sys.argv[1:2] != ["arena"]:  # not run as a command (a caller's own argv): no re-run
        print("arena: compiled; the next run uses it", file=sys.stderr)
        return
    sys.stdout.flush()
    os.execv(sys.executable, [sys.executable, "-m", "bot", *sys.argv[1:]])


def _engine() -> str:
    """How the computer players ran: a time-boxed expert's figures depend on it (the
    compiled build searches two to three times the samples in a ``think_ms``)."""
    if compiled.active():
        return "computer players compiled"
    return "computer players from source (python3 -m bot build compiles them)"


def register(sub: Any) -> None:
    are = sub.add_parser(
        "arena",
        help="compare two players on duplicate deals",
        description=ARENA_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    are.add_argument("a", choices=KINDS, help="player A")
    are.add_argument("b", choices=KINDS, help="player B")
    are.add_argument("--deals", type=int, default=200)
    are.add_argument("--seed", type=int, default=1)
    are.add_argument("--json", action="store_true", help="end with one JSON line of results")
    are.add_argument(
        "--think-ms",
        type=float,
        default=None,
        metavar="MS",
        help="an expert player's time per decision (default 250, as at a table)",
    )
    are.add_argument(
        "--source",
        action="store_true",
        help="with an expert, play the source instead of compiling the players first",
    )
    add_rules(are)
    are.set_defaults(func=cmd_arena)
