"""Benchmark of the card images: median ms per render (PNG encoding included) and size.

Run: ``python3 -m bench.render_bench`` (one core, no arguments needed).

Renders the demo scenes of ``python3 -m renderers demo`` (a real two-deck deal:
the dealer's 33-card hand, the live table image with a trick, the kitty, a
summary), a 25-card hand (``hand-25``: what a player holds after the deal, the
image the bot draws at every play) and a worst-case table (its trick a 12-card
throw and three 12-card follows), in each theme, after one warm-up render per
kind so that card sprites and text masks are cached, as they are in a running
bot; in English and with the Chinese labels (``lang="zh"``, the CJK font), which
players who read Chinese get. Targets (issue 4): a trick under 5 ms (the table
image, which took the trick image's place), a 33-card hand under 10 ms, every
file under 100 KB. The "cold" column is the first render of a kind, which also
draws the sprites it needs. The "cpu ms" column is the median CPU time per render
(``process_time``): on a machine shared with other work it is the figure to compare,
where wall time counts the waits for a core too. ``--kinds hand,summary`` times only those.

Then ``hands in play`` (``--hands``, 0 for none): what the bot draws most, a hand image
at every play, timed the way a running bot meets it rather than one scene again and
again: random deals of 25 cards played down to none, a card or two selected (then
cleared) now and then, random trumps and themes, eight hands at a time with their
images in turn, after as many hands drawn to warm the caches.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import os
import random
import statistics
import time
from typing import TypeVar

from bot.rules import LEVELS, Trump, deck, parse_cards
from renderers import HandScene, TableScene, TrickScene, render_hand
from renderers.__main__ import NAMES, RENDERERS, demo_scenes
from renderers.theme import ThemeName

TARGET_MS = {"table": 5.0, "hand": 10.0}
TARGET_KB = 100.0
T = TypeVar("T")


def interleave(groups: list[list[T]], width: int = 8) -> list[T]:
    """The items of ``groups``, ``width`` groups at a time taking turns (as the render
    thread meets the tables' images: one table's next image seldom straight after its last)."""
    return [
        item
        for k in range(0, len(groups), width)
        for turn in itertools.zip_longest(*groups[k : k + width])
        for item in turn
        if item is not None
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=200, help="renders per kind and theme")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--kinds", default="", help="comma-separated kinds to time (all if empty)")
    parser.add_argument("--hands", type=int, default=100, help="random hands played down")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    by_lang = {lang: demo_scenes(args.seed, lang) for lang in ("en", "zh")}
    for scenes in by_lang.values():
        table = scenes["table"]
        assert isinstance(table, TableScene)
        scenes["table-throw"] = dataclasses.replace(table, trick=_big_trick())
        dealer = scenes["hand"]
        assert isinstance(dealer, HandScene)
        # the hand a player holds after the deal, nine cards a row: one image per play
        scenes["hand-25"] = dataclasses.replace(dealer, cards=dealer.cards[:25], title="Bob")
    kinds = {
        "hand": RENDERERS["hand"],
        "hand-25": RENDERERS["hand"],
        **RENDERERS,
        "table-throw": RENDERERS["table"],
    }
    if args.kinds:
        wanted = args.kinds.split(",")
        unknown = sorted(set(wanted) - set(kinds))
        if unknown:
            parser.error(f"unknown kinds {unknown}; known: {sorted(kinds)}")
        kinds = {k: r for k, r in kinds.items() if k in wanted}
    print(f"render benchmark: {args.repeat} renders per kind and theme, one core")
    head = (
        f"  {'image':11} {'theme':6} {'lang':4} {'cold ms':>8} {'median ms':>10}"
        f" {'p95 ms':>7} {'cpu ms':>7} {'KB':>6}"
    )
    print(head + "  target")
    for kind, render in kinds.items():
        for theme, lang in (("dark", "en"), ("light", "en"), ("dark", "zh"), ("light", "zh")):
            scene = by_lang[lang][kind]
            start = time.perf_counter()
            data = render(scene, theme=theme, lang=lang)
            cold = (time.perf_counter() - start) * 1000
            times, cpu = [], []
            for _ in range(args.repeat):
                start, start_cpu = time.perf_counter(), time.process_time()
                data = render(scene, theme=theme, lang=lang)
                cpu.append((time.process_time() - start_cpu) * 1000)
                times.append((time.perf_counter() - start) * 1000)
            times.sort()
            median = statistics.median(times)
            p95 = times[int(len(times) * 0.95) - 1]
            kb = len(data) / 1024
            target = TARGET_MS.get(kind.split("-")[0])
            ok = (target is None or median < target) and kb < TARGET_KB
            goal = f"< {target:g} ms, " if target else ""
            print(
                f"  {kind:11} {theme:6} {lang:4} {cold:8.1f} {median:10.2f} {p95:7.2f}"
                f" {statistics.median(cpu):7.2f} {kb:6.1f}"
                f"  {goal}< {TARGET_KB:g} KB {'ok' if ok else 'MISSED'}"
            )
    if args.hands:
        hands_in_play(args.hands, args.seed)


def hands_in_play(hands: int, seed: int) -> None:
    """CPU ms per hand image over ``hands`` random hands played down (see the module)."""
    rng = random.Random(seed)

    themes: tuple[ThemeName, ...] = ("dark", "light")

    def play(count: int) -> list[tuple[HandScene, ThemeName]]:
        """The images of ``count`` hands, eight played at once (their images in turn,
        as a bot's render thread meets the players of several tables)."""
        hands = []
        for _ in range(count):
            cards = deck(2)
            rng.shuffle(cards)
            held = cards[:25]
            trump = Trump(rng.choice(LEVELS), rng.choice("SHCD"))
            theme = rng.choice(themes)
            scenes = []
            while held:
                picked = rng.sample(held, min(len(held), rng.choice((0, 0, 1, 2))))
                scenes.append((HandScene(list(held), trump, picked, "Your hand"), theme))
                if picked:
                    scenes.append((HandScene(list(held), trump, (), "Your hand"), theme))
                held.remove(rng.choice(held))
            hands.append(scenes)
        return interleave(hands)

    for scene, theme in play(hands):  # warm-up: sprites, tiles, pieces, stamps
        render_hand(scene, theme=theme)
    cpu, size = [], 0
    for scene, theme in play(hands):
        start = time.process_time()
        size += len(render_hand(scene, theme=theme))
        cpu.append((time.process_time() - start) * 1000)
    print(
        f"hands in play: {len(cpu)} images of {hands} random hands played down, after as"
        f" many: cpu ms median {statistics.median(cpu):.3f}, mean {statistics.mean(cpu):.3f},"
        f" {size / len(cpu) / 1024:.1f} KB a file"
    )


def _big_trick() -> TrickScene:
    """A worst case: a 12-card throw that stood and three 12-card follows (48 cards)."""
    throw = parse_cards("AS KS KS QS JS JS 9S 9S 8S 7S 7S 5S")
    follow = parse_cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    return TrickScene(
        NAMES,
        leader=0,
        plays={0: throw, 1: follow, 2: follow, 3: follow},
        trump=Trump("4", "D"),
        dealer=0,
        winner=0,
        final=True,
        trick_points=75,
    )


if __name__ == "__main__":
    main()
