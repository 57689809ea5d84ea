"""Benchmark of the hand panel: CPU ms per ``build_panel``, its image apart from its words.

Run: ``python3 -m bench.panel_bench`` (``--profile`` adds cProfile's top functions).

The panel is most of the render thread's work at 400 tables (issue 14 item 10): each
play redraws the panel of the player who played and of the player to act, the image
(``render_hand``) and the rest (the status lines, the picker's menus, the buttons,
the catalog's messages). Computer players play random matches (``GreedyPlayer``,
the deal and bids included); after every action the panels of those two seats are
built as the bot builds them (a memo per seat, random names of the kind players
choose, random themes and languages, tables interleaved eight at a time), timed with
``process_time`` after as many warm-up hands. The "text" figure is a panel built
with a memo that already holds its image: what is left besides drawing.
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import os
import pstats
import random
import statistics
import time
from typing import Any

from bench.render_bench import interleave
from bot.ai import GreedyPlayer, play_hand
from bot.game import SYSTEM, Match, NextHand, Phase, SeatView
from bot.store import UserPrefs
from cogs.panels import ImageMemo, build_panel

DEAL_EVERY = 12  # deal steps (about 25 a second at the bot's pace) between its panels

Job = tuple[SeatView, tuple[str, str, str, str], str, UserPrefs, ImageMemo]

_SYLLABLES = ("ka", "li", "mo", "zhang", "wei", "ann", "tor", "xiao", "lu", "bo", "rex")


def _name(rng: random.Random) -> str:
    if rng.random() < 0.2:
        return "".join(rng.choice("王李张刘陈杨赵黄周吴") for _ in range(rng.randint(2, 3)))
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))).title()


def table_jobs(rng: random.Random, hands: int) -> list[Job]:
    """The panels one table builds over ``hands`` hands, in order."""
    names = (_name(rng), _name(rng), _name(rng), _name(rng))
    memos = [ImageMemo() for _ in range(4)]
    looks = [
        (
            rng.choice(("en-US", "en-US", "zh-CN")),
            UserPrefs(theme=rng.choice(("dark", "light")), four_color=rng.random() < 0.3),
        )
        for _ in range(4)
    ]
    match = Match.new(rng.randrange(1 << 30))
    jobs: list[Job] = []
    acted: list[int] = []
    deal_steps = itertools.count()

    def on_action(match: Match, seat: int, action: Any) -> None:
        acted.append(seat)

    def on_events(match: Match, events: list[Any]) -> None:
        if match.phase is Phase.DEAL:
            if next(deal_steps) % DEAL_EVERY == 0:  # the deal's panels are redrawn paced
                seats = set(range(4))
            else:
                return
        else:
            seats = {s for s in (acted[-1] if acted else None, match.to_act) if s is not None}
        acted.clear()
        for seat in sorted(seats):
            loc, prefs = looks[seat]
            jobs.append((match.view(seat), names, loc, prefs, memos[seat]))

    players = [GreedyPlayer() for _ in range(4)]
    for _ in range(hands):
        play_hand(match, players, on_action=on_action, on_events=on_events)
        match.apply(SYSTEM, NextHand())
    return jobs


def interleaved(rng: random.Random, tables: int, hands: int) -> list[Job]:
    """The jobs of ``tables`` tables, eight at a time in turn (as the render thread meets
    them)."""
    return interleave([table_jobs(rng, hands) for _ in range(tables)])


def build(job: Job) -> bytes:
    view, names, loc, prefs, memo = job
    return build_panel(3, view, [], names=names, locale=loc, prefs=prefs, memo=memo).image


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--hands", type=int, default=1, help="hands per table")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--profile", action="store_true", help="cProfile's top 30 (internal time)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    rng = random.Random(args.seed)
    for job in interleaved(rng, args.tables, args.hands):  # warm-up: pieces, stamps, catalogs
        build(job)
    jobs = interleaved(rng, args.tables, args.hands)
    whole, text = [], []
    for job in jobs:
        start = time.process_time()
        build(job)
        middle = time.process_time()
        build(job)  # the memo holds this image now: the words alone
        end = time.process_time()
        whole.append((middle - start) * 1000)
        text.append((end - middle) * 1000)
    print(
        f"{len(jobs)} panels of {args.tables} tables x {args.hands} hands: cpu ms"
        f" median {statistics.median(whole):.3f}, mean {statistics.mean(whole):.3f};"
        f" text alone median {statistics.median(text):.3f}, mean {statistics.mean(text):.3f}"
    )
    if args.profile:
        jobs = interleaved(rng, args.tables, args.hands)
        profiler = cProfile.Profile()
        profiler.enable()
        for job in jobs:
            build(job)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
