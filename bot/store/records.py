"""What stays after a table: scored hands, match results, ratings, guild settings, names.

Aggregates. League points, counts and ratings live in ``player_stats`` and
``ratings`` rows updated in the same transaction as the hand or match they come
from, so leaderboards and /stats read a handful of rows whatever the history size.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from bot.game import HandResult, TrickRecord, team_of
from bot.rules import BIG_LIGHT_LEAGUE, RuleSet

from . import ratings
from .base import StoreBase, dumps, seats_from
from .models import GuildSettings, Leaver, SeatInfo, StoreError
from .rows import hand_rows

STATS_UPSERT = (
    "INSERT INTO player_stats (guild_id, user_id, hands, dealer_hands, partner_hands,"
    " attacker_hands, levels_gained, kitty_bonuses, kitty_bonus_points, failed_throws,"
    " throw_penalty_points, league, last_played, name)"
    " VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (guild_id, user_id) DO UPDATE SET"
    " hands = player_stats.hands + 1,"
    " dealer_hands = player_stats.dealer_hands + excluded.dealer_hands,"
    " partner_hands = player_stats.partner_hands + excluded.partner_hands,"
    " attacker_hands = player_stats.attacker_hands + excluded.attacker_hands,"
    " levels_gained = player_stats.levels_gained + excluded.levels_gained,"
    " kitty_bonuses = player_stats.kitty_bonuses + excluded.kitty_bonuses,"
    " kitty_bonus_points = player_stats.kitty_bonus_points + excluded.kitty_bonus_points,"
    " failed_throws = player_stats.failed_throws + excluded.failed_throws,"
    " throw_penalty_points = player_stats.throw_penalty_points + excluded.throw_penalty_points,"
    " league = player_stats.league + excluded.league,"
    " last_played = CASE WHEN COALESCE(player_stats.last_played, 0) > excluded.last_played"
    " THEN player_stats.last_played ELSE excluded.last_played END,"
    # a hand names a new row only: a later name comes with the player's seat at a table
    # (``_upsert_players``), not with a hand of a table they sat down at under an older one
    " name = COALESCE(player_stats.name, excluded.name)"
)

#: a match counted for a player on a server: (guild_id, user_id, won 0/1, name)
MATCH_COUNT_UPSERT = (
    "INSERT INTO player_stats (guild_id, user_id, matches, wins, name) VALUES (?, ?, 1, ?, ?)"
    " ON CONFLICT (guild_id, user_id) DO UPDATE SET"
    " matches = player_stats.matches + 1, wins = player_stats.wins + excluded.wins"
)
#: a player's new rating after a rated match: (guild_id, user_id, mu, sigma, ordinal, at)
RATING_UPSERT = (
    "INSERT INTO ratings (guild_id, user_id, mu, sigma, ordinal, rated_matches, updated_at)"
    " VALUES (?, ?, ?, ?, ?, 1, ?)"
    " ON CONFLICT (guild_id, user_id) DO UPDATE SET mu = excluded.mu,"
    " sigma = excluded.sigma, ordinal = excluded.ordinal,"
    " rated_matches = ratings.rated_matches + 1, updated_at = excluded.updated_at"
)


class HandRecords(StoreBase):
    """Writes of results: each one transaction with the aggregates it moves."""

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's saved settings, or the defaults (``RuleSet()``, no timers)."""
        async with self._read() as db:
            row = await db.one(
                "SELECT rules, timers FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
        if row is None:
            return GuildSettings()
        try:
            return GuildSettings(
                RuleSet.from_dict(json.loads(row["rules"])), json.loads(row["timers"])
            )
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
                (guild_id, dumps(settings.rules.to_dict()), dumps(settings.timers), time.time()),
            )

    async def upsert_player(self, user_id: int, name: str) -> None:
        """Remember a user's current display name (leaderboards show the latest)."""
        async with self._write():
            await self._upsert_players([SeatInfo.human(user_id, name)])

    async def record_hand(
        self,
        table_id: int,
        result: HandResult,
        tricks: Sequence[TrickRecord],
        seats: Sequence[SeatInfo],
        at: float,
        big_light: int = BIG_LIGHT_LEAGUE,
    ) -> int:
        """Store a scored hand, its tricks and seats, and move league points; one transaction.

        ``big_light``: the league points of a 大光 result on this server (seed 001).

        The rows and the league arithmetic are ``rows.hand_rows``. Idempotent per
        (table, hand_no): recording the same hand again returns the existing id and
        changes nothing, so a service that crashed between the last play and this
        call can simply call it again after restoring.
        """
        if len(seats) != 4:
            raise ValueError(f"a hand has 4 seats, not {len(seats)}")
        async with self._write() as db:
            table = await self._table_row(table_id, "guild_id, seed")
            guild_id = table["guild_id"]
            existing = await db.one(
                "SELECT hand_id FROM hands WHERE table_id = ? AND hand_no = ?",
                (table_id, result.hand_no),
            )
            if existing is not None:
                return int(existing["hand_id"])
            await self._upsert_players(seats)
            league_before: list[int | None] = []
            for s in seats:
                row = None
                if s.ranked:
                    row = await db.one(
                        "SELECT league FROM player_stats WHERE guild_id = ? AND user_id = ?",
                        (guild_id, s.user_id),
                    )
                league_before.append(
                    (0 if row is None else int(row["league"])) if s.ranked else None
                )
            rows = hand_rows(
                table_id,
                guild_id,
                table["seed"],
                result,
                tricks,
                seats,
                league_before,
                at,
                big_light,
            )
            inserted = await db.one(
                f"INSERT INTO hands ({', '.join(rows.hand._fields)})"
                f" VALUES ({', '.join('?' * len(rows.hand))}) RETURNING hand_id",
                rows.hand,
            )
            assert inserted is not None
            hand_id = int(inserted["hand_id"])
            await db.executemany(
                "INSERT INTO tricks (hand_id, trick_no, leader, winner, points, plays, attempted)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(hand_id, *t) for t in rows.tricks],
            )
            await db.executemany(
                "INSERT INTO hand_players (hand_id, seat, kind, user_id, name, role, team,"
                " levels_gained, kitty_bonus, last_trick, failed_throws, throw_penalty,"
                " league_before, league_delta) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(hand_id, *p) for p in rows.players],
            )
            await db.executemany(STATS_UPSERT, rows.stats)
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
            if row["result_recorded"]:
                return
            guild_id = row["guild_id"]
            seats = [s for s in seats_from(row["seats"]) if s is not None]
            if len(seats) != 4:
                raise StoreError(f"Table {table_id} ended with an empty seat.")
            await self._upsert_players(seats)
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
                MATCH_COUNT_UPSERT,
                [
                    (guild_id, s.user_id, int(team_of(seat) == winner_team), s.name)
                    for seat, s in enumerate(seats)
                    if s.ranked
                ],
            )
            if winner_team is not None and any(s.ranked for s in seats):
                current = [await self._rating(guild_id, s) for s in seats]
                new = ratings.rate_match(current, winner_team)
                await db.executemany(
                    RATING_UPSERT,
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

    async def leave_match(
        self,
        table_id: int,
        seats: Sequence[SeatInfo | None],
        meta: dict[str, Any] | None,
        leaver: Leaver,
        at: float,
    ) -> None:
        """A human leaves a match before its end, a computer playing on in the seat: the
        seats (and ``meta``) change as in ``update_seats``, and in the same transaction
        the leaver is counted at once for the match as lost, whatever happens to it
        after, as leaving counts on the platforms players know (逃跑算输): a match and no
        win in their stats, a row in ``match_leavers``, and their rating falls as for a
        match lost in that seat against the seats' players now. So a player cannot keep a
        loss off their record by leaving, nor take the stand-in's win."""
        async with self._write() as db:
            guild_id = await self._set_seats(table_id, seats, meta)
            await db.execute(
                "INSERT INTO match_leavers (table_id, user_id, seat, name, team)"
                " VALUES (?, ?, ?, ?, ?)",
                (table_id, leaver.user_id, leaver.seat, leaver.name, team_of(leaver.seat)),
            )
            await db.execute(MATCH_COUNT_UPSERT, (guild_id, leaver.user_id, 0, leaver.name))
            current = [await self._rating(guild_id, s) for s in seats]
            current[leaver.seat] = await self._player_rating(guild_id, leaver.user_id)
            lost = ratings.rate_match(current, 1 - team_of(leaver.seat))
            mu, sigma = lost[leaver.seat]
            await db.execute(
                RATING_UPSERT,
                (guild_id, leaver.user_id, mu, sigma, ratings.ordinal(mu, sigma), at),
            )

    async def _rating(self, guild_id: int, seat: SeatInfo | None) -> ratings.Rating | str | None:
        """A seat's rating for ``ratings.rate_match``: a player's (mu, sigma) on the server
        (a first match: the default), a computer player's level."""
        if seat is None or seat.user_id is None or not seat.ranked:
            return None if seat is None else seat.ai
        return await self._player_rating(guild_id, seat.user_id)

    async def _player_rating(self, guild_id: int, user_id: int) -> ratings.Rating:
        r = await self._db.one(
            "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return (ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA) if r is None else (r["mu"], r["sigma"])
