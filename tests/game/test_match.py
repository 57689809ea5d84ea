"""Scripted hands through the match state machine, phase by phase.

Stacked decks (``helpers.stacked``) put known cards in known hands; end-of-hand
cases start from a state one trick before the end, so each row of the level table,
the kitty bonus, dealer rotation and the match end are checked through the same
code path a real hand takes.
"""

from __future__ import annotations

import json

import pytest

from bot.ai import make_player, play_hand
from bot.game import (
    MAX_REDEALS,
    SYSTEM,
    BidMade,
    Buried,
    Bury,
    Deal,
    DealProgress,
    Dealt,
    Declare,
    EndBidding,
    Event,
    GameError,
    HandStarted,
    KittyBuried,
    KittyTaken,
    Match,
    MatchOver,
    NextHand,
    NotYourTurn,
    Phase,
    Play,
    Played,
    Redeal,
    ThrowFailed,
    TrickWon,
    TrumpSet,
    action_to_dict,
    event_to_dict,
    fallback_action,
    replay,
)
from bot.rules import IllegalBid, IllegalPlay, RuleSet, Trump, check_bid, parse_cards

from .helpers import stacked, to_play


def cards(text: str) -> tuple:
    return tuple(parse_cards(text))


def unchanged(match: Match, action, seat: int, error: type[Exception]) -> Exception:
    """Apply an illegal action: it must raise ``error`` and leave the state as it was."""
    before = match.to_dict()
    with pytest.raises(error) as caught:
        match.apply(seat, action)
    assert match.to_dict() == before
    return caught.value


# --- deal and bidding ----------------------------------------------------------------


def test_phases_follow_each_other() -> None:
    match = Match.new(7)
    assert (match.phase, match.expecting()) == (Phase.DEAL, ("deal", SYSTEM))
    match.apply(SYSTEM, Deal(99))
    assert match.expecting() == ("deal", SYSTEM)
    match.apply(SYSTEM, Deal(10))  # more than is left: deals the last card only
    assert match.dealt == 100 and match.expecting() == ("end_bidding", SYSTEM)
    match.apply(SYSTEM, EndBidding())
    assert match.phase == Phase.KITTY and match.expecting() == ("bury", match.dealer)
    match.apply(match.dealer, fallback_action(match.view(match.dealer)))
    assert match.phase == Phase.PLAY and match.expecting() == ("play", match.dealer)
    while match.phase == Phase.PLAY:
        seat = match.to_act
        match.apply(seat, fallback_action(match.view(seat)))
    assert match.phase == Phase.SCORED and match.expecting() == ("next_hand", SYSTEM)
    events = match.apply(SYSTEM, NextHand())
    assert isinstance(events[0], HandStarted) and events[0].hand_no == 1
    assert match.phase == Phase.DEAL and match.hand_no == 1 and match.dealt == 0


def test_cards_are_dealt_one_at_a_time_in_seat_order_and_privately() -> None:
    match = Match.new(1, first_dealer=2)
    events = match.apply(SYSTEM, Deal(6))
    stock = match.stock
    assert [len(h) for h in match.hands] == [1, 1, 2, 2]  # seats 2, 3, 0, 1, 2, 3
    assert match.hands[2] == [stock[0], stock[4]]
    assert match.hands[3] == [stock[1], stock[5]]
    private = [e for e in events if isinstance(e, Dealt)]
    assert {e.to for e in private} == {0, 1, 2, 3}
    assert all(e.seat == e.to for e in private)
    assert private[0] == Dealt(0, (stock[2],))
    assert next(e for e in events if e.public) == DealProgress(6, 100)


def test_system_actions_come_only_from_the_table() -> None:
    match = Match.new(1)
    unchanged(match, Deal(1), 0, GameError)
    match.apply(SYSTEM, Deal(4))
    unchanged(match, EndBidding(), SYSTEM, GameError)  # the deal is not finished
    unchanged(match, Declare(cards("2H")), SYSTEM, GameError)
    unchanged(match, Play(cards("2H")), 1, GameError)  # no playing during the deal
    unchanged(match, NextHand(), SYSTEM, GameError)


