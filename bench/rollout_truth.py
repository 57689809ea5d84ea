"""The real-deal screen of the expert's play-outs (``bot.ai.truth``), one command.

Run: ``python3 -m bench.rollout_truth make FILE --deals 120 --seed 1000`` (ground truth
of heuristic hands as JSON lines), then ``python3 -m bench.rollout_truth screen FILE``:
by kind of decision, how the gains one fast play-out on the real deal shows correlate
with the real ones; ``python3 -m bench.rollout_truth overrules FILE`` (about 10 minutes
for 7,626 records): what the expert's overrules of the heuristic really gain, by side and
margin.
"""

from __future__ import annotations

import argparse
import json

from bot.ai.truth import make, overrules, screen


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
    overruling = sub.add_parser("overrules", help="what the search's overrules really gain")
    overruling.add_argument("files", nargs="+")
    overruling.add_argument("--worlds", type=int, default=20)
    overruling.add_argument("--margins", default="0.5,1,1.5,2,3")
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
    if args.command == "overrules":
        margins = [float(m) for m in args.margins.split(",")]
        for (side, margin), (n, gain) in sorted(overrules(records, args.worlds, margins).items()):
            print(f"  {side:9s} margin {margin:4.1f}: {n:5d} overrules, real gain {gain:+8.1f}")
        return
    for group, (n, corr) in screen(records).items():
        print(f"  {group:14s} {n:6d} challengers  correlation {corr:.3f}")


if __name__ == "__main__":
    main()
