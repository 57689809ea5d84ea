"""A bot's own entry point in a process of its own, aimed at a fake Discord.

``python -m fakediscord.run MODULE:FUNCTION API_BASE GATEWAY_URL`` sets the two
class attributes that :func:`~.harness.point_discord_py_at` sets, then imports and
calls ``FUNCTION()`` and exits with what it returns. Everything else (configuration
from the environment, the store, the shutdown on SIGTERM) is the bot's production
code, and the fake stays free of any bot's imports: the caller names the entry point.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import discord
import yarl

from .server import FakeDiscord


def spawn(
    fake: FakeDiscord,
    entry: str,
    env: Mapping[str, str],
    cwd: Path,
    **popen: Any,
) -> subprocess.Popen[bytes]:
    """Start ``entry`` (``"module:function"``) in a child process connected to ``fake``.

    ``env`` is added to this process's environment (the bot's token, database, ...);
    ``popen`` goes to :class:`subprocess.Popen` (``stderr=subprocess.PIPE``, say).
    """
    return subprocess.Popen(
        [sys.executable, "-m", "fakediscord.run", entry, fake.api_base, fake.gateway_url],
        cwd=cwd,
        env={**os.environ, **env},
        **popen,
    )


def main(argv: list[str]) -> int:
    entry, api_base, gateway_url = argv
    module, _, name = entry.partition(":")
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    run: Callable[[], int] = getattr(importlib.import_module(module), name)
    return run()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
