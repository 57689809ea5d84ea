"""The bot side of the load benchmark: a real ShengjiBot aimed at a fake Discord.

Started by ``bench.load_bench`` in its own process, so the bot has one core to
itself and its CPU time can be measured apart from the fake and the simulated
players. Only the two documented class attributes are pointed at the fake.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
from pathlib import Path

import discord
import yarl

from bot.app import ShengjiBot
from bot.store import Store


async def main(api: str, gateway: str, db: Path, token: str) -> None:
    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    store = await Store.open(db)
    bot = ShengjiBot(store, guild_ready_timeout=0.01)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)

    async def closer() -> None:
        await stop.wait()
        await bot.close()

    watcher = asyncio.create_task(closer())
    async with bot:
        await bot.start(token)
    watcher.cancel()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--api", required=True)
    parser.add_argument("--gateway", required=True)
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--token", default="fake-bot-token")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    asyncio.run(main(args.api, args.gateway, args.db, args.token))
