"""Tournament records: the running state of each tournament and its results.

The tournament service owns the logic (``bot.tournament``); this part only keeps
what it hands over. ``save_tournament`` writes the whole picture in one
transaction: the state JSON a restart resumes from, and the entrants, rounds and
matches rows rewritten from it (a tournament has at most a few dozen of each, so
rewriting is simpler than diffing and costs nothing). ``player_tournaments`` is
what ``/shengji stats`` shows; ``last_ended_tournament`` what ``/shengji tournament
standings`` shows of a channel whose tournament ended before a restart.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .base import StoreBase, dumps
from .db import Row

LIVE = ("registration", "running")
ENDED = ("finished", "cancelled")
STATUSES = (*LIVE, *ENDED)


@dataclass(frozen=True, slots=True)
class EntrantRow:
    entrant_no: int
    name: str
    computer: bool
    players: tuple[int | None, int | None] = (None, None)
    place: int | None = None  # 1, 2, 3... on the podium
    eliminated_round: int | None = None


@dataclass(frozen=True, slots=True)
class RoundRow:
    round_no: int
    started_at: float | None
    ended_at: float | None


@dataclass(frozen=True, slots=True)
class MatchRow:
    round_no: int
    match_no: int
    entrants: tuple[int, int | None]  # None: a bye
    table_id: int | None = None
    winner: int | None = None
    levels: tuple[str | None, str | None] = (None, None)
    hands: int = 0
    flags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TournamentRows:
    """Everything the records hold of one tournament besides its state."""

    entrants: Sequence[EntrantRow] = ()
    rounds: Sequence[RoundRow] = ()
    matches: Sequence[MatchRow] = ()


@dataclass(frozen=True, slots=True)
class StoredTournament:
    tournament_id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    seed: str
    status: str
    state: dict[str, Any] = field(default_factory=dict)
    created_at: float = 0.0
    finished_at: float | None = None


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """One tournament a player entered, for their stats."""

    tournament_id: int
    name: str
    status: str
    team: str
    place: int | None
    eliminated_round: int | None
    rounds_played: int
    created_at: float


_COLUMNS = (
    "tournament_id, guild_id, channel_id, organiser_id, name, seed, status, state,"
    " created_at, finished_at"
)


def _stored(row: Row) -> StoredTournament:
    finished = row["finished_at"]
    return StoredTournament(
        int(row["tournament_id"]),
        int(row["guild_id"]),
        int(row["channel_id"]),
        int(row["organiser_id"]),
        row["name"],
        row["seed"],
        row["status"],
        json.loads(row["state"]),
        float(row["created_at"]),
        None if finished is None else float(finished),
    )


class TournamentRecords(StoreBase):
    """The ``Store``'s tournament methods."""

    async def create_tournament(
        self,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        seed: str,
        state: dict[str, Any],
        now: float,
    ) -> int:
        """A new tournament open for registration; its id."""
        async with self._write() as db:
            row = await db.one(
                "SELECT COALESCE(MAX(tournament_id), 0) + 1 AS next_id FROM tournaments"
            )
            assert row is not None
            tournament_id = int(row["next_id"])
            await db.execute(
                f"INSERT INTO tournaments ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    tournament_id,
                    guild_id,
                    channel_id,
                    organiser_id,
                    name,
                    seed,
                    "registration",
                    dumps(state),
                    now,
                    None,
                ),
            )
        return tournament_id

    async def save_tournament(
        self,
        tournament_id: int,
        status: str,
        state: dict[str, Any],
        rows: TournamentRows,
        finished_at: float | None = None,
    ) -> None:
        """The tournament's state and records as they are now, in one transaction."""
        if status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)}")
        key = (tournament_id,)
        async with self._write() as db:
            await db.execute(
                "UPDATE tournaments SET status = ?, state = ?, finished_at = ?"
                " WHERE tournament_id = ?",
                (status, dumps(state), finished_at, tournament_id),
            )
            for table in ("tournament_entrants", "tournament_rounds", "tournament_matches"):
                await db.execute(f"DELETE FROM {table} WHERE tournament_id = ?", key)
            await db.executemany(
                "INSERT INTO tournament_entrants (tournament_id, entrant_no, name, computer,"
                " player_a, player_b, place, eliminated_round) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        tournament_id,
                        e.entrant_no,
                        e.name,
                        int(e.computer),
                        *e.players,
                        e.place,
                        e.eliminated_round,
                    )
                    for e in rows.entrants
                ],
            )
            await db.executemany(
                "INSERT INTO tournament_rounds (tournament_id, round_no, started_at, ended_at)"
                " VALUES (?, ?, ?, ?)",
                [(tournament_id, r.round_no, r.started_at, r.ended_at) for r in rows.rounds],
            )
            await db.executemany(
                "INSERT INTO tournament_matches (tournament_id, round_no, match_no, entrant_a,"
                " entrant_b, table_id, winner, level_a, level_b, hands, flags)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        tournament_id,
                        m.round_no,
                        m.match_no,
                        *m.entrants,
                        m.table_id,
                        m.winner,
                        *m.levels,
                        m.hands,
                        "; ".join(m.flags),
                    )
                    for m in rows.matches
                ],
            )

    async def tournament(self, tournament_id: int) -> StoredTournament | None:
        async with self._read() as db:
            rows = await db.all(
                f"SELECT {_COLUMNS} FROM tournaments WHERE tournament_id = ?", (tournament_id,)
            )
        return next((_stored(r) for r in rows), None)

    async def live_tournaments(self) -> list[StoredTournament]:
        """Tournaments in registration or running: the service resumes them at start-up."""
        async with self._read() as db:
            rows = await db.all(
                f"SELECT {_COLUMNS} FROM tournaments WHERE status IN (?, ?) ORDER BY tournament_id",
                LIVE,
            )
        return [_stored(r) for r in rows]

    async def last_ended_tournament(self, channel_id: int) -> StoredTournament | None:
        """The channel's newest finished or cancelled tournament, for its standings.

        Without an index on the channel: a server holds a handful of tournaments a
        month and the command is rare, so a scan costs nothing worth a migration.
        """
        async with self._read() as db:
            rows = await db.all(
                f"SELECT {_COLUMNS} FROM tournaments WHERE channel_id = ? AND status IN (?, ?)"
                " ORDER BY tournament_id DESC LIMIT 1",
                (channel_id, *ENDED),
            )
        return next((_stored(r) for r in rows), None)

    async def tournament_matches(self, tournament_id: int) -> list[MatchRow]:
        async with self._read() as db:
            rows = await db.all(
                "SELECT round_no, match_no, entrant_a, entrant_b, table_id, winner, level_a,"
                " level_b, hands, flags FROM tournament_matches WHERE tournament_id = ?"
                " ORDER BY round_no, match_no",
                (tournament_id,),
            )
        return [
            MatchRow(
                r["round_no"],
                r["match_no"],
                (r["entrant_a"], r["entrant_b"]),
                r["table_id"],
                r["winner"],
                (r["level_a"], r["level_b"]),
                r["hands"],
                tuple(r["flags"].split("; ")) if r["flags"] else (),
            )
            for r in rows
        ]

    async def player_tournaments(
        self, guild_id: int, user_id: int, limit: int = 5
    ) -> list[TournamentResult]:
        """The tournaments a player entered in a guild, newest first."""
        async with self._read_records() as db:
            rows = await db.all(
                "SELECT t.tournament_id, t.name, t.status, e.name AS team, e.place,"
                " e.eliminated_round, (SELECT COUNT(*) FROM tournament_matches m"
                " WHERE m.tournament_id = t.tournament_id"
                " AND (m.entrant_a = e.entrant_no OR m.entrant_b = e.entrant_no)) AS played,"
                " t.created_at"
                " FROM tournament_entrants e JOIN tournaments t"
                " ON t.tournament_id = e.tournament_id"
                " WHERE t.guild_id = ? AND (e.player_a = ? OR e.player_b = ?)"
                " AND t.status <> 'registration'"
                " ORDER BY t.created_at DESC, t.tournament_id DESC LIMIT ?",
                (guild_id, user_id, user_id, limit),
            )
        return [
            TournamentResult(
                int(r["tournament_id"]),
                r["name"],
                r["status"],
                r["team"],
                r["place"],
                r["eliminated_round"],
                int(r["played"]),
                float(r["created_at"]),
            )
            for r in rows
        ]
