"""Bringing live tables back after a restart: what is stored of them, and their matches.

``live_tables`` reads every live table (or a shard's, or one) with its snapshot and
the actions logged after it; ``restore`` rebuilds the match, from the snapshot or,
when that cannot be loaded, from the whole log.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Collection
from typing import Any

from bot.game import Match, action_from_dict
from bot.game.codec import is_auto
from bot.rules import RulesError, RuleSet

from .base import StoreBase, seats_from
from .models import LiveTable, StoreError

log = logging.getLogger(__name__)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The Discord shard that serves a guild: ``(guild_id >> 22) % shard_count``."""
    return (guild_id >> 22) % shard_count


def restore_match(live: LiveTable) -> Match:
    """The match of a live table as it was after its last logged action.

    From the snapshot (or a new match from seed, rules and first dealer when there
    is none) the logged actions after it are applied in order. The log must follow
    on from the snapshot without gaps; anything that does not replay raises
    ``StoreError`` naming the table, so the service can abort that one table and
    restore the others.
    """
    try:
        if live.snapshot is not None:
            match = Match.from_dict(live.snapshot)
            if match.seq != live.snapshot_seq:
                raise StoreError(
                    f"Table {live.table_id}: the snapshot says seq {match.seq}, "
                    f"the store says {live.snapshot_seq}."
                )
        else:
            match = Match.new(live.seed, live.rules, first_dealer=live.first_dealer)
        for seq, seat, action in live.actions:
            if seq != match.seq + 1:
                raise StoreError(
                    f"Table {live.table_id}: the action log jumps from seq {match.seq} to {seq}."
                )
            match.apply(seat, action_from_dict(action), auto=is_auto(action))
    except (RulesError, ValueError, KeyError, TypeError) as exc:
        raise StoreError(f"Table {live.table_id} cannot be restored: {exc}") from exc
    return match


class Restore(StoreBase):
    """The stored live tables and their matches, for a restart or a rollback."""

    async def live_tables(
        self,
        shards: Collection[int] | None = None,
        shard_count: int = 1,
        *,
        table_id: int | None = None,
    ) -> list[LiveTable]:
        """Every live table with what ``restore`` needs, oldest first.

        With ``shards``, only the tables of guilds on those shards out of
        ``shard_count`` (``shard_of``), so a process restores only its own; with
        ``table_id``, only that table (the service rolls back a refused write).
        """
        only, params = "", []
        if table_id is not None:
            only, params = " AND t.table_id = ?", [table_id]
        if shards is not None:
            if not shards:
                return []
            only += f" AND ((t.guild_id >> 22) % ?) IN ({','.join('?' * len(shards))})"
            params += [shard_count, *sorted(shards)]
        async with self._read() as db:
            tables = await db.all(
                "SELECT t.table_id, t.guild_id, t.channel_id, t.host_id, t.rules, t.seed,"
                " t.first_dealer, t.seats, t.meta, t.created_at, s.seq AS snapshot_seq,"
                " s.state, (SELECT COUNT(*) FROM hands h WHERE h.table_id = t.table_id)"
                " AS hands_recorded"
                " FROM game_tables t LEFT JOIN snapshots s ON s.table_id = t.table_id"
                f" WHERE t.status = 'live'{only} ORDER BY t.table_id",
                params,
            )
            result = []
            for row in tables:
                snap_seq = row["snapshot_seq"] or 0
                actions = await db.all(
                    "SELECT seq, seat, action FROM actions WHERE table_id = ? AND seq > ?"
                    " ORDER BY seq",
                    (row["table_id"], snap_seq),
                )
                last = await db.one(
                    "SELECT COALESCE(MAX(seq), 0) AS seq, MAX(at) AS at FROM actions"
                    " WHERE table_id = ?",
                    (row["table_id"],),
                )
                assert last is not None
                result.append(
                    LiveTable(
                        table_id=row["table_id"],
                        guild_id=row["guild_id"],
                        channel_id=row["channel_id"],
                        host_id=row["host_id"],
                        rules=RuleSet.of_table(json.loads(row["rules"])),
                        seed=row["seed"],
                        first_dealer=row["first_dealer"],
                        seats=seats_from(row["seats"]),
                        meta=json.loads(row["meta"]),
                        snapshot=None if row["state"] is None else json.loads(row["state"]),
                        snapshot_seq=snap_seq,
                        actions=[(a["seq"], a["seat"], json.loads(a["action"])) for a in actions],
                        created_at=row["created_at"],
                        last_seq=last["seq"],
                        hands_recorded=row["hands_recorded"],
                        last_action_at=row["created_at"] if last["at"] is None else last["at"],
                    )
                )
        return result

    async def restore(self, live: LiveTable) -> Match:
        """The live table's match as it was after its last logged action.

        ``restore_match`` from the snapshot first; if the snapshot cannot be loaded
        (a state ``Match.from_dict`` refuses), the whole action log is replayed from
        the seed instead: the log is the record, the snapshot only a shortcut.
        Raises ``StoreError`` when neither works.
        """
        try:
            return restore_match(live)
        except StoreError as exc:
            if live.snapshot is None:
                raise
            log.warning("%s; replaying table %d from its whole log", exc, live.table_id)
        full = dataclasses.replace(
            live, snapshot=None, snapshot_seq=0, actions=await self.action_log(live.table_id)
        )
        return restore_match(full)

    async def action_log(self, table_id: int) -> list[tuple[int, int, dict[str, Any]]]:
        """The whole logged action list of a table (empty once pruned)."""
        async with self._read() as db:
            rows = await db.all(
                "SELECT seq, seat, action FROM actions WHERE table_id = ? ORDER BY seq",
                (table_id,),
            )
        return [(r["seq"], r["seat"], json.loads(r["action"])) for r in rows]
