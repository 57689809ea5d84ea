"""Scripted situations where the heuristic must do what a sensible player does.

Trump is hearts at level 2 unless said otherwise; the dealer is seat 0, so seats 1
and 3 attack. Views are built by hand (``make_view``): the AI sees nothing else.
"""

from __future__ import annotations

from bot.ai import suggest, suggest_bid
from bot.ai.burying import choose_bury
from bot.game import Bury, Play, SeatView
from bot.rules import BIG_JOKER, Bid, RuleSet, Trump, format_cards, order_for, parse_cards

from .helpers import make_view, trick

HEARTS = Trump("2", "H")


def played(view: SeatView) -> str:
    action = suggest(view)
    assert isinstance(action, Play | Bury)
    return format_cards(sorted(action.cards, key=order_for(HEARTS).sort_key))


def test_feeds_the_ten_to_a_partner_who_has_won() -> None:
    # seat 1 (my partner) holds the trick with the A; I play last: 10 > K > 5
    view = make_view(3, "KS TS 6S 3D 4D 7C 8C 5H 6H", trick_so_far=["3S", "AS", "4S"])
    assert played(view) == "TS"


def test_keeps_points_away_from_an_opponent_who_has_won() -> None:
    view = make_view(3, "KS TS 6S 3D 4D 7C 8C 5H 6H", trick_so_far=["AS", "3S", "4S"])
    assert played(view) == "6S"


def test_partner_feeds_a_defender_too() -> None:
    # the dealer's side feeds its own partner the same way
    view = make_view(2, "KD 5D 7D 3S 4S 7C 8C 5H 6H", dealer=0, trick_so_far=["AD", "3D"])
    assert played(view) in ("KD", "5D")


def test_ruffs_a_point_trick_when_void() -> None:
    view = make_view(3, "4H 6H 9S 8S 3D 4D", trick_so_far=["KC", "3C", "TC"])
    assert played(view) == "4H"


def test_does_not_waste_a_trump_on_an_empty_trick() -> None:
    view = make_view(3, "4H 6H 9S 8S 3D 4D", trick_so_far=["3C", "4C", "6C"])
    assert played(view) in ("3D", "4D", "8S", "9S")


def test_wins_cheaply_when_points_are_on_the_table() -> None:
    # last to play, an opponent wins with the Q over 15 points: the K wins, the A is kept
    view = make_view(3, "AS KS 3S 4D 5D 7C", trick_so_far=["QS", "TS", "5S"])
    assert played(view) == "KS"


def test_cashes_a_boss_pair() -> None:
    view = make_view(1, "AS AS 3S 4S 7S 9C JC 3D 6D 8D QD", leader=1)
    assert played(view) == "AS AS"


def test_keeps_the_joker_for_the_last_trick_when_the_kitty_is_rich() -> None:
    # the dealer holds the last big joker (the other was played) with one trick to go
    history = [trick(1, ["BJ", "3H", "4H", "5H"], HEARTS)]
    rich = make_view(
        0, "BJ 7S", trick_so_far=["KC", "3C", "5C"], tricks=history, kitty="KD TD 5S 3C 4C 6C 7C 8C"
    )
    assert played(rich) == "7S"
    # with nothing in the kitty, the 15 points now are worth the joker
    poor = make_view(
        0, "BJ 7S", trick_so_far=["KC", "3C", "5C"], tricks=history, kitty="3C 4C 6C 7C 8C 9C 3D 4D"
    )
    assert played(poor) == "BJ"


def test_buries_a_short_suit_to_make_a_void_and_keeps_trumps() -> None:
    hand = (
        "3H 4H 6H 7H 9H JH QH AH 2S 2C SJ BJ "
        "AS KS QS 9S 8S 7S 5S 4S AC AC KC JC 9C 9C 8C 6C 3C 3D 4D 6D 8D"
    )
    view = make_view(0, hand, phase="kitty", kitty="3C 8C 9C 9C 6D 4S 5S 7H")
    buried = choose_bury(view).cards
    order = order_for(HEARTS)
    assert len(buried) == 8
    assert not any(order.is_trump(c) for c in buried)
    assert {c for c in parse_cards("3D 4D 6D 8D")} <= set(buried)  # diamonds now void
    assert parse_cards("AS")[0] not in buried and parse_cards("AC")[0] not in buried


