-- 0006: leases, so that a resource (a shard's tables, a table) is driven by one process
-- at a time when several share the database (bot/store/leases.py). ``token`` grows
-- each time the resource changes owner (a fencing token); ``expires_at`` is on the
-- database's clock. A released lease keeps its row, expired, so tokens never go back.

CREATE TABLE leases (
    resource   TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    token      INTEGER NOT NULL CHECK (token >= 1),
    expires_at REAL NOT NULL
);
