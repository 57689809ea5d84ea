"""Two bot processes, shards 0 and 1 of 2, over one PostgreSQL and the fake Discord.

Each process is the production entry point (``app.run_discord``, what ``python -m
bot`` runs, started by ``fakediscord.run``) with ``SHENGJI_SHARDS=2`` and its own
``SHENGJI_SHARD_IDS``; the fake routes each server to its shard as Discord does,
``(guild_id >> 22) % 2``.
A table in a server of each shard plays whole hands (its host on 托管, three
computer players); one process is SIGKILLed mid-hand and restarted: its table
resumes from the database once the dead process's lease expires, with every
logged action still there, while the other process's table plays on untouched; a
process started meanwhile with a wrong range (the other's shard again) touches neither.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.game import Phase
from bot.rules import RuleSet
from bot.store import GuildSettings, LiveTable, Store
from fakediscord import FakeDiscord, UserDriver
from fakediscord.harness import World
from fakediscord.run import spawn
from fakediscord.state import Channel, User
from tests.store.conftest import fresh_database, pg_server  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
LEASE = 3  # seconds: the shortest SHENGJI_LEASE_SECONDS takes
TIMERS = {
    "bid_window": 0.5,
    "deal_pace": 0.0,
    "deal_round": 100,
    "bot_delay": 0.05,
    "next_hand": 0.5,
    "warn_before": 10.0,
}

pytestmark = pytest.mark.slow


def _start(fake: FakeDiscord, url: str, shard: int, log: Path) -> subprocess.Popen[bytes]:
    env = {
        "DISCORD_TOKEN": fake.token,
        "SHENGJI_DB": url,
        "SHENGJI_LOG": "INFO",
        "SHENGJI_SHARDS": "2",
        "SHENGJI_SHARD_IDS": str(shard),
        "SHENGJI_LEASE_SECONDS": str(LEASE),
    }
    with log.open("ab") as out:
        return spawn(fake, "app:run_discord", env, ROOT, stderr=out)


async def _until(check: Callable[[], object], timeout: float, every: float = 0.2) -> None:
    """Wait until ``await check()`` (or ``check()``) is true, in real time."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        result = check()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return
        assert loop.time() < deadline, f"timed out after {timeout} s"
        await asyncio.sleep(every)


async def _open(driver: UserDriver, host: User, channel: Channel) -> None:
    """A table with its host on 托管 and three computer players, started."""
    for name in ("new", "addbot", "addbot", "addbot", "start", "auto"):
        handle = driver.send_slash(f"shengji {name}", host, channel)
        await handle
        await handle.wait_message()


async def _live(store: Store) -> dict[int, LiveTable]:
    return {live.guild_id: live for live in await store.live_tables()}


async def _owners(store: Store) -> dict[str, str]:
    return {lease.resource: lease.owner for lease in await store.leases("table:")}


