"""``Store``: the bot's records, leaderboards and restart-proof tables in one SQLite file.

Durability. Every ``append_action`` is its own committed transaction before it
returns, so the service can tell a player "accepted" only after the action is on
disk. The file runs in WAL mode with ``synchronous=NORMAL``: a commit is a write
to the WAL without an fsync, which survives the bot's process being killed (the
data is in the OS page cache and reaches the file) but not a power cut or a kernel
crash, where the last commits may be lost and the database is still consistent.
That trade keeps the hot path well under a millisecond; a host that must survive
power loss passes ``synchronous="FULL"`` to ``Store.open`` (an fsync per action).

Concurrency. One aiosqlite connection serves the whole bot; an ``asyncio.Lock``
runs each store call alone, so one coroutine's multi-statement transaction never
takes in another coroutine's statements. Calls are short (milliseconds), so the
lock costs nothing noticeable at a few dozen tables.

Aggregates. League points, counts and ratings live in ``player_stats`` and
``ratings`` rows updated in the same transaction as the hand or match they come
from, so leaderboards and /stats read a handful of rows whatever the history size.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.game import HandResult, Match, TrickRecord, action_from_dict, team_of
from bot.rules import (
    DEALER,
    LEVELS,
    RulesError,
    RuleSet,
    Trump,
    format_cards,
    league_change,
    league_factor,
    parse_cards,
)

from . import ratings
from .migrations import LATEST_VERSION, inspect_file, migrate
from .models import (
    METRICS,
    GuildSettings,
    HandPlayer,
    HandRecord,
    LeaderRow,
    LiveTable,
    MatchSummary,
    PlayerStats,
    SeatInfo,
    SequenceError,
    StoreError,
)

log = logging.getLogger(__name__)
_STATUSES = ("finished", "aborted")
_INT64 = (-(2**63), 2**63 - 1)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _seats_json(seats: Sequence[SeatInfo | None]) -> str:
    """Four seats; ``None`` is an empty seat (a lobby still filling up)."""
    if len(seats) != 4:
        raise ValueError(f"a table has 4 seats, not {len(seats)}")
    return _dumps([None if s is None else s.to_dict() for s in seats])


def _seats_from(text: str) -> list[SeatInfo | None]:
    return [None if d is None else SeatInfo.from_dict(d) for d in json.loads(text)]


def _role(seat: int, dealer: int) -> str:
    if seat == dealer:
        return "dealer"
    return "partner" if seat == (dealer + 2) % 4 else "attacker"


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


class Store:
    """The bot's database. Open with ``await Store.open(path)``; close when done."""

    def __init__(self, conn: aiosqlite.Connection, path: Path, version: int) -> None:
        self._conn = conn
        self.path = path
        self.schema_version = version
        self._lock = asyncio.Lock()
        self._pending: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None

    # --- opening and closing ---------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: str = "NORMAL",
        check: bool = True,
        migrate_to: int | None = None,
    ) -> Store:
        """Open (or create) the database at ``path`` and bring its schema up to date.

        A missing file is created along with its folder. An existing file is first
        checked without writing to it (``migrations.inspect_file``): not SQLite,
        corrupt, truncated, someone else's database or a newer schema all raise
        ``StoreError`` and leave it untouched (``check=False`` skips the full-file
        ``quick_check`` but not the header and version checks). ``migrate_to``
        stops at an older schema version (for upgrade tests and tools only: the
        rest of the API needs the latest).
        """
        path = Path(path)
        if synchronous.upper() not in ("NORMAL", "FULL", "EXTRA"):
            raise ValueError("synchronous must be NORMAL, FULL or EXTRA")
        if path.exists():
            await asyncio.to_thread(inspect_file, path, check=check)
        else:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"Cannot create the folder for {path}: {exc}") from exc
        try:
            conn = await aiosqlite.connect(path, isolation_level=None)
        except Exception as exc:  # sqlite3.Error or OSError, depending on the cause
            raise StoreError(f"Cannot open the database {path}: {exc}") from exc
        try:
            await conn.execute("PRAGMA busy_timeout = 5000")
            await conn.execute("PRAGMA foreign_keys = ON")
            version = await migrate(conn, path, migrate_to)  # refuses newer versions
            mode = await conn.execute_fetchall("PRAGMA journal_mode = WAL")
            if next(iter(mode))[0].lower() != "wal":
                raise StoreError(f"{path} cannot be switched to WAL mode.")
            await conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
        except BaseException as exc:
            await conn.close()
            if isinstance(exc, aiosqlite.Error):
                raise StoreError(f"Cannot use the database {path}: {exc}") from exc
            raise
        return cls(conn, path, version)

    async def close(self) -> None:
        if self._flusher is not None and not self._flusher.done():
            await self._flusher  # appends already accepted still get committed
        async with self._lock:
            await self._conn.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _require_latest(self) -> None:
        if self.schema_version != LATEST_VERSION:
            raise StoreError(
                f"This store was opened at schema {self.schema_version}, "
                f"the API needs {LATEST_VERSION}."
            )

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction, alone on the connection; rolled back on any error."""
        self._require_latest()
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            await self._conn.execute("COMMIT")

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """Reads in one transaction, so a multi-query answer is one consistent picture."""
        self._require_latest()
        async with self._lock:
            await self._conn.execute("BEGIN")
            try:
                yield self._conn
            finally:
                await self._conn.execute("COMMIT")

    async def _one(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> Any:
        async with self._conn.execute(sql, params) as cur:
            return await cur.fetchone()

    async def _all(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[Any]:
        async with self._conn.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def _table_row(self, table_id: int, columns: str) -> Any:
        row = await self._one(f"SELECT {columns} FROM game_tables WHERE table_id = ?", (table_id,))
        if row is None:
            raise StoreError(f"There is no table {table_id}.")
        return row

    # --- guilds and players ----------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's saved settings, or the defaults (``RuleSet()``, no timers)."""
        async with self._read():
            row = await self._one(
                "SELECT rules, timers FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
        if row is None:
            return GuildSettings()
        try:
            return GuildSettings(RuleSet.from_dict(json.loads(row[0])), json.loads(row[1]))
        except ValueError as exc:
            raise StoreError(
                f"The saved settings of guild {guild_id} are unreadable: {exc}"
            ) from exc

    async def save_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, rules, timers, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " rules = excluded.rules, timers = excluded.timers,"
                " updated_at = excluded.updated_at",
                (guild_id, _dumps(settings.rules.to_dict()), _dumps(settings.timers), time.time()),
            )

    async def upsert_player(self, user_id: int, name: str) -> None:
        """Remember a user's current display name (leaderboards show the latest)."""
        async with self._write() as db:
            await self._upsert_players(db, [SeatInfo.human(user_id, name)])

    @staticmethod
    async def _upsert_players(db: aiosqlite.Connection, seats: Sequence[SeatInfo | None]) -> None:
        rows = [(s.user_id, s.name, time.time()) for s in seats if s is not None and s.ranked]
        if rows:
            await db.executemany(
                "INSERT INTO players (user_id, name, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,"
                " updated_at = excluded.updated_at",
                rows,
            )

    # --- live tables -------------------------------------------------------------------

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
        seats_json = _seats_json(seats)
        try:
            async with self._write() as db:
                await self._upsert_players(db, seats)
                cur = await db.execute(
                    "INSERT INTO game_tables (guild_id, channel_id, host_id, rules, seed,"
                    " first_dealer, seats, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        host_id,
                        _dumps(rules.to_dict()),
                        seed,
                        first_dealer,
                        seats_json,
                        created_at,
                    ),
                )
                table_id = cur.lastrowid
        except aiosqlite.IntegrityError as exc:
            raise StoreError(f"Channel {channel_id} already has a live table.") from exc
        assert table_id is not None
        return table_id

    async def update_seats(self, table_id: int, seats: Sequence[SeatInfo | None]) -> None:
        """Who sits where now (a player joined, left, or went on autoplay)."""
        seats_json = _seats_json(seats)
        async with self._write() as db:
            await self._table_row(table_id, "1")
            await self._upsert_players(db, seats)
            await db.execute(
                "UPDATE game_tables SET seats = ? WHERE table_id = ?", (seats_json, table_id)
            )

    async def set_table_meta(self, table_id: int, meta: dict[str, Any]) -> None:
        """Replace the service's JSON blob for the table (deadlines, message ids...)."""
        text = _dumps(meta)
        async with self._write() as db:
            cur = await db.execute(
                "UPDATE game_tables SET meta = ? WHERE table_id = ?", (text, table_id)
            )
            if cur.rowcount == 0:
                raise StoreError(f"There is no table {table_id}.")

    async def append_action(
        self, table_id: int, seq: int, seat: int, action: dict[str, Any], at: float
    ) -> None:
        """Log one accepted action; it is committed when this returns.

        ``seq`` is ``Match.seq`` after applying the action (1 for the first) and
        must be the next one: the ``INSERT ... SELECT`` checks that and that the
        table is live. Appends that arrive while a commit is under way are
        committed together in the next one (group commit): under a burst of many
        tables a write costs one transaction for the whole group, not one each.
        """
        self._require_latest()
        params = {"t": table_id, "seq": seq, "seat": seat, "action": _dumps(action), "at": at}
        done = asyncio.get_running_loop().create_future()
        self._pending.append((params, done))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_appends())
        await done

    _APPEND = (
        "INSERT INTO actions (table_id, seq, seat, action, at)"
        " SELECT :t, :seq, :seat, :action, :at FROM game_tables"
        " WHERE table_id = :t AND status = 'live' AND :seq = 1 + COALESCE("
        "(SELECT MAX(seq) FROM actions WHERE table_id = :t), 0)"
    )

    async def _flush_appends(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                async with self._lock:
                    if len(batch) == 1:
                        cur = await self._conn.execute(self._APPEND, batch[0][0])
                        refused = [] if cur.rowcount == 1 else [batch[0][0]]
                    else:
                        refused = await self._append_group([p for p, _ in batch])
            except BaseException as exc:
                for _, done in batch:
                    if not done.done():
                        done.set_exception(
                            exc if isinstance(exc, Exception) else StoreError("Store closed.")
                        )
                if not isinstance(exc, Exception):
                    raise
                continue
            for params, done in batch:
                if done.done():
                    continue
                if any(params is r for r in refused):
                    done.set_exception(await self._append_error(params["t"], params["seq"]))
                else:
                    done.set_result(None)

    async def _append_group(self, batch: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Commit a group of appends in one transaction; return the refused ones.

        The seq and status checks are made in Python against one query for the
        group's tables, inside the same write transaction, so they see exactly what
        the insert will follow.
        """
        tables = sorted({p["t"] for p in batch})
        marks = ",".join("?" * len(tables))
        await self._conn.execute("BEGIN IMMEDIATE")
        try:
            rows = await self._conn.execute_fetchall(
                f"SELECT t.table_id, t.status, COALESCE(MAX(a.seq), 0) FROM game_tables t"
                f" LEFT JOIN actions a ON a.table_id = t.table_id"
                f" WHERE t.table_id IN ({marks}) GROUP BY t.table_id",
                tables,
            )
            last = {r[0]: (r[1], r[2]) for r in rows}
            accepted, refused = [], []
            for params in batch:
                status, top = last.get(params["t"], (None, 0))
                if status == "live" and params["seq"] == top + 1:
                    accepted.append(params)
                    last[params["t"]] = (status, params["seq"])
                else:
                    refused.append(params)
            await self._conn.executemany(
                "INSERT INTO actions (table_id, seq, seat, action, at)"
                " VALUES (:t, :seq, :seat, :action, :at)",
                accepted,
            )
        except BaseException:
            await self._conn.execute("ROLLBACK")
            raise
        await self._conn.execute("COMMIT")
        return refused

    async def _append_error(self, table_id: int, seq: int) -> StoreError:
        async with self._lock:
            row = await self._one(
                "SELECT status, (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE table_id = ?)"
                " FROM game_tables WHERE table_id = ?",
                (table_id, table_id),
            )
        if row is None:
            return StoreError(f"There is no table {table_id}.")
        if row[0] != "live":
            return StoreError(f"Table {table_id} is {row[0]}; it takes no more actions.")
        expected = int(row[1]) + 1
        return SequenceError(
            f"Table {table_id}: action seq {seq} is out of order (the next is {expected}).",
            expected,
        )

    async def save_snapshot(self, table_id: int, seq: int, state: dict[str, Any]) -> None:
        """Keep ``Match.to_dict()`` taken after action ``seq`` (the latest one only).

        Restores then replay only the actions after it. The snapshot must not be
        ahead of the log, or the actions it contains could never be replayed.
        """
        if state.get("seq", seq) != seq:
            raise ValueError(f"the state is at seq {state.get('seq')}, not {seq}")
        text = _dumps(state)
        async with self._write() as db:
            row = await self._one(
                "SELECT status, (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE table_id = ?)"
                " FROM game_tables WHERE table_id = ?",
                (table_id, table_id),
            )
            if row is None:
                raise StoreError(f"There is no table {table_id}.")
            if seq > row[1]:
                raise StoreError(
                    f"Table {table_id}: a snapshot at seq {seq} is ahead of the log ({row[1]})."
                )
            await db.execute(
                "INSERT INTO snapshots (table_id, seq, state, at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq,"
                " state = excluded.state, at = excluded.at",
                (table_id, seq, text, time.time()),
            )

    async def live_tables(self) -> list[LiveTable]:
        """Every live table with what ``restore`` needs, oldest first."""
        async with self._read():
            tables = await self._all(
                "SELECT t.table_id, t.guild_id, t.channel_id, t.host_id, t.rules, t.seed,"
                " t.first_dealer, t.seats, t.meta, t.created_at, s.seq, s.state,"
                " (SELECT COUNT(*) FROM hands h WHERE h.table_id = t.table_id)"
                " FROM game_tables t LEFT JOIN snapshots s ON s.table_id = t.table_id"
                " WHERE t.status = 'live' ORDER BY t.table_id"
            )
            result = []
            for row in tables:
                snap_seq = row[10] or 0
                actions = await self._all(
                    "SELECT seq, seat, action FROM actions WHERE table_id = ? AND seq > ?"
                    " ORDER BY seq",
                    (row[0], snap_seq),
                )
                last = await self._one(
                    "SELECT COALESCE(MAX(seq), 0), MAX(at) FROM actions WHERE table_id = ?",
                    (row[0],),
                )
                result.append(
                    LiveTable(
                        table_id=row[0],
                        guild_id=row[1],
                        channel_id=row[2],
                        host_id=row[3],
                        rules=RuleSet.from_dict(json.loads(row[4])),
                        seed=row[5],
                        first_dealer=row[6],
                        seats=_seats_from(row[7]),
                        meta=json.loads(row[8]),
                        snapshot=None if row[11] is None else json.loads(row[11]),
                        snapshot_seq=snap_seq,
                        actions=[(a[0], a[1], json.loads(a[2])) for a in actions],
                        created_at=row[9],
                        last_seq=last[0],
                        hands_recorded=row[12],
                        last_action_at=last[1] if last[1] is not None else row[9],
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
        async with self._read():
            rows = await self._all(
                "SELECT seq, seat, action FROM actions WHERE table_id = ? ORDER BY seq",
                (table_id,),
            )
        return [(r[0], r[1], json.loads(r[2])) for r in rows]

    async def close_table(self, table_id: int, status: str, at: float) -> None:
        """The table is no longer live. Closing an already closed table changes nothing."""
        if status not in _STATUSES:
            raise ValueError(f"status must be one of {_STATUSES}, not {status!r}")
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
            ids = [
                r[0]
                for r in await self._all(
                    "SELECT table_id FROM game_tables WHERE status != 'live' AND closed_at < ?"
                    " AND (EXISTS (SELECT 1 FROM actions a WHERE a.table_id = game_tables.table_id)"
                    " OR EXISTS (SELECT 1 FROM snapshots s"
                    " WHERE s.table_id = game_tables.table_id))",
                    (closed_before,),
                )
            ]
            await db.executemany("DELETE FROM actions WHERE table_id = ?", [(i,) for i in ids])
            await db.executemany("DELETE FROM snapshots WHERE table_id = ?", [(i,) for i in ids])
        return len(ids)

    # --- records -----------------------------------------------------------------------

    async def record_hand(
        self,
        table_id: int,
        result: HandResult,
        tricks: Sequence[TrickRecord],
        seats: Sequence[SeatInfo],
        at: float,
    ) -> int:
        """Store a scored hand, its tricks and seats, and move league points; one transaction.

        League points (seed 001): ``league_change(winner, levels_gained)`` times
        ``league_factor`` of the four players' points before the hand; the team that
        went up gains it, the other team loses it. Computer players hold no league
        points, count as 0 for the factor (so only all-human tables are doubled or
        tripled) and are not ranked. Points may go below zero: the seed sets no floor.

        Idempotent per (table, hand_no): recording the same hand again returns the
        existing id and changes nothing, so a service that crashed between the last
        play and this call can simply call it again after restoring.
        """
        if len(seats) != 4:
            raise ValueError(f"a hand has 4 seats, not {len(seats)}")
        async with self._write() as db:
            table = await self._table_row(table_id, "guild_id, seed")
            guild_id, seed = table[0], table[1]
            existing = await self._one(
                "SELECT hand_id FROM hands WHERE table_id = ? AND hand_no = ?",
                (table_id, result.hand_no),
            )
            if existing is not None:
                return int(existing[0])
            await self._upsert_players(db, seats)

            dealer = result.dealer
            dealer_team = team_of(dealer)
            up_team = dealer_team if result.winner == DEALER else 1 - dealer_team
            base = league_change(result.winner, result.levels_gained)
            league_before: list[int | None] = []
            for s in seats:
                row = None
                if s.ranked:
                    row = await self._one(
                        "SELECT league FROM player_stats WHERE guild_id = ? AND user_id = ?",
                        (guild_id, s.user_id),
                    )
                league_before.append((0 if row is None else int(row[0])) if s.ranked else None)
            factor = league_factor([p or 0 for p in league_before])
            change = base * factor

            cur = await db.execute(
                "INSERT INTO hands (table_id, guild_id, hand_no, seed, dealer, trump_level,"
                " trump_suit, level_before_0, level_before_1, level_after_0, level_after_1,"
                " trick_points, attacker_points, kitty, kitty_points, multiplier, kitty_bonus,"
                " winner, levels_gained, next_dealer, last_trick_winner, match_winner,"
                " failed_throws, league_change, league_factor, played_at) VALUES"
                " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    table_id,
                    guild_id,
                    result.hand_no,
                    seed,
                    dealer,
                    result.trump.level,
                    result.trump.suit,
                    result.levels_before[0],
                    result.levels_before[1],
                    result.levels_after[0],
                    result.levels_after[1],
                    result.trick_points,
                    result.attacker_points,
                    format_cards(result.kitty),
                    result.kitty_points,
                    result.multiplier,
                    result.kitty_bonus,
                    result.winner,
                    result.levels_gained,
                    result.next_dealer,
                    result.last_trick_winner,
                    result.match_winner,
                    _dumps([list(x) for x in result.failed_throws]),
                    base,
                    factor,
                    at,
                ),
            )
            hand_id = cur.lastrowid
            assert hand_id is not None
            await db.executemany(
                "INSERT INTO tricks (hand_id, trick_no, leader, winner, points, plays, attempted)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        hand_id,
                        n,
                        t.leader,
                        t.winner,
                        t.points,
                        _dumps([[s, format_cards(c)] for s, c in t.plays]),
                        None if t.attempted is None else format_cards(t.attempted),
                    )
                    for n, t in enumerate(tricks, start=1)
                ],
            )

            player_rows = []
            stat_rows = []
            for seat, info in enumerate(seats):
                team = team_of(seat)
                role = _role(seat, dealer)
                gained = LEVELS.index(result.levels_after[team]) - LEVELS.index(
                    result.levels_before[team]
                )
                bonus = result.kitty_bonus if team != dealer_team else 0
                throws = [p for s, p in result.failed_throws if s == seat]
                before = league_before[seat]
                delta = (change if team == up_team else -change) if info.ranked else None
                player_rows.append(
                    (
                        hand_id,
                        seat,
                        info.kind,
                        info.user_id if info.ranked else None,
                        info.name,
                        role,
                        team,
                        gained,
                        bonus,
                        int(result.last_trick_winner == seat),
                        len(throws),
                        sum(throws),
                        before,
                        delta,
                    )
                )
                if info.ranked:
                    stat_rows.append(
                        (
                            guild_id,
                            info.user_id,
                            int(role == "dealer"),
                            int(role == "partner"),
                            int(role == "attacker"),
                            gained,
                            int(bonus > 0),
                            bonus,
                            len(throws),
                            sum(throws),
                            delta,
                            at,
                        )
                    )
            await db.executemany(
                "INSERT INTO hand_players (hand_id, seat, kind, user_id, name, role, team,"
                " levels_gained, kitty_bonus, last_trick, failed_throws, throw_penalty,"
                " league_before, league_delta) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                player_rows,
            )
            await db.executemany(
                "INSERT INTO player_stats (guild_id, user_id, hands, dealer_hands, partner_hands,"
                " attacker_hands, levels_gained, kitty_bonuses, kitty_bonus_points, failed_throws,"
                " throw_penalty_points, league, last_played)"
                " VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET"
                " hands = hands + 1,"
                " dealer_hands = dealer_hands + excluded.dealer_hands,"
                " partner_hands = partner_hands + excluded.partner_hands,"
                " attacker_hands = attacker_hands + excluded.attacker_hands,"
                " levels_gained = levels_gained + excluded.levels_gained,"
                " kitty_bonuses = kitty_bonuses + excluded.kitty_bonuses,"
                " kitty_bonus_points = kitty_bonus_points + excluded.kitty_bonus_points,"
                " failed_throws = failed_throws + excluded.failed_throws,"
                " throw_penalty_points = throw_penalty_points + excluded.throw_penalty_points,"
                " league = league + excluded.league,"
                " last_played = MAX(COALESCE(last_played, 0), excluded.last_played)",
                stat_rows,
            )
            await db.execute(
                "UPDATE game_tables SET hands_played = hands_played + 1 WHERE table_id = ?",
                (table_id,),
            )
        return hand_id

    async def record_match_end(self, table_id: int, winner_team: int | None, at: float) -> None:
        """Record a finished match's result and update the players' ratings.

        The players are the seats as they are at the end (``update_seats``). Each
        human gets a match, and a win if their team (seat % 2) won. With a winner,
        humans' ratings move by openskill's Plackett-Luce for two teams of two, bots
        playing at a fixed rating (see ``ratings``). ``winner_team=None`` (a match
        called off without a winner) counts the match but rates nobody. Recording
        the same table twice changes nothing.
        """
        if winner_team not in (0, 1, None):
            raise ValueError(f"winner_team must be 0, 1 or None, not {winner_team!r}")
        async with self._write() as db:
            row = await self._table_row(table_id, "guild_id, seats, result_recorded")
            if row[2]:
                return
            guild_id, seats = row[0], _seats_from(row[1])
            await self._upsert_players(db, seats)
            await db.executemany(
                "INSERT INTO match_players (table_id, seat, kind, user_id, name, team, won)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        table_id,
                        seat,
                        s.kind,
                        s.user_id if s.ranked else None,
                        s.name,
                        team_of(seat),
                        None if winner_team is None else int(team_of(seat) == winner_team),
                    )
                    for seat, s in enumerate(seats)
                ],
            )
            await db.executemany(
                "INSERT INTO player_stats (guild_id, user_id, matches, wins) VALUES (?, ?, 1, ?)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET matches = matches + 1,"
                " wins = wins + excluded.wins",
                [
                    (guild_id, s.user_id, int(team_of(seat) == winner_team))
                    for seat, s in enumerate(seats)
                    if s.ranked
                ],
            )
            if winner_team is not None and any(s.ranked for s in seats):
                current: list[ratings.Rating | None] = []
                for s in seats:
                    if not s.ranked:
                        current.append(None)
                        continue
                    r = await self._one(
                        "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND user_id = ?",
                        (guild_id, s.user_id),
                    )
                    current.append(
                        (ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA) if r is None else (r[0], r[1])
                    )
                new = ratings.rate_match(current, winner_team)
                await db.executemany(
                    "INSERT INTO ratings (guild_id, user_id, mu, sigma, ordinal, rated_matches,"
                    " updated_at) VALUES (?, ?, ?, ?, ?, 1, ?)"
                    " ON CONFLICT (guild_id, user_id) DO UPDATE SET mu = excluded.mu,"
                    " sigma = excluded.sigma, ordinal = excluded.ordinal,"
                    " rated_matches = rated_matches + 1, updated_at = excluded.updated_at",
                    [
                        (guild_id, seats[seat].user_id, mu, sigma, ratings.ordinal(mu, sigma), at)
                        for seat, (mu, sigma) in new.items()
                    ],
                )
            await db.execute(
                "UPDATE game_tables SET result_recorded = 1, winner_team = ?, ended_at = ?"
                " WHERE table_id = ?",
                (winner_team, at, table_id),
            )

    # --- queries -----------------------------------------------------------------------

    async def leaderboard(self, guild_id: int, metric: str, limit: int = 10) -> list[LeaderRow]:
        """The guild's top players by ``league``, ``rating`` (ordinal), ``wins`` or ``hands``.

        Reads the aggregate rows through an index on (guild_id, metric), so the cost
        does not grow with the number of hands recorded.
        """
        if metric not in METRICS:
            raise ValueError(f"metric must be one of {', '.join(METRICS)}, not {metric!r}")
        if metric == "rating":
            sql = (
                "SELECT r.user_id, p.name, r.ordinal, COALESCE(s.matches, 0),"
                " COALESCE(s.wins, 0), COALESCE(s.hands, 0)"
                " FROM ratings r JOIN players p ON p.user_id = r.user_id"
                " LEFT JOIN player_stats s ON s.guild_id = r.guild_id AND s.user_id = r.user_id"
                " WHERE r.guild_id = ? ORDER BY r.ordinal DESC, r.user_id LIMIT ?"
            )
        else:
            sql = (
                f"SELECT s.user_id, p.name, s.{metric}, s.matches, s.wins, s.hands"
                " FROM player_stats s JOIN players p ON p.user_id = s.user_id"
                f" WHERE s.guild_id = ? ORDER BY s.{metric} DESC, s.user_id LIMIT ?"
            )
        async with self._read():
            rows = await self._all(sql, (guild_id, limit))
        return [LeaderRow(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """A player's records in a guild, or None if they never played there."""
        async with self._read():
            row = await self._one(
                "SELECT p.name, s.matches, s.wins, s.hands, s.dealer_hands, s.partner_hands,"
                " s.attacker_hands, s.levels_gained, s.kitty_bonuses, s.kitty_bonus_points,"
                " s.failed_throws, s.throw_penalty_points, s.league,"
                " r.mu, r.sigma, r.rated_matches"
                " FROM players p"
                " LEFT JOIN player_stats s ON s.user_id = p.user_id AND s.guild_id = :g"
                " LEFT JOIN ratings r ON r.user_id = p.user_id AND r.guild_id = :g"
                " WHERE p.user_id = :u AND (s.user_id IS NOT NULL OR r.user_id IS NOT NULL)",
                {"g": guild_id, "u": user_id},
            )
        if row is None:
            return None
        counts = [0 if v is None else int(v) for v in row[1:13]]
        mu = ratings.DEFAULT_MU if row[13] is None else row[13]
        sigma = ratings.DEFAULT_SIGMA if row[14] is None else row[14]
        return PlayerStats(
            user_id,
            row[0],
            *counts,
            mu=mu,
            sigma=sigma,
            ordinal=ratings.ordinal(mu, sigma),
            rated_matches=row[15] or 0,
        )

    async def recent_matches(self, guild_id: int, limit: int = 10) -> list[MatchSummary]:
        """The guild's most recently started tables, live ones included (see ``status``)."""
        async with self._read():
            rows = await self._all(
                "SELECT t.table_id, t.channel_id, t.seats, t.status, t.winner_team,"
                " t.hands_played, t.created_at, COALESCE(t.ended_at, t.closed_at),"
                " (SELECT h.level_after_0 || ' ' || h.level_after_1 FROM hands h"
                "  WHERE h.table_id = t.table_id ORDER BY h.hand_no DESC LIMIT 1)"
                " FROM game_tables t WHERE t.guild_id = ?"
                " ORDER BY t.created_at DESC, t.table_id DESC LIMIT ?",
                (guild_id, limit),
            )
        return [
            MatchSummary(
                table_id=r[0],
                channel_id=r[1],
                players=_seats_from(r[2]),
                status=r[3],
                winner_team=r[4],
                hands=r[5],
                started_at=r[6],
                finished_at=r[7],
                levels=None if r[8] is None else tuple(r[8].split(" ", 1)),  # type: ignore[arg-type]
            )
            for r in rows
        ]

    async def hand_record(self, hand_id: int) -> HandRecord | None:
        """One hand trick by trick, with its result and seats (None if unknown)."""
        async with self._read():
            h = await self._one(
                "SELECT table_id, guild_id, hand_no, seed, dealer, trump_level, trump_suit,"
                " level_before_0, level_before_1, level_after_0, level_after_1, trick_points,"
                " attacker_points, kitty, kitty_points, multiplier, kitty_bonus, winner,"
                " levels_gained, next_dealer, last_trick_winner, match_winner, league_change,"
                " league_factor, played_at, failed_throws FROM hands WHERE hand_id = ?",
                (hand_id,),
            )
            if h is None:
                return None
            tricks = await self._all(
                "SELECT leader, winner, points, plays, attempted FROM tricks"
                " WHERE hand_id = ? ORDER BY trick_no",
                (hand_id,),
            )
            players = await self._all(
                "SELECT seat, kind, user_id, name, role, team, levels_gained, kitty_bonus,"
                " last_trick, failed_throws, throw_penalty, league_before, league_delta"
                " FROM hand_players WHERE hand_id = ? ORDER BY seat",
                (hand_id,),
            )
        seats = [HandPlayer(*p[:8], bool(p[8]), *p[9:]) for p in players]
        failed = tuple((s, p) for s, p in json.loads(h[25]))
        result = HandResult(
            hand_no=h[2],
            dealer=h[4],
            trump=Trump(h[5], h[6]),
            levels_before=(h[7], h[8]),
            levels_after=(h[9], h[10]),
            trick_points=h[11],
            kitty=tuple(parse_cards(h[13])),
            kitty_points=h[14],
            multiplier=h[15],
            kitty_bonus=h[16],
            attacker_points=h[12],
            winner=h[17],
            levels_gained=h[18],
            next_dealer=h[19],
            last_trick_winner=h[20],
            failed_throws=failed,
            match_winner=h[21],
        )
        trick_records = [
            TrickRecord(
                leader=t[0],
                plays=tuple((s, tuple(parse_cards(c))) for s, c in json.loads(t[3])),
                winner=t[1],
                points=t[2],
                attempted=None if t[4] is None else tuple(parse_cards(t[4])),
            )
            for t in tricks
        ]
        return HandRecord(
            hand_id=hand_id,
            table_id=h[0],
            guild_id=h[1],
            hand_no=h[2],
            seed=h[3],
            played_at=h[24],
            result=result,
            tricks=trick_records,
            players=seats,
            league_change=h[22],
            league_factor=h[23],
        )

    async def hands_of_table(self, table_id: int) -> list[int]:
        """The ids of a table's recorded hands, in play order."""
        async with self._read():
            rows = await self._all(
                "SELECT hand_id FROM hands WHERE table_id = ? ORDER BY hand_no", (table_id,)
            )
        return [r[0] for r in rows]
