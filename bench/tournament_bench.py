"""Load: a tournament of computer teams, every first-round table at once, on the real bot.

Run: ``python3 -m bench.tournament_bench --teams 32`` (about three minutes).

As ``bench.load_bench``: the bot runs the production entry point in its own process
against the fake Discord in this one. An organiser creates a tournament, adds
``--teams`` computer teams and starts it: 16 tables open at once, each in its own
thread, playing at the production pace (a computer play every 1.2 s). Meanwhile a
spectator asks for ``/shengji tournament standings`` (a fresh bracket image) every
two seconds. Reported: tables, plays and hands finished, acknowledgement latency
p50/p99 of every command, the bot's CPU (100% = one core) and memory per table.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from bench.load_bench import TIMERS, cpu_seconds, launch_bot, report, rss_kb
from fakediscord import UserDriver

MANAGE_EVENTS = 1 << 33


async def run(teams: int, seconds: float) -> dict[str, float]:
    async with launch_bot(TIMERS) as (fake, guild, bot):
        channel = fake.create_text_channel(guild, "cup")
        organiser = fake.create_user("organiser", guild=guild)
        spectator = fake.create_user("spectator", guild=guild)
        role = fake.create_role(guild, "organisers", MANAGE_EVENTS)
        guild.members[organiser.id].roles.append(role.id)
        driver = UserDriver(fake, timeout=120)
        latencies: list[float] = []

        async def slash(user: Any, name: str, options: dict[str, Any] | None = None) -> None:
            """A command, answered: each is acknowledged at once and answered once done, so
            the next waits for the answer (a start sent before the teams were added raced
            them, and no table opened)."""
            handle = driver.send_slash(f"shengji tournament {name}", user, channel, options)
            await handle
            latencies.append(handle.ack_latency)
            await handle.wait_message()

        await slash(organiser, "create", {"name": "Load Cup", "round_minutes": 600})
        await slash(organiser, "addbots", {"count": teams})
        idle_rss = rss_kb(bot.pid)
        start = time.perf_counter()
        cpu_start = cpu_seconds(bot.pid)
        await slash(organiser, "start")

        def threads() -> list[Any]:
            return [c for c in fake.channels.values() if c.is_thread and c.parent_id == channel.id]

        tables = teams // 2
        await fake.wait_for(lambda: len(threads()) == tables, timeout=120)
        opened = time.perf_counter() - start
        while time.perf_counter() - start < seconds:
            await slash(spectator, "standings")
            await asyncio.sleep(2.0)
        elapsed = time.perf_counter() - start
        cpu = cpu_seconds(bot.pid) - cpu_start
        busy_rss = rss_kb(bot.pid)
        messages = [m for t in threads() for m in fake.channel_messages(t)]
        hands = sum(1 for m in messages if "is over" in m.content)
    ordered = sorted(latencies)
    return {
        "teams": teams,
        "tables": tables,
        "all_tables_open_seconds": opened,
        "table_messages": len(messages),
        "hands_finished": hands,
        "interactions": len(latencies),
        "ack_p50_ms": 1000 * statistics.median(ordered),
        "ack_p99_ms": 1000 * ordered[int(len(ordered) * 0.99)],
        "bot_cpu_percent": 100 * cpu / elapsed,
        "memory_per_table_kb": (busy_rss - idle_rss) / tables,
        "seconds": elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--teams", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=180.0)
    args = parser.parse_args()
    report(asyncio.run(run(args.teams, args.seconds)))


if __name__ == "__main__":
    main()
