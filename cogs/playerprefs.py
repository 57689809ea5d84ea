"""Each player's display preferences and language, as the presenter needs them often.

A panel is drawn far oftener than a player changes their preferences, so they are kept
in memory for ``PREFS_TTL`` seconds and read from the store at most that often (one
read per player, shared by everyone waiting for it); a change this process stores is
kept at once (``remember_prefs``). The language of a player's Discord client at their
interactions is kept with them (``note_client_locale``), written only when it changes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, cast

import discord

from bot.i18n import normalize, pick
from bot.service import Table
from bot.store import UserPrefs
from bot.store.prefs import Locale

from .lang import DEFAULT_PREFS

if TYPE_CHECKING:
    from bot.service import TableService

log = logging.getLogger(__name__)

#: seconds a player's preferences are kept before they are read from the store again.
#: Several processes (``SHENGJI_SHARDS``) may run tables of one player, and only the one
#: that handled ``/shengji prefs`` knows of a change at once: the others pick it up
#: within this time (at the player's next panel) rather than at their next restart. A
#: read a minute per active player is nothing to the store; a panel is drawn far oftener
#: and must not wait for a read each time.
PREFS_TTL = 60.0
#: preferences kept before those past ``PREFS_TTL`` are swept out (at most twice those
#: still fresh): a long-running bot meets many players once, and kept them all for good
PREFS_SWEEP = 1024


class PlayerPrefs:
    """The players' preferences and languages, kept for ``PREFS_TTL`` (a part of ``Outlet``)."""

    client: discord.Client
    service: TableService | None

    def __init__(self) -> None:
        #: each player's display preferences and when they are to be read again
        #: (``PREFS_TTL``); ``remember_prefs`` puts a change of this process's at once
        self._prefs: dict[int, tuple[UserPrefs, float]] = {}
        #: a read of a player's preferences under way, shared by everyone who needs them
        self._prefs_reads: dict[int, asyncio.Task[UserPrefs]] = {}
        self._sweep_at = PREFS_SWEEP

    def _now(self) -> float:
        return self.service.clock.now() if self.service is not None else time.monotonic()

    def cached_prefs(self, user_id: int) -> UserPrefs | None:
        """The player's preferences if read less than ``PREFS_TTL`` ago (no store read)."""
        found = self._prefs.get(user_id)
        if found is None or self._now() >= found[1]:
            return None
        return found[0]

    def remember_prefs(self, user_id: int, prefs: UserPrefs) -> None:
        """``prefs`` as this process just stored them; a read started before is not kept.

        The client's language is only ever changed by ``note_client_locale``: choices
        read from the store before a click stored it must not put the old one back."""
        kept = self.cached_prefs(user_id)
        if kept is not None and kept.client_locale != prefs.client_locale:
            prefs = prefs.replace(client_locale=kept.client_locale)
        self._keep(user_id, prefs)

    def _keep(self, user_id: int, prefs: UserPrefs) -> None:
        """Keep ``prefs`` for ``PREFS_TTL``; a read started before is not kept over them."""
        now = self._now()
        if len(self._prefs) >= self._sweep_at:  # amortised: a sweep per as many keeps
            self._prefs = {user: kept for user, kept in self._prefs.items() if kept[1] > now}
            self._sweep_at = max(PREFS_SWEEP, 2 * len(self._prefs))
        self._prefs[user_id] = (prefs, now + PREFS_TTL)
        self._prefs_reads.pop(user_id, None)

    def forget_prefs(self, user_id: int) -> None:
        """The next need of them reads the store, as a process that never met the player."""
        self._prefs.pop(user_id, None)

    async def prefs_of(self, user_id: int) -> UserPrefs:
        """A player's preferences, read from the store at most every ``PREFS_TTL`` seconds.

        Everyone waiting for the same player shares one read, and the read goes on when a
        waiter gives up (``cogs.lang.reply_locale`` waits only so long): its result is
        kept for the next message, and a locked store gets one read per player, not one
        per reply.
        """
        found = self.cached_prefs(user_id)
        if found is not None:
            return found
        if self.service is None:
            return DEFAULT_PREFS
        reading = self._prefs_reads.get(user_id)
        if reading is None:
            reading = asyncio.create_task(self._read_prefs(user_id))
            self._prefs_reads[user_id] = reading
        return await asyncio.shield(reading)

    async def _read_prefs(self, user_id: int) -> UserPrefs:
        """The store's answer, kept; if the store fails, what was read last (else the
        defaults), not kept: a panel or a ping must not be lost for its language, and
        the next need reads again."""
        assert self.service is not None
        this = asyncio.current_task()
        try:
            found = await self.service.user_prefs(user_id)
        except Exception as exc:
            log.warning("preferences of %s not read (%s); the last read meanwhile", user_id, exc)
            last = self._prefs.get(user_id)
            return last[0] if last is not None else DEFAULT_PREFS
        else:
            if self._prefs_reads.get(user_id) is this:  # not overtaken by remember_prefs
                self._keep(user_id, found)
            return found
        finally:
            if self._prefs_reads.get(user_id) is this:
                del self._prefs_reads[user_id]

    async def note_client_locale(self, user_id: int, client: object) -> None:
        """The language of the player's Discord client at an interaction: kept with their
        preferences, and stored only when it differs from what is stored (not at every
        click), so a restarted or another process writes to them in it too."""
        locale = cast(Locale | None, normalize(client))
        cached = self.cached_prefs(user_id)
        if cached is not None and cached.client_locale == locale:
            return  # the usual click: nothing read, nothing written
        prefs = await self.prefs_of(user_id)
        if prefs.client_locale == locale:
            return
        # on what is kept now: a /shengji prefs may have saved a choice meanwhile
        latest = self.cached_prefs(user_id) or prefs
        self._keep(user_id, latest.replace(client_locale=locale))
        if self.service is not None:
            await self.service.save_client_locale(user_id, locale)

    def player_locale(self, table: Table, prefs: UserPrefs) -> str:
        """For what only this player reads: their setting, else their Discord client's at
        their last interaction (stored: it holds after a restart), else the server's
        preferred locale (never the table's language setting), else English."""
        guild = self.client.get_guild(table.guild_id)
        server = guild.preferred_locale if guild is not None else None
        return pick(prefs.locale, prefs.client_locale, server)

    async def dm_locale(self, table: Table, user_id: int) -> str:
        return self.player_locale(table, await self.prefs_of(user_id))
