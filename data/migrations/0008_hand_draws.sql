-- A race45 hand may end in a draw (exactly 40 points without the last trick: nobody
-- moves), which hands.winner refused: the draw was never recorded, and its table closed
-- as if the store had failed for good. SQLite cannot change a CHECK in place, so hands
-- is made anew with 'draw' allowed, and with it the two tables that reference it:
-- dropping hands alone would delete their rows (ON DELETE CASCADE, foreign keys are on).
-- Columns, keys and indexes are as before; PostgreSQL alters the CHECK instead
-- (postgresql/0008_hand_draws.sql).

CREATE TABLE hands_new (
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
    winner            TEXT NOT NULL CHECK (winner IN ('dealer', 'attackers', 'draw')),
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

-- Every trick of a hand: plays is JSON [[seat, "cards"], ...] in play order.
CREATE TABLE tricks_new (
    hand_id   INTEGER NOT NULL REFERENCES hands_new (hand_id) ON DELETE CASCADE,
    trick_no  INTEGER NOT NULL,
    leader    INTEGER NOT NULL,
    winner    INTEGER NOT NULL,
    points    INTEGER NOT NULL,
    plays     TEXT NOT NULL,
    attempted TEXT,
    PRIMARY KEY (hand_id, trick_no)
) WITHOUT ROWID;

-- Each seat of a hand. user_id, league_before and league_delta are NULL for bots.
CREATE TABLE hand_players_new (
    hand_id       INTEGER NOT NULL REFERENCES hands_new (hand_id) ON DELETE CASCADE,
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

INSERT INTO hands_new SELECT * FROM hands;
INSERT INTO tricks_new SELECT * FROM tricks;
INSERT INTO hand_players_new SELECT * FROM hand_players;
DROP TABLE tricks;
DROP TABLE hand_players;
DROP TABLE hands;
ALTER TABLE hands_new RENAME TO hands;  -- the references to it follow the new name
ALTER TABLE tricks_new RENAME TO tricks;
ALTER TABLE hand_players_new RENAME TO hand_players;
CREATE INDEX hands_guild ON hands (guild_id, played_at);
CREATE INDEX hand_players_user ON hand_players (user_id, hand_id) WHERE user_id IS NOT NULL;
