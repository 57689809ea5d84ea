"""Opening a table: a player's lobby (``/shengji new``) or a tournament's match.

An opening writes the table's row, then its meta, before the table is live: a meta the
store refuses closes the row again, so no live row is left that nothing drives. The
shutdown waits for the openings under way (``_opening``); one that begins once the
shutdown has, even while it read the server's settings, is refused as a restart.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from bot.ai.expert import THINK_MS
from bot.logs import bind_table
from bot.rules import BIG_LIGHT_LEAGUE, RuleSet
from bot.service.faults import NotSaved, transient
from bot.service.lobby import LobbyMixin
from bot.service.runtime import log
from bot.service.table import Table, Timers, UpdateKind, UserError
from bot.store import GuildSettings, SeatInfo, StoreError


def kept_settings(settings: GuildSettings) -> dict[str, Any]:
    """The server settings a table keeps from its opening to its end, tournament
    matches included: the 大光 league points (seed 001 特殊房间配置) and the expert's
    time per decision (ms)."""
    return {
        "big_light_league": settings.timers.get("big_light_league", BIG_LIGHT_LEAGUE),
        "think_ms": settings.timers.get("think_ms", THINK_MS),
    }


class OpeningMixin(LobbyMixin):
    async def new_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        rules: RuleSet | None = None,
        locale: str | None = None,
    ) -> Table:
        """Open a lobby; ``locale`` is the server's preferred language (its setting wins)."""
        self._check_accepting()
        existing = self.tables.get(self.channel_of(channel_id))  # a table's thread: its table
        if existing is not None and not existing.closed:
            raise UserError(
                "This channel already has a table: join it, or open one elsewhere.",
                key="service-table-exists",
            )
        settings: GuildSettings = await self.store.guild_settings(guild_id)
        self._check_room(guild_id, host_id, settings)  # no await between this and _opening
        async with self._registered(guild_id, host_id):
            return await self._open(
                guild_id, channel_id, host_id, host_name, settings, rules, locale
            )

    @asynccontextmanager
    async def _registered(self, guild_id: int, host_id: int) -> AsyncIterator[None]:
        """An opening the shutdown waits for (``_opening``). Checked again for a shutdown
        begun while the caller read the store: the shutdown waits only for the openings it
        sees, and one it missed would write to the store it has closed."""
        self._check_accepting()
        self._opening.append((guild_id, host_id))
        try:
            yield
        finally:
            self._opening.remove((guild_id, host_id))

    async def _open(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        settings: GuildSettings,
        rules: RuleSet | None,
        locale: str | None,
    ) -> Table:
        rules = rules or settings.rules
        timers = Timers.from_dict(settings.timers)
        seats: list[SeatInfo | None] = [SeatInfo("human", host_id, host_name, None, False)]
        seats += [None, None, None]
        await self.store.upsert_player(host_id, host_name)
        await self._free_channel(channel_id)
        seed = self._seed()
        now = self.clock.now()
        table_id = await self._create(guild_id, channel_id, host_id, rules, seed, seats, now)
        table = Table(table_id, guild_id, channel_id, host_id, rules, timers, seed, seats)
        bind_table(*self._log_as(table))  # the rest of this command logs as the table's
        table.meta = {"timers": timers.to_dict(), "started": False, "votes": []}
        table.meta["locale"] = settings.timers.get("language") or locale  # for table messages
        table.meta.update(kept_settings(settings))
        await self._first_meta(table)
        self.tables[channel_id] = table
        self._start_tasks(table)
        self._emit(table, UpdateKind.LOBBY)
        return table

    async def _first_meta(self, table: Table) -> None:
        """A new table's meta, written just after its row: refused, the row is closed (or
        its closing kept for the channel's next table, ``_free_channel``) and the opener
        told it was not saved, so no live row is left that nothing drives."""
        try:
            await self.store.set_table_meta(table.id, table.meta)
        except Exception as exc:
            log.warning("could not open table %s: %s", table.id, exc)
            await self._record_close(table, "aborted")
            if self.fence is not None:
                await self.fence.release(table.id)
            raise NotSaved(transient(exc)) from None

    async def _create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        rules: RuleSet,
        seed: int,
        seats: list[SeatInfo | None],
        now: float,
    ) -> int:
        """The new table's row; a /new that lost the race for the channel is told so."""
        try:
            table_id = await self.store.create_table(
                guild_id, channel_id, host_id, rules, seed, seats, None, now
            )
        except StoreError:  # a concurrent /new (or another process) took the channel first
            raise UserError(
                "This channel already has a table: join it, or open one elsewhere.",
                key="service-table-exists",
            ) from None
        except Exception as exc:
            log.warning("could not open a table in %s: %s", channel_id, exc)
            raise NotSaved(transient(exc)) from None
        if self.fence is not None:  # fenced before anything drives it
            await self.fence.claim(self.store, table_id, self._fenced_out)
        return table_id

    def _check_room(self, guild_id: int, host_id: int, settings: GuildSettings) -> None:
        """Refuse a table past ``Limits`` (a server's ``max_tables`` setting may lower it).

        The host limit counts the user's tables in every server: it bounds one user's
        use of the bot, which opening tables in several servers would otherwise get round.
        """
        live = [(t.guild_id, t.host_id) for t in self.tables.values() if not t.closed]
        live += self._opening  # tables a concurrent command is opening count already
        here = sum(1 for guild, _host in live if guild == guild_id)
        most = min(self.limits.tables_per_guild, int(settings.timers.get("max_tables", 10**9)))
        if here >= most:
            raise UserError(
                f"This server already has {most} open tables; finish or end one first.",
                key="service-guild-full",
                count=most,
            )
        hosted = sum(1 for _guild, host in live if host == host_id)
        if hosted >= self.limits.tables_per_host:
            raise UserError(
                f"You already host {hosted} open tables; finish or end one first.",
                key="service-host-full",
                count=hosted,
            )

    async def open_match(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        rules: RuleSet,
        seats: list[SeatInfo],
        meta: dict[str, Any],
    ) -> Table:
        """A table whose four seats are already decided (a tournament match), started at once.

        Such a table (``meta["keep_without_humans"]``) plays on when its last human
        leaves: the match must produce a result.
        """
        self._check_accepting()
        existing = self.tables.get(channel_id)
        if existing is not None and not existing.closed:
            raise UserError("This channel already has a table.", key="service-table-exists-short")
        settings = await self.store.guild_settings(guild_id)
        async with self._registered(guild_id, host_id):
            timers = Timers.from_dict(settings.timers)
            for info in seats:
                if info.kind == "human" and info.user_id is not None:
                    await self.store.upsert_player(info.user_id, info.name)
            await self._free_channel(channel_id)
            seed = self._seed()
            now = self.clock.now()
            table_id = await self._create(
                guild_id, channel_id, host_id, rules, seed, list(seats), now
            )
            table = Table(table_id, guild_id, channel_id, host_id, rules, timers, seed, list(seats))
            table.meta = {**meta, "timers": timers.to_dict(), "started": False, "votes": []}
            table.meta.update(kept_settings(settings))
            await self._first_meta(table)
            self.tables[channel_id] = table
            self._start_tasks(table)
            # a shutdown waits for it
            return await self._start(channel_id, host_id, is_admin=True, opening=True)
