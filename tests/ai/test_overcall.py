"""The computer players' decision in the overcall round after burying (000:43)."""

from __future__ import annotations

from bot.ai import make_player
from bot.ai.bidding import choose_overcall
from bot.game import Declare, Match, Pass, Phase
from bot.rules import RuleSet, parse_cards
from tests.game.helpers import stacked, to_play

AFTER = RuleSet(bidding="joker", overcall="after_bury")


def _in_round(hands: list[str]) -> Match:
    deck = stacked(hands, "3C 3C 4C 4C 6C 6C 7C 7C")
    match = to_play(Match.new(3, AFTER, first_dealer=0, deck_order=deck), [(0, "BJ 2H")])
    assert match.phase is Phase.OVERCALL
    return match


def test_an_attacker_long_in_another_suit_overcalls() -> None:
    long_diamonds = "BJ 2D 2D AD AD KD KD QD QD JD JD TD TD 9D 9D 8D 8D 7D AS KS QS JS TS 9S 8S"
    match = _in_round(["BJ 2H AH KH QH", long_diamonds, "", ""])
    action = choose_overcall(match.view(1))
    assert action == Declare(tuple(parse_cards("BJ 2D 2D")))
    assert make_player("ai").act(match.view(1)) == action


def test_the_dealers_side_keeps_its_own_trump_for_a_small_gain() -> None:
    partner = "BJ 2D 2D AD KD QD JD 9D AH KH QH JH AS AS KS KS QS QS JS JS TS TS 9S 9S 8S"
    match = _in_round(["BJ 2H AH KH QH", "5S", partner, ""])  # one more diamond than hearts
    match.apply(1, Pass())
    assert choose_overcall(match.view(2)) is None
    assert make_player("ai").act(match.view(2)) == Pass()
