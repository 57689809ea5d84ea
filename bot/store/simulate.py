"""Whole matches between computer players, written to a database with the real Store.

This is what ``python -m bot simulate --db PATH`` calls (``simulate_into``): every
action goes through ``Match.apply`` and ``Store.append_action``, every hand through
``record_hand``, every match end through ``record_match_end``, exactly as the table
service does, so the file can be inspected, and the leaderboards and /history read,
without Discord.

``computer_action`` is the one-step driver shared by the simulator, the benchmark
and the restart tests: deal one card at a time, let seats bid now and then, close
the bidding, and let ``decide`` (default ``fallback_action``) bury and play.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.game import (
    SYSTEM,
    Action,
    Declare,
    HandResult,
    HandScored,
    HandStarted,
    Match,
    Phase,
    SeatView,
    action_to_dict,
    fallback_action,
)
from bot.game.driver import Decider, Driver, Turn, next_step, system_action
from bot.rules import DEFAULT_RULES, RulesError, RuleSet

from .models import SeatInfo
from .store import Store

Decide = Callable[[SeatView], Action]
DEFAULT_NAMES = ("North", "West", "South", "East")  # counter-clockwise, as play goes
BID_CHANCE = 0.05  # per deal step: enough that most hands get a trump suit


def computer_action(
    match: Match, rng: random.Random, decide: Decide | None = None
) -> tuple[int, Action] | None:
    """The next (seat, action) for a table of random bidders, or None when over.

    The table procedure is ``bot.game.driver``'s; the bidders are random: during
    the deal a random seat with a legal bid declares it with a small chance per
    step, so hands get trump suits and overcalls as at a real table. A ``decide``
    that errs falls back to ``fallback_action``; the caller still applies the
    action and sees any error.
    """
    if match.phase is Phase.DEAL and rng.random() < BID_CHANCE:
        seats = [0, 1, 2, 3]
        rng.shuffle(seats)
        for seat in seats:
            bids = match.legal_bids(seat)
            if bids:
                return seat, Declare(rng.choice(bids).cards)
    step = next_step(match)
    if isinstance(step, Turn):
        view = match.view(step.seat)
        if decide is not None:
            try:
                return step.seat, decide(view)
            except (RulesError, ValueError, TypeError, KeyError, IndexError):
                pass
        return step.seat, fallback_action(view)
    system = system_action(step)
    return None if system is None else (SYSTEM, system)


@dataclass
class SimulationResult:
    """What ``simulate_into`` wrote."""

    tables: list[int] = field(default_factory=list)
    hands: list[int] = field(default_factory=list)
    results: list[HandResult] = field(default_factory=list)  # the hands' scores, in order
    matches_finished: int = 0
    actions: int = 0


def _seats(players: Sequence[str | SeatInfo] | None) -> list[SeatInfo]:
    chosen = list(players) if players is not None else list(DEFAULT_NAMES)
    if len(chosen) != 4:
        raise ValueError(f"a simulation needs 4 players, not {len(chosen)}")
    return [
        p if isinstance(p, SeatInfo) else SeatInfo.human(1 + i, p, auto=True)
        for i, p in enumerate(chosen)
    ]


async def simulate(
    store: Store,
    *,
    hands: int | None = None,
    matches: int | None = None,
    seed: int = 0,
    players: Sequence[str | SeatInfo] | None = None,
    rules: RuleSet | None = None,
    decide: Decide | None = None,
    deciders: Sequence[Decider | None] | None = None,
    guild_id: int = 0,
    channel_id: int = 0,
) -> SimulationResult:
    """Play and record matches into an open store until ``hands`` or ``matches`` are done.

    Players given by name sit as humans on autoplay with user ids 1-4 in
    ``guild_id``, so the records show on the leaderboards; pass ``SeatInfo`` values
    to choose ids or seat bots. Match n uses seed ``seed + n``. When the hand budget
    runs out mid-match, that table is closed as ``aborted`` (its hands stay).
    With neither budget given, one match is played. ``deciders`` (one per seat,
    e.g. computer players' ``act``) bid and play through the table procedure of
    ``bot.game.driver``; without them seats bid at random and play ``decide``.
    """
    if hands is None and matches is None:
        matches = 1
    seats = _seats(players)
    rules = rules or DEFAULT_RULES
    out = SimulationResult()
    n = 0
    while (hands is None or len(out.hands) < hands) and (
        matches is None or out.matches_finished < matches
    ):
        match_seed = seed + n
        n += 1
        rng = random.Random(f"simulate/{match_seed}")
        match = Match.new(match_seed, rules)
        table = await store.create_table(
            guild_id, channel_id, 0, rules, match_seed, seats, None, time.time()
        )
        out.tables.append(table)
        await store.save_snapshot(table, 0, match.to_dict())
        driver = Driver(match)
        while (
            step := driver.next_action(deciders)
            if deciders is not None
            else computer_action(match, rng, decide)
        ) is not None:
            seat, action = step
            events = match.apply(seat, action)
            driver.observe(events)
            await store.append_action(table, match.seq, seat, action_to_dict(action), time.time())
            out.actions += 1
            if any(isinstance(e, HandStarted) for e in events):
                # a hand boundary with no bids yet: the cheapest state to restore from
                await store.save_snapshot(table, match.seq, match.to_dict())
            if any(isinstance(e, HandScored) for e in events):
                assert match.result is not None
                hand = await store.record_hand(
                    table, match.result, match.tricks, seats, time.time()
                )
                out.hands.append(hand)
                out.results.append(match.result)
                if hands is not None and len(out.hands) >= hands and match.phase != Phase.OVER:
                    break
        if match.phase == Phase.OVER:
            await store.record_match_end(table, match.winner_team, time.time())
            await store.close_table(table, "finished", time.time())
            out.matches_finished += 1
        else:
            await store.close_table(table, "aborted", time.time())
    return out


def simulate_into(
    path: str | Path,
    hands: int | None = None,
    seed: int = 0,
    players: Sequence[str | SeatInfo] | None = None,
    *,
    matches: int | None = None,
    rules: RuleSet | None = None,
    deciders: Sequence[Decider | None] | None = None,
) -> SimulationResult:
    """Synchronous entry point for the CLI: open ``path``, ``simulate``, close.

    Raises ``StoreError`` for a file it must not use.
    """

    async def run() -> SimulationResult:
        store = await Store.open(path)
        try:
            return await simulate(
                store,
                hands=hands,
                matches=matches,
                seed=seed,
                players=players,
                rules=rules,
                deciders=deciders,
            )
        finally:
            await store.close()

    return asyncio.run(run())