def _bidding_deck() -> list:
    # seat 1 is dealt 2H first; seat 3 holds 2S 2S; seat 0 holds SJ SJ
    return stacked(
        ["SJ SJ 3C", "2H 4C", "5C 6C", "7C 2S 2S"],
        "8C 8C 9C 9C TC TC JC JC",
    )


def test_bids_need_dealt_cards_and_must_beat_the_current_bid() -> None:
    match = Match.new(5, RuleSet(first_dealer="final_bid"), deck_order=_bidding_deck())
    match.apply(SYSTEM, Deal(4))  # one card each: seat 1 has 2H
    unchanged(match, Declare(cards("2S")), 3, IllegalPlay)  # not dealt yet
    events = match.apply(1, Declare(cards("2H")))
    assert events[0].public
    assert events[0] == BidMade(1, cards("2H"), "H", 1)
    match.apply(SYSTEM, Deal(8))
    match.apply(3, Declare(cards("2S 2S")))  # RULES Bidding 3: overcall with a pair
    unchanged(match, Declare(cards("2H")), 1, IllegalBid)  # a single beats nothing now
    assert [b.seat for b in match.legal_bids(0)] == [0]  # SJ SJ still beats a pair
    match.apply(SYSTEM, Deal(88))
    events = match.apply(SYSTEM, EndBidding())
    assert match.dealer == 3, "first_dealer final_bid: the final overcaller deals (003:48)"
    assert match.trump == Trump("2", "S")
    assert len(match.hands[3]) == 33 and match.phase == Phase.KITTY
    kitty_event = next(e for e in events if isinstance(e, KittyTaken))
    assert kitty_event.to == 3 and kitty_event.cards == cards("8C 8C 9C 9C TC TC JC JC")
    assert all("8C 8C 9C" not in json.dumps(event_to_dict(e)) for e in events if e.public)


def test_joker_pair_bids_no_trump() -> None:
    match = Match.new(5, deck_order=_bidding_deck())
    match.apply(SYSTEM, Deal(100))
    match.apply(1, Declare(cards("2H")))
    match.apply(0, Declare(cards("SJ SJ")))
    match.apply(SYSTEM, EndBidding())
    # 先亮者为庄家 (000:35, 001:75, 002:27): the first bidder deals, the overcall sets trump
    assert match.trump == Trump("2", None) and match.dealer == 1


def test_nobody_bids_plays_no_trump_with_the_first_seat_dealing() -> None:
    match = Match.new(2, first_dealer=None)
    match.apply(SYSTEM, Deal(100))
    match.apply(SYSTEM, EndBidding())
    assert match.trump == Trump("2", None)
    assert match.dealer == 0


def test_no_bid_redeal_variant_redeals_then_gives_up() -> None:
    match = Match.new(2, RuleSet(no_bid="redeal"))
    first_stock = list(match.stock)
    match.apply(SYSTEM, Deal(100))
    events = match.apply(SYSTEM, EndBidding())
    assert events[0] == Redeal(1) and match.phase == Phase.DEAL and match.dealt == 0
    assert match.stock != first_stock and all(not h for h in match.hands)
    for _ in range(MAX_REDEALS - 1):
        match.apply(SYSTEM, Deal(100))
        match.apply(SYSTEM, EndBidding())
    assert match.redeals == MAX_REDEALS
    match.apply(SYSTEM, Deal(100))
    match.apply(SYSTEM, EndBidding())
    assert match.phase == Phase.KITTY and match.trump == Trump("2", None)


