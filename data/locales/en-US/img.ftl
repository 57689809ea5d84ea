# Words drawn on the images (renderers/), passed by cogs/imagewords.py: short, drawn large.
img-your-hand = Your hand
img-cards-n = { $n ->
    [one] { $n } card
   *[other] { $n } cards
}
img-selected-n = { $n } selected
img-trump = Trump
img-no-trump = No trump
img-trump-unset = Trump not set
img-kitty = Kitty
img-buried-by = Buried by { $name }
img-kitty-points = Points in the kitty
img-kitty-to-attackers = × { $m } = { $bonus } to the attackers
img-kitty-kept = Kept by the dealer's team
img-hand-n = Hand { $n }
img-from-tricks = From tricks
img-penalty = Throw penalties
img-kitty-bonus = Kitty bonus
img-total = Attackers' points
img-next-dealer = Next dealer
img-defenders = Dealer's team
img-attackers = Attackers
img-level = Level
# between partners' names
img-and = {" "}&{" "}
# the tournament standings (cogs/cupview.py)
img-round-n = Round { $n }
img-podium = Podium
img-bye = Bye: a win at 2
img-ranking-n = Round { $n }: ranking
