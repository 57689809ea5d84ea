# Post-hand review: the Review button and /shengji review (cogs/review.py, bot/service/reviews.py).
review-button = Review
review-title = **Your review of hand { $hand }**: your costliest decisions, judged from what you knew at the time.
# $loss: what the expert's play is worth more to the player's side, in points (a level
# counts as 5): more points for the attackers, fewer for them when $side is the dealer's
review-line-led = { $rank }. Trick { $trick }: you led { $played }; the expert would play { $better } ({ $side ->
    [attackers] about { NUMBER($loss, minimumFractionDigits: 1, maximumFractionDigits: 1) } points better
   *[dealer] about { NUMBER($loss, minimumFractionDigits: 1, maximumFractionDigits: 1) } fewer points for the attackers
}).
review-line-played = { $rank }. Trick { $trick }: after { $before } ({ $winning } winning), you played { $played }; the expert would play { $better } ({ $side ->
    [attackers] about { NUMBER($loss, minimumFractionDigits: 1, maximumFractionDigits: 1) } points better
   *[dealer] about { NUMBER($loss, minimumFractionDigits: 1, maximumFractionDigits: 1) } fewer points for the attackers
}).
# the trick before a reviewed follow: who led what, then each play after the lead
review-trick-led = { $who } led { $cards }
review-trick-played = { $who } played { $cards }
# the plays above joined, as clauses: two, then three (the last after "and")
review-trick-two = { $first } and { $second }
review-trick-then = { $so_far }, { $next }
review-trick-last = { $so_far }, and { $next }
review-seat-next = the opponent on your right
review-seat-partner = your partner
review-seat-previous = the opponent on your left
review-clean = No costly decision found in { $judged ->
    [one] your one choice
   *[other] your { $judged } choices
} this hand.
review-auto = { $plays ->
    [one] One play the computer made for you (托管, or your time ran out) is not judged.
   *[other] { $plays } plays the computer made for you (托管, or your time ran out) are not judged.
}
review-partial = Time ran out after { $judged ->
    [one] { $judged } decision
   *[other] { $judged } decisions
}; the later ones were not judged.
review-no-hand = There is no such hand on this server (`/shengji history` lists them).
review-off = Reviews are off at that table: its rules allow no assistance.
review-not-yours = You did not play that hand, so there is nothing of yours to review.
review-gone = That hand's record is no longer kept, so it can't be reviewed.
review-which = Give a hand id (`/shengji history` lists them), or ask at the table.
review-none-yet = No hand has been finished at this table yet.
review-failed = The review could not be finished; please try again.