def test_joker_bidding_attackers_take_the_deal_when_dealers_cannot_bid() -> None:
    rules = RuleSet(bidding="joker")
    deck_order = stacked(["3C", "BJ 2H", "4C", "5C"], "", start=0, rules=rules)
    match = Match.new(4, rules, first_dealer=0, deck_order=deck_order)
    match.apply(SYSTEM, Deal(100))
    match.apply(1, Declare(cards("BJ 2H")))
    match.apply(SYSTEM, EndBidding())
    assert match.dealer == 1 and match.trump == Trump("2", "H")


def test_joker_bidding_an_attacker_overcall_keeps_the_dealer() -> None:
    rules = RuleSet(bidding="joker")
    deck_order = stacked(["SJ 2S", "BJ 2H 2H", "4C", "5C"], "", start=0, rules=rules)
    match = Match.new(4, rules, first_dealer=0, deck_order=deck_order)
    match.apply(SYSTEM, Deal(100))
    match.apply(0, Declare(cards("SJ 2S")))
    match.apply(1, Declare(cards("BJ 2H 2H")))
    match.apply(SYSTEM, EndBidding())
    assert match.dealer == 0 and match.trump == Trump("2", "H")


# --- the kitty -----------------------------------------------------------------------


def test_burying_the_kitty() -> None:
    match = Match.new(9, first_dealer=2)
    match.apply(SYSTEM, Deal(100))
    match.apply(SYSTEM, EndBidding())
    hand = list(match.hands[2])
    unchanged(match, Bury(tuple(hand[:8])), 1, NotYourTurn)
    unchanged(match, Bury(tuple(hand[:7])), 2, IllegalPlay)
    not_held = next(c for c in match.hands[1] if hand.count(c) == 0)
    unchanged(match, Bury((not_held, *hand[:7])), 2, IllegalPlay)
    events = match.apply(2, Bury(tuple(hand[-8:])))
    assert match.kitty == hand[-8:] and len(match.hands[2]) == 25
    assert match.phase == Phase.PLAY and match.to_act == 2
    public = [e for e in events if e.public]
    assert public[0] == Buried(2, auto=False)
    assert [e.to for e in events if not e.public] == [2]


# --- tricks --------------------------------------------------------------------------


def _playing(
    hands: list[str],
    trump: Trump,
    dealer: int = 0,
    kitty: str = "",
    pts: int = 0,
    rules: RuleSet | None = None,
    levels: tuple[str, str] = ("2", "2"),
) -> Match:
    """A match in the play phase with exactly these hands (the end of a hand)."""
    match = Match.new(1, rules, first_dealer=dealer, levels=levels)
    match.phase = Phase.PLAY
    match.dealer = dealer
    match.trump = trump
    match.hands = [list(parse_cards(h)) for h in hands]
    match.kitty = list(parse_cards(kitty))
    match.leader = dealer
    match.attackers_points = pts
    match.dealt = match.deal_total
    return match


def test_follow_rules_are_enforced_and_change_nothing() -> None:
    match = _playing(["QH QH", "7H 7H", "4C 5C", "6C 7C"], Trump("T", "S"))
    match.apply(0, Play(cards("QH QH")))
    unchanged(match, Play(cards("3S 3S")), 1, IllegalPlay)  # not held
    unchanged(match, Play(cards("4C 5C")), 2, NotYourTurn)
    match.apply(1, Play(cards("7H 7H")))
    match.apply(2, Play(cards("4C 5C")))
    events = match.apply(3, Play(cards("6C 7C")))
    trick = next(e for e in events if isinstance(e, TrickWon))
    assert trick.winner == 0 and trick.points == 5


