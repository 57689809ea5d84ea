"""Run the production entry point (``app.run_discord``) against a fake Discord.

``python -m bench.load_bot API_BASE GATEWAY_URL`` with ``DISCORD_TOKEN`` and
``SHENGJI_DB`` in the environment. Only the two documented class attributes are
pointed at the fake; everything else (configuration, migrations, restoring
tables, the SIGTERM shutdown) is exactly what ``python -m bot`` does. Used by the
load benchmark (the bot in its own process, on its own core) and by the test of
the graceful shutdown. With ``LOAD_PROFILE=FILE`` the run is profiled (cProfile,
the event loop's thread) and the stats written to FILE when the bot stops.
"""

from __future__ import annotations

import cProfile
import os
import sys

import discord
import yarl

from app import run_discord


def main() -> int:
    discord.http.Route.BASE = sys.argv[1]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
    profile = os.environ.get("LOAD_PROFILE")
    if not profile:
        return run_discord()
    profiler = cProfile.Profile()
    try:
        return profiler.runcall(run_discord)
    finally:
        profiler.dump_stats(profile)


if __name__ == "__main__":
    sys.exit(main())
