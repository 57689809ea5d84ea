"""/shengji status through the fake Discord: admins only, the process's shards, tables and
store latency, in the admin's language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.client import ShardedShengjiBot
from bot.config import format_shards
from bot.service.fencing import Fence
from bot.store import Store
from fakediscord.driver import UserDriver
from fakediscord.harness import World
from fakediscord.state import User

from .helpers import Env


def _admin(world: World, users: dict[int, User]) -> User:
    return next(u for u in users.values() if u.id == world.guild.owner_id)


async def _status(driver: UserDriver, world: World, user: User) -> str:
    handle = driver.send_slash("shengji status", user, world.tables)
    await handle
    message = await handle.wait_message()
    assert message.ephemeral_for == user.id
    return message.content or f"{message.embeds[0]['title']}\n{message.embeds[0]['description']}"


async def _identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
    return None


async def test_status_is_for_admins_and_shows_the_process(shengji: Env) -> None:
    env = shengji
    alice, bob = env.users[0], env.users[1]
    assert alice.id != env.world.guild.owner_id and bob.id != env.world.guild.owner_id
    refused = await _status(env.driver, env.world, bob)
    assert refused == "Only server admins (Manage Server) can see the bot's status."

    await env.reply(alice, "new")
    admin = _admin(env.world, env.fake.users)
    text = await _status(env.driver, env.world, admin)
    lines = text.splitlines()
    assert lines[0] == "Bot status"
    assert "Shards: one process serves every server." in lines
    assert "Live tables in this process: 1" in lines
    [latency] = [line for line in lines if line.startswith("Store latency: ")]
    assert float(latency.removeprefix("Store latency: ").removesuffix(" ms")) >= 0

    admin.locale = "zh-CN"
    chinese = await _status(env.driver, env.world, admin)
    assert chinese.startswith("机器人状态") and "本进程进行中的牌桌：1" in chinese


async def test_status_of_a_sharded_process_names_its_shards_and_the_servers(
    tmp_path: Path,
    world: World,
    driver: UserDriver,
    bot_client: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shard = (world.guild.id >> 22) % 4
    store = await Store.open(tmp_path / "shengji.sqlite3")
    fence = Fence.of({shard, (shard + 1) % 4}, 4)
    bot = ShardedShengjiBot(
        store,
        fence=fence,
        shard_count=4,
        shard_ids=sorted(fence.shards),
        guild_ready_timeout=0.01,
        edit_gap=0.0,
    )
    # discord.py pauses 5 s before each further shard's IDENTIFY (Discord's limit); the
    # fake has no such limit, so this process's second shard need not wait (as the harness)
    monkeypatch.setattr(bot, "before_identify_hook", _identify_at_once)
    await bot_client(bot)
    fence.pending.add(999)  # as if another process still held one of its tables
    admin = _admin(world, driver.fake.users)
    text = await _status(driver, world, admin)
    assert f"Shards of this process: {format_shards(fence.shards)} (of 4)" in text
    assert f"This server is on shard {shard}." in text
    assert "Live tables in this process: 0" in text
    assert "Tables still held by another process: 1" in text
