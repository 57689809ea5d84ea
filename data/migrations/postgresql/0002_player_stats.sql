-- 0002 for PostgreSQL: the SQLite script with its sums of booleans written as CASE
-- (PostgreSQL does not add up booleans); see ../0002_player_stats.sql.
--
-- 0002: per guild and player aggregates, kept up to date on every write, so that
-- leaderboards and /stats read one short row per player instead of scanning hands.
-- The backfill below rebuilds them from the rows 0001 keeps (hand_players,
-- match_players), so a database from 0001 upgrades in place.

CREATE TABLE player_stats (
    guild_id             BIGINT NOT NULL,
    user_id              BIGINT NOT NULL REFERENCES players (user_id),
    matches              BIGINT NOT NULL DEFAULT 0,
    wins                 BIGINT NOT NULL DEFAULT 0,
    hands                BIGINT NOT NULL DEFAULT 0,
    dealer_hands         BIGINT NOT NULL DEFAULT 0,
    partner_hands        BIGINT NOT NULL DEFAULT 0,
    attacker_hands       BIGINT NOT NULL DEFAULT 0,
    levels_gained        BIGINT NOT NULL DEFAULT 0,
    kitty_bonuses        BIGINT NOT NULL DEFAULT 0,
    kitty_bonus_points   BIGINT NOT NULL DEFAULT 0,
    failed_throws        BIGINT NOT NULL DEFAULT 0,
    throw_penalty_points BIGINT NOT NULL DEFAULT 0,
    league               BIGINT NOT NULL DEFAULT 0,
    last_played          DOUBLE PRECISION,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX player_stats_league ON player_stats (guild_id, league DESC);
CREATE INDEX player_stats_wins ON player_stats (guild_id, wins DESC);
CREATE INDEX player_stats_hands ON player_stats (guild_id, hands DESC);

INSERT INTO player_stats (
    guild_id, user_id, hands, dealer_hands, partner_hands, attacker_hands, levels_gained,
    kitty_bonuses, kitty_bonus_points, failed_throws, throw_penalty_points, league, last_played
)
SELECT h.guild_id, hp.user_id, COUNT(*),
       SUM(CASE WHEN hp.role = 'dealer' THEN 1 ELSE 0 END),
       SUM(CASE WHEN hp.role = 'partner' THEN 1 ELSE 0 END),
       SUM(CASE WHEN hp.role = 'attacker' THEN 1 ELSE 0 END),
       SUM(hp.levels_gained), SUM(CASE WHEN hp.kitty_bonus > 0 THEN 1 ELSE 0 END),
       SUM(hp.kitty_bonus),
       SUM(hp.failed_throws), SUM(hp.throw_penalty), SUM(COALESCE(hp.league_delta, 0)),
       MAX(h.played_at)
FROM hand_players AS hp JOIN hands AS h ON h.hand_id = hp.hand_id
WHERE hp.user_id IS NOT NULL
GROUP BY h.guild_id, hp.user_id;

INSERT INTO player_stats (guild_id, user_id, matches, wins)
SELECT t.guild_id, mp.user_id, COUNT(*), SUM(COALESCE(mp.won, 0))
FROM match_players AS mp JOIN game_tables AS t ON t.table_id = mp.table_id
WHERE mp.user_id IS NOT NULL
GROUP BY t.guild_id, mp.user_id
ON CONFLICT (guild_id, user_id) DO UPDATE SET matches = excluded.matches, wins = excluded.wins;