def test_a_single_follows_a_single_by_suit_and_refusals_keep_their_reasons() -> None:
    """The single-card path of ``Match._play``: the led suit if held, else anything."""
    match = _playing(["QH 2C", "7H 3C", "4C 5C", "6C 7C"], Trump("T", "S"))
    unchanged(match, Play(cards("QH")), SYSTEM, GameError)  # not a seat
    unchanged(match, Play(cards("QH")), 4, GameError)
    match.apply(0, Play(cards("QH")))
    err = unchanged(match, Play(cards("3C")), 1, IllegalPlay)
    assert isinstance(err, IllegalPlay) and err.key == "rules-err-follow-suit"
    assert "hearts" in str(err) and "7♥" in str(err)
    unchanged(match, Play(cards("8H")), 1, IllegalPlay)  # not held
    unchanged(match, Play(cards("7H")), 2, NotYourTurn)
    match.apply(1, Play(cards("7H")))
    match.apply(2, Play(cards("5C")))  # void in hearts: anything
    events = match.apply(3, Play(cards("7C")))
    trick = next(e for e in events if isinstance(e, TrickWon))
    assert trick.winner == 0 and trick.points == 5
    unchanged(match, Play(cards("3C")), 1, NotYourTurn)  # the winner leads next


def test_a_lead_of_identical_cards_is_taken_only_as_often_as_held() -> None:
    """The short path for a led pair or triple: held that often, it leads (one unit, no
    throw check); held fewer times or not at all, it is refused and changes nothing."""
    match = _playing(["QH QH 2C 2C", "7H 8H", "4C 5C", "6C 7C"], Trump("T", "S"))
    err = unchanged(match, Play(cards("2C 2C 2C")), 0, IllegalPlay)
    assert isinstance(err, IllegalPlay) and err.key == "game-err-not-another"
    unchanged(match, Play(cards("AH AH")), 0, IllegalPlay)
    events = match.apply(0, Play(cards("QH QH")))
    assert events == [Played(0, cards("QH QH"), False)] and match.hands[0] == list(cards("2C 2C"))
    hands = ["9D 9D 9D 3S", "7D 7D 8D", "4C 5C 6C", "6C 7C 8C"]
    three = _playing(hands, Trump("T", "S"), rules=RuleSet(decks=3))
    events = three.apply(0, Play(cards("9D 9D 9D")))
    assert events == [Played(0, cards("9D 9D 9D"), False)] and three.attempted is None


def test_pair_must_follow_pair_in_a_match() -> None:
    match = _playing(["QH QH 2C", "7H 7H 8H", "4C 5C 6D", "6C 7C 8D"], Trump("T", "S"))
    match.apply(0, Play(cards("QH QH")))
    err = unchanged(match, Play(cards("8H 7H")), 1, IllegalPlay)
    assert str(err) == "You must play a pair of hearts: you hold 7♥7♥."


def test_failed_throw_plays_the_forced_unit_and_pays_the_penalty() -> None:
    # seed 001: attempting 9 88 44 with a J elsewhere forces the 9
    hands = ["9S 8S 8S 4S 4S", "JS 2C 3C 4C 5C", "6C 6C 7C 7C 8C", "9C 9C TC TC JC"]
    match = _playing(hands, Trump("2", "H"), dealer=0, pts=0)
    events = match.apply(0, Play(cards("9S 8S 8S 4S 4S")))
    failed = next(e for e in events if isinstance(e, ThrowFailed))
    assert failed.played == cards("9S") and failed.taken_back == cards("8S 8S 4S 4S")
    assert failed.penalty == 40
    assert match.attackers_points == 40, "a dealer-side failed throw adds to the attackers"
    assert match.trick == [(0, cards("9S"))]
    assert sorted(map(str, match.hands[0])) == ["4S", "4S", "8S", "8S"]
    match.apply(1, Play(cards("JS")))
    match.apply(2, Play(cards("6C")))
    events = match.apply(3, Play(cards("9C")))
    assert match.tricks[-1].attempted == cards("9S 8S 8S 4S 4S")
    assert match.tricks[-1].winner == 1 and match.leader == 1


def test_attacker_failed_throw_subtracts_and_points_floor_at_zero() -> None:
    hands = ["2C 3C", "KS QS", "AS 4C", "5C 6C"]
    match = _playing(hands, Trump("2", "H"), dealer=0, pts=0)
    match.leader = 1
    match.apply(1, Play(cards("KS QS")))
    assert match.attackers_points == -10
    assert match.trick == [(1, cards("QS"))]


