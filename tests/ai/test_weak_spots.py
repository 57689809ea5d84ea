"""The heuristic's two measured weak spots, as scripted situations.

1. It overtook its partner's trick with a joker when the partner held it anyway
   (a card only "does its job" by the win it adds, not by winning a won trick).
2. The dealer's side led point cards into a suit an opponent is known to be void
   in (the opponent ruffs; a partner's over-ruff is no rescue when the other
   opponent can ruff after it), or under an opponent's known higher pair.

Trump is hearts at level 2, the dealer is seat 0 (seats 0 and 2 defend).
"""

from __future__ import annotations

from bot.ai import suggest
from bot.game import Play, SeatView
from bot.rules import Trump, format_cards, order_for, parse_cards

from .helpers import make_view, trick

HEARTS = Trump("2", "H")


def played(view: SeatView) -> str:
    action = suggest(view)
    assert isinstance(action, Play)
    return format_cards(sorted(action.cards, key=order_for(HEARTS).sort_key))


def test_does_not_overtake_a_partner_who_wins_for_sure_with_a_joker() -> None:
    # I play last, void in clubs, holding only trumps; my partner (seat 1) ruffed
    view = make_view(3, "SJ 2S 2D 2C", trick_so_far=["AC", "2H", "6H"])
    assert played(view) != "SJ"


def test_does_not_overtake_a_partner_whom_nobody_left_can_beat() -> None:
    # third to play: my partner (seat 3) led the 2H; the last seat has shown it
    # holds no trumps, so the 2H wins without my small joker
    no_trumps = [trick(3, ["5H", "6H", "7H", "3S"], HEARTS)]
    view = make_view(1, "SJ 2S 2D 2C", trick_so_far=["2H", "3H"], tricks=no_trumps)
    assert played(view) != "SJ"


def test_still_takes_an_opponents_point_trick_with_the_joker() -> None:
    # the same cards, but an opponent's ruff holds 15 points: now the joker is worth it
    view = make_view(3, "SJ 2S 2D 2C", trick_so_far=["KC", "3H", "2H"], dealer=1)
    assert played(view) == "SJ"


def test_dealer_side_does_not_lead_points_into_a_known_void() -> None:
    # everyone else discarded on a club lead: an opponent ruffs, and my partner's
    # over-ruff is no rescue when the last opponent can over-ruff it in turn
    voids = [trick(0, ["3C", "4D", "5D", "6D"], HEARTS)]
    for hand, points in (("TC 3H 5H 8H 9H JH QH KD", "TC"), ("KC 6H 7H 9H 9D 8D 5S 6S", "KC")):
        assert played(make_view(0, hand, leader=0, tricks=voids)) != points


def test_dealer_side_leads_a_suit_nobody_is_void_in_instead() -> None:
    # only the opponents are void: a low side card or a trump, never the ten
    voids = [trick(0, ["3C", "4D", "5C", "6D"], HEARTS)]
    assert played(make_view(0, "TC 7C 3H 5H 8H 9H JS QS", leader=0, tricks=voids)) != "TC"


def test_dealer_side_does_not_lead_a_ten_under_a_known_pair() -> None:
    # seat 1 threw AS AS QS and had to take the aces back: they are known to be there
    failed = trick(1, ["QS", "3S", "4S", "5S"], HEARTS)
    failed = failed._replace(attempted=tuple(parse_cards("AS AS QS")))
    view = make_view(0, "TS TS 9D 8D 7D 3C 4C 5C", leader=0, tricks=[failed])
    assert played(view) != "TS TS"
