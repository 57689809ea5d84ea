"""The real-deal screen of the expert's play-outs (``bot.ai.truth``), one command.

Run: ``python3 -m bench.rollout_truth make FILE --deals 120 --seed 1000`` (ground truth
of heuristic hands as JSON lines), then ``python3 -m bench.rollout_truth screen FILE``:
by kind of decision, how the gains one fast play-out on the real deal shows correlate
with the real ones.
"""

from __future__ import annotations

import argparse
import json

from bot.ai.truth import make, screen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    making = sub.add_parser("make", help="write ground-truth records (JSON lines)")
    making.add_argument("file")
    making.add_argument("--deals", type=int, default=120)
    making.add_argument("--seed", type=int, default=1000)
    making.add_argument("--limit", type=int, help="stop after this many records")
    screening = sub.add_parser("screen", help="the play-outs' correlation with the truth")
    screening.add_argument("files", nargs="+")
    args = parser.parse_args()
    if args.command == "make":
        with open(args.file, "w", encoding="utf-8") as out:
            for record in make(args.seed, args.deals, args.limit):
                out.write(json.dumps(record) + "\n")
        return
    records = []
    for name in args.files:
        with open(name, encoding="utf-8") as f:
            records += [json.loads(line) for line in f]
    for group, (n, corr) in screen(records).items():
        print(f"  {group:14s} {n:6d} challengers  correlation {corr:.3f}")


if __name__ == "__main__":
    main()