def test_standing_throw_is_played_whole() -> None:
    hands = ["2C 3C 4C", "AS AS KS", "QS 5C 6C", "JS 7C 8C"]
    match = _playing(hands, Trump("2", "H"), dealer=0)
    match.leader = 1
    events = match.apply(1, Play(cards("AS AS KS")))
    assert not [e for e in events if isinstance(e, ThrowFailed)]
    assert match.trick == [(1, cards("AS AS KS"))]


# --- scoring -------------------------------------------------------------------------

LEVEL_ROWS = [
    # attackers' points before the last (pointless, dealer-won) trick, winner, levels, why
    (0, "dealer", 3, "RULES level table: 0 is dealer +3 (大光)"),
    (-30, "dealer", 3, "RULES: points below 0 count as 0"),
    (5, "dealer", 2, "1-39: dealer +2 (小光)"),
    (35, "dealer", 2, "1-39: dealer +2"),
    (40, "dealer", 1, "40-79: dealer +1"),
    (75, "dealer", 1, "40-79: dealer +1"),
    (80, "attackers", 0, "80-119: attackers take the deal"),
    (115, "attackers", 0, "80-119: attackers take the deal"),
    (120, "attackers", 1, "120-159: attackers +1"),
    (155, "attackers", 1, "120-159: attackers +1"),
    (160, "attackers", 2, "160-199: attackers +2"),
    (200, "attackers", 3, "each further 40: +1 more"),
    (245, "attackers", 4, "each further 40: +1 more"),
]


@pytest.mark.parametrize("pts,winner,gained,why", LEVEL_ROWS, ids=[r[-1] for r in LEVEL_ROWS])
def test_level_table_rows_through_a_hand(pts: int, winner: str, gained: int, why: str) -> None:
    # dealer seat 1 (team 1) at level 5; the dealer wins the last trick with BJ
    hands = ["3C", "BJ", "4C", "6C"]
    match = _playing(hands, Trump("5", "H"), dealer=1, kitty="KD KD", pts=pts, levels=("3", "5"))
    for seat in (1, 2, 3, 0):
        match.apply(seat, Play((match.hands[seat][0],)))
    result = match.result
    assert result is not None and match.phase == Phase.SCORED
    assert (result.winner, result.levels_gained) == (winner, gained)
    assert result.kitty_bonus == 0 and result.multiplier == 0
    if winner == "dealer":
        assert result.levels_after == ("3", _up("5", gained))
        assert result.next_dealer == 3, "dealer's team keeps: the partner deals"
    else:
        assert result.levels_after == (_up("3", gained), "5")
        assert result.next_dealer == 2, "attackers take over: the next seat deals"


def _up(level: str, n: int) -> str:
    order = "23456789TJQKA"
    return order[min(order.index(level) + n, 12)]


def test_kitty_bonus_when_attackers_win_the_last_trick_with_a_pair() -> None:
    # RULES kitty: pair ×4; kitty holds 25 points
    hands = ["3C 3C", "AS AS", "4C 4C", "6C 7C"]
    match = _playing(hands, Trump("2", "H"), dealer=0, kitty="KD TD 5D 3D 4D 6D 7D 8D", pts=30)
    match.leader = 1
    for seat, text in ((1, "AS AS"), (2, "4C 4C"), (3, "6C 7C"), (0, "3C 3C")):
        match.apply(seat, Play(cards(text)))
    result = match.result
    assert result is not None
    assert (result.kitty_points, result.multiplier, result.kitty_bonus) == (25, 4, 100)
    assert result.attacker_points == 130 and result.winner == "attackers"
    assert result.kitty == cards("KD TD 5D 3D 4D 6D 7D 8D")