def test_does_not_bury_points_with_a_weak_trump_hand() -> None:
    hand = (
        "3H 5H 2S "
        "AS KS QS 9S 8S 7S 5S 4S 3S AC KC JC 9C 8C 6C 3C TC AD KD QD TD 8D 6D 5D 4D 3D JS JD 7D 9D"
    )
    view = make_view(0, hand, phase="kitty", kitty="3C 8C 9C 6D 4S 5S 7D 9D")
    buried = choose_bury(view).cards
    assert sum(c.points for c in buried) == 0


def test_throws_only_boss_units_and_never_into_a_known_void() -> None:
    # A♠ and K♠K♠ are boss (one A♠ is mine, so no A♠ pair is left unseen)
    hand = "AS KS KS 3D 4D 6D 7C 8C 5H 6H"
    view = make_view(1, hand, leader=1)
    lead = played(view)
    assert lead in ("KS KS AS", "KS KS", "AS")
    # once seat 0 is known to be void in spades, no throw
    void = [trick(2, ["3S", "4S", "9D", "5S"], HEARTS)]
    view = make_view(1, hand, leader=1, tricks=void)
    assert played(view) != "KS KS AS"


def test_leads_into_partners_void() -> None:
    # my partner (seat 3) showed out of clubs; opponents still follow
    history = [trick(0, ["3C", "4C", "9C", "7D"], HEARTS)]
    view = make_view(1, "5C 6C 3S 7S 9S JS 4D 6D", leader=1, tricks=history)
    assert played(view) in ("5C", "6C")


def _deal_view(hand: str, dealt: int, bids: tuple[Bid, ...] = (), seat: int = 1) -> SeatView:
    base = make_view(seat, hand, trump=HEARTS)
    return base._replace(
        phase="deal", expecting="deal", trump=None, dealer=0, dealt=dealt, bids=bids, to_act=None
    )


def test_bids_with_a_long_suit_and_passes_without() -> None:
    long_hearts = _deal_view("2H 3H 5H 7H 9H JH KH BJ 4S 6C 8D", 44)
    bid = suggest_bid(long_hearts)
    assert bid is not None and format_cards(bid.cards) == "2H"
    short = _deal_view("2H 3S 5S 7D 9D JC KC 4S 6C 8D QC", 44)
    assert suggest_bid(short) is None


def test_does_not_overcall_a_partner_without_a_much_better_hand() -> None:
    partner = Bid(3, (parse_cards("2S")[0],), "S", 1)
    view = _deal_view("2H 2H 3H 5H 7H 9H JH 4S 6C 8D QC", 60, bids=(partner,))
    assert suggest_bid(view) is None
    opponent = Bid(0, (parse_cards("2S")[0],), "S", 1)
    view = _deal_view("2H 2H 3H 5H 7H 9H JH 4S 6C 8D QC", 60, bids=(opponent,))
    bid = suggest_bid(view)
    assert bid is not None and format_cards(bid.cards) == "2H 2H"


def test_reinforces_its_own_bid() -> None:
    mine = Bid(1, (parse_cards("2H")[0],), "H", 1)
    view = _deal_view("2H 2H 3H 5H 7H 9H JH 4S 6C 8D QC", 60, bids=(mine,))
    bid = suggest_bid(view)
    assert bid is not None and format_cards(bid.cards) == "2H 2H"


def test_three_decks_and_other_rules_still_give_legal_sensible_plays() -> None:
    rules = RuleSet(decks=3)
    view = make_view(3, "KS TS 6S 6S 6S 3D 4D", trick_so_far=["3S", "AS", "4S"], rules=rules)
    assert played(view) == "TS"
    assert BIG_JOKER not in parse_cards(played(view))
