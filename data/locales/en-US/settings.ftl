# /shengji settings: the server's rules and timers (cogs/settings.py). Field names and
# values stay as an admin types them, each beside its name in the reader's language.
settings-title = Settings of this server
settings-title-changed = Settings changed
settings-footer = Tables keep the settings they started with.
settings-admins-only = Only server admins (Manage Server) can change settings.
settings-no-value = Give a value for `{ $field }`.
settings-bad-field = There is no setting called `{ $field }`.
settings-bad-place = `table_place` is `thread` (a thread per table) or `channel`.
settings-bad-language = `language` is `zh` (中文), `en` (English) or `auto`.
settings-bad-big-light = `big_light_league` takes a whole number of league points from 1 to 20.
# the bounds are values to type: not grouped (2000, not 2,000)
settings-bad-think = `think_ms` takes a whole number of milliseconds from { NUMBER($low, useGrouping: 0) } to { NUMBER($high, useGrouping: 0) }.
settings-bad-max-tables = `max_tables` takes a whole number of tables from 1 to { $most }.
settings-bad-seconds = `{ $field }` takes a number of seconds from 0 to 600.
settings-bad-rule = `{ $field }` can't be `{ $value }`: it takes { $allowed }.
settings-bad-rule-number = `{ $field }` can't be `{ $value }`: it takes a whole number.
settings-bad-throw-penalty = `{ $field }` can't be `{ $value }`: it is 0 or a multiple of 5.
settings-bad-turn-seconds = `{ $field }` can't be `{ $value }`: it takes a whole number of seconds from 5 to 3600.
# each value by its name, beside the value an admin types (`settings_embed`, and the
# suggestions of the `value` option)
settings-value-now = { $value } (now)
settings-value-decks = { $value ->
    [1] one deck
    [3] three decks
   *[2] two decks
}
settings-value-bidding = { $value ->
    [joker] a joker with level cards
   *[standard] level cards
}
settings-value-no_bid = { $value ->
    [redeal] deal again
    [kitty_draw] turn up the kitty
   *[notrump] play in no trump
}
settings-value-first_dealer = { $value ->
    [final_bid] the final overcaller deals
   *[first_bid] the first to declare deals
}
settings-value-overcall = { $value ->
    [after_bury] after the kitty is buried
   *[deal] during the deal
}
settings-value-yes-no = { $value ->
    [yes] yes
   *[no] no
}
settings-value-follow_shape = { $value ->
    [suit_only] the suit only
   *[strict] the suit, pairs and tractors
}
settings-value-kitty_multiplier = { $value ->
    [flat] always ×{ $single }
   *[other] single ×{ $single }, pair ×{ $pair }, tractor ×{ $tractor }
}
settings-value-points_cap = { $value ->
    [200] 200 at most
   *[none] no cap
}
settings-value-scoring = { $value ->
    [race45] race to 45
   *[levels] levels by points
}
settings-value-assistance = { $value ->
    [none] no hints, no looking back
   *[full] hints and the previous trick
}
settings-value-finish = { $value ->
    [reach_a] reaching A wins
   *[defend_a] winning a hand as dealer at A
}
settings-value-table_place = { $value ->
    [channel] in the channel
   *[thread] a thread per table
}
settings-value-language = { $value ->
    [zh-CN] Chinese
    [en-US] English
   *[auto] the server's language
}
settings-no-field = Pick which setting the value is for (the `field` option).
