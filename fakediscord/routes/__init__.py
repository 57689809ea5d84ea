"""The REST routes the fake serves, one module per resource.

Each module's ``register(fake)`` adds its handlers with ``fake.route``. Order matters
where templates overlap (``/users/@me`` before ``/users/{user_id}``), so
:func:`register_all` keeps one fixed order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import (
    channels,
    commands,
    guilds,
    interactions,
    login,
    messages,
    threads,
    users,
    webhooks,
)

if TYPE_CHECKING:
    from ..server import FakeDiscord

MODULES = (login, commands, users, guilds, channels, messages, threads, interactions, webhooks)


def register_all(fake: FakeDiscord) -> None:
    for module in MODULES:
        module.register(fake)
