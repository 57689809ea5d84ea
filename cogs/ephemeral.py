"""My hand: a panel sent as an interaction's ephemeral answer, kept current like a DM
panel (``cogs.live``) through the interaction's token."""

from __future__ import annotations

import logging
from typing import Any

import discord

from .live import LiveMessage, Place, as_edit

log = logging.getLogger(__name__)


class EphemeralLive(LiveMessage):
    """A panel sent as an interaction's ephemeral answer (My hand), kept current like
    any live message: one edit in flight, the newest state drawn, an older render never
    sent over a newer one. It has no channel of its own (a bot cannot address an
    ephemeral message there): it is edited through the interaction's token, which
    Discord honours for 15 minutes from ``opened`` (the caller stops before that)."""

    def __init__(self, interaction: discord.Interaction, opened: float) -> None:
        super().__init__(_no_place, on_error=_ephemeral_refused)
        self.interaction = interaction
        self.opened = opened

    def _repeatable(self) -> bool:
        return True  # always an edit of the interaction's answer

    async def _post_or_edit(self, kwargs: dict[str, Any]) -> None:
        kwargs.pop("files_key", None)
        await self.interaction.edit_original_response(**as_edit(kwargs))


async def _no_place() -> Place:
    raise RuntimeError("an ephemeral message is edited through its interaction")


async def _ephemeral_refused(err: discord.HTTPException) -> bool:
    """Dismissed by its reader (or its token gone): it stops; other refusals are logged."""
    log.info("ephemeral panel not refreshed: %s", err)
    return isinstance(err, discord.NotFound)
