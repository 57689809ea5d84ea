-- A race45 hand may end in a draw (see ../0008_hand_draws.sql); PostgreSQL changes the
-- CHECK in place (named by PostgreSQL's rule for a column's CHECK: table_column_check).
ALTER TABLE hands DROP CONSTRAINT hands_winner_check;
ALTER TABLE hands ADD CONSTRAINT hands_winner_check
    CHECK (winner IN ('dealer', 'attackers', 'draw'));
