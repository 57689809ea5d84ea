"""A live table's action log (group commit) and its snapshot.

Durability. Every ``append_action`` is committed before it returns, so the service
can tell a player "accepted" only after the action is on disk (see ``store`` for
what "on disk" means per engine). The log is the record; a snapshot is only a
shortcut for restoring (``restore``). With a lease token, a write is refused
(``LeaseLost``) once another process drives the table.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import Any, NamedTuple

from bot.game import SYSTEM

from .base import StoreBase, dumps
from .db import Database, GroupCommit, IntegrityViolation
from .leases import LeaseLost, table_resource
from .models import SequenceError, StoreError


class Append(NamedTuple):
    table_id: int
    seq: int
    seat: int
    action: str
    at: float
    token: int | None  # the table's lease token the writer holds (None: not fenced)


# A group of appends to distinct tables as one statement: one trip to the database,
# its own transaction. A row goes in only if its table is live, its seq is the next
# one and (with a token) the table's lease still carries that token; the rows
# inserted come back, so the others are the refused ones.
_ROW = (
    "(CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS TEXT),"
    " CAST(? AS DOUBLE PRECISION), CAST(? AS BIGINT), CAST(? AS TEXT))"
)
_APPEND = (
    "WITH v (table_id, seq, seat, action, at, token, resource) AS (VALUES {rows})"
    " INSERT INTO actions (table_id, seq, seat, action, at)"
    " SELECT v.table_id, v.seq, v.seat, v.action, v.at FROM v"
    " JOIN game_tables g ON g.table_id = v.table_id"
    " WHERE g.status = 'live' AND v.seq = 1 + COALESCE("
    "(SELECT MAX(a.seq) FROM actions a WHERE a.table_id = v.table_id), 0)"
    " AND (v.token IS NULL OR v.token = (SELECT t.token FROM leases t"
    " WHERE t.resource = v.resource{lock}))"
    " RETURNING table_id, seq"
)
_STATEMENT_ROWS = 128  # appends per statement: 7 parameters each, under SQLite's 999
_LAST_SEQ = "(SELECT COALESCE(MAX(a.seq), 0) FROM actions a WHERE a.table_id = t.table_id)"


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


class ActionLog(StoreBase):
    """Appends to the action log, grouped into shared commits, and the snapshots."""

    _appends: GroupCommit[Append]

    def _start_appends(self) -> None:
        self._appends = GroupCommit(self._commit_appends)

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
        if seq < 1 or not SYSTEM <= seat <= 3:  # refused here, alone: in a group, the
            # schema's CHECK would fail every table's append with it (``IntegrityViolation``)
            raise ValueError(f"table {table_id}: no action {seq} for seat {seat}")
        await self._appends.submit(Append(table_id, seq, seat, dumps(action), at, token))

    async def _commit_appends(self, batch: list[Append]) -> list[Exception | None]:
        refused: list[Append] = []
        if len({a.table_id for a in batch}) < len(batch):  # one table twice: in order
            refused = await self._append_group(batch)
        else:
            for start in range(0, len(batch), _STATEMENT_ROWS):
                refused += await self._append_rows(batch[start : start + _STATEMENT_ROWS])
        refused_ids = {id(a) for a in refused}
        return [await self._append_error(a) if id(a) in refused_ids else None for a in batch]

    async def _append_rows(self, rows: list[Append]) -> list[Append]:
        """Appends to distinct tables in one statement; return the refused ones."""
        sql = _APPEND.format(rows=",".join([_ROW] * len(rows)), lock=self._db.lock_rows)
        params = [
            value
            for a in rows
            for value in (*a[:6], None if a.token is None else table_resource(a.table_id))
        ]
        async with self._db.use():
            try:
                done = await self._db.all(sql, params)
            except IntegrityViolation:  # another process took a seq first: check each
                done = None
        if done is None:
            return await self._append_group(rows)
        inserted = {(r["table_id"], r["seq"]) for r in done}
        return [a for a in rows if (a.table_id, a.seq) not in inserted]

    async def _append_group(self, batch: list[Append]) -> list[Append]:
        """Commit a group of appends in one transaction; return the refused ones.

        For the rare groups ``_APPEND`` can't take: a table twice (its later seq
        follows the earlier one) or a statement that lost a race to another process.

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
