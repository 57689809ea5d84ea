-- 0001: the records of shengji-bot.
--
-- Applied by bot/store/migrations.py inside one transaction together with its row in
-- schema_version: a migration never holds BEGIN/COMMIT of its own. Cards are stored
-- in the project's notation ("AH AH KH"); structured values as compact JSON.

-- Per-guild settings: RuleSet.to_dict() and the timers the guild changed.
CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    rules      TEXT NOT NULL,
    timers     TEXT NOT NULL DEFAULT '{}',
    updated_at REAL NOT NULL
);

-- Discord users seen at a table; the latest display name wins.
CREATE TABLE players (
    user_id    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    updated_at REAL NOT NULL
);

-- A table hosts one match. "live" rows are restored at start-up.
CREATE TABLE game_tables (
    table_id        INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    host_id         INTEGER NOT NULL,
    rules           TEXT NOT NULL,
    seed            INTEGER NOT NULL,
    first_dealer    INTEGER CHECK (first_dealer BETWEEN 0 AND 3),
    seats           TEXT NOT NULL,
    meta            TEXT NOT NULL DEFAULT '{}',
    status          TEXT NOT NULL DEFAULT 'live'
                    CHECK (status IN ('live', 'finished', 'aborted')),
    created_at      REAL NOT NULL,
    closed_at       REAL,
    hands_played    INTEGER NOT NULL DEFAULT 0,
    result_recorded INTEGER NOT NULL DEFAULT 0,
    winner_team     INTEGER CHECK (winner_team IN (0, 1)),
    ended_at        REAL
);
-- At most one live table per channel.
CREATE UNIQUE INDEX game_tables_live_channel ON game_tables (channel_id) WHERE status = 'live';
CREATE INDEX game_tables_guild ON game_tables (guild_id, created_at);

-- The ordered log of accepted actions (action_to_dict JSON). seq = Match.seq after it.
CREATE TABLE actions (
    table_id INTEGER NOT NULL REFERENCES game_tables (table_id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    seat     INTEGER NOT NULL CHECK (seat BETWEEN -1 AND 3),
    action   TEXT NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

-- The latest Match.to_dict() of a table, taken after action seq (hand boundaries).
CREATE TABLE snapshots (
    table_id INTEGER PRIMARY KEY REFERENCES game_tables (table_id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    state    TEXT NOT NULL,
    at       REAL NOT NULL
);

-- One scored hand (HandResult) plus the league points it moved.
CREATE TABLE hands (
    hand_id           INTEGER PRIMARY KEY,
    table_id          INTEGER NOT NULL REFERENCES game_tables (table_id),
    guild_id          INTEGER NOT NULL,
    hand_no           INTEGER NOT NULL,
    seed              INTEGER NOT NULL,
    dealer            INTEGER NOT NULL CHECK (dealer BETWEEN 0 AND 3),
    trump_level       TEXT NOT NULL,
    trump_suit        TEXT,
    level_before_0    TEXT NOT NULL,
    level_before_1    TEXT NOT NULL,
    level_after_0     TEXT NOT NULL,
    level_after_1     TEXT NOT NULL,
    trick_points      INTEGER NOT NULL,
    attacker_points   INTEGER NOT NULL,
    kitty             TEXT NOT NULL,
    kitty_points      INTEGER NOT NULL,
    multiplier        INTEGER NOT NULL,
    kitty_bonus       INTEGER NOT NULL,
    winner            TEXT NOT NULL CHECK (winner IN ('dealer', 'attackers')),
    levels_gained     INTEGER NOT NULL,
    next_dealer       INTEGER NOT NULL,
    last_trick_winner INTEGER NOT NULL,
    match_winner      INTEGER CHECK (match_winner IN (0, 1)),
    failed_throws     TEXT NOT NULL DEFAULT '[]',  -- JSON [[seat, penalty], ...] in order
    league_change     INTEGER NOT NULL,
    league_factor     INTEGER NOT NULL,
    played_at         REAL NOT NULL,
    UNIQUE (table_id, hand_no)
);
CREATE INDEX hands_guild ON hands (guild_id, played_at);

-- Every trick of a hand: plays is JSON [[seat, "cards"], ...] in play order.
CREATE TABLE tricks (
    hand_id   INTEGER NOT NULL REFERENCES hands (hand_id) ON DELETE CASCADE,
    trick_no  INTEGER NOT NULL,
    leader    INTEGER NOT NULL,
    winner    INTEGER NOT NULL,
    points    INTEGER NOT NULL,
    plays     TEXT NOT NULL,
    attempted TEXT,
    PRIMARY KEY (hand_id, trick_no)
) WITHOUT ROWID;

-- Each seat of a hand. user_id, league_before and league_delta are NULL for bots.
CREATE TABLE hand_players (
    hand_id       INTEGER NOT NULL REFERENCES hands (hand_id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    kind          TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
    user_id       INTEGER REFERENCES players (user_id),
    name          TEXT NOT NULL,
    role          TEXT NOT NULL CHECK (role IN ('dealer', 'partner', 'attacker')),
    team          INTEGER NOT NULL CHECK (team IN (0, 1)),
    levels_gained INTEGER NOT NULL,
    kitty_bonus   INTEGER NOT NULL,
    last_trick    INTEGER NOT NULL,
    failed_throws INTEGER NOT NULL,
    throw_penalty INTEGER NOT NULL,
    league_before INTEGER,
    league_delta  INTEGER,
    PRIMARY KEY (hand_id, seat)
) WITHOUT ROWID;
CREATE INDEX hand_players_user ON hand_players (user_id, hand_id) WHERE user_id IS NOT NULL;

-- Finished-match results, one row per seat as seated at the end.
CREATE TABLE match_players (
    table_id INTEGER NOT NULL REFERENCES game_tables (table_id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    kind     TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
    user_id  INTEGER REFERENCES players (user_id),
    name     TEXT NOT NULL,
    team     INTEGER NOT NULL CHECK (team IN (0, 1)),
    won      INTEGER,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE INDEX match_players_user ON match_players (user_id) WHERE user_id IS NOT NULL;

-- openskill (Plackett-Luce) rating per guild and human player; ordinal = mu - 3 sigma.
CREATE TABLE ratings (
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL REFERENCES players (user_id),
    mu            REAL NOT NULL,
    sigma         REAL NOT NULL,
    ordinal       REAL NOT NULL,
    rated_matches INTEGER NOT NULL DEFAULT 0,
    updated_at    REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_ordinal ON ratings (guild_id, ordinal DESC);
