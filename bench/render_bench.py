"""Benchmark of the card images: median ms per render (PNG encoding included) and size.

Run: ``python3 -m bench.render_bench`` (one core, no arguments needed).

Renders the demo scenes of ``python3 -m renderers demo`` (a real two-deck deal:
the dealer's 33-card hand, a trick, the kitty, a summary, a scoreboard) in each
theme, after one warm-up render per kind so that card sprites and text masks are
cached, as they are in a running bot. Targets (issue 4): a trick under 5 ms, a
33-card hand under 10 ms, every file under 100 KB. Also reports the first,
cold render, which draws the sprites.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from renderers.__main__ import RENDERERS, demo_scenes

TARGET_MS = {"trick": 5.0, "hand": 10.0}
TARGET_KB = 100.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=200, help="renders per kind and theme")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    scenes = demo_scenes(args.seed)
    print(f"render benchmark: {args.repeat} renders per kind and theme, one core")
    head = f"  {'image':11} {'theme':6} {'cold ms':>8} {'median ms':>10} {'p95 ms':>7} {'KB':>6}"
    print(head + "  target")
    for kind, render in RENDERERS.items():
        scene = scenes[kind]
        for theme in ("dark", "light"):
            start = time.perf_counter()
            data = render(scene, theme=theme)  # type: ignore[operator]
            cold = (time.perf_counter() - start) * 1000
            times = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                data = render(scene, theme=theme)  # type: ignore[operator]
                times.append((time.perf_counter() - start) * 1000)
            times.sort()
            median = statistics.median(times)
            p95 = times[int(len(times) * 0.95) - 1]
            kb = len(data) / 1024
            target = TARGET_MS.get(kind)
            ok = (target is None or median < target) and kb < TARGET_KB
            goal = f"< {target:g} ms, " if target else ""
            print(
                f"  {kind:11} {theme:6} {cold:8.1f} {median:10.2f} {p95:7.2f} {kb:6.1f}"
                f"  {goal}< {TARGET_KB:g} KB {'ok' if ok else 'MISSED'}"
            )


if __name__ == "__main__":
    main()
