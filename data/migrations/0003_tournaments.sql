-- 0003: tournaments run by the bot (seed 000, 晋级规则; bot/tournament).
--
-- Written to run unchanged on SQLite and PostgreSQL: ids are BIGINT allocated by
-- the store (no rowid or serial), times DOUBLE PRECISION wall-clock seconds, flags
-- INTEGER 0/1. ``state`` holds the running tournament as JSON (bracket, round
-- clock, match tallies, message ids) so a restart resumes it; the other tables are
-- the records, rewritten from that state at every save, for stats and history.

CREATE TABLE tournaments (
    tournament_id BIGINT PRIMARY KEY,
    guild_id      BIGINT NOT NULL,
    channel_id    BIGINT NOT NULL,
    organiser_id  BIGINT NOT NULL,
    name          TEXT NOT NULL,
    seed          TEXT NOT NULL,
    status        TEXT NOT NULL DEFAULT 'registration'
                  CHECK (status IN ('registration', 'running', 'finished', 'cancelled')),
    state         TEXT NOT NULL DEFAULT '{}',
    created_at    DOUBLE PRECISION NOT NULL,
    finished_at   DOUBLE PRECISION
);
CREATE INDEX tournaments_guild ON tournaments (guild_id, status);

-- A team; entrant_no is its index in the bracket. Computer teams have no players.
CREATE TABLE tournament_entrants (
    tournament_id    BIGINT NOT NULL REFERENCES tournaments (tournament_id),
    entrant_no       INTEGER NOT NULL,
    name             TEXT NOT NULL,
    computer         INTEGER NOT NULL DEFAULT 0 CHECK (computer IN (0, 1)),
    player_a         BIGINT,
    player_b         BIGINT,
    place            INTEGER,
    eliminated_round INTEGER,
    PRIMARY KEY (tournament_id, entrant_no)
);
CREATE INDEX tournament_entrants_a ON tournament_entrants (player_a);
CREATE INDEX tournament_entrants_b ON tournament_entrants (player_b);

CREATE TABLE tournament_rounds (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (tournament_id),
    round_no      INTEGER NOT NULL,
    started_at    DOUBLE PRECISION,
    ended_at      DOUBLE PRECISION,
    PRIMARY KEY (tournament_id, round_no)
);

-- One match of a round; entrant_b NULL is a bye, table_id the game_tables row.
CREATE TABLE tournament_matches (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (tournament_id),
    round_no      INTEGER NOT NULL,
    match_no      INTEGER NOT NULL,
    entrant_a     INTEGER NOT NULL,
    entrant_b     INTEGER,
    table_id      BIGINT,
    winner        INTEGER,
    level_a       TEXT,
    level_b       TEXT,
    hands         INTEGER NOT NULL DEFAULT 0,
    flags         TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, round_no, match_no)
);