async def test_two_processes_share_the_work_and_a_killed_one_resumes_its_tables(
    fake_discord: FakeDiscord,
    world: World,
    driver: UserDriver,
    tmp_path: Path,
    pg_server,  # noqa: F811
) -> None:
    fake = fake_discord
    url = await fresh_database(pg_server)
    here = (world.guild.id >> 22) % 2
    other = fake.create_guild("Other", shard=(1 - here, 2))
    other_tables = fake.create_text_channel(other, "tables")
    fake.add_member(other, world.bob)
    guilds = {
        here: (world.guild, world.tables, world.alice),
        1 - here: (other, other_tables, world.bob),
    }
    store = await Store.open(url)  # also creates the schema before the bots start
    for guild, _, _ in guilds.values():
        await store.save_guild_settings(guild.id, GuildSettings(RuleSet(), dict(TIMERS)))
    logs = {shard: tmp_path / f"shard{shard}.log" for shard in (0, 1)}
    bots = {shard: _start(fake, url, shard, logs[shard]) for shard in (0, 1)}
    try:
        await _until(lambda: fake.commands and fake.gateway.identifies >= 2, 60)
        await asyncio.sleep(2.5)  # discord.py's guild_ready_timeout before it takes interactions
        for _, channel, host in guilds.values():
            await _open(driver, host, channel)
        gid = {shard: guilds[shard][0].id for shard in (0, 1)}

        async def hands(shard: int, at_least: int) -> bool:
            live = (await _live(store)).get(gid[shard])
            return live is not None and live.hands_recorded >= at_least

        # both tables play whole hands, each driven by the process of its shard
        await _until(lambda: hands(0, 1), 120)
        await _until(lambda: hands(1, 1), 120)
        tables = {shard: (await _live(store))[gid[shard]].table_id for shard in (0, 1)}
        owners = await _owners(store)
        assert owners[f"table:{tables[0]}"] != owners[f"table:{tables[1]}"]
        untouched_owner = owners[f"table:{tables[1]}"]

        # shard 0's process dies mid-hand (SIGKILL: no shutdown, its lease left to expire)
        async def mid_hand() -> bool:
            live = (await _live(store))[gid[0]]
            match = await store.restore(live)
            return match.phase is Phase.PLAY and len(match.tricks) >= 2

        await _until(mid_hand, 60, every=0.05)
        bots[0].send_signal(signal.SIGKILL)
        await asyncio.to_thread(bots[0].wait, 30)
        killed = await store.action_log(tables[0])
        hands_killed = (await _live(store))[gid[0]].hands_recorded
        other_seq = (await _live(store))[gid[1]].last_seq

        # the other process's table never notices: it plays on while shard 0 is down
        await _until(lambda: _seq_past(store, gid[1], other_seq + 20), 60)
        assert (await store.action_log(tables[0])) == killed  # nobody drove the orphan

        # a process started with a wrong range (shard 1 again, while shard 0 is down)
        # drives neither shard 0's orphan (not its shard) nor shard 1's table (leased)
        identifies = fake.gateway.identifies
        wrong_log = tmp_path / "wrong.log"
        wrong = _start(fake, url, 1, wrong_log)
        try:
            await _until(lambda: fake.gateway.identifies > identifies, 60)
            await asyncio.sleep(LEASE + 1)  # the orphan's lease has run out meanwhile
            assert (await store.action_log(tables[0])) == killed
            assert (await _owners(store))[f"table:{tables[1]}"] == untouched_owner
        finally:
            wrong.send_signal(signal.SIGTERM)
            await asyncio.to_thread(wrong.wait, 30)
        assert "Traceback" not in wrong_log.read_text()

        identifies = fake.gateway.identifies
        bots[0] = _start(fake, url, 0, logs[0])
        await _until(lambda: fake.gateway.identifies > identifies, 60)
        # its table resumes once the dead process's lease expires, from the logged actions
        await _until(lambda: _seq_past(store, gid[0], len(killed) + 20), 60)
        await _until(lambda: hands(0, hands_killed + 1), 120)
        resumed = await store.action_log(tables[0])
        assert resumed[: len(killed)] == killed  # nothing lost, nothing rewritten
        assert [seq for seq, _, _ in resumed] == list(range(1, len(resumed) + 1))
        owners = await _owners(store)
        assert owners[f"table:{tables[1]}"] == untouched_owner
        assert bots[1].poll() is None
        live = await _live(store)
        assert set(live) == {gid[0], gid[1]}  # neither table was closed
        other_log = await store.action_log(tables[1])
        assert [seq for seq, _, _ in other_log] == list(range(1, len(other_log) + 1))
    finally:
        for bot in bots.values():
            if bot.poll() is None:
                bot.send_signal(signal.SIGTERM)
        for bot in bots.values():
            await asyncio.to_thread(bot.wait, 30)
        await store.close()
    for shard in (0, 1):
        text = logs[shard].read_text()
        assert "Traceback" not in text, text[-3000:]
    assert f"shard={here} table=" in logs[here].read_text()  # the log fields, in production


async def _seq_past(store: Store, guild_id: int, seq: int) -> bool:
    live = {t.guild_id: t for t in await store.live_tables()}.get(guild_id)
    return live is not None and live.last_seq >= seq
