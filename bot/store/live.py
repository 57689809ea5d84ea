"""Live tables: created, seated, their meta, closed, and their logs pruned.

``LiveTables`` is the part of ``Store`` for the tables being played; their action log
and snapshots are ``actionlog``'s, bringing them back after a restart ``restore``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.rules import RuleSet

from .actionlog import ActionLog
from .base import dumps, seats_json
from .db import IntegrityViolation
from .models import SeatInfo, StoreError
from .restore import Restore

STATUSES = ("finished", "aborted")
_INT64 = (-(2**63), 2**63 - 1)


class LiveTables(ActionLog, Restore):
    """The tables being played: everything a restart needs to bring them back."""

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        rules: RuleSet,
        seed: int,
        seats: Sequence[SeatInfo | None],
        first_dealer: int | None,
        created_at: float,
    ) -> int:
        """A new live table; ``StoreError`` if the channel already has one."""
        if not _INT64[0] <= seed <= _INT64[1]:
            raise ValueError("seed must fit in a signed 64-bit integer")
        if first_dealer is not None and first_dealer not in range(4):
            raise ValueError("first_dealer must be a seat 0-3 or None")
        rules_json, seats_text = dumps(rules.to_dict()), seats_json(seats)
        values = (guild_id, channel_id, host_id, rules_json, seed, first_dealer, seats_text)
        try:
            async with self._write() as db:
                await self._upsert_players(seats, guild_id)
                row = await db.one(
                    "INSERT INTO game_tables (guild_id, channel_id, host_id, rules, seed,"
                    " first_dealer, seats, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                    " RETURNING table_id",
                    (*values, created_at),
                )
        except IntegrityViolation as exc:
            raise StoreError(f"Channel {channel_id} already has a live table.") from exc
        assert row is not None
        return int(row["table_id"])

    async def update_seats(
        self, table_id: int, seats: Sequence[SeatInfo | None], meta: dict[str, Any] | None = None
    ) -> None:
        """Who sits where now (a player joined, left, or went on autoplay), and with
        ``meta`` the table's meta in the same transaction (a leaver's vote and host rights
        go with their seat, or none of it happens)."""
        async with self._write():
            await self._set_seats(table_id, seats, meta)

    async def set_table_meta(self, table_id: int, meta: dict[str, Any]) -> None:
        """Replace the service's JSON blob for the table (deadlines, message ids...)."""
        text = dumps(meta)
        async with self._write() as db:
            changed = await db.execute(
                "UPDATE game_tables SET meta = ? WHERE table_id = ?", (text, table_id)
            )
            if changed == 0:
                raise StoreError(f"There is no table {table_id}.")

    async def close_table(self, table_id: int, status: str, at: float) -> None:
        """The table is no longer live. Closing an already closed table changes nothing."""
        if status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, not {status!r}")
        async with self._write() as db:
            await self._table_row(table_id, "1")
            await db.execute(
                "UPDATE game_tables SET status = ?, closed_at = ?"
                " WHERE table_id = ? AND status = 'live'",
                (status, at, table_id),
            )

    async def prune_logs(self, closed_before: float) -> int:
        """Drop the action logs and snapshots of tables closed before ``closed_before``.

        The log holds every hidden card, so it is worth keeping only while a table
        can still be restored or disputed; hands, tricks and results stay. Returns
        how many tables had something dropped.
        """
        async with self._write() as db:
            rows = await db.all(
                "SELECT table_id FROM game_tables WHERE status != 'live' AND closed_at < ?"
                " AND (EXISTS (SELECT 1 FROM actions a WHERE a.table_id = game_tables.table_id)"
                " OR EXISTS (SELECT 1 FROM snapshots s"
                " WHERE s.table_id = game_tables.table_id))",
                (closed_before,),
            )
            ids = [(r["table_id"],) for r in rows]
            await db.executemany("DELETE FROM actions WHERE table_id = ?", ids)
            await db.executemany("DELETE FROM snapshots WHERE table_id = ?", ids)
        return len(ids)
