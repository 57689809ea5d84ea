"""Live tables: created, seated, their action log (group commit), snapshots and restore.

Durability. Every ``append_action`` is committed before it returns, so the service
can tell a player "accepted" only after the action is on disk (see ``store`` for
what "on disk" means per engine). The log is the record; a snapshot is only a
shortcut for restoring.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
from collections.abc import Collection, Sequence
from typing import Any, NamedTuple

from bot.game import Match, action_from_dict
from bot.rules import RulesError, RuleSet

from .base import StoreBase, dumps, seats_from, seats_json
from .db import Database, GroupCommit, IntegrityViolation
from .leases import LeaseLost, table_resource
from .models import LiveTable, SeatInfo, SequenceError, StoreError

log = logging.getLogger(__name__)
STATUSES = ("finished", "aborted")
_INT64 = (-(2**63), 2**63 - 1)


class Append(NamedTuple):
    table_id: int
    seq: int
    seat: int
    action: str
    at: float
    token: int | None  # the table's lease token the writer holds (None: not fenced)


_APPEND = (
    "INSERT INTO actions (table_id, seq, seat, action, at)"
    " SELECT table_id, CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS TEXT),"
    " CAST(? AS DOUBLE PRECISION) FROM game_tables"
    " WHERE table_id = ? AND status = 'live' AND ? = 1 + COALESCE("
    "(SELECT MAX(seq) FROM actions WHERE table_id = ?), 0)"
)
_FENCED = " AND ? = (SELECT t.token FROM leases t WHERE t.resource = ?{lock})"
_LAST_SEQ = "(SELECT COALESCE(MAX(a.seq), 0) FROM actions a WHERE a.table_id = t.table_id)"


def shard_of(guild_id: int, shard_count: int) -> int:
    """The Discord shard that serves a guild: ``(guild_id >> 22) % shard_count``."""
    return (guild_id >> 22) % shard_count


async def _lease_tokens(db: Database, table_ids: Collection[int]) -> dict[int, int]:
    """The current lease token of each table that has a lease (locked until the commit)."""
    if not table_ids:
        return {}
    resources = {table_resource(table_id): table_id for table_id in table_ids}
    rows = await db.all(
        f"SELECT t.resource, t.token FROM leases t WHERE t.resource IN"
        f" ({','.join('?' * len(resources))}){db.lock_rows}",
        list(resources),
    )
    return {resources[r["resource"]]: r["token"] for r in rows}


def _lost(table_id: int) -> LeaseLost:
    return LeaseLost(f"Table {table_id} is driven by another process now; the write is refused.")


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
            match.apply(seat, action_from_dict(action))
    except (RulesError, ValueError, KeyError, TypeError) as exc:
        raise StoreError(f"Table {live.table_id} cannot be restored: {exc}") from exc
    return match


class LiveTables(StoreBase):
    """The tables being played: everything a restart needs to bring them back."""

    _appends: GroupCommit[Append]

    def _start_appends(self) -> None:
        self._appends = GroupCommit(self._commit_appends)

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
                await self._upsert_players(seats)
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

    async def update_seats(self, table_id: int, seats: Sequence[SeatInfo | None]) -> None:
        """Who sits where now (a player joined, left, or went on autoplay)."""
        text = seats_json(seats)
        async with self._write() as db:
            await self._table_row(table_id, "1")
            await self._upsert_players(seats)
            await db.execute(
                "UPDATE game_tables SET seats = ? WHERE table_id = ?", (text, table_id)
            )

    async def set_table_meta(self, table_id: int, meta: dict[str, Any]) -> None:
        """Replace the service's JSON blob for the table (deadlines, message ids...)."""
        text = dumps(meta)
        async with self._write() as db:
            changed = await db.execute(
                "UPDATE game_tables SET meta = ? WHERE table_id = ?", (text, table_id)
            )
            if changed == 0:
                raise StoreError(f"There is no table {table_id}.")

    async def append_action(
        self,
        table_id: int,
        seq: int,
        seat: int,
        action: dict[str, Any],
        at: float,
        *,
        token: int | None = None,
    ) -> None:
        """Log one accepted action; it is committed when this returns.

        ``seq`` is ``Match.seq`` after applying the action (1 for the first) and
        must be the next one; the table must be live. With ``token`` (the table's
        lease, ``table_resource``) the lease must still carry that token, or
        ``LeaseLost``: another process drives the table now. Appends that arrive
        while a commit is under way are committed together in the next one (group
        commit).
        """
        self._require_latest()
        await self._appends.submit(Append(table_id, seq, seat, dumps(action), at, token))

    async def _commit_appends(self, batch: list[Append]) -> list[Exception | None]:
        if len(batch) == 1:
            a = batch[0]
            sql, params = _APPEND, [a.seq, a.seat, a.action, a.at, a.table_id, a.seq, a.table_id]
            if a.token is not None:
                sql += _FENCED.format(lock=self._db.lock_rows)
                params += [a.token, table_resource(a.table_id)]
            async with self._db.use():
                try:
                    ok = await self._db.execute(sql, params)
                except IntegrityViolation:  # another process took that seq first
                    ok = 0
            refused = [] if ok == 1 else [a]
        else:
            refused = await self._append_group(batch)
        refused_ids = {id(a) for a in refused}
        return [await self._append_error(a) if id(a) in refused_ids else None for a in batch]

    async def _append_group(self, batch: list[Append]) -> list[Append]:
        """Commit a group of appends in one transaction; return the refused ones.

        The seq and status checks are made in Python against one query for the
        group's tables, inside the same write transaction (the rows locked on
        PostgreSQL), so they see exactly what the insert will follow.
        """
        tables = sorted({a.table_id for a in batch})
        marks = ",".join("?" * len(tables))
        async with self._db.transaction(write=True) as db:
            rows = await db.all(
                f"SELECT t.table_id, t.status, {_LAST_SEQ} AS last_seq FROM game_tables t"
                f" WHERE t.table_id IN ({marks}){db.lock_rows}",
                tables,
            )
            last = {r["table_id"]: (r["status"], r["last_seq"]) for r in rows}
            tokens = await _lease_tokens(db, {a.table_id for a in batch if a.token is not None})
            accepted, refused = [], []
            for a in batch:
                status, top = last.get(a.table_id, (None, 0))
                fenced_out = a.token is not None and tokens.get(a.table_id) != a.token
                if status == "live" and a.seq == top + 1 and not fenced_out:
                    accepted.append(a[:5])
                    last[a.table_id] = (status, a.seq)
                else:
                    refused.append(a)
            await db.executemany(
                "INSERT INTO actions (table_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                accepted,
            )
        return refused

    async def _append_error(self, a: Append) -> StoreError:
        async with self._db.use():
            row = await self._db.one(
                f"SELECT t.status, {_LAST_SEQ} AS last_seq FROM game_tables t WHERE t.table_id = ?",
                (a.table_id,),
            )
            if (
                a.token is not None
                and (await _lease_tokens(self._db, {a.table_id})).get(a.table_id) != a.token
            ):
                return _lost(a.table_id)
        if row is None:
            return StoreError(f"There is no table {a.table_id}.")
        if row["status"] != "live":
            return StoreError(f"Table {a.table_id} is {row['status']}; it takes no more actions.")
        expected = int(row["last_seq"]) + 1
        return SequenceError(
            f"Table {a.table_id}: action seq {a.seq} is out of order (the next is {expected}).",
            expected,
        )

    async def save_snapshot(
        self, table_id: int, seq: int, state: dict[str, Any], *, token: int | None = None
    ) -> None:
        """Keep ``Match.to_dict()`` taken after action ``seq`` (the latest one only).

        Restores then replay only the actions after it. The snapshot must not be
        ahead of the log, or the actions it contains could never be replayed.
        ``token`` fences it as in ``append_action`` (``LeaseLost``).
        """
        if state.get("seq", seq) != seq:
            raise ValueError(f"the state is at seq {state.get('seq')}, not {seq}")
        text = dumps(state)
        async with self._write() as db:
            if token is not None and (await _lease_tokens(db, {table_id})).get(table_id) != token:
                raise _lost(table_id)
            row = await db.one(
                f"SELECT {_LAST_SEQ} AS last_seq FROM game_tables t WHERE t.table_id = ?",
                (table_id,),
            )
            if row is None:
                raise StoreError(f"There is no table {table_id}.")
            if seq > row["last_seq"]:
                raise StoreError(
                    f"Table {table_id}: a snapshot at seq {seq} is ahead of the log "
                    f"({row['last_seq']})."
                )
            await db.execute(
                "INSERT INTO snapshots (table_id, seq, state, at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq,"
                " state = excluded.state, at = excluded.at",
                (table_id, seq, text, time.time()),
            )

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
                        rules=RuleSet.from_dict(json.loads(row["rules"])),
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
