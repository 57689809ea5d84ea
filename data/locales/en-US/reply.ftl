# Replies of the slash commands and buttons to the player who used them (cogs/*).
reply-name-cards = Name the cards to play, like `AH AH` or `10h`.
reply-played = You played { $cards }.
reply-buried = You buried { $cards }.
reply-table-opened = Table opened: you sit in seat 1. Others join with `/shengji join` or the Join button; fill seats with `/shengji addbot`.
reply-started = The match starts: your hand arrives by DM as the cards are dealt.
reply-seated = You sit in seat { $seat }.
reply-bot-seated = A computer player sits in seat { $seat }.
reply-left = You left your seat.
reply-left-replaced = You left; a computer player plays your seat from now on.
reply-left-closed = You were the last player: the table is closed.
reply-left-away = You left: the computer plays your seat (托管) meanwhile. Turn 托管 off within { $minutes ->
    [one] a minute
   *[other] { $minutes } minutes
} with `/shengji auto` to take it back; after that a computer player takes it for the rest of the match.
reply-kicked = { $name } left seat { $seat }.
reply-aborted = The table is closed.
reply-abort-vote = Your vote to abort is counted ({ $votes }/{ $needed ->
    [one] { $needed } vote needed
   *[other] { $needed } votes needed
}).
reply-stale = That didn't work; open your hand panel again.
reply-bad-value = That didn't work: that value or button isn't one this command accepts.
reply-no-permission = You don't have permission to do that here.
reply-failed = Something went wrong on my side; the game is safe. Try again.
reply-connection-lost = Discord dropped my answer on the way. Look at the table to see where things stand, and try again if nothing changed.
reply-no-last-trick = The previous trick is not shown at this table (no assistance).
reply-no-trick-yet = No trick has been played yet.
reply-hint = Suggestion: { $cards } (`{ $code }`).
reply-auto-on = 托管 on: the computer plays for you until you run `/shengji auto` again.
reply-auto-off = 托管 off: you play your own cards again.
reply-not-your-panel = That panel belongs to another player.
reply-bad-bid-button = That bid button is not one of mine.
reply-passed = You pass.
reply-bid = You bid { $cards }.
reply-panel-stale = That panel was out of date; here is your hand now.
reply-suggested = Suggested: { $cards }
