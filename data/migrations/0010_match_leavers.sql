-- 0010: the players who left a match before its end. Each seat's player at the end has
-- its row in ``match_players``; a human who left mid-match (a computer played on in the
-- seat) had none, so rage-quitting kept a lost match and the rating's fall off their
-- record. Each such player now has a row here, written with the match's result, and
-- counts the match as lost (see ``Store.record_match_end``).
-- Portable: the same on SQLite and PostgreSQL.

CREATE TABLE match_leavers (
    table_id INTEGER NOT NULL REFERENCES game_tables (table_id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL REFERENCES players (user_id),
    seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    name     TEXT NOT NULL,
    team     INTEGER NOT NULL CHECK (team IN (0, 1)),
    PRIMARY KEY (table_id, user_id)
) WITHOUT ROWID;
CREATE INDEX match_leavers_user ON match_leavers (user_id);
