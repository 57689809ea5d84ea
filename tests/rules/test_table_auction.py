"""One hand's bidding as a whole (docs/RULES.md "Bidding"): the rank each seat shows,
the dealer's side's priority, the first dealer, overcalls after burying and the kitty
draw. Seed lines are cited as file:line of seeds/000 … 003.

A table's ``state`` is "<team 0 level><team 1 level>/<dealer>" ("-" while the deal is
contested); ``bids`` lists the bids so far as "seat cards; seat cards", each checked as
it is made, and a ``|`` starts the overcall round after burying.
"""

from __future__ import annotations

import pytest

from bot.rules import Auction, IllegalBid, RuleSet, kitty_draw, parse_cards

STD = RuleSet()
FINAL = RuleSet(first_dealer="final_bid")
JOKER = RuleSet(bidding="joker")
J_FINAL = RuleSet(bidding="joker", first_dealer="final_bid")
AFTER = RuleSet(bidding="joker", overcall="after_bury")
STD_AFTER = RuleSet(overcall="after_bury")
AFTER3 = RuleSet(bidding="joker", overcall="after_bury", decks=3)
OK, NO = True, False


def _auction(rules: RuleSet, state: str, bids: str) -> Auction:
    levels_text, dealer_text = state.split("/")
    levels = (levels_text[0], levels_text[1])
    dealer = None if dealer_text == "-" else int(dealer_text)
    auction = Auction(levels, dealer, (), rules)
    for part, in_round in zip(bids.split("|"), (False, True), strict=False):
        auction = Auction(levels, dealer, auction.bids, rules, in_round)
        for item in filter(None, (b.strip() for b in part.split(";"))):
            seat, cards = item.split(" ", 1)
            bid = auction.check(int(seat), parse_cards(cards))
            auction = Auction(levels, dealer, (*auction.bids, bid), rules, in_round)
    return auction


# rules, state, bids so far, seat, cards shown, legal?, why
CHECK = [
    # joker bidding: a bid shows the level of the team that would deal if it wins
    (JOKER, "35/0", "", 1, "BJ 5H", OK, "002:21 谁亮主谁坐庄: the attackers show their level"),
    (JOKER, "35/0", "", 1, "BJ 3H", NO, "issue 12: an attacker's BJ 3H shows the dealer's level"),
    (JOKER, "35/0", "", 0, "BJ 3H", OK, "000:41 the dealer's side shows its own level"),
    (JOKER, "35/0", "", 2, "SJ 5S", NO, "the dealer's side never shows the attackers' level"),
    (JOKER, "35/0", "1 BJ 5H", 0, "SJ 3S", OK, "000:47 the dealer's side has priority"),
    (JOKER, "35/0", "1 SJ 5S 5S", 2, "BJ 3D", OK, "000:47 priority: a single takes back"),
    (JOKER, "35/0", "1 BJ 5H", 3, "SJ 5S 5S", OK, "000:41 反主 uses the holding bid's rank"),
    (JOKER, "35/0", "1 BJ 5H", 3, "SJ 3S 3S", NO, "an overcall never shows another rank"),
    (JOKER, "35/0", "0 BJ 3H", 1, "SJ 3S 3S", OK, "000:41 attackers overcall the suit only"),
    (JOKER, "35/0", "0 BJ 3H", 1, "SJ 5S", NO, "the dealer's side bid: no takeover"),
    (JOKER, "35/0", "0 BJ 3H", 1, "SJ 5S 5S", NO, "nor an overcall at the attackers' level"),
    (JOKER, "35/0", "1 BJ 5H; 0 SJ 3S", 3, "BJ 5D 5D", NO, "000:47 taken back: 5 is gone"),
    (JOKER, "35/0", "1 BJ 5H; 0 SJ 3S", 3, "BJ 3D 3D", OK, "taken back: overcall at 3"),
    (JOKER, "35/0", "0 BJ 3H", 0, "BJ 3H 3H", OK, "000:41 防反: add a level card"),
    (JOKER, "35/0", "0 BJ 3H", 0, "SJ 3S 3S", NO, "000:41 不能自己反自己"),
    # a contested first hand: first_bid (000, 001, 002) or final_bid (003)
    (STD, "22/-", "1 2S", 2, "2H 2H", OK, "001:75 先亮者为庄家; overcalls change the trump"),
    (STD, "46/-", "1 6S", 2, "6H 6H", OK, "first_bid: overcall with the first bidder's rank"),
    (STD, "46/-", "1 6S", 2, "4H 4H", NO, "first_bid: the overcaller's level is not the hand's"),
    (FINAL, "46/-", "1 6S", 2, "4H 4H", OK, "003:48 最终反主者为庄家: own level"),
    (FINAL, "46/-", "1 6S 6S", 2, "4H 4H", NO, "final_bid: still strictly stronger"),
    (J_FINAL, "22/-", "1 BJ 2H", 2, "SJ 2S 2S", OK, "final_bid with joker bidding"),
    # overcall after_bury (000:43): in the deal only first bids, take-backs and 防反
    (AFTER, "35/0", "0 BJ 3H", 1, "SJ 3S 3S", NO, "000:43 其他盘: overcalls wait for the bury"),
    (AFTER, "35/0", "0 BJ 3H", 2, "SJ 3S 3S", NO, "000:43 the partner's overcall waits too"),
    (AFTER, "35/0", "0 BJ 3H", 0, "BJ 3H 3H", OK, "000:41 防反 is no overcall"),
    (AFTER, "35/0", "1 BJ 5H", 2, "SJ 3S", OK, "000:47 the dealer's side still takes back"),
    (AFTER, "35/0", "0 BJ 3H |", 1, "SJ 3S 3S", OK, "000:43 依次表态: overcall in the round"),
    (AFTER, "35/0", "0 BJ 3H |", 1, "BJ 3D", NO, "000:41 反 shows a joker + two level cards"),
    (AFTER, "35/0", "0 BJ 3H |", 1, "SJ SJ", OK, "000:43 可反无主 in the round"),
    (AFTER, "35/0", "0 BJ 3H", 1, "SJ SJ", NO, "000:45 不能直接亮无主 outside the round"),
    (AFTER, "35/0", "0 BJ 3H | 1 SJ 3S 3S", 2, "BJ 3D 3D", NO, "the round: stronger only"),
    (AFTER, "35/0", "0 BJ 3H | 1 SJ 3S 3S", 2, "BJ BJ", OK, "000:43 可反无主 after a suit"),
    (AFTER, "35/0", "0 BJ 3H | 1 SJ SJ", 2, "BJ BJ", OK, "000:43 其他花色不可重复: 无主 again"),
    (AFTER, "35/0", "0 BJ 3H | 1 BJ BJ", 2, "SJ SJ", NO, "000:43 the round: stronger only"),
    (AFTER3, "35/0", "0 BJ 3H | 1 SJ 3S 3S", 2, "BJ 3H 3H 3H", NO, "000:43 不可重复反 ♥"),
    (AFTER3, "35/0", "0 BJ 3H | 1 SJ 3S 3S", 2, "BJ 3D 3D 3D", OK, "3 decks: three beats two"),
    (STD_AFTER, "35/0", "1 3S", 2, "3H 3H", NO, "after_bury, standard bidding: waits too"),
    (STD_AFTER, "35/0", "1 3S |", 2, "3H 3H", OK, "after_bury, standard: a pair in the round"),
    (AFTER, "22/-", "0 BJ 2H", 1, "SJ 2S 2S", OK, "000:43 首盘反牌，须在起底牌之前反"),
]