def test_no_kitty_bonus_when_the_dealer_side_wins_the_last_trick() -> None:
    hands = ["AS", "3S", "4C", "KS"]
    match = _playing(hands, Trump("2", "H"), dealer=0, kitty="KD TD", pts=50)
    for seat in (0, 1, 2, 3):
        match.apply(seat, Play((match.hands[seat][0],)))
    result = match.result
    assert result is not None and result.kitty_bonus == 0
    assert result.attacker_points == 50, "the dealer's side never scores the K it wins"


def test_level_gains_stop_at_a() -> None:
    hands = ["3C", "BJ", "4C", "6C"]
    match = _playing(hands, Trump("Q", "H"), dealer=1, pts=0, levels=("3", "Q"))
    for seat in (1, 2, 3, 0):
        match.apply(seat, Play((match.hands[seat][0],)))
    assert match.levels == ["3", "A"] and match.phase == Phase.SCORED


def test_defending_a_wins_the_match() -> None:
    hands = ["3C", "BJ", "4C", "6C"]
    match = _playing(hands, Trump("A", "H"), dealer=1, pts=40, levels=("K", "A"))
    for seat in (1, 2, 3, 0):
        events = match.apply(seat, Play((match.hands[seat][0],)))
    assert match.phase == Phase.OVER and match.winner_team == 1
    assert events[-1] == MatchOver(1, ("K", "A"))
    with pytest.raises(GameError):
        match.apply(SYSTEM, NextHand())


def test_losing_the_defence_at_a_does_not_end_the_match() -> None:
    hands = ["3C", "BJ", "4C", "6C"]
    match = _playing(hands, Trump("A", "H"), dealer=1, pts=100, levels=("K", "A"))
    for seat in (1, 2, 3, 0):
        match.apply(seat, Play((match.hands[seat][0],)))
    assert match.phase == Phase.SCORED and match.levels == ["K", "A"]
    assert match.result is not None and match.result.next_dealer == 2


def test_reach_a_variant_ends_on_reaching_a() -> None:
    hands = ["BJ", "3C", "4C", "6C"]
    rules = RuleSet(finish="reach_a")
    match = _playing(hands, Trump("9", "H"), dealer=1, pts=130, rules=rules, levels=("K", "9"))
    match.leader = 0
    for seat in (0, 1, 2, 3):
        match.apply(seat, Play((match.hands[seat][0],)))
    assert match.levels == ["A", "9"] and match.phase == Phase.OVER and match.winner_team == 0


# --- privacy, timeouts, JSON and replay ------------------------------------------------


def test_views_show_only_what_a_seat_may_know() -> None:
    match = to_play(Match.new(11))
    dealer = match.dealer
    for seat in range(4):
        view = match.view(seat)
        assert view.hand == tuple(match.hands[seat])
        assert (view.kitty is not None) == (seat == dealer)
        assert not hasattr(view, "hands")
    spectator = match.view(None)
    assert spectator.hand == () and spectator.kitty is None
    assert spectator.hand_sizes == (25, 25, 25, 25)


def test_every_view_of_a_live_match_is_the_view_of_its_restored_copy() -> None:
    """The parts of a view kept from a seat's first view of the play (levels, level, bids,
    kitty) are never stale: over three hands, whose dealers, levels, bids and kitties
    change, each view equals the one a copy restored from the state makes afresh."""
    match = Match.new(15)
    players = [make_player("random", seed=f"views/{s}") for s in range(4)]

    def compare(match: Match, events: list[Event]) -> None:
        if not any(isinstance(e, TrickWon | Buried) for e in events):
            return  # a restore per trick keeps the test short
        copy = Match.from_dict(match.to_dict())
        for seat in (None, 0, 1, 2, 3):
            assert match.view(seat) == copy.view(seat)

    dealers = set()
    for _ in range(3):
        play_hand(match, players, on_events=compare)
        assert match.result is not None
        dealers.add(match.result.dealer)
        match.apply(SYSTEM, NextHand())
    assert len(dealers) > 1


