# Replies of the slash commands and buttons to the player who used them (cogs/*).
reply-name-cards = Name the cards to play, like `AH AH` or `10h`.
reply-played = You played { $cards }.
reply-buried = You buried { $cards }.
reply-table-opened = Table opened: you sit in seat 0. Others join with `/shengji join` or the Join button; fill seats with `/shengji addbot`.
reply-started = The match starts: your hand arrives by DM as the cards are dealt.
reply-seated = You sit in seat { $seat }.
reply-bot-seated = A computer player sits in seat { $seat }.
reply-left = You left your seat.
reply-left-replaced = You left; a computer player plays your seat from now on.
reply-left-closed = You were the last player: the table is closed.
reply-kicked = { $name } left seat { $seat }.
reply-aborted = The table is closed.
reply-abort-vote = Your vote to abort is counted ({ $votes }/{ $needed } votes needed).
reply-stale = That didn't work; open your hand panel again.
