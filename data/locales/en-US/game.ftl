# A match's errors (bot/game): actions at the wrong time or from the wrong seat.
game-err-unknown-action = That is not an action of this game.
game-err-nothing-waiting = Nothing is waiting for that seat.
game-err-wrong-phase = You can't { $action ->
    [deal] deal
    [bid] bid
    [close] close the bidding
    [overcall] overcall
    [bury] bury cards
    [play] play cards
   *[next] start the next hand
} now: { $phase ->
    [deal] the cards are being dealt
    [kitty] the dealer is burying the kitty
    [overcall] the players are overcalling in turn
    [play] the hand is being played
    [scored] the hand is over
   *[over] the match is over
}.
game-err-table-only = Only the table does that.
game-err-all-dealt = All cards are dealt.
game-err-deal-none = Deal at least one card.
game-err-deal-unfinished = The deal is not finished.
game-err-dealer-buries = Only the dealer buries the kitty.
game-err-not-your-turn = It is not your turn.
game-err-not-seated = Only seated players can do that.
game-err-bid-not-dealt = You can only show cards you have been dealt.
game-err-bury-count = Bury exactly { $count ->
    [one] { $count } card
   *[other] { $count } cards
} (you chose { $chosen }).
game-err-bury-held = You can only bury cards in your hand.
game-err-not-another = You don't hold another { $cards }.
game-err-not-held = You don't hold those cards.