def test_private_events_go_to_one_seat_and_public_ones_hold_no_hidden_cards() -> None:
    match = Match.new(12)
    events = match.apply(SYSTEM, Deal(100))
    events += match.apply(SYSTEM, EndBidding())
    dealer = match.dealer
    events += match.apply(dealer, fallback_action(match.view(dealer)))
    buried = set(map(str, match.kitty))
    for event in events:
        if event.public:
            assert isinstance(event, DealProgress | TrumpSet | Buried)
            text = json.dumps(event_to_dict(event))
            assert not buried & set(text.replace('"', " ").split())
        else:
            assert isinstance(event, Dealt | KittyTaken | KittyBuried)


def test_timeout_uses_the_decider_and_marks_the_action_auto() -> None:
    match = to_play(Match.new(13))
    seat = match.to_act
    events = match.timeout(seat, fallback_action)
    played = next(e for e in events if isinstance(e, Played))
    assert played.auto is True and played.seat == seat


def test_timeout_with_a_broken_decider_still_plays_legally() -> None:
    match = to_play(Match.new(14))
    seat = match.to_act

    def broken(view):
        return Play(cards("BJ BJ BJ"))

    match.timeout(seat, broken)
    assert match.to_act == (seat + 1) % 4
    with pytest.raises(GameError):
        match.timeout(seat, fallback_action)  # no longer that seat's turn


def test_json_round_trip_is_equal_in_every_phase() -> None:
    match = Match.new(15)
    seen = set()
    while match.phase != Phase.OVER and match.hand_no < 2:
        restored = Match.from_dict(json.loads(json.dumps(match.to_dict())))
        assert restored == match
        seen.add(match.phase)
        kind, actor = match.expecting()
        if kind == "deal":
            match.apply(SYSTEM, Deal(17))
        elif kind == "end_bidding":
            match.apply(SYSTEM, EndBidding())
        elif kind == "next_hand":
            match.apply(SYSTEM, NextHand())
        else:
            match.apply(actor, fallback_action(match.view(actor)))
    assert {Phase.DEAL, Phase.KITTY, Phase.PLAY, Phase.SCORED} <= seen


def test_json_round_trip_after_the_dealer_team_went_up() -> None:
    """Bids of a scored hand were made at the old level; the state must still load."""
    hands = ["3C", "BJ", "4C", "6C"]
    match = _playing(hands, Trump("5", "H"), dealer=1, pts=0, levels=("3", "5"))
    match.bids = [check_bid(1, cards("5H"), "5", None)]
    for seat in (1, 2, 3, 0):
        match.apply(seat, Play((match.hands[seat][0],)))
    assert match.phase == Phase.SCORED and match.levels == ["3", "8"]
    assert Match.from_dict(json.loads(json.dumps(match.to_dict()))) == match


def test_replay_from_seed_and_actions_rebuilds_the_same_match() -> None:
    match = Match.new(16)
    log = []
    while match.hand_no < 2:
        kind, actor = match.expecting()
        if kind == "deal":
            seat, action = SYSTEM, Deal(10)
        elif kind == "end_bidding":
            seat, action = SYSTEM, EndBidding()
        elif kind == "next_hand":
            seat, action = SYSTEM, NextHand()
        else:
            seat, action = actor, fallback_action(match.view(actor))
        match.apply(seat, action)
        log.append((seat, action_to_dict(action)))
        if match.phase == Phase.DEAL and match.dealt == 20 and not match.bids:
            bids = match.legal_bids(0)
            if bids:
                match.apply(0, Declare(bids[0].cards))
                log.append((0, action_to_dict(Declare(bids[0].cards))))
    assert replay(16, log) == match
    assert match.seq == len(log)  # every accepted action is in the log, nothing else
    rebuilt = replay(16, log[:-1])  # and each one counts: one fewer is another state
    assert rebuilt != match and rebuilt.seq == match.seq - 1
