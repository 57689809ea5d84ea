"""Reads for players: leaderboards, a player's stats, recent matches, one hand's record."""

from __future__ import annotations

import json
import time

from bot.game import HandResult, TrickRecord, codec
from bot.rules import RuleSet

from . import ratings
from .base import StoreBase, seats_from
from .db import Row
from .models import (
    METRICS,
    HandPlayer,
    HandRecord,
    LeaderRow,
    MatchSummary,
    PlayerStats,
    ReplaySource,
)

_STAT_COUNTS = (
    "matches",
    "wins",
    "hands",
    "dealer_hands",
    "partner_hands",
    "attacker_hands",
    "levels_gained",
    "kitty_bonuses",
    "kitty_bonus_points",
    "failed_throws",
    "throw_penalty_points",
    "league",
)
_HAND_PLAYER = (
    "seat",
    "kind",
    "user_id",
    "name",
    "role",
    "team",
    "levels_gained",
    "kitty_bonus",
    "last_trick",
    "failed_throws",
    "throw_penalty",
    "league_before",
    "league_delta",
)


def _hand_result(h: Row) -> HandResult:
    """A ``hands`` row back into the ``HandResult`` it was written from (``rows.hand_rows``)."""
    columns = set(h.keys())
    data = {name: h[name] for name, _ in codec.fields_of(HandResult) if name in columns}
    data["trump"] = {"level": h["trump_level"], "suit": h["trump_suit"]}
    data["levels_before"] = [h["level_before_0"], h["level_before_1"]]
    data["levels_after"] = [h["level_after_0"], h["level_after_1"]]
    data["failed_throws"] = json.loads(h["failed_throws"])
    result: HandResult = codec.decode(HandResult, data)
    return result


def _trick(t: Row) -> TrickRecord:
    data = {name: t[name] for name in ("leader", "winner", "points", "attempted")}
    trick: TrickRecord = codec.decode(TrickRecord, data | {"plays": json.loads(t["plays"])})
    return trick


