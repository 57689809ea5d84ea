-- 0004: each player's display preferences (/shengji prefs; bot/store/prefs.py), kept
-- per Discord user across servers. A missing row means every default. ``locale`` is
-- NULL to follow the language of the player's Discord client. Portable: runs as is on
-- SQLite and (translated like every script) on PostgreSQL; flags are INTEGER 0/1.

CREATE TABLE user_prefs (
    user_id    BIGINT PRIMARY KEY,
    locale     TEXT CHECK (locale IS NULL OR locale IN ('en-US', 'zh-CN')),
    four_color INTEGER NOT NULL DEFAULT 0 CHECK (four_color IN (0, 1)),
    theme      TEXT NOT NULL DEFAULT 'dark' CHECK (theme IN ('dark', 'light')),
    card_size  TEXT NOT NULL DEFAULT 'normal' CHECK (card_size IN ('normal', 'large')),
    turn_dm    INTEGER NOT NULL DEFAULT 1 CHECK (turn_dm IN (0, 1)),
    updated_at REAL NOT NULL
);
