"""Load: many tables playing whole hands at once through the real client and the fake.

Run: ``python3 -m bench.load_bench --tables 400 --think 0 --json`` (about four minutes).
The tables are spread over servers of 20, under the bot's limit of live tables
in one server.

Two processes, as in production where Discord's servers are elsewhere: this one
runs the fake Discord and the simulated players; ``fakediscord.run`` runs the real
bot on its own core. Each table seats ``--humans`` simulated players and computer
players in the other seats (at the production pace, 1.2 s a play; ``--level``
chooses them, ``expert`` searching 250 ms a play as at a table). A simulated
player works like a person with the DM panel: when a "your turn" panel arrives it
reads its hand, the trump and the cards on the table from the panel, waits
``--think`` seconds and answers with ``/shengji play`` (a legal play chosen with
the rules library).

The "your turn" DM is posted only once a turn has waited 10 s with its panel shown
(``cogs.pacing.PING_AFTER``, reported as ``turn_notice_after_s``), so with
``--think 0`` (and any think under 10 s) no notice is ever posted or deleted;
``--think 12`` gives every human turn its notice and its deletion, the cost of
players who look away (``dm_posts`` and
``dm_deletes`` in the breakdown).

Reported: interactions per second, acknowledgement latency p50/p99 (from the fake
dispatching the interaction to the bot's first response), "your turn" delivery
p50/p99 (``turn_*_s``: from the fake dispatching one simulated player's play to
the next player's panel reaching the fake ready to play it; measured where one
simulated player hands the turn to another, since a computer player's play is
not visible to the fake as one moment), hands finished, the bot's CPU use (100% =
one core), its CPU milliseconds per interaction (the computer players' turns and
all the presenter's drawing included), its Discord requests per interaction,
also by kind (``requests_per_interaction_by_kind``: DM edits with and without an
image, thread edits, posts, deletes, interaction responses, follow-ups; a bot
that keeps up sends every edit, a saturated one coalesces more of them, so CPU
per interaction is read beside this mix) and its memory per table (resident set
size). ``--json`` prints the same as one JSON object on the last line.

Profiling: ``--profile FILE`` runs the bot under cProfile (its event loop's
thread; renders run in the presenter's render thread, which ``py-spy record -p
PID`` sees too) and writes the stats there at its shutdown.

Scale: ``--processes 2 --db postgresql`` runs two bot processes as in
production (``SHENGJI_SHARDS=2``, one shard each, the fake routing each server
to its shard) over an embedded PostgreSQL server (``bot.store.pglocal``,
``fsync=on``) started for the run; ``--db URL`` uses an empty database instead.
The bot's CPU and memory are then the processes' sum.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from bot.rules import (
    Card,
    RuleSet,
    Trump,
    follow_candidates,
    order_for,
    parse_cards,
)
from bot.store import GuildSettings, Store
from bot.store.pglocal import LocalPostgres
from cogs.pacing import PING_AFTER
from fakediscord import FakeDiscord, UserDriver
from fakediscord.clock import VirtualClock
from fakediscord.http import RequestRecord
from fakediscord.run import spawn
from fakediscord.state import Channel, Guild, User

from .loop_watch import summary as stall_summary

TIMERS = {
    "bid_window": 2.0,
    "deal_pace": 0.6,
    "deal_round": 8,
    "bot_delay": 1.2,
    "next_hand": 3.0,
    "warn_before": 10.0,
}
GUILD_TABLES = 20  # tables per server, under the bot's default limit of live tables in one
PRETTY = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])|大王|小王")
SYMBOL = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
TRUMP = re.compile(r"\*\*Trump:\*\* (?:([♠♥♦♣]) \w+|no trump(?: \(无主\))?) · level (\w+)")


def pretty_cards(text: str) -> list[Card]:
    cards = []
    for found in PRETTY.finditer(text):
        token = found.group(0)
        if token in ("大王", "小王"):
            cards += parse_cards("BJ" if token == "大王" else "SJ")
        else:
            rank = "T" if found.group(1) == "10" else found.group(1)
            cards += parse_cards(rank + SYMBOL[found.group(2)])
    return cards


def decide(content: str, hand: list[Card], rules: RuleSet) -> list[Card]:
    """A legal play read off a panel, as a player would (cheap cards first)."""
    found = TRUMP.search(content)
    assert found, content
    suit = SYMBOL[found.group(1)] if found.group(1) else None
    trump = Trump("T" if found.group(2) == "10" else found.group(2), suit)
    order = order_for(trump, rules)
    cheap = sorted(hand, key=lambda c: (order.is_trump(c), c.points, order.tier[c]))
    if "bury" in content and "dealer" in content:
        return cheap[: rules.kitty_size]
    if "Your lead" in content:
        return cheap[:1]
    table = next(line for line in content.splitlines() if line.startswith("On the table:"))
    lead = pretty_cards(table.split(" · ")[0])
    return follow_candidates(hand, lead, trump, rules)[0]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@contextlib.asynccontextmanager
async def launch_bot(
    timers: dict[str, Any],
    rules: RuleSet | None = None,
    setup: Callable[[FakeDiscord, Guild], None] | None = None,
    profile: str | None = None,
) -> AsyncIterator[tuple[FakeDiscord, Guild, subprocess.Popen[bytes]]]:
    """The fake in this process, the bot (``fakediscord.run``) in its own, connected.

    ``setup(fake, guild)`` builds channels, users (and more guilds, each given the
    same settings) before the bot connects. On exit the bot gets SIGTERM (its
    graceful shutdown) while the fake still answers.
    ``profile``: a file for the bot's cProfile stats.
    """
    async with launch_bots(timers, rules, setup, profile) as (fake, guild, bots):
        yield fake, guild, bots[0]


@contextlib.asynccontextmanager
async def launch_bots(
    timers: dict[str, Any],
    rules: RuleSet | None = None,
    setup: Callable[[FakeDiscord, Guild], None] | None = None,
    profile: str | None = None,
    processes: int = 1,
    db: str = "sqlite",
    stalls: str | None = None,
) -> AsyncIterator[tuple[FakeDiscord, Guild, list[subprocess.Popen[bytes]]]]:
    """As ``launch_bot``, with ``processes`` bots over one database (``database``).

    ``stalls``: a folder where each bot writes its long callbacks and collections
    (``bench.loop_watch``) at shutdown.

    Several processes run as in production: ``SHENGJI_SHARDS=processes``, process
    ``i`` on shard ``i``, and the fake routes each server to its shard.
    """
    folder = Path(tempfile.mkdtemp())
    async with database(db, folder) as location:
        store = await Store.open(location)
        fake = FakeDiscord(clock=VirtualClock(realtime=True), max_log=20_000)
        await fake.start()
        guild = fake.create_guild("load")
        if setup is not None:
            setup(fake, guild)
        for each in fake.guilds.values():
            await store.save_guild_settings(each.id, GuildSettings(rules or RuleSet(), timers))
        await store.close()
        sharded = processes > 1
        shards = [
            {"SHENGJI_SHARDS": str(processes), "SHENGJI_SHARD_IDS": str(i)} if sharded else {}
            for i in range(processes)
        ]
        root = Path(__file__).resolve().parent.parent
        env = {"DISCORD_TOKEN": fake.token, "SHENGJI_DB": location, "SHENGJI_LOG": "WARNING"}
        bots = [
            spawn(
                fake,
                "bench.load_bot:main",
                {
                    **env,
                    **({"LOAD_PROFILE": f"{profile}.{i}" if i else profile} if profile else {}),
                    **({"LOAD_STALLS": f"{stalls}/{i}.jsonl"} if stalls else {}),
                    **shards[i],
                },
                root,
            )
            for i in range(processes)
        ]
        try:
            # commands are synced before the gateway connects: wait for every process
            await fake.wait_for(
                lambda: fake.commands and fake.gateway.identifies >= processes, timeout=60
            )
            await asyncio.sleep(0.5)  # READY and GUILD_CREATE reach the clients
            yield fake, guild, bots
        finally:
            for bot in bots:
                bot.terminate()
            for bot in bots:
                await asyncio.to_thread(bot.wait, 60)
            await fake.stop()


@contextlib.asynccontextmanager
async def database(db: str, folder: Path) -> AsyncIterator[str]:
    """``sqlite`` (a file), ``postgresql`` (an embedded server for the run, fsync on) or a URL."""
    if db == "sqlite":
        yield str(folder / "load.sqlite3")
    elif db == "postgresql":
        server = await asyncio.to_thread(LocalPostgres.start, {"fsync": "on"})
        try:
            yield server.url()
        finally:
            await asyncio.to_thread(server.stop)
    else:
        yield db


async def run(
    tables: int,
    humans: int,
    seconds: float,
    think: float,
    profile: str | None = None,
    processes: int = 1,
    db: str = "sqlite",
    stalls: bool = False,
    level: str = "normal",
) -> dict[str, Any]:
    rules = RuleSet(play_seconds=600, kitty_seconds=600)
    channels: list[Channel] = []
    users: list[list[User]] = []

    def setup(fake: FakeDiscord, first: Guild) -> None:
        # a server may hold only so many live tables (Limits.tables_per_guild): spread them
        guilds = [first]
        for i in range(tables):
            if i and i % GUILD_TABLES == 0:
                guilds.append(fake.create_guild(f"load{len(guilds)}"))
            guild = guilds[-1]
            channels.append(fake.create_text_channel(guild, f"t{i}"))
            users.append([fake.create_user(f"u{i}x{j}", guild=guild) for j in range(humans)])

    watched = tempfile.mkdtemp() if stalls else None
    async with launch_bots(TIMERS, rules, setup, profile, processes, db, watched) as (
        fake,
        _,
        bots,
    ):
        result = await _play(fake, bots, channels, users, rules, humans, seconds, think, level)
    until = time.time()
    if watched is not None:  # the bots wrote their stalls at shutdown
        events = [
            json.loads(line)
            for path in Path(watched).iterdir()
            for line in path.read_text().splitlines()
        ]
        result |= stall_summary(events, until - result["seconds"], until)
    return result


async def _play(
    fake: FakeDiscord,
    bots: list[subprocess.Popen[bytes]],
    channels: list[Channel],
    users: list[list[User]],
    rules: RuleSet,
    humans: int,
    seconds: float,
    think: float,
    level: str = "normal",
) -> dict[str, Any]:
    tables = len(channels)
    driver = UserDriver(fake, timeout=120)
    latencies: list[float] = []
    acked_at: list[float] = []  # the fake's clock when each was acknowledged
    turns: list[float] = []  # "your turn" delivery, seconds
    played_at: list[dict[int, float]] = [{} for _ in channels]  # table -> seq -> sent at
    failures = 0
    idle_rss = sum(rss_kb(bot.pid) for bot in bots)

    async def slash(user, channel, name, options=None) -> None:
        nonlocal failures
        handle = driver.send_slash(f"shengji {name}", user, channel, options)
        try:
            await handle
            latencies.append(handle.ack_latency)
            acked_at.append(fake.clock.time())
            if name != "play":
                # acknowledged is not done: the table exists once the answer comes
                # (a /join sent right after /new's acknowledgement found no table)
                await handle.wait_followups(1)
        except Exception as exc:
            failures += 1
            print(f"interaction failed: {exc!r}"[:300], file=sys.stderr)

    for i, channel in enumerate(channels):
        await slash(users[i][0], channel, "new")
        for user in users[i][1:]:
            await slash(user, channel, "join")
        for _ in range(4 - humans):
            await slash(users[i][0], channel, "addbot", {"level": level})
    latencies.clear()
    acked_at.clear()

    async def start_later(i: int) -> None:
        # players press Start over ten seconds, not all in the same millisecond
        await asyncio.sleep(10.0 * i / tables)
        await slash(users[i][0], channels[i], "start")

    await asyncio.gather(*(start_later(i) for i in range(tables)))
    start = time.perf_counter()
    cpu_start = sum(cpu_seconds(bot.pid) for bot in bots)
    own_start = time.process_time()

    async def player(i: int, j: int) -> None:
        user, channel = users[i][j], channels[i]
        answered: set[str] = set()
        while time.perf_counter() - start < seconds:
            panel = next(
                (
                    m
                    for m in reversed(fake.dms(user))
                    if any(c.endswith((":play", ":bury")) for c in m.custom_ids())
                ),
                None,
            )
            key = panel and next(c for c in panel.custom_ids() if c.endswith((":play", ":bury")))
            if panel is None or key in answered:
                await asyncio.sleep(0.2)
                continue
            answered.add(key)
            seq = int(key.split(":")[-2])
            handed = played_at[i].get(seq - 1)
            if handed is not None:
                turns.append((panel.edited_at or panel.created_at) - handed)
            await asyncio.sleep(think)
            hand = [
                parse_cards(o["value"].split(".")[0])[0]
                for row in panel.components
                for c in row.get("components", [])
                for o in c.get("options", [])
            ]
            cards = decide(panel.content, hand, rules)
            played_at[i][seq] = fake.clock.time()
            await slash(user, channel, "play", {"cards": " ".join(map(str, cards))})

    await asyncio.gather(*(player(i, j) for i in range(tables) for j in range(humans)))
    for bot in bots:
        if bot.poll() is not None:  # its CPU figure would read as zero: say so instead
            raise SystemExit(f"the bot exited (code {bot.returncode}) during the run")
    elapsed = time.perf_counter() - start
    cpu = sum(cpu_seconds(bot.pid) for bot in bots) - cpu_start
    own_cpu = time.process_time() - own_start
    busy_rss = sum(rss_kb(bot.pid) for bot in bots)
    # The fake keeps the last 20,000 requests (``max_log``): fewer than a long run at
    # 400 tables makes, so requests per interaction are counted over the part of the
    # window the log still holds (a count over the whole window read 2.1, not ~6)
    logged = list(fake.requests)
    since = fake.clock.time() - elapsed
    if logged and len(logged) == fake.requests.maxlen:
        since = max(since, logged[0].at)
    window = [r for r in logged if r.at >= since]
    answered = max(1, sum(1 for at in acked_at if at >= since))
    kinds = Counter(request_kind(fake, r) for r in window)
    ids = {c.id for c in channels}
    places = [*channels, *(ch for ch in fake.channels.values() if ch.parent_id in ids)]
    hands = sum(1 for ch in places for m in fake.channel_messages(ch) if "is over" in m.content)
    return {
        "tables": tables,
        "level": level,
        "processes": len(bots),
        "interactions": len(latencies),
        "failed": failures,
        "interactions_per_second": len(latencies) / elapsed,
        "ack_p50_ms": 1000 * quantile(latencies, 0.5),
        "ack_p99_ms": 1000 * quantile(latencies, 0.99),
        "turns_measured": len(turns),
        "turn_p50_s": quantile(turns, 0.5),
        "turn_p99_s": quantile(turns, 0.99),
        # a "your turn" DM is posted only for a turn that waited this long (none at --think 0)
        "turn_notice_after_s": PING_AFTER,
        "hands_finished": hands,
        "bot_cpu_percent": 100 * cpu / elapsed,
        "cpu_ms_per_interaction": 1000 * cpu / max(1, len(latencies)),
        "discord_requests_per_interaction": len(window) / answered,
        "requests_per_interaction_by_kind": {
            kind: n / answered for kind, n in sorted(kinds.items())
        },
        "fake_and_players_cpu_percent": 100 * own_cpu / elapsed,
        "memory_per_table_kb": (busy_rss - idle_rss) / tables,
        "seconds": elapsed,
    }


def request_kind(fake: FakeDiscord, request: RequestRecord) -> str:
    """What a request did, for the breakdown: ``dm_edits_with_image``, ``followups``...

    The bot's CPU per interaction depends on this mix: a bot that keeps up sends
    every edit, a saturated one has more of them coalesced.
    """
    route = request.route or ""
    if route.startswith("/interactions/"):
        return "interaction_responses"
    if route.startswith("/webhooks/"):
        return "followups"
    channel = fake.channels.get(request.channel_id or 0)
    if channel is None:
        return "other"
    place = {1: "dm", 11: "thread", 12: "thread"}.get(channel.type, "channel")
    verb = {"POST": "posts", "PATCH": "edits", "DELETE": "deletes"}.get(request.method, "other")
    return f"{place}_{verb}" + ("_with_image" if request.uploads else "")


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--humans", type=int, default=2, choices=(1, 2, 3, 4))
    parser.add_argument("--seconds", type=float, default=90.0)
    parser.add_argument(
        "--think",
        type=float,
        default=3.0,
        help="seconds a simulated player takes to answer (0: at once)",
    )
    parser.add_argument("--json", action="store_true", help="also print one JSON line last")
    parser.add_argument("--profile", metavar="FILE", help="the bot's cProfile stats, to FILE")
    parser.add_argument(
        "--stalls",
        action="store_true",
        help="time the bot's callbacks and collections (bench.loop_watch; costs CPU)",
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="bot processes, one shard each (with --db)"
    )
    parser.add_argument(
        "--db",
        default="sqlite",
        help="sqlite (a file), postgresql (an embedded server) or an empty database's URL",
    )
    parser.add_argument(
        "--level",
        default="normal",
        choices=("easy", "normal", "expert"),
        help="the computer players' level (expert: searching 250 ms a play, in threads)",
    )
    args = parser.parse_args()
    if args.processes < 1:
        parser.error("--processes takes 1 or more")
    result = asyncio.run(
        run(
            args.tables,
            args.humans,
            args.seconds,
            args.think,
            args.profile,
            args.processes,
            args.db,
            args.stalls,
            args.level,
        )
    )
    report(result)
    if args.json:
        print(json.dumps(result))


def report(result: dict[str, Any]) -> None:
    for key, value in result.items():
        if isinstance(value, dict):
            print(key)
            for part, share in value.items():
                print(f"  {part:24} {share:10.2f}")
        else:
            print(f"{key:26} {value:10.2f}" if isinstance(value, float) else f"{key:26} {value:10}")


if __name__ == "__main__":
    main()
