"""Run the production entry point (``app.run_discord``) against a fake Discord.

``python -m bench.load_bot API_BASE GATEWAY_URL`` with ``DISCORD_TOKEN`` and
``SHENGJI_DB`` in the environment. Only the two documented class attributes are
pointed at the fake; everything else (configuration, migrations, restoring
tables, the SIGTERM shutdown) is exactly what ``python -m bot`` does. Used by the
load benchmark (the bot in its own process, on its own core) and by the test of
the graceful shutdown.
"""

from __future__ import annotations

import sys

import discord
import yarl

from app import run_discord

if __name__ == "__main__":
    discord.http.Route.BASE = sys.argv[1]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
    sys.exit(run_discord())
