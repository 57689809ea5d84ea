# The rules for players (/shengji rules and the Rules button under a table; bot/i18n/guide.py).
# Numbers come from the table's rule set: { $hand }, { $kitty }, { $total } ...
guide-title-overview = The game
guide-title-cards = Cards and trumps
guide-title-bidding = Bidding (亮主)
guide-title-kitty = The kitty (底牌)
guide-title-following = Following
guide-title-throws = Throws (甩牌)
guide-title-scoring = Points and the kitty bonus (抠底)
guide-title-levels = Levels
guide-title-variants = Rules at this table

guide-overview = **双升 (Shengji, Tractor)** is played by four players in two teams; partners sit opposite (seats 1 & 3 against 2 & 4). With { $decks ->
        [one] one deck
       *[other] { $decks } decks
    } everyone gets { $hand } cards and { $kitty } go to the kitty.

    One team deals and defends (庄家); the other team attacks (闲家) and collects points from the tricks it wins: every 5 is worth 5, every 10 and K 10, { $total } in all. { $scoring ->
        [race45] The attackers win the hand with 45 points or the last trick.
       *[levels] With { $take } points or more the attackers take the deal; otherwise the dealer's team goes up levels.
    }

    Both teams start at level 2 and climb towards A. Ask for the other topics to learn bidding, the kitty, following, throws, scoring and levels.

guide-cards = A card is rank then suit: `2`-`9`, `T` (10), `J`, `Q`, `K`, `A` with `S` ♠, `H` ♥, `D` ♦, `C` ♣, and the jokers `SJ` (小王) and `BJ` (大王). You can also type `10h`, `A♥`, `♥A` or 红桃A, and `♥KKQQ` for four hearts.

    {"**"}Trumps (主牌)** are both jokers, every card of the level rank (级牌, the dealer's team's level) and every card of the trump suit. From high to low: BJ, SJ, the level card of the trump suit, the other level cards (equal to each other), then A K Q … of the trump suit. In no trump (无主) only jokers and level cards are trumps.

guide-bidding = { $bidding ->
    [joker] While the cards are dealt, bid (亮主) by showing a joker with a level card (级牌) of a suit that goes with it (带王亮主): BJ with ♥ or ♦, SJ with ♠ or ♣; that suit becomes trump. No trump cannot be bid directly. { $decks ->
            [1] With one deck there is one of each card, so a bid can be neither strengthened nor overcalled.
           *[other] Show more of the same level card to strengthen your bid (自保). Another player overcalls (反主) with a joker and { $decks ->
                [3] two or three
               *[other] two
            } identical level cards of another suit; a bid showing more level cards beats one showing fewer. Nobody may overcall their own bid.
        }
   *[standard] While the cards are dealt, show a level card (级牌) to make its suit trump (亮主). { $decks ->
            [1] With one deck there is one of each card, so the first bid stands: it can be neither strengthened nor overcalled.
           *[other] Show more of the same level card to strengthen your bid (自保). Another player overcalls (反主) with a stronger bid of another suit, such as a pair of level cards; identical jokers bid no trump (无主). Strength: one card < a pair < two SJ < two BJ{ $decks ->
                [3] {" "}< three level cards < three SJ < three BJ
               *[other] {""}
            }; only a stronger bid beats the current one. The bidder may also switch to another suit with a stronger bid (自反).
        }
}
guide-bidding-open = The first hand{ $scoring ->
        [race45] {" "}and a hand after a draw have
       *[levels] {" "}has
    } no dealer yet, so the bids decide it (抢庄): { $first_dealer ->
        [final_bid] the player whose bid stands when the bidding closes deals (最终反主者为庄家).
       *[first_bid] the first player to bid deals (先亮者为庄家){ $decks ->
            [1] .
           *[other] , and later overcalls change only the trump suit.
        }
    }{ $scoring ->
        [race45] {" "}After a draw the levels may differ: a bid shows the level card of the team that would deal if it stands.
       *[levels] {""}
    }
