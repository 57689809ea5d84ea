# The rules library's explanations (bot/rules), rendered by bot/i18n/rules.py.
# Suit names, as they fit after "of" and in "play your ... first".
rules-suit-S = spades
rules-suit-H = hearts
rules-suit-D = diamonds
rules-suit-C = clubs
rules-suit-T = trumps
rules-suit-none = no trump
# the jokers in a list of cards, as the guide names them and players type them
rules-card-big-joker = BJ
rules-card-small-joker = SJ

# The structured part of a follow; $count units of one shape.
rules-unit-pair = { $count ->
    [one] a pair
   *[other] { $count } pairs
}
rules-unit-triple = { $count ->
    [one] a triple
   *[other] { $count } triples
}
rules-unit-tractor = { $count ->
    [one] a { $length }-pair tractor
   *[other] { $count } { $length }-pair tractors
}
rules-unit-triple-tractor = { $count ->
    [one] a { $length }-triple tractor
   *[other] { $count } { $length }-triple tractors
}

# Illegal plays.
rules-err-card-count = Play exactly { $count ->
    [one] { $count } card
   *[other] { $count } cards
}: the lead has { $count }.
rules-err-follow-suit = Play your { $suit } first: they were led (you still hold { $held }).
rules-err-follow-shape = You must play { $need } of { $suit }: you hold { $held }.
rules-err-not-held = You don't hold { $cards }.
rules-err-held-only = You hold only { $count } { $cards }.
rules-err-empty-play = Play at least one card.
rules-err-copies = { $cards } is there { $count ->
    [one] once
   *[other] { $count } times
}, but { $decks ->
    [1] 1 deck holds
   *[other] { $decks } decks hold
} only { $decks } of each card.
rules-err-mixed-lead = Cards led together must all be one suit, or all trumps: { $cards } mixes suits.
rules-err-bad-card = { $token } is not a card.
rules-err-notation = '{ $token }' is not a card: write rank and suit, like AH, 10S, 5C, ♥A or 红桃A, and SJ/BJ (小王/大王) for the jokers.
rules-err-bad-level = '{ $token }' is not a level: use 2-9, T (ten), J, Q, K or A.
rules-err-bad-suit = '{ $token }' is not a suit: use S, H, D, C or None.

# What a follow must contain, shown before the player chooses.
rules-duty-all = { $extra ->
    [0] you must play all your { $suit } ({ $held })
    [one] you must play all your { $suit } ({ $held }), then { $extra } other card
   *[other] you must play all your { $suit } ({ $held }), then { $extra } other cards
}
rules-duty-including = you must play { $count } { $suit }, including { $need } of { $suit }
rules-duty-count = { $count ->
    [one] you must play one of your { $suit }
   *[other] you must play { $count } { $suit }
}

# Bids.
rules-bid-empty = Show at least one card to bid.
rules-bid-not-level = Bids show level cards ({ $level }s) and jokers only.
rules-bid-mixed-suits = Level cards in a bid must all be of one suit.
rules-bid-joker-shape = With joker bidding a bid shows one joker with level cards: BJ with ♥ or ♦, SJ with ♠ or ♣.
rules-bid-wrong-joker = Bid { $suit } with the { $joker }.
rules-bid-levels-and-jokers = Bid either level cards of one suit or a set of jokers, not both.
rules-bid-no-trump-jokers = No trump is bid with two (or three) identical jokers.
rules-bid-too-weak = { $cards } for { $target_suit } does not beat the current bid ({ $current } for { $current_suit }): a bid is beaten only by a stronger one.
rules-bid-own-overcall = With joker bidding you may not overcall your own bid.
rules-bid-same-suit = The trump suit is already { $suit }: overcall with another suit.
rules-bid-overcall-after-bury = Overcalls wait until the dealer has buried the kitty; then each player in turn may overcall once.
rules-bid-shown-before = { $suit } was already shown this hand: choose another.
