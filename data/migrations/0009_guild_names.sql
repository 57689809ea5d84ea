-- 0009: a player's name as each server knows it. ``players.name`` is one per user, the
-- name last seen anywhere: a server nickname (Discord's display name) from another
-- server showed on this server's leaderboard. Each ``player_stats`` row (one per server
-- and player) now keeps the name the player was last seen with there (a seat taken at
-- a table there; a new row: its first hand's); the leaderboard and /stats read it, and
-- ``players.name`` where it is still empty.
-- Portable: the same on SQLite and PostgreSQL.

ALTER TABLE player_stats ADD COLUMN name TEXT;
UPDATE player_stats SET name = (
    SELECT players.name FROM players WHERE players.user_id = player_stats.user_id
);