guide-bidding-dealer = { $bidding ->
    [joker] Once a dealer is known, the first bid decides who deals: a bid of the dealer's side shows the dealer's team's level card and keeps the deal; an attacker's bid shows the attackers' level card and takes the deal (谁亮主谁坐庄), and the hand is then played at the attackers' level. The dealer's side has priority: its bid, made at any time before the bidding closes, takes the deal back, and the attackers' earlier bids are withdrawn. An overcall of the bid holding the deal changes only the trump suit and shows that bid's level card. So a bid always shows the level of the team that would deal if it wins.
   *[standard] Once a dealer is known, bids only choose the trump suit: every bid shows the dealer's team's level cards, and the dealer keeps the deal whoever bids.
}
guide-bidding-when = { $overcall ->
    [after_bury] On a hand without a dealer yet, bids and overcalls are made during the deal and a short window after it, before the dealer takes the kitty. On the other hands nobody overcalls during the deal: the first bid stands and only its bidder may strengthen it{ $bidding ->
            [joker] , unless the dealer's side takes the deal back
           *[standard] {""}
        }. The dealer buries first and the kitty can no longer change; then, if a bid set the trump, each player once in turn, from the player after the dealer round to the dealer, may overcall or pass.{ $bidding ->
            [joker] {" "}In this round identical jokers overcall to no trump (反无主).
           *[standard] {""}
        } A suit already shown this hand cannot be shown again; no trump can (two big jokers over two small). The dealer still leads the first trick.
   *[deal] Bids and overcalls are made during the deal and a short window after the last card, before the dealer takes the kitty.
}
guide-bidding-none = { $no_bid ->
    [redeal] If nobody bids, the cards are dealt again, at most { $redeals } times; if nobody bids then either, the hand is played in no trump (无主).
    [kitty_draw] If nobody bids (亮不起), the kitty's cards are turned face up one at a time for everyone to see, until one's rank is a team's level (the dealer's team is checked first; jokers match nothing). That team deals, the dealer or else the player after the dealer, with that card's suit as trump; the cards go back into the kitty. If no card matches, the cards are dealt again, at most { $redeals } times; when the last draw misses too, the hand is played in no trump (无主).
   *[notrump] If nobody bids, the hand is played in no trump (无主).
} On a hand without a dealer yet, the player dealt to first counts as the dealer here.

guide-kitty = The dealer picks up the { $kitty } kitty cards (底牌) and buries { $kitty } cards face down. Point cards may be buried, but it is a risk: if the attackers win the last trick, the points in the kitty count several times over for them (see scoring).

guide-following = The dealer leads the first trick; whoever wins a trick leads the next. You must play as many cards as were led, of the led suit while you have it (all trumps count as one suit).

    Match the shape too: a pair asks for a pair, a tractor (拖拉机, consecutive pairs such as 7♥7♥8♥8♥) for a tractor, else as many pairs as you have, else any cards of the suit.

    {"**"}Example:** ♥ is led with Q♥Q♥K♥K♥. You hold 7♥7♥9♥9♥3♥: you have no tractor, so you must play your two pairs 7♥7♥9♥9♥. Holding 7♥7♥9♥3♥, you play the pair 7♥7♥ and then 9♥ and 3♥.

    With none of the led suit, ruff with trumps of the same shape or discard anything. The highest play of the led shape wins; among equals, the first one played.

guide-throws = A throw (甩牌) leads several units of one suit at once, for example A♥ K♥K♥: a single and a pair. It stands only if nobody can beat any of its units with that suit.

    {"**"}Example:** you throw A♥ Q♥Q♥ 5♥5♥ and another player holds K♥K♥, which beats your pair of queens and your pair of fives. The throw fails: you play only the smallest unit that can be beaten, 5♥5♥, and take the other three cards back. { $penalty ->
        [0] At this table a failed throw costs nothing.
       *[other] Your side pays { $penalty } points for each card taken back: { $penalty } × 3 = { $cost } here.
    }

