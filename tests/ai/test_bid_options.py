"""The heuristic's bids read the auction's options from the cards a bid could show
(``bidding._showable``), cached by the view's auction fields: the same options as the
view's auction gives for the whole hand, at every bid question of real deals.

The casual preset (the standard bidding, other play rules) runs with ``-m slow``."""

from __future__ import annotations

import pytest

from bot.ai import make_player, play_hand
from bot.ai.bidding import _options
from bot.game import SYSTEM, Action, Match, NextHand, SeatView
from bot.presets import presets


class Checking:
    """The heuristic, checking the cached options at each of its bid questions."""

    name = "ai"

    def __init__(self, asked: list[int]) -> None:
        self.inner = make_player("normal")
        self.asked = asked

    def act(self, view: SeatView) -> Action | None:
        if view.expecting in ("deal", "end_bidding", "overcall") and view.seat is not None:
            want = view.auction.options(view.hand, view.seat)
            assert list(_options(view, view.seat)) == want
            self.asked.append(len(want))
        return self.inner.act(view)


@pytest.mark.parametrize(
    "name",
    [
        "standard",
        "tournament",
        pytest.param("casual", marks=pytest.mark.slow),
        "one_deck",
        "three_decks",
    ],
)
def test_cached_options_are_the_auctions(name: str) -> None:
    asked: list[int] = []
    players = [Checking(asked) for _ in range(4)]
    match = Match.new(3, presets()[name][0])
    for _ in range(4):
        play_hand(match, players)
        if match.phase == "over":
            break
        match.apply(SYSTEM, NextHand())
    assert sum(1 for n in asked if n) > 10  # bids were possible, not only none
