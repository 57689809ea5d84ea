# /shengji prefs (cogs/prefs.py): each player's display preferences.
prefs-title = Your preferences
prefs-footer = They apply at every table, to your panels and the images only you see.
prefs-saved = Saved. Your panels use it from now on.
prefs-field-language = Language
prefs-field-four-color = Four-colour suits
prefs-field-theme = Theme
prefs-field-card-size = Card size
prefs-field-turn-dm = "Your turn" DM
# one line of the list: a preference's name, the field typed to change it, its value
prefs-line = **{ $name }** (`{ $field }`): { $value }
prefs-value-language = { $value ->
    [zh-CN] 中文
    [en-US] English
   *[auto] auto (same as Discord)
}
prefs-value-switch = { $value ->
    [on] on
   *[off] off
}
prefs-value-choice = { $value ->
    [dark] dark
    [light] light
    [normal] normal
   *[large] large
}
prefs-bad-field = There is no preference called `{ $field }`. Use /shengji prefs to see them.
prefs-bad-value = { $field } takes one of: { $allowed }. Nothing was changed.
# what a player may type for each preference, in this language (cogs/prefs.py WORDS)
prefs-allowed-language = zh, en, auto
prefs-allowed-switch = on, off
prefs-allowed-theme = dark, light
prefs-allowed-card-size = normal, large
prefs-no-field = Pick which preference the value is for (the `field` option).