guide-scoring = The attackers score the 5s, 10s and Ks in the tricks they win; the dealer's team scores nothing.

    {"**"}The kitty bonus (抠底):** if the attackers win the last trick, the kitty's points count several times for them, by the shape of that trick's lead: a single ×{ $single }, a pair ×{ $pair }{ $triple ->
        [0] {""}
       *[other] , a triple ×{ $triple }
    }, a 2-pair tractor ×{ $tractor }, a 3-pair tractor ×{ $long }{ $triples ->
        [0] {""}
       *[other] , a 2-triple tractor ×{ $triples }
    }.

guide-levels = The attackers' points decide who goes up (one level step is { $step } points):
guide-race = Race to { $target }: the attackers win the hand with { $target } points or more, or by winning the last trick, and take the deal; with both they go up 2 levels, otherwise 1. { $draw ->
    [-1] {""}
   *[other] Exactly { $draw } points without the last trick is a draw: nobody moves and the next deal is bid for again.
} Otherwise the dealer's team goes up 1 level.
guide-band-dealer = { $points } points: the dealer's team goes up { $gain ->
    [one] 1 level
   *[other] { $gain } levels
}{ $gain ->
    [3] {" "}(大光)
    [2] {" "}(小光)
   *[other] {""}
}
guide-band-attackers = { $points } points: { $gain ->
    [0] the attackers take the deal (上台)
    [one] the attackers take the deal and go up 1 level
   *[other] the attackers take the deal and go up { $gain } levels
}

guide-variants = **Variants in effect**
guide-variant-decks = { $decks ->
    [one] One deck
   *[other] { $decks } decks
}: { $hand } cards each, { $kitty } in the kitty, { $total } points in all
guide-variant-bidding = { $value ->
    [joker] Bidding shows a joker with level cards (带王亮主): BJ with ♥ or ♦, SJ with ♠ or ♣
   *[standard] Bidding with level cards; a pair overcalls, a joker pair bids no trump
}
guide-variant-no-bid = { $value ->
    [redeal] If nobody bids, the cards are dealt again
    [kitty_draw] If nobody bids, the kitty is turned up until a level card picks the dealer and trump
   *[notrump] If nobody bids, the hand is played in no trump
}
guide-variant-first-dealer = { $value ->
    [final_bid] On the first hand the final bidder deals
   *[first_bid] On the first hand the first player to bid deals
}
guide-variant-overcall = { $value ->
    [after_bury] From the second hand on, overcalls come after the dealer buries, once each in turn
   *[deal] Overcalls are made during the deal
}
guide-variant-fixed-two = { $value ->
    [true] Every 2 is a trump (常主)
   *[false] 2s are ordinary cards
}
guide-variant-chain = { $value ->
    [true] Trump pairs chain into tractors across the A, the level cards and the jokers
   *[false] Trump pairs of the A, level cards and jokers do not chain into tractors
}
guide-variant-follow = { $value ->
    [suit_only] Followers need only follow suit, not the shape
   *[strict] Followers must match pairs and tractors
}
guide-variant-throw = { $penalty ->
    [0] A failed throw costs nothing
   *[other] A failed throw costs { $penalty } points per card taken back
}
guide-variant-kitty = Kitty bonus (抠底): single ×{ $single }, pair ×{ $pair }{ $triple ->
        [0] {""}
       *[other] , triple ×{ $triple }
    }, 2-pair tractor ×{ $tractor }, 3-pair tractor ×{ $long }{ $triples ->
        [0] {""}
       *[other] , 2-triple tractor ×{ $triples }
    }
guide-variant-cap = { $cap ->
    [0] The attackers' points are not capped
   *[other] The attackers' points count at most { $cap }
}
guide-variant-scoring = { $value ->
    [race45] Race to 45: 45 points or the last trick win the hand for the attackers
   *[levels] Levels go by the attackers' points (see levels)
}
guide-variant-assistance = { $value ->
    [none] No hints, suggestions or last-trick view
   *[full] Hints, suggestions and the last-trick view are on
}
guide-variant-finish = { $value ->
    [reach_a] The match ends as soon as a team reaches A
   *[defend_a] A team at A wins the match by holding the deal
}
guide-variant-timers = { $play } s for a play, { $kitty } s for the kitty
