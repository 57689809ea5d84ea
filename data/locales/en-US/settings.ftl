# /shengji settings: the server's rules and timers (cogs/settings.py). Field names and
# values stay as an admin types them.
settings-title = Settings of this server
settings-title-changed = Settings changed
settings-footer = Tables keep the settings they started with.
settings-admins-only = Only server admins (Manage Server) can change settings.
settings-no-value = Give a value for `{ $field }`.
settings-bad-field = There is no setting called `{ $field }`.
settings-bad-place = `table_place` is `thread` (a thread per table) or `channel`.
settings-bad-language = `language` is `zh` (中文), `en` (English) or `auto`.
settings-bad-big-light = `big_light_league` takes a whole number of league points from 1 to 20.
settings-bad-think = `think_ms` takes a whole number of milliseconds from { $low } to { $high }.
settings-bad-max-tables = `max_tables` takes a whole number of tables from 1 to { $most }.
settings-bad-seconds = `{ $field }` takes a number of seconds from 0 to 600.
settings-bad-rule = `{ $field }` can't be `{ $value }`: it is one of { $allowed }.
settings-bad-rule-number = `{ $field }` can't be `{ $value }`: it takes a whole number.
settings-bad-throw-penalty = `{ $field }` can't be `{ $value }`: it is 0 or a multiple of 5.
settings-bad-turn-seconds = `{ $field }` can't be `{ $value }`: it takes a whole number of seconds from 5 to 3600.
