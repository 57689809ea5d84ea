"""Slash-command option values checked against the command's own definition.

Discord's client keeps values inside their ranges, lengths and choices, so a value
outside them was forged (or sent by a client of its own). Such a command is refused
before it runs, with a short "that didn't work", rather than reaching the service
with a seat of 7 or the store with an integer past its 64 bits. Integers beyond
2^53 are refused too: Discord's own integers stop there (JavaScript's safe range).
"""

from __future__ import annotations

from typing import Any

from discord import AppCommandOptionType, app_commands

MAX_SAFE = 2**53
_SUBCOMMANDS = (1, 2)  # option types of a subcommand and a subcommand group


def forged_option(command: app_commands.Command[Any, ..., Any], data: Any) -> str | None:
    """The first option in ``data`` its command could not have sent, or None."""
    options = (data or {}).get("options") or []
    while options and options[0].get("type") in _SUBCOMMANDS:
        options = options[0].get("options") or []
    params = {p.display_name: p for p in command.parameters}
    for option in options:
        name = str(option.get("name"))
        param = params.get(name)
        if param is None or not _fits(param, option.get("value")):
            return name
    return None


def _fits(param: app_commands.Parameter, value: Any) -> bool:
    if param.choices and value not in {c.value for c in param.choices}:
        return False
    low, high = param.min_value, param.max_value
    if param.type is AppCommandOptionType.string:
        if not isinstance(value, str):
            return False
        size: float = len(value)
    elif param.type in (AppCommandOptionType.integer, AppCommandOptionType.number):
        whole = param.type is AppCommandOptionType.integer
        if isinstance(value, bool) or not isinstance(value, int if whole else int | float):
            return False
        size, low, high = value, _bound(low, -MAX_SAFE), _bound(high, MAX_SAFE)
    elif param.type is AppCommandOptionType.boolean:
        return isinstance(value, bool)
    else:
        return True  # users, channels, roles: resolved by Discord, not typed
    return (low is None or size >= low) and (high is None or size <= high)


def _bound(given: float | None, limit: int) -> float:
    """The tighter of a parameter's own bound and Discord's integer range."""
    if given is None:
        return limit
    return max(given, limit) if limit < 0 else min(given, limit)


# option types whose value is an id Discord resolves: user, channel, role, mentionable
_RESOLVED = {6: ("users",), 7: ("channels",), 8: ("roles",), 9: ("users", "roles")}
_SNOWFLAKE_MAX = 2**64


def forged_reference(data: Any) -> bool:
    """Whether a slash command names a user, channel or role Discord did not resolve.

    discord.py reads these ids before any command check runs (a non-numeric one raises
    inside its command tree, one missing from ``resolved`` fails the command), so the
    tree checks them first.
    """
    data = data or {}
    resolved = data.get("resolved") or {}
    options = data.get("options") or []
    while options and options[0].get("type") in _SUBCOMMANDS:
        options = options[0].get("options") or []
    for option in options:
        kinds = _RESOLVED.get(option.get("type"))
        if kinds is None:
            continue
        value = str(option.get("value"))
        if not (value.isascii() and value.isdigit() and int(value) < _SNOWFLAKE_MAX):
            return True
        if not any(value in (resolved.get(kind) or {}) for kind in kinds):
            return True
    return False
