# The private hand panel (cogs/panels.py), in the player's language.
panel-trump = **Trump:** { $trump }
panel-dealt = Dealt { $dealt } of { $total ->
    [one] { $total } card
   *[other] { $total } cards
}.
panel-current-bid = Current bid: { $cards } by { $name }.
panel-bid-below = Bid below while the cards are dealt.
panel-no-bid = No bid available now.
panel-bury = You are the dealer: choose { $count ->
    [one] { $count } card
   *[other] { $count } cards
} to bury.
panel-lead = **Your lead.** Pick a single, pair, tractor or throw.
panel-on-table = On the table: { $plays }
panel-follow = **Your turn** to follow.
panel-follow-duty = **Your turn** to follow: { $duty }.
panel-selected = Selected: { $cards }
panel-bury-confirm = Bury { $cards }? This cannot be undone.
panel-button-confirm = Confirm bury
panel-button-back = Back
panel-button-bury = Bury
panel-button-play = Play
panel-button-suggest = Suggest
panel-button-clear = Clear
panel-button-pass = Pass
panel-overcall = **The kitty is buried.** You may overcall once now, or pass.
panel-waiting = Waiting for { $name }.
# the hand image's title; the image shows the count of cards itself
panel-title = Your hand
# a card's line in a menu, its name then its code: A♥ (AH)
panel-option = { $card } ({ $code })
panel-jokers = jokers
# a card menu's placeholder: the suits it holds and how many cards
panel-menu = { $groups } ({ $count })
panel-select-bury = Select exactly { $count ->
    [one] { $count } card
   *[other] { $count } cards
} to bury ({ $chosen } selected).
panel-select-play = Select the cards to play.
