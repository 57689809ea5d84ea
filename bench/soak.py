"""Soak test: many seeded hands among computer players, invariants checked throughout.

Run: ``python3 -m bench.soak --hands 10000 [--seed 1]`` (exit status 1 on a failure).
The line-ups, variants and checks are ``bot.ai.soak``'s. ``--hands-per-match 2
--hands 252`` cuts every match after two hands: every line-up meets every variant.
"""

from __future__ import annotations

import argparse
import sys

from bot.ai.soak import PATHS, run_soak


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hands-per-match", type=int, default=None)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    report = run_soak(
        args.hands, args.seed, progress=not args.quiet, hands_per_match=args.hands_per_match
    )
    print(
        f"soak: {report.hands} hands in {report.matches} matches, {report.plays} plays checked, "
        f"{len(report.configs)} line-up/variant combinations, {report.seconds:.1f} s"
    )
    print("  " + ", ".join(f"{name}: {report.paths[name]}" for name in PATHS))
    for failure in report.failures[:20]:
        print("  FAIL", failure)
    if report.failures:
        print(f"  {len(report.failures)} failures")
        return 1
    print("  all invariants held")
    return 0


if __name__ == "__main__":
    sys.exit(main())
