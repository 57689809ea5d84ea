-- 0007: the language of each player's Discord client at their last interaction, kept with
-- their preferences (bot/store/prefs.py) so that what the bot sends them unprompted (the
-- panel of the player to act after a restart, a DM from another shard's process) is in
-- their language before they click again. NULL: no client language the bot speaks yet.
-- Written only when it changes. Portable: the same on SQLite and PostgreSQL.

ALTER TABLE user_prefs ADD COLUMN client_locale TEXT
    CHECK (client_locale IS NULL OR client_locale IN ('en-US', 'zh-CN'));
