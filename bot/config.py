"""Configuration from the environment or a ``.env`` file in the working directory.

| variable | meaning | default |
|---|---|---|
| ``DISCORD_TOKEN`` | the bot token (required to connect) | — |
| ``SHENGJI_DB`` | a SQLite file (``path``, ``sqlite:///path``) or ``postgresql://…`` | see below |
| ``SHENGJI_DEV_GUILD`` | a guild id to sync commands to instantly while developing | — |
| ``SHENGJI_LOG`` | log level | ``INFO`` |

``SHENGJI_DB`` defaults to ``shengji.sqlite3`` in the working directory.
The environment wins over ``.env``. The ``.env`` reader is deliberately small
(``KEY=value`` lines, ``#`` comments, optional quotes) rather than a dependency.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

NO_TOKEN_HELP = """\
No Discord token found. To run the bot, create an application at
https://discord.com/developers/applications, add a Bot to it, copy its token and
put it in the environment (export DISCORD_TOKEN=...) or in a file named .env in
this directory (DISCORD_TOKEN=...). Invite the bot with the "bot" and
"applications.commands" scopes and the Send Messages, Embed Links, Attach Files,
Create Public Threads and Send Messages in Threads permissions; it needs no
privileged intents. To play without Discord, run: python -m bot play"""


@dataclass(frozen=True)
class Config:
    token: str | None
    db: str  # an absolute SQLite path, or a postgresql:// URL (see ``database_location``)
    dev_guild: int | None
    log_level: str


def read_env_file(path: Path) -> dict[str, str]:
    """``KEY=value`` pairs from a .env file (missing file: nothing)."""
    values: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return values
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


def database_location(value: str, cwd: Path) -> str:
    """``SHENGJI_DB`` as ``Store.open`` takes it: a PostgreSQL URL as given, else a file.

    A file is a plain path or ``sqlite:///path``; a relative one is relative to the
    working directory, so the bot finds the same file however it is started.
    """
    value = value.strip() or "shengji.sqlite3"
    if value.startswith(("postgresql://", "postgres://")):
        return value
    path = Path(value.removeprefix("sqlite:///"))
    return str(path if path.is_absolute() else cwd / path)


def load_config(cwd: Path | None = None, environ: dict[str, str] | None = None) -> Config:
    cwd = cwd or Path.cwd()
    env = {**read_env_file(cwd / ".env"), **(os.environ if environ is None else environ)}
    guild = env.get("SHENGJI_DEV_GUILD", "").strip()
    return Config(
        token=(env.get("DISCORD_TOKEN") or "").strip() or None,
        db=database_location(env.get("SHENGJI_DB", ""), cwd),
        dev_guild=int(guild) if guild.isdigit() else None,
        log_level=env.get("SHENGJI_LOG", "INFO").upper(),
    )
