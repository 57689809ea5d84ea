# The table service's refusals (bot/service.py UserError), shown to the player who asked.
service-no-table = There is no table in this channel. Open one with `/shengji new`.
service-table-exists = This channel already has a table: join it, or open one elsewhere.
service-table-exists-short = This channel already has a table.
service-no-player = That seat has no player to replace.
service-started-wait = This table has started; wait for the next one.
service-already-seated = You already sit in seat { $seat }.
service-bots-before-start = Computer players join before the start.
service-bot-level = Computer players come in three levels: easy, normal and expert.
service-not-seated = You're not seated at this table.
service-kick-host = Only the host or an admin can kick.
service-kick-before = You can only kick before the start.
service-seat-empty = Seat { $seat } is empty.
service-already-started = This table has already started.
service-start-host = Only the host ({ $host }) or an admin can start.
service-need-four = Four players are needed: { $count ->
    [one] seat { $seats } is empty
   *[other] seats { $seats } are empty
} (try `/shengji addbot`).
service-abort-who = Only the host, an admin or a seated player can abort.
service-not-started = The game hasn't started yet.
service-closed = This table is closed.
service-hint-who = Hints are for seated players once the game has started.
service-hint-turn = It isn't your turn, so there is nothing to suggest yet.
service-hint-off = Hints and suggestions are off at this table (no assistance).
service-restarting = The bot is restarting; try again in a moment.
service-full = All four seats are taken.
service-seat-range = Seats are numbered 1 to 4 (1 and 3 are partners, 2 and 4).
service-seat-taken = Seat { $seat } is taken by { $name }.
service-not-your-turn = It's not your turn: waiting for { $name }.
service-moved-on = The game moved on before your move arrived (your time may have run out), so it was not made.
service-not-saved = That couldn't be saved, so it didn't happen; please try again.
service-not-saved-closed = That couldn't be saved and the table had to close; open a new one.
service-table-closed = That table is closed; open a new one with `/shengji new`.
service-wrong-place = That isn't your table's panel.
service-not-yours = That panel belongs to another player.
service-cooldown = Slow down a little: try again in { $seconds } s.
service-guild-full = This server already has { $count ->
    [one] { $count } open table
   *[other] { $count } open tables
}; finish or end one first.
service-host-full = You already host { $count ->
    [one] { $count } open table
   *[other] { $count } open tables
}; finish or end one first.
# A computer player's name, chosen in the table's language when it takes a seat (kept with the seat).
service-bot-name = { $n ->
    [1] Bot Ana
    [2] Bot Bai
    [3] Bot Chen
    [4] Bot Dong
    [5] Bot Evi
    [6] Bot Fang
   *[other] Bot Gao
}
# A player who left mid-match: a computer player plays on under their name.
service-bot-stands-in = { $name } (bot)
service-kick-self = That's your own seat: use `/shengji leave`.
service-hint-deal = Hints start once the cards are dealt and played.
