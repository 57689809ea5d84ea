-- 0002: per guild and player aggregates, kept up to date on every write, so that
-- leaderboards and /stats read one short row per player instead of scanning hands.
-- The backfill below rebuilds them from the rows 0001 keeps (hand_players,
-- match_players), so a database from 0001 upgrades in place.

CREATE TABLE player_stats (
    guild_id             INTEGER NOT NULL,
    user_id              INTEGER NOT NULL REFERENCES players (user_id),
    matches              INTEGER NOT NULL DEFAULT 0,
    wins                 INTEGER NOT NULL DEFAULT 0,
    hands                INTEGER NOT NULL DEFAULT 0,
    dealer_hands         INTEGER NOT NULL DEFAULT 0,
    partner_hands        INTEGER NOT NULL DEFAULT 0,
    attacker_hands       INTEGER NOT NULL DEFAULT 0,
    levels_gained        INTEGER NOT NULL DEFAULT 0,
    kitty_bonuses        INTEGER NOT NULL DEFAULT 0,
    kitty_bonus_points   INTEGER NOT NULL DEFAULT 0,
    failed_throws        INTEGER NOT NULL DEFAULT 0,
    throw_penalty_points INTEGER NOT NULL DEFAULT 0,
    league               INTEGER NOT NULL DEFAULT 0,
    last_played          REAL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
CREATE INDEX player_stats_league ON player_stats (guild_id, league DESC);
CREATE INDEX player_stats_wins ON player_stats (guild_id, wins DESC);
CREATE INDEX player_stats_hands ON player_stats (guild_id, hands DESC);

INSERT INTO player_stats (
    guild_id, user_id, hands, dealer_hands, partner_hands, attacker_hands, levels_gained,
    kitty_bonuses, kitty_bonus_points, failed_throws, throw_penalty_points, league, last_played
)
SELECT h.guild_id, hp.user_id, COUNT(*),
       SUM(hp.role = 'dealer'), SUM(hp.role = 'partner'), SUM(hp.role = 'attacker'),
       SUM(hp.levels_gained), SUM(hp.kitty_bonus > 0), SUM(hp.kitty_bonus),
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
