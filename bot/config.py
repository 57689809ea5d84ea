"""Configuration from the environment or a ``.env`` file in the working directory.

| variable | meaning | default |
|---|---|---|
| ``DISCORD_TOKEN`` | the bot token (required to connect) | — |
| ``SHENGJI_DB`` | a SQLite file (``path``, ``sqlite:///path``) or ``postgresql://…`` | see below |
| ``SHENGJI_DEV_GUILD`` | a guild id to sync commands to instantly while developing | — |
| ``SHENGJI_LOG`` | log level | ``INFO`` |
| ``SHENGJI_SHARDS`` | the total number of Discord shards (several processes) | — |
| ``SHENGJI_SHARD_IDS`` | this process's shards: ``0-3``, ``0,2`` (needs the total) | all |
| ``SHENGJI_LEASE_SECONDS`` | how long a table's lease lasts without renewal | ``30`` |
| ``SHENGJI_MAX_TABLES`` | live tables per server (its ``max_tables`` may lower it) | ``25`` |
| ``SHENGJI_MAX_TABLES_PER_HOST`` | live tables one user hosts, over every server | ``3`` |
| ``SHENGJI_COMMANDS`` | slash commands per user per ``SHENGJI_COMMAND_WINDOW`` | ``30`` |
| ``SHENGJI_COMMAND_WINDOW`` | that window, in seconds | ``10`` |
| ``SHENGJI_RETENTION_DAYS`` | days a closed table's action log is kept | ``30`` |
| ``SHENGJI_PRUNE_EVERY`` | seconds between two prunings of old action logs | ``21600`` |

``SHENGJI_DB`` defaults to ``shengji.sqlite3`` in the working directory.
Without ``SHENGJI_SHARDS`` the bot is one process driving every table. With it,
the process runs those shards of the total (all of them without
``SHENGJI_SHARD_IDS``) and only its own shards' tables, each fenced by a lease.
A bad value is a ``ConfigError`` at start-up, before anything connects.

The environment wins over ``.env``. The ``.env`` reader is deliberately small
(``KEY=value`` lines, ``#`` comments, optional quotes) rather than a dependency.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bot.service.table import Limits

NO_TOKEN_HELP = """\
No Discord token found. To run the bot, create an application at
https://discord.com/developers/applications, add a Bot to it, copy its token and
put it in the environment (export DISCORD_TOKEN=...) or in a file named .env in
this directory (DISCORD_TOKEN=...). Invite the bot with the "bot" and
"applications.commands" scopes and the Send Messages, Embed Links, Attach Files,
Create Public Threads and Send Messages in Threads permissions; it needs no
privileged intents. To play without Discord, run: python -m bot play"""


class ConfigError(ValueError):
    """A setting the bot cannot start with; the message says which and why."""


@dataclass(frozen=True)
class Config:
    token: str | None
    db: str  # an absolute SQLite path, or a postgresql:// URL (see ``database_location``)
    dev_guild: int | None
    log_level: str
    shard_count: int | None = None  # None: one process, no sharding, every table
    shard_ids: tuple[int, ...] | None = None  # this process's shards (with shard_count)
    lease_seconds: float = 30.0
    limits: Limits = field(default_factory=Limits)


#: ``Limits`` from the environment: (variable, field, a whole number?, lowest, highest)
LIMIT_VARIABLES: tuple[tuple[str, str, bool, float, float], ...] = (
    ("SHENGJI_MAX_TABLES", "tables_per_guild", True, 1, 100_000),
    ("SHENGJI_MAX_TABLES_PER_HOST", "tables_per_host", True, 1, 100_000),
    ("SHENGJI_COMMANDS", "commands", True, 1, 100_000),
    ("SHENGJI_COMMAND_WINDOW", "command_window", False, 1, 3600),
    ("SHENGJI_RETENTION_DAYS", "retention_days", False, 0, 36_500),
    ("SHENGJI_PRUNE_EVERY", "prune_every", False, 60, 7 * 86_400),
)


def parse_limits(env: dict[str, str]) -> Limits:
    """The ``SHENGJI_*`` limits that are set, over ``Limits``' defaults."""
    given: dict[str, Any] = {}
    for variable, name, whole, low, high in LIMIT_VARIABLES:
        text = env.get(variable, "").strip()
        if not text:
            continue
        try:
            number: float = int(text) if whole else float(text)
        except ValueError:
            number = low - 1
        if not low <= number <= high:  # NaN fails too
            kind = "a whole number" if whole else "a number"
            raise ConfigError(f"{variable} must be {kind} from {low:g} to {high:g}: {text!r}")
        given[name] = number
    return replace(Limits(), **given)


def parse_shards(total: str, ids: str) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHENGJI_SHARDS`` and ``SHENGJI_SHARD_IDS`` as (count, this process's shard ids)."""
    total, ids = total.strip(), ids.strip()
    if not total:
        if ids:
            raise ConfigError(
                "SHENGJI_SHARD_IDS needs SHENGJI_SHARDS (the total number of shards)."
            )
        return None, None
    if not total.isdigit() or int(total) < 1:
        raise ConfigError(f"SHENGJI_SHARDS must be a whole number of shards, at least 1: {total!r}")
    count = int(total)
    if not ids:
        return count, tuple(range(count))
    chosen: set[int] = set()
    for part in ids.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ConfigError(
                f"SHENGJI_SHARD_IDS takes shard numbers and ranges like 0-3 or 0,2: {ids!r}"
            )
        low, high = int(first), int(last) if dash else int(first)
        if low > high or high >= count:
            raise ConfigError(
                f"SHENGJI_SHARD_IDS {part.strip()!r} is not within the {count} shard(s)"
                f" 0-{count - 1}."
            )
        chosen.update(range(low, high + 1))
    return count, tuple(sorted(chosen))


def format_shards(shards: Collection[int]) -> str:
    """``0,1,2,3,6`` as ``0-3,6``: the inverse of ``parse_shards``, as an operator writes it."""
    runs: list[list[int]] = []
    for shard in sorted(shards):
        if runs and shard == runs[-1][-1] + 1:
            runs[-1].append(shard)
        else:
            runs.append([shard])
    return ",".join(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


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
    count, ids = parse_shards(env.get("SHENGJI_SHARDS", ""), env.get("SHENGJI_SHARD_IDS", ""))
    lease = env.get("SHENGJI_LEASE_SECONDS", "").strip() or "30"
    try:
        lease_seconds = float(lease)
    except ValueError:
        lease_seconds = 0.0
    if not 3 <= lease_seconds <= 3600:
        raise ConfigError(
            f"SHENGJI_LEASE_SECONDS must be a number of seconds, 3 to 3600: {lease!r}"
        )
    return Config(
        token=(env.get("DISCORD_TOKEN") or "").strip() or None,
        db=database_location(env.get("SHENGJI_DB", ""), cwd),
        dev_guild=int(guild) if guild.isdigit() else None,
        log_level=env.get("SHENGJI_LOG", "INFO").upper(),
        shard_count=count,
        shard_ids=ids,
        lease_seconds=lease_seconds,
        limits=parse_limits(env),
    )