class Queries(StoreBase):
    """Read-only answers, each from one consistent transaction."""

    async def ping(self) -> float:
        """Seconds for one read transaction round trip (``/shengji status`` shows it).

        It waits behind the store's lock like any call, so it measures what a
        player's action would wait for, queueing included.
        """
        start = time.perf_counter()
        async with self._read() as db:
            await db.one("SELECT 1 AS one")
        return time.perf_counter() - start

    async def leaderboard(self, guild_id: int, metric: str, limit: int = 10) -> list[LeaderRow]:
        """The guild's top players by ``league``, ``rating`` (ordinal), ``wins`` or ``hands``.

        Reads the aggregate rows through an index on (guild_id, metric), so the cost
        does not grow with the number of hands recorded.
        """
        if metric not in METRICS:
            raise ValueError(f"metric must be one of {', '.join(METRICS)}, not {metric!r}")
        params: tuple[object, ...] = (guild_id, limit)
        if metric == "rating":
            # everyone with a recorded hand is ranked: a player whose first match is
            # still on stands at the starting rating until the match ends
            sql = (
                "SELECT s.user_id, COALESCE(s.name, p.name) AS name,"
                " COALESCE(r.ordinal, ?) AS value, s.matches, s.wins,"
                " s.hands FROM player_stats s JOIN players p ON p.user_id = s.user_id"
                " LEFT JOIN ratings r ON r.guild_id = s.guild_id AND r.user_id = s.user_id"
                " WHERE s.guild_id = ? ORDER BY value DESC, s.user_id LIMIT ?"
            )
            start = ratings.ordinal(ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)
            params = (start, guild_id, limit)
        else:
            sql = (
                "SELECT s.user_id, COALESCE(s.name, p.name) AS name,"
                f" s.{metric} AS value, s.matches, s.wins, s.hands"
                " FROM player_stats s JOIN players p ON p.user_id = s.user_id"
                f" WHERE s.guild_id = ? ORDER BY s.{metric} DESC, s.user_id LIMIT ?"
            )
        async with self._read_records() as db:
            rows = await db.all(sql, params)
        return [
            LeaderRow(r["user_id"], r["name"], r["value"], r["matches"], r["wins"], r["hands"])
            for r in rows
        ]

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """A player's records in a guild, or None if they never played there."""
        async with self._read_records() as db:
            row = await db.one(
                "SELECT COALESCE(s.name, p.name) AS name,"
                f" {', '.join('s.' + c for c in _STAT_COUNTS)},"
                " r.mu, r.sigma, r.rated_matches"
                " FROM players p"
                " LEFT JOIN player_stats s ON s.user_id = p.user_id AND s.guild_id = ?"
                " LEFT JOIN ratings r ON r.user_id = p.user_id AND r.guild_id = ?"
                " WHERE p.user_id = ? AND (s.user_id IS NOT NULL OR r.user_id IS NOT NULL)",
                (guild_id, guild_id, user_id),
            )
        if row is None:
            return None
        counts = {c: 0 if row[c] is None else int(row[c]) for c in _STAT_COUNTS}
        mu = ratings.DEFAULT_MU if row["mu"] is None else row["mu"]
        sigma = ratings.DEFAULT_SIGMA if row["sigma"] is None else row["sigma"]
        return PlayerStats(
            user_id=user_id,
            name=row["name"],
            **counts,
            mu=mu,
            sigma=sigma,
            ordinal=ratings.ordinal(mu, sigma),
            rated_matches=row["rated_matches"] or 0,
        )

    async def recent_matches(self, guild_id: int, limit: int = 10) -> list[MatchSummary]:
        """The guild's most recently started tables, live ones included (see ``status``)."""
        async with self._read_records() as db:
            rows = await db.all(
                "SELECT t.table_id, t.channel_id, t.seats, t.status, t.winner_team,"
                " t.hands_played, t.created_at, COALESCE(t.ended_at, t.closed_at) AS finished_at,"
                " (SELECT h.level_after_0 || ' ' || h.level_after_1 FROM hands h"
                "  WHERE h.table_id = t.table_id ORDER BY h.hand_no DESC LIMIT 1) AS levels"
                " FROM game_tables t WHERE t.guild_id = ?"
                " ORDER BY t.created_at DESC, t.table_id DESC LIMIT ?",
                (guild_id, limit),
            )
        summaries = []
        for r in rows:
            levels = None if r["levels"] is None else r["levels"].split(" ", 1)
            summaries.append(
                MatchSummary(
                    table_id=r["table_id"],
                    channel_id=r["channel_id"],
                    players=seats_from(r["seats"]),
                    status=r["status"],
                    winner_team=r["winner_team"],
                    hands=r["hands_played"],
                    started_at=r["created_at"],
                    finished_at=r["finished_at"],
                    levels=None if levels is None else (levels[0], levels[1]),
                )
            )
        return summaries

    async def hand_record(self, hand_id: int) -> HandRecord | None:
        """One hand trick by trick, with its result and seats (None if unknown)."""
        async with self._read_records() as db:
            h = await db.one("SELECT * FROM hands WHERE hand_id = ?", (hand_id,))
            if h is None:
                return None
            tricks = await db.all(
                "SELECT leader, winner, points, plays, attempted FROM tricks"
                " WHERE hand_id = ? ORDER BY trick_no",
                (hand_id,),
            )
            players = await db.all(
                f"SELECT {', '.join(_HAND_PLAYER)} FROM hand_players WHERE hand_id = ?"
                " ORDER BY seat",
                (hand_id,),
            )
        return HandRecord(
            hand_id=hand_id,
            table_id=h["table_id"],
            guild_id=h["guild_id"],
            hand_no=h["hand_no"],
            seed=h["seed"],
            played_at=h["played_at"],
            result=_hand_result(h),
            tricks=[_trick(t) for t in tricks],
            players=[
                HandPlayer(
                    **{c: p[c] for c in _HAND_PLAYER} | {"last_trick": bool(p["last_trick"])}
                )
                for p in players
            ],
            league_change=h["league_change"],
            league_factor=h["league_factor"],
        )

    async def hands_of_table(self, table_id: int) -> list[int]:
        """The ids of a table's recorded hands, in play order."""
        async with self._read_records() as db:
            rows = await db.all(
                "SELECT hand_id FROM hands WHERE table_id = ? ORDER BY hand_no", (table_id,)
            )
        return [r["hand_id"] for r in rows]

    async def hand_id_of(self, table_id: int, hand_no: int) -> int | None:
        """The id of a table's recorded hand by its number (None if not recorded)."""
        async with self._read_records() as db:
            row = await db.one(
                "SELECT hand_id FROM hands WHERE table_id = ? AND hand_no = ?", (table_id, hand_no)
            )
        return None if row is None else int(row["hand_id"])

    async def replay_source(self, hand_id: int) -> ReplaySource | None:
        """What replaying a recorded hand needs, with its table's whole action log."""
        async with self._read_records() as db:
            row = await db.one(
                "SELECT h.hand_no, t.table_id, t.guild_id, t.channel_id, t.meta, t.rules, t.seed,"
                " t.first_dealer FROM hands h JOIN game_tables t ON t.table_id = h.table_id"
                " WHERE h.hand_id = ?",
                (hand_id,),
            )
            if row is None:
                return None
            actions = await db.all(
                "SELECT seat, action FROM actions WHERE table_id = ? ORDER BY seq",
                (row["table_id"],),
            )
        thread = json.loads(row["meta"] or "{}").get("thread_id")
        return ReplaySource(
            hand_id=hand_id,
            hand_no=row["hand_no"],
            table_id=row["table_id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            thread_id=None if thread is None else int(thread),
            rules=RuleSet.of_table(json.loads(row["rules"])),
            seed=row["seed"],
            first_dealer=row["first_dealer"],
            actions=[(a["seat"], json.loads(a["action"])) for a in actions],
        )
