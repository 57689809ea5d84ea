"""The heuristic's bids read the auction's options from the cards a bid could show
(``bidding._showable``), cached: the same options as the whole hand gives."""

from __future__ import annotations

import random

import pytest

from bot.ai.bidding import _options, _showable
from bot.rules import ALL_CARDS, Auction, RuleSet


@pytest.mark.parametrize("bidding", ["standard", "joker"])
@pytest.mark.parametrize("round_", [False, True])
def test_options_from_showable_cards_equal_the_whole_hands(bidding: str, round_: bool) -> None:
    rules = RuleSet(bidding=bidding)  # type: ignore[arg-type]
    rng = random.Random(5)
    deck = list(ALL_CARDS) * rules.decks
    asked = 0
    for _ in range(300):
        rng.shuffle(deck)
        levels = (rng.choice("23456789"), rng.choice("2TJQKA"))
        dealer = rng.choice([None, 0, 1, 2, 3])
        seat = rng.randrange(4)
        auction = Auction(levels, dealer, (), rules, round_)
        hand = deck[: rng.randint(1, rules.hand_size)]
        # a bid already made by another seat, so overcalls are asked too
        other = (seat + 1) % 4
        made = auction.options(deck[50:75], other)
        if made:
            auction = Auction(levels, dealer, (rng.choice(made),), rules, round_)
        want = auction.options(hand, seat)
        assert list(_options(auction, seat, _showable(hand, levels))) == want
        asked += bool(want)
    assert asked > 30  # the hands did allow bids
