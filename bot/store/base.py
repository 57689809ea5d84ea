"""What every part of the ``Store`` shares: the database, transactions, JSON and players."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import orjson

from .db import Database, Row
from .migrations import LATEST_VERSION
from .models import SeatInfo, StoreError


def dumps(value: Any) -> str:
    """Compact JSON, read back by ``json.loads``: by orjson (an action is written at every
    play, 0.2 µs against the standard library's 8 µs), which writes what ``json.dumps``
    would (number keys as strings) except for integers beyond 64 bits, left to it."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def seats_json(seats: Sequence[SeatInfo | None]) -> str:
    """Four seats; ``None`` is an empty seat (a lobby still filling up)."""
    if len(seats) != 4:
        raise ValueError(f"a table has 4 seats, not {len(seats)}")
    return dumps([None if s is None else s.to_dict() for s in seats])


def seats_from(text: str) -> list[SeatInfo | None]:
    return [None if d is None else SeatInfo.from_dict(d) for d in json.loads(text)]


class StoreBase:
    """The database handle and the helpers the store's parts build on."""

    def __init__(self, db: Database, location: str, version: int) -> None:
        self._db = db
        self.location = location
        self.schema_version = version

    def _require_latest(self) -> None:
        if self.schema_version != LATEST_VERSION:
            raise StoreError(
                f"This store was opened at schema {self.schema_version}, "
                f"the API needs {LATEST_VERSION}."
            )

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Database]:
        """One write transaction, alone on the connection; rolled back on any error."""
        self._require_latest()
        async with self._db.transaction(write=True) as db:
            yield db

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Database]:
        """Reads in one transaction, so a multi-query answer is one consistent picture;
        after every write already asked for (the one connection, in turn)."""
        self._require_latest()
        async with self._db.transaction(write=False) as db:
            yield db

    @asynccontextmanager
    async def _read_records(self) -> AsyncIterator[Database]:
        """``_read`` for the records (leaderboards, stats, history, a hand for review),
        on SQLite's reader connection (``SqliteDatabase.reader``): not queued behind a
        write slow inside SQLite. What they read was committed before any player was
        told of it, so a write still under way holds nothing they could be asked for."""
        self._require_latest()
        async with self._db.reader.transaction(write=False) as db:
            yield db

    async def _table_row(self, table_id: int, columns: str) -> Row:
        row = await self._db.one(
            f"SELECT {columns} FROM game_tables WHERE table_id = ?", (table_id,)
        )
        if row is None:
            raise StoreError(f"There is no table {table_id}.")
        return row

    async def _set_seats(
        self, table_id: int, seats: Sequence[SeatInfo | None], meta: dict[str, Any] | None
    ) -> int:
        """Who sits where now, and with ``meta`` the table's meta; the table's server."""
        table = await self._table_row(table_id, "guild_id")
        await self._upsert_players(seats, table["guild_id"])
        await self._db.execute(
            "UPDATE game_tables SET seats = ? WHERE table_id = ?", (seats_json(seats), table_id)
        )
        if meta is not None:
            await self._db.execute(
                "UPDATE game_tables SET meta = ? WHERE table_id = ?", (dumps(meta), table_id)
            )
        return int(table["guild_id"])

    async def _upsert_players(
        self, seats: Sequence[SeatInfo | None], guild_id: int | None = None
    ) -> None:
        """The seats' players' names, the latest seen; with ``guild_id`` (a seat taken at
        a table there), also the name that server shows them by (its nickname, migration
        0009): another server's never shows on its leaderboard."""
        rows = [(s.user_id, s.name, time.time()) for s in seats if s is not None and s.ranked]
        if rows:
            await self._db.executemany(
                "INSERT INTO players (user_id, name, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,"
                " updated_at = excluded.updated_at",
                rows,
            )
        if rows and guild_id is not None:
            await self._db.executemany(
                "UPDATE player_stats SET name = ? WHERE guild_id = ? AND user_id = ?",
                [(name, guild_id, user_id) for user_id, name, _ in rows],
            )
