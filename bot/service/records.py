"""Lookups and records queries: the Discord layer's doors into tables and the store.

The cogs never reach into ``store`` or ``tables``: they ask these.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from bot.logs import bind_table
from bot.rules import RuleSet
from bot.service.runtime import Runtime, log
from bot.service.table import Table, UserError
from bot.store import (
    GuildSettings,
    HandRecord,
    LeaderRow,
    MatchSummary,
    PlayerStats,
    UserPrefs,
)
from bot.store.prefs import Locale
from bot.store.tournaments import TournamentResult

#: the messages of a hand a restarted bot goes on editing (``RecordsMixin.hand_messages``)
HAND_MESSAGES = ("deal", "table")


@dataclass(frozen=True)
class ProcessStatus:
    """What ``/shengji status`` shows an admin about this bot process."""

    shards: tuple[int, ...] | None  # None: one process, no sharding, every table
    shard_count: int | None
    tables: int  # live tables this process drives
    waiting: int  # tables of its shards another process still holds
    latency: float | None  # seconds for one store round trip; None: no answer in time


class RecordsMixin(Runtime):
    async def status(self, timeout: float = 5.0) -> ProcessStatus:
        """This process's shards, tables and store latency (a stalled store is None, not a hang)."""
        try:
            latency: float | None = await asyncio.wait_for(self.store.ping(), timeout)
        except Exception:  # TimeoutError or a store failure: both mean "no answer"
            latency = None
        fence = self.fence
        return ProcessStatus(
            shards=None if fence is None else tuple(sorted(fence.shards)),
            shard_count=None if fence is None else fence.shard_count,
            tables=sum(not table.closed for table in self.tables.values()),
            waiting=0 if fence is None else len(fence.pending),
            latency=latency,
        )

    def table_by_id(self, table_id: int) -> Table:
        """The open table with this id (component ids carry it), or UserError."""
        for table in self.tables.values():
            if table.id == table_id and not table.closed:
                bind_table(*self._log_as(table))  # the rest of this command logs as the table's
                return table
        raise UserError(
            "That table is closed; open a new one with `/shengji new`.", key="service-table-closed"
        )

    def component_table(
        self,
        table_id: int,
        guild_id: int | None,
        channel_id: int | None,
        user_id: int,
        *,
        panel_seat: int | None,
    ) -> Table:
        """The table a button or menu is about, checked before anything else is done.

        A component counts only from its table's own server and channel or thread. In
        a DM only a hand panel's counts (``panel_seat``: the seat its id names; None for
        every other kind), and only from the player in that seat: the lobby's, the
        table's and the rules' components live in the table's place, so one of them in
        a DM was forged, as was another seat's panel. A forged id does nothing there.
        """
        table = self.table_by_id(table_id)
        if guild_id is None:
            seat = table.seat_of(user_id)
            if panel_seat is not None and seat is not None and seat != panel_seat:
                raise UserError("That panel belongs to another player.", key="service-not-yours")
            here = panel_seat is not None and seat == panel_seat
        else:
            places = (table.channel_id, table.meta.get("thread_id"))
            here = guild_id == table.guild_id and channel_id in places
        if not here:
            raise UserError("That isn't your table's panel.", key="service-wrong-place")
        return table

    def note_command(self, user_id: int) -> None:
        """Count a user's slash command; UserError past ``Limits.commands`` per window.

        Counted in real time (a rate of requests, not of table time). Buttons and
        menus are not counted: each is bound to its table and checked, and a panel
        takes several clicks per play.
        """
        now = time.monotonic()
        window = self.limits.command_window
        recent = [t for t in self._commands.get(user_id, ()) if now - t < window]
        if len(recent) >= self.limits.commands:
            self._commands[user_id] = recent
            wait = max(1, int(window - (now - recent[0]) + 0.999))
            raise UserError(
                f"Slow down a little: try again in {wait} s.", key="service-cooldown", seconds=wait
            )
        recent.append(now)
        self._commands[user_id] = recent
        if len(self._commands) > 10_000:  # forget users who went quiet
            self._commands = {u: ts for u, ts in self._commands.items() if now - ts[-1] < window}

    def live_table_count(self) -> int:
        """How many tables this process drives now (closing one drops it from the count)."""
        return len(self.tables)

    def tables_of_user(self, user_id: int) -> list[Table]:
        """The open tables where this user holds a seat (to redraw their panels there)."""
        return [
            table
            for table in self.tables.values()
            if not table.closed and any(s is not None and s.user_id == user_id for s in table.seats)
        ]

    def guilds_with_tables(self) -> set[int]:
        """The servers this process has open tables in (to close those the bot left)."""
        return {t.guild_id for t in self.tables.values() if not t.closed}

    def tables_in_guild(self, guild_id: int) -> list[Table]:
        """This server's open tables (to check their channels when the server comes back)."""
        return [t for t in self.tables.values() if t.guild_id == guild_id and not t.closed]

    async def opening_thread(self, table: Table, lobby_message_id: int) -> None:
        """Its thread is being opened from the lobby message: it may exist or not yet, and
        after a restart the presenter finishes the opening (``thread_opening``)."""
        await self._keep_meta(table, lobby_message=lobby_message_id, thread_opening=True)

    async def remember_place(
        self, table: Table, thread_id: int | None, lobby_message_id: int | None
    ) -> None:
        """Where the table plays (its thread, or None: its channel), kept across restarts."""
        await self._keep_meta(
            table, thread_id=thread_id, lobby_message=lobby_message_id, thread_opening=False
        )

    @staticmethod
    def hand_messages(table: Table) -> dict[str, int]:
        """The current hand's messages kept by ``remember_hand_message`` ("deal", "table"):
        none from an earlier hand, whose messages a restarted bot must not edit."""
        kept = table.meta.get("hand_messages") or {}
        match = table.match
        if match is None or kept.get("hand") != match.hand_no:
            return {}
        return {kind: int(kept[kind]) for kind in HAND_MESSAGES if kept.get(kind)}

    @staticmethod
    def left_hand_message(table: Table) -> int | None:
        """The newest message (the table's, else the deal's) of an earlier hand, still kept:
        the process that began the current hand stopped before its presenter took the
        table's buttons off it, and no later hand's message has been kept since."""
        kept = table.meta.get("hand_messages") or {}
        match = table.match
        if match is None or kept.get("hand", match.hand_no) >= match.hand_no:
            return None
        newest = kept.get("table") or kept.get("deal")
        return int(newest) if newest else None

    async def remember_hand_message(
        self, table: Table, hand_no: int, kind: str, message_id: int
    ) -> None:
        """A hand's deal or table message was posted: kept with the table so that a
        restarted bot edits it instead of posting another (``hand_messages``).

        One write per message per hand (again only for a message deleted and posted
        anew); the hand's first replaces the last hand's ids. Made under the table's
        ``meta_lock``, as every meta change, so it loses none made meanwhile (a vote, a
        new host) and waits for no action's commit.
        A refused write is only logged, neither a pause nor a close: should the bot
        restart, the message is posted again under the same nonce, which gives the
        message back within Discord's few minutes (``cogs.live``), else a new one.
        """
        async with table.meta_lock:
            kept = table.meta.get("hand_messages") or {}
            if table.closed or kept.get("hand", -1) > hand_no:
                return  # closed, or a later hand's messages are kept already
            if kept.get("hand") == hand_no and kept.get(kind) == message_id:
                return
            if kept.get("hand") != hand_no:
                kept = {"hand": hand_no}
            meta = {**table.meta, "hand_messages": {**kept, kind: message_id}}
            await self._note(table, meta, f"its {kind} message's id")

    @staticmethod
    def panel_messages(table: Table) -> dict[int, tuple[int, int]]:
        """Each seat's DM panel kept by ``remember_panel``, while its player still sits
        there (a leaver's, replaced by a computer player, is not edited again)."""
        kept = table.meta.get("panels") or {}
        found = {}
        for seat, info in enumerate(table.seats):
            user_id, message_id = kept.get(str(seat)) or (None, 0)
            if info is not None and user_id is not None and info.user_id == user_id:
                found[seat] = (int(user_id), int(message_id))
        return found

    async def remember_panel(self, table: Table, seat: int, user_id: int, message_id: int) -> None:
        """A player's DM panel was posted: kept with the table, so a restarted bot edits
        it instead of posting another. A match keeps one panel a player, edited from hand
        to hand: one write a seat a match (again for a panel deleted and posted anew). A
        refused write is only logged, as for ``remember_hand_message``."""
        await self._keep_seat_message(table, "panels", seat, [user_id, message_id])

    @staticmethod
    def kept_notices(table: Table) -> dict[int, tuple[int, int, str]]:
        """The turn notices kept by ``remember_notice``: seat -> (reader, id, where)."""
        kept = table.meta.get("notices") or {}
        return {int(seat): (int(u), int(m), str(w)) for seat, (u, m, w) in kept.items()}

    async def remember_notice(
        self, table: Table, seat: int, user_id: int, message_id: int, where: str
    ) -> None:
        """A "your turn" notice was posted (``where``: "dm", or "place" for closed DMs):
        kept with the table until it is deleted (``forget_notice``), so a bot restarted
        meanwhile deletes it rather than leave it standing. Two writes a notice posted;
        most turns post none (a notice waits ten seconds)."""
        await self._keep_seat_message(table, "notices", seat, [user_id, message_id, where])

    async def forget_notice(self, table: Table, seat: int, message_id: int) -> None:
        """The seat's notice ``message_id`` was deleted (not a newer one kept since)."""
        await self._keep_seat_message(table, "notices", seat, None, message_id)

    async def _keep_seat_message(
        self, table: Table, key: str, seat: int, entry: list[Any] | None, gone: int = 0
    ) -> None:
        """Keep ``entry`` as the seat's message in ``meta[key]``, or drop the seat's
        message ``gone`` (``entry`` None), under the ``meta_lock``; no write when
        nothing changes."""
        async with table.meta_lock:
            kept = dict(table.meta.get(key) or {})
            now = kept.get(str(seat))
            if table.closed or now == entry or (entry is None and (now or [0, 0])[1] != gone):
                return
            if entry is None:
                del kept[str(seat)]
            else:
                kept[str(seat)] = entry
            await self._note(table, {**table.meta, key: kept}, f"seat {seat}'s {key} id")

    async def remember_dms_closed(self, table: Table, user_id: int) -> None:
        """A player's DMs are closed: kept with the table (``meta["dms_closed"]``) so that
        a restarted bot neither tries them at every turn nor says so in the thread again.
        A refused write is only logged, as for ``remember_hand_message``."""
        async with table.meta_lock:
            closed = list(table.meta.get("dms_closed") or [])
            if table.closed or user_id in closed:
                return
            meta = {**table.meta, "dms_closed": [*closed, user_id]}
            await self._note(table, meta, f"player {user_id}'s closed DMs")

    async def _note(self, table: Table, meta: dict[str, Any], what: str) -> None:
        """Keep ``meta`` (the ``meta_lock`` held), or log that ``what`` was not kept."""
        try:
            await self.store.set_table_meta(table.id, meta)
        except Exception as exc:
            log.warning("table %s: %s not kept (%s)", table.id, what, exc)
            return
        table.meta = meta

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

    async def user_prefs(self, user_id: int) -> UserPrefs:
        return await self.store.user_prefs(user_id)

    async def save_user_prefs(self, user_id: int, prefs: UserPrefs) -> None:
        await self.store.save_user_prefs(user_id, prefs)

    async def save_client_locale(self, user_id: int, locale: Locale | None) -> None:
        await self.store.save_client_locale(user_id, locale)

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
