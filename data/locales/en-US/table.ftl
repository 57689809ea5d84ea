# A table on Discord (cogs/presenter.py): the lobby, the thread, the live messages, the DMs.
table-thread-name = 双升 #{ $table } · { $host }
table-lobby-waiting = 双升 table #{ $table } — waiting for players
table-lobby-footer = Partners sit opposite: seats 1 & 3 (A) against 2 & 4 (B). Only the host (or an admin) starts.
table-lobby-playing = 双升 table #{ $table } — the match is on · hand { $hand }
table-lobby-won = 双升 table #{ $table } — { $team } win the match
table-lobby-closed = 双升 table #{ $table } — closed
table-lobby-in-thread = The table plays in { $thread }.
table-level = level { $level }
table-lobby-team = **{ $team }**: { $players } · { $level }
table-place-channel-setting = This server plays its tables in the channel (`table_place: channel`), so this table plays here.
table-place-channel-no-thread = I may not open a thread here, so this table plays in the channel.
table-place-lost = The bot can no longer post in the table's thread or channel (deleted, archived or no permission), so the table was closed. Finished hands are kept: see `/shengji history`.
table-dms-closed = { $user }, I can't send you direct messages, so your hand is on the **{ $button }** button of the table messages (only you can see it).
table-warning = ⏰ { $seconds ->
    [one] { $seconds } second left
   *[other] { $seconds } seconds left
}; then the computer plays for you.
table-redeal = Nobody bid: the cards were shuffled and dealt again.
table-kitty-drawn = Nobody bid, so the kitty was turned up card by card: { $cards }. { $card } is the level of { $team }: { $dealer } deals, { $suit } is trump.
table-kitty-drawn-none = Nobody bid, so the kitty was turned up card by card: { $cards }. No level card among them.
table-deal-head = **Hand { $hand }** · levels { $levels }
table-deal-levels = A { $a } · B { $b }
table-deal-progress = 🃏 Dealing: { $dealt }/{ $total ->
    [one] { $total } card
   *[other] { $total } cards
} · level { $level }
table-deal-bids = Bids, in order:
table-no-bid = No bid yet: show a level card from your hand panel to declare trump (亮主).
table-no-bid-over = Nobody declared trump (亮主).
table-bidding-closes = Bidding closes { $when }.
table-deal-trump = **Trump: { $trump }** · { $dealer } deals (庄家).
table-deal-burying = The dealer is burying the kitty (扣底) { $when }.
table-overcall-round = The kitty is buried: from the dealer's next seat round to the dealer, each player may overcall once (反主).
table-overcall-passed = Passed: { $players }.
table-to-overcall = ▶ { $player } to overcall or pass { $when }
table-trick-head = **Hand { $hand } · trick { $trick }**
table-trick-won = Previous trick: { $player } won it{ $points ->
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
} — { $plays }
table-to-lead = ▶ { $player } to lead { $when }
table-to-play = ▶ { $player } to play { $when }
table-played-for = ({ $player } was played for by the computer.)
table-strip-teams = Dealer's team (庄家): { $dealer } & { $partner } at { $dealer_level } · attackers (闲家): { $attackers } at { $attackers_level }
table-strip-score = Attackers' points **{ $points }** · { $left ->
    [one] { $left } card left each
   *[other] { $left } cards left each
}
# while the cards go out or the dealer buries, when hands differ in size
table-strip-points = Attackers' points **{ $points }**
table-strip-last = Previous trick: { $plays }{ $points ->
    [0] {""}
   *[other] { $side ->
        [attackers] {" "}(attackers +{ $points })
       *[dealer] {" "}({ $points } kept by the dealer's team)
    }
}
table-throw-failed = { $player }'s throw (甩牌) failed: { $cards } taken back, { $penalty ->
    [one] { $penalty } point
   *[other] { $penalty } points
} to the other side.
table-summary-head = **Hand { $hand } is over.** Attackers: { $points ->
    [one] { $points } point
   *[other] { $points } points
}{ $bonus }
table-summary-bonus = {" "}(kitty ×{ $multiplier }: +{ $bonus })
table-summary-levels = Levels: A { $a }, B { $b }.
table-next-hand = Next hand: { $dealer } deals { $when }.
table-match-won = 🏆 **{ $team }** win the match: { $players }!
table-panel-old = Hand { $hand } (over).
table-panel-old-result = Hand { $hand } (over). { $result }.
table-panel-closed = Hand { $hand } (the table was closed).
table-panel-left = Hand { $hand } (you left the table: a computer player plays your seat).
table-ping-play = 🔔 Your turn at 双升 #{ $table } { $when }: play from your panel above.
table-ping-bury = 🔔 You are the dealer at 双升 #{ $table }: bury the kitty { $when } from your panel above.
table-panel-role-dealer = You are on the dealer's team (庄家): keep the attackers under their goal.
table-panel-role-attacker = You are an attacker (闲家): take points to win the deal.
table-panel-from-kitty = from the kitty
table-paused = ⏸ Paused: storage unavailable. Nothing is lost; the table resumes by itself when storage is back (actions meanwhile are refused: try again).
table-resumed = ▶ Storage is back: the table resumes.
table-failed = The table hit a problem it cannot recover from (storage failed) and was closed, so this channel is free again. Finished hands are kept: see `/shengji history`.
table-failed-bug = The table hit an error in the bot it cannot recover from and was closed, so this channel is free again. Finished hands are kept: see `/shengji history`.
table-button-hand = My hand
table-button-last = Previous trick
table-button-rules = Rules
table-rules-topics = Choose a topic
table-button-join = Join
table-button-bot = Add computer
table-button-leave = Leave
table-button-start = Start
table-lobby-seat = **Seat { $seat }** ({ $team }): { $who }
# The table image (renderers.table): its words, short (they are drawn large for phones).
table-img-head = Hand { $hand } · Trick { $trick }
table-img-dealer-team = Dealer's team · { $level }
table-img-attackers = Attackers · { $level }
table-img-score = Attackers' points { $points } · { $left ->
    [one] { $left } card left
   *[other] { $left } cards left
}
table-img-points = Attackers' points { $points }
table-img-trump = Trump
table-img-no-trump = No trump
table-img-dealer = Dealer
table-img-led = Led
table-img-winning = Winning
table-img-won = Won
table-img-to-play = To play
table-img-last = Previous trick · { $player } +{ $points }
table-closed-over = The match is over.
table-closed-time-up = Time is up: no new hand starts.
table-closed-everyone-left = Everyone left: the table is closed.
table-closed-aborted = The table was aborted.
table-ping-thread = 🔔 { $user }, your turn { $when }: play from the **{ $button }** button of the table message.
