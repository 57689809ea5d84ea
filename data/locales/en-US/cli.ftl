# The terminal game (python -m bot play [--watch] [--lang zh]).
cli-help = Type cards in the notation, e.g. 'AH AH KH' (10 is T; jokers SJ, BJ). Commands: 'hint' suggests a move, 'auto' lets the computer make this move, 'auto all' hands your seat to the computer (托管) for the rest of the match, 'review' (after a hand) shows your costliest plays, 'quit' stops.
cli-help-no-assistance = Type cards in the notation, e.g. 'AH AH KH' (10 is T; jokers SJ, BJ). Commands: 'auto' lets the computer make this move, 'auto all' hands your seat to the computer (托管) for the rest of the match, 'quit' stops. This table allows no assistance: no hints, no review.
# a seed is an identifier: its digits are not grouped (20240517, not 20,240,517)
cli-title = Shengji (双升) · seed { NUMBER($seed, useGrouping: 0) } · you are seat { $seat } (South)
cli-title-watch = Shengji (双升) · seed { NUMBER($seed, useGrouping: 0) } · four computer players; you watch from seat { $seat } (South)
cli-bye = Bye.
cli-you-win = You win the match!
cli-they-win = Your opponents win the match.
cli-next-hand = Press Enter for the next hand (or 'quit'):{" "}
cli-hand-start = === Hand { $hand }: your team is at { $ours }, the opponents at { $theirs } ===
cli-redeal = Nobody bid: the cards are dealt again.
cli-bid = { $who } { $kind ->
    [reinforce] reinforced with
    [overcall] overcalled with
   *[declare] bid
} { $cards } ({ $suit }).
cli-dealt = Dealt { $dealt }/{ $total }. Your cards:
cli-current-bid = Current bid: { $who } showed { $cards }.
cli-may-bid = You may bid: { $menu }
cli-bid-prompt = Bid (number or cards, Enter to pass):{" "}
cli-bid-prompt-last = Bid (number or cards, Enter to pass, last chance):{" "}
cli-hint-bid = Hint: bid { $cards }.
cli-hint-pass = Hint: pass for now.
cli-trump-nobody = Trump: { $trump } (nobody bid). Dealer: { $dealer }; your team { $defends ->
    [yes] defends
   *[no] attacks
}.
cli-trump-bid = Trump: { $trump }, bid by { $bidder }. Dealer: { $dealer }; your team { $defends ->
    [yes] defends
   *[no] attacks
}.
cli-took-kitty = You are the dealer and took the kitty: { $cards }
cli-your-cards = Your cards:
cli-bury-prompt = Bury { $count ->
    [one] { $count } card
   *[other] { $count } cards
}:{" "}
cli-duty = ({ $duty })
cli-play-prompt = Your play:{" "}
cli-hint-play = Hint: { $cards }  (type: { $code })
cli-autopilot = The computer plays your seat from now on (托管).
cli-buried-mine = { $who } buried { $cards }.
cli-not-allowed = Not allowed: { $reason }
cli-table = Trick { $trick } · trump { $trump } · attackers' points { $points } · levels: you { $ours }, them { $theirs } · your team is { $attacking ->
    [yes] attacking
   *[no] defending
}
cli-trick-line = { $who }: { $cards }
cli-you-lead = You lead.
# a seat the computer plays for its person (托管): its name in the lines above and below
cli-who-auto = { $who } (auto)
cli-played = { $who } played { $cards }
cli-throw-failed = { $who } tried to throw { $attempted }, but it can be beaten: { $back } go back, penalty { $penalty ->
    [one] { $penalty } point
   *[other] { $penalty } points
}.
cli-trick-won = -> { $who } won trick { $trick }{ $points ->
    [0] {""}
   *[other] { $side ->
        [attackers] , { $points ->
            [one] { $points } point
           *[other] { $points } points
        } for the attackers
       *[dealer] , keeping { $points ->
            [one] { $points } point
           *[other] { $points } points
        } from the attackers
    }
}; attackers now have { $total }.
cli-buried = { $who } buried the kitty.
cli-hand-over = --- Hand { $hand } over ---
cli-kitty = Kitty: { $cards } ({ $points ->
    [one] { $points } point
   *[other] { $points } points
})
cli-kitty-bonus = The attackers won the last trick: kitty x{ $multiplier } = { $bonus ->
    [one] { $bonus } point
   *[other] { $bonus } points
}.
cli-failed-throw = Failed throw by { $who }: { $penalty ->
    [one] { $penalty } point
   *[other] { $penalty } points
}.
cli-result = Attackers' points: { $points } -> { $winner ->
    [dealer] the dealer's team goes up { $levels ->
        [one] 1 level
       *[other] { $levels } levels
    }
   *[attackers] { $levels ->
        [0] the attackers take the deal
        [one] the attackers take the deal and go up 1 level
       *[other] the attackers take the deal and go up { $levels } levels
    }
}.
cli-draw = Attackers' points: { $points } -> a draw: nobody goes up.
cli-levels = Levels: your team { $ours }, opponents { $theirs }. Next dealer: { $dealer }.
cli-suit-group = { $suit }: { $cards }
cli-no-cards = (no cards)
cli-seat-you = You
cli-seat-east = East
cli-seat-north = North (partner)
cli-seat-west = West
cli-trump-none = no trump, level { $level }
cli-trump-suit = { $suit }, level { $level }
cli-review-later = The review is available once the hand is over.
cli-review-wait = Reviewing your plays (a few seconds).
cli-review-none = No costly decision found in { $judged ->
    [one] your one choice
   *[other] your { $judged } choices
} this hand.
cli-kitty-drawn = Nobody bid. The kitty turned up { $cards }: { $who } deals, { $suit }.
cli-kitty-drawn-none = Nobody bid. The kitty turned up { $cards }: no level card.
cli-overcall-round = The kitty is buried: from { $who } round to the dealer, each player may overcall once.
cli-overcall-trump = The kitty is buried. Trump: { $trump }. Your cards:
cli-may-overcall = You may overcall once: { $menu }
cli-overcall-prompt = Overcall (number or cards, Enter to pass):{" "}
cli-overcall = { $who } overcalled with { $cards } ({ $suit }).
cli-passes = { $who } passed.
cli-round-over = Trump: { $trump }; { $who } to lead.
# python -m bot tournament (bot/tournament/cli.py): a tournament among computer teams
cli-cup-title = Tournament of { $teams } computer teams (level: { $players }), seed { $seed }, preset { $preset }, { $hands ->
    [one] 1 hand
   *[other] { $hands } hands
} a round, top { $advance } advance, podium of { $podium }
cli-cup-random = random play
cli-cup-team = Team { NUMBER($n, minimumIntegerDigits: 2) }
cli-cup-round = Round { $round } of { $rounds } ({ $matches ->
    [one] 1 match
   *[other] { $matches } matches
})
cli-cup-bye = { $team }: bye (a win at level 2)
cli-cup-beat = { $winner } ({ $won }) beat { $loser } ({ $lost }), { $hands ->
    [one] 1 hand
   *[other] { $hands } hands
}
cli-cup-outright = { $winner } ({ $won }) beat { $loser } ({ $lost }), outright
cli-cup-advancing = advancing: { $teams }
cli-cup-podium = Podium: { $teams }
