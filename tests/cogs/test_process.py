"""The real entry point in its own process: start-up, a table, SIGTERM, restart.

``fakediscord.run`` runs ``app.run_discord`` (what ``python -m bot`` runs)
with discord.py aimed at the fake, so configuration from the environment,
migrations, restoring tables and the graceful shutdown are all the production
code paths.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
from pathlib import Path

from bot.store import Store
from fakediscord import FakeDiscord, UserDriver
from fakediscord.harness import World
from fakediscord.run import spawn

ROOT = Path(__file__).resolve().parents[2]


def _start(fake: FakeDiscord, db: Path) -> subprocess.Popen[bytes]:
    env = {"DISCORD_TOKEN": fake.token, "SHENGJI_DB": str(db), "SHENGJI_LOG": "WARNING"}
    return spawn(fake, "app:run_discord", env, ROOT, stderr=subprocess.PIPE)


async def _ready(fake: FakeDiscord, identifies: int) -> None:
    """Commands synced and the gateway identified: the fake queues READY and GUILD_CREATE
    as it counts the IDENTIFY, so any interaction sent from now on arrives after them."""
    await fake.wait_for(
        lambda: fake.commands and fake.gateway.connected and fake.gateway.identifies > identifies,
        timeout=30,
    )


async def test_sigterm_shuts_down_gracefully_and_a_restart_brings_the_table_back(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "bot.sqlite3"
    process = _start(fake, db)
    try:
        await _ready(fake, 0)
        handle = driver.send_slash("shengji new", world.alice, world.tables)
        await handle
        assert "Table opened" in (await handle.wait_message()).content
        handle = driver.send_slash("shengji addbot", world.alice, world.tables)
        await handle
        process.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(process.wait, 30)
        stderr = process.stderr.read().decode() if process.stderr else ""
        assert code == 0, stderr
        assert "Traceback" not in stderr, stderr
    finally:
        if process.poll() is None:
            process.kill()
    store = await Store.open(db)
    try:
        (live,) = await store.live_tables()
        assert live.channel_id == world.tables.id
        assert [s is not None for s in live.seats] == [True, True, False, False]
    finally:
        await store.close()
    # a new process picks the lobby up where it was
    identifies = fake.gateway.identifies
    process = _start(fake, db)
    try:
        await _ready(fake, identifies)
        handle = driver.send_slash("shengji join", world.bob, world.tables)
        await handle
        assert "seat 3" in (await handle.wait_message()).content
    finally:
        process.send_signal(signal.SIGTERM)
        await asyncio.to_thread(process.wait, 30)
