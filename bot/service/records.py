"""Lookups and records queries: the Discord layer's doors into tables and the store.

The cogs never reach into ``store`` or ``tables``: they ask these.
"""

from __future__ import annotations

from bot.rules import RuleSet
from bot.service.runtime import Runtime
from bot.service.table import Table, UserError
from bot.store import (
    GuildSettings,
    HandRecord,
    LeaderRow,
    MatchSummary,
    PlayerStats,
)
from bot.store.tournaments import TournamentResult


class RecordsMixin(Runtime):
    def table_by_id(self, table_id: int) -> Table:
        """The open table with this id (component ids carry it), or UserError."""
        for table in self.tables.values():
            if table.id == table_id and not table.closed:
                return table
        raise UserError(
            "That table is closed; open a new one with `/shengji new`.", key="service-table-closed"
        )

    def channel_of(self, place_id: int) -> int:
        """The channel a table is keyed by, given the channel or the table's thread."""
        if place_id in self.tables:
            return place_id
        for table in self.tables.values():
            if table.meta.get("thread_id") == place_id:
                return table.channel_id
        return place_id

    async def remember_place(
        self, table: Table, thread_id: int | None, lobby_message_id: int | None
    ) -> None:
        """Where the table plays (its thread, or None: its channel), kept across restarts."""
        await self._set_meta(table, thread_id=thread_id, lobby_message=lobby_message_id)

    async def thread_gone(self, thread_id: int) -> None:
        """A table's thread was deleted or archived: the table closes like a deleted channel."""
        channel_id = self.channel_of(thread_id)
        if channel_id != thread_id:
            await self.channel_gone(channel_id)

    async def rules_here(self, guild_id: int, channel_id: int) -> RuleSet:
        """The rules of the table in this channel, else the server's."""
        table = self.tables.get(channel_id)
        if table is not None and not table.closed:
            return table.rules
        return (await self.store.guild_settings(guild_id)).rules

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return await self.store.guild_settings(guild_id)

    async def save_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        await self.store.save_guild_settings(guild_id, settings)

    async def leaderboard(self, guild_id: int, metric: str, limit: int = 10) -> list[LeaderRow]:
        return await self.store.leaderboard(guild_id, metric, limit=limit)

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        return await self.store.player_stats(guild_id, user_id)

    async def player_tournaments(self, guild_id: int, user_id: int) -> list[TournamentResult]:
        return await self.store.player_tournaments(guild_id, user_id)

    async def recent_matches(self, guild_id: int, limit: int = 10) -> list[MatchSummary]:
        return await self.store.recent_matches(guild_id, limit=limit)

    async def hands_of_table(self, table_id: int) -> list[int]:
        return await self.store.hands_of_table(table_id)

    async def hand_record(self, guild_id: int, hand_id: int) -> HandRecord | None:
        """One recorded hand of this server (another server's hands stay unseen)."""
        record = await self.store.hand_record(hand_id)
        if record is None or getattr(record, "guild_id", guild_id) != guild_id:
            return None
        return record