@pytest.mark.parametrize("rules,state,bids,seat,cards,legal,why", CHECK, ids=[c[-1] for c in CHECK])
def test_auction_check(rules, state, bids, seat, cards, legal, why) -> None:
    auction = _auction(rules, state, bids)
    shown = tuple(parse_cards(cards))
    offered = [b.cards for b in auction.options(shown, seat)]
    if legal:
        assert auction.check(seat, shown).cards == shown
        assert shown in offered
    else:
        with pytest.raises(IllegalBid) as err:
            auction.check(seat, shown)
        assert str(err.value)
        assert shown not in offered


# rules, state, bids, (dealer, level rank, trump suit), why
SETTLE = [
    (JOKER, "35/0", "1 BJ 5H", (1, "5", "H"), "002:21 谁亮主谁坐庄: played at 5, not 3♥"),
    (JOKER, "35/0", "1 BJ 5H; 3 SJ 5S 5S", (1, "5", "S"), "an overcall changes only the suit"),
    (JOKER, "35/0", "1 BJ 5H; 2 SJ 3C", (0, "3", "C"), "000:47 taken back: all theirs"),
    (JOKER, "35/0", "0 BJ 3H; 1 SJ 3S 3S", (0, "3", "S"), "000:41 反主 moves the suit only"),
    (JOKER, "35/2", "", (2, "3", None), "no bid: the dealer and the level stand"),
    (STD, "22/-", "1 2S; 2 2H 2H", (1, "2", "H"), "000:35 001:75 002:27 先亮者为庄家"),
    (FINAL, "22/-", "1 2S; 2 2H 2H", (2, "2", "H"), "003:48 最终反主者为庄家"),
    (FINAL, "22/-", "1 2S", (1, "2", "S"), "003:48 没有反主先亮主者为庄家"),
    (STD, "64/3", "1 4S; 2 4H 4H", (3, "4", "H"), "standard: bids never move a known deal"),
    (AFTER, "35/0", "0 BJ 3H | 1 SJ 3S 3S", (0, "3", "S"), "000:43 the round moves the suit"),
]


@pytest.mark.parametrize("rules,state,bids,expected,why", SETTLE, ids=[c[-1] for c in SETTLE])
def test_auction_settle(rules, state, bids, expected, why) -> None:
    assert _auction(rules, state, bids).settle() == expected


# kitty, team levels, dealer, (cards turned, new dealer, trump suit), why
DRAW = [
    ("4S 7H 3D 9C KS 2H", "37", 0, ("4S 7H", 1, "H"), "000:47 抽牌对点: the attackers' 7"),
    ("4S 3D 7H 9C KS 2H", "37", 0, ("4S 3D", 0, "D"), "000:47 the dealer's 3: the dealer stays"),
    ("BJ SJ 5C 9C KS 2H", "55", 2, ("BJ SJ 5C", 2, "C"), "jokers match nothing; dealer first"),
    ("BJ SJ 5C 9C KS 2H", "59", 3, ("BJ SJ 5C", 0, "C"), "the attackers: the next seat deals"),
    ("4S 8H 6D 9C KS 2H", "37", 1, ("4S 8H 6D 9C KS 2H", None, None), "000:47 配对不成: redeal"),
]


@pytest.mark.parametrize("kitty,levels,dealer,expected,why", DRAW, ids=[c[-1] for c in DRAW])
def test_kitty_draw(kitty, levels, dealer, expected, why) -> None:
    turned, seat, suit = kitty_draw(parse_cards(kitty), (levels[0], levels[1]), dealer)
    assert (turned, seat, suit) == (tuple(parse_cards(expected[0])), expected[1], expected[2])
