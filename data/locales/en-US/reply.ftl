# Replies of the slash commands and buttons to the player who used them (cogs/*).
reply-name-cards = Name the cards to play, like `AH AH` or `10h`.
reply-played = You played { $cards }.
reply-buried = You buried { $cards }.
