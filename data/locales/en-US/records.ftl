# Records: /shengji leaderboard, stats and history (cogs/records.py).
records-metric-league = league points
records-metric-rating = rating
records-metric-wins = wins
records-metric-hands = hands
records-bad-metric = There is no leaderboard by `{ $metric }`.
records-leaderboard = Leaderboard · { $metric }
records-leader-line = **{ $rank }.** { $name } — { $value } · won { $wins }/{ $matches } · { $hands ->
    [one] { $hands } hand
   *[other] { $hands } hands
}
records-no-hands = No finished hands on this server yet.
records-no-stats = { $name } has no recorded hands on this server yet.
records-stats = Stats · { $name }
records-tournaments = Tournaments
records-stat-matches = Matches
records-matches-won = { $matches } ({ $wins } won)
records-stat-hands = Hands
records-stat-dealer = As dealer
records-stat-partner = As partner
records-stat-attacker = As attacker
records-stat-levels = Levels gained
records-stat-kitty = Kitty bonuses
records-kitty-bonuses = { $count } ({ $points ->
    [one] { $points } pt
   *[other] { $points } pts
})
records-stat-failed-throws = Failed throws
records-stat-league = League points
# the rating (its ordinal) with its mean and uncertainty
records-rating = { NUMBER($rating, minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: 0) } (μ { NUMBER($mu, minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: 0) }, σ { NUMBER($sigma, minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: 0) })
records-stat-rating = Rating
records-no-matches = No matches on this server yet.
records-recent = Recent matches
records-recent-footer = See a hand trick by trick: /shengji history hand_id:<number>
records-match-hands = hands: { $hands }
records-in-progress = in progress
records-aborted = ended early
records-won-by = won by { $team ->
    [0] Team A
   *[1] Team B
}
records-match-line = Table { $table }: { $players } · { $count ->
    [one] { $count } hand
   *[other] { $count } hands
} · { $result }
records-no-hand = There is no hand { $hand } on this server.
records-hand-head = **Hand { $hand }** · trump { $trump } · dealer { $dealer } · attackers { $points ->
    [one] { $points } pt
   *[other] { $points } pts
}
records-trick-line = { $n }. { $plays } → { $winner }{ $points ->
    [0] {""}
   *[other] { $side ->
        [attackers] {" "}(attackers +{ $points })
       *[dealer] {" "}({ $points } kept)
    }
}
# the teams' levels before and after the hand, A's then B's
records-hand-end = Kitty: { $kitty } · levels (A/B): { $before_a }/{ $before_b } → { $after_a }/{ $after_b }
records-image-title = Hand { $hand } · trump { $trump } · attackers { $points }
records-image-kitty = Kitty ({ $points ->
    [one] { $points } point
   *[other] { $points } points
})
