"""Card memory: unseen cards, voids, known cards, boss tests, from the view only."""

from __future__ import annotations

from bot.ai import Memory
from bot.rules import RuleSet, Trump, parse_cards

from .helpers import make_view, trick

HEARTS = Trump("2", "H")


def card(text: str):
    return parse_cards(text)[0]


def test_unseen_is_everything_but_my_hand_and_the_played_cards() -> None:
    history = [trick(0, ["AS", "3S", "4S", "5S"], HEARTS)]
    view = make_view(1, "AS KS 3D", leader=1, tricks=history)
    mem = Memory(view)
    assert mem.unseen[card("AS")] == 0  # one played, one mine
    assert mem.unseen[card("3S")] == 1
    assert mem.unseen[card("KS")] == 1
    assert mem.unseen_total == 108 - 3 - 4


def test_the_dealer_remembers_the_kitty() -> None:
    view = make_view(0, "3D 4D", leader=0, kitty="KC KC 5C 5C 3S 3S 4S 4S")
    mem = Memory(view)
    assert mem.unseen[card("KC")] == 0
    assert not mem.kitty_hidden
    other = Memory(make_view(1, "3D 4D", leader=1))
    assert other.kitty_hidden and other.unseen[card("KC")] == 2


def test_a_player_who_did_not_follow_is_void() -> None:
    history = [trick(0, ["AS", "3S", "4D", "5S"], HEARTS)]
    mem = Memory(make_view(1, "KS 3D", leader=1, tricks=history))
    assert "S" in mem.void[2]
    assert mem.p_void(2, "S") == 1.0
    assert mem.p_holds(2, "S", (1, 1), -1) == 0.0
    assert 0.0 < mem.p_void(3, "S") < 1.0


def test_no_pairs_after_failing_to_follow_a_pair() -> None:
    history = [trick(0, ["7S 7S", "3S 4S", "9S 8S", "5S 6S"], HEARTS)]
    mem = Memory(make_view(1, "KS 3D", leader=1, tricks=history))
    assert "S" in mem.no_pairs[2] and "S" in mem.no_pairs[3]
    assert mem.p_holds(2, "S", (2, 1), -1) == 0.0


def test_boss_test_counts_seen_cards() -> None:
    # QQ is boss once one A and one K are out of the unseen cards (RULES: two decks)
    history = [trick(0, ["AS", "KS", "3S", "4S"], HEARTS)]
    mem = Memory(make_view(1, "QS QS 3D", leader=1, tricks=history))
    assert mem.is_boss(parse_cards("QS QS"))
    assert not mem.is_boss(parse_cards("QS"))
    fresh = Memory(make_view(1, "QS QS 3D", leader=1))
    assert not fresh.is_boss(parse_cards("QS QS"))


def test_failed_throws_and_bids_reveal_cards() -> None:
    failed = trick(2, ["3C", "4C", "5C", "6C"], HEARTS)._replace(
        attempted=tuple(parse_cards("3C AC AC"))
    )
    mem = Memory(make_view(1, "KS 3D", leader=1, tricks=[failed]))
    assert mem.known[2].get(card("AC")) == 2
    assert mem.p_void(2, "C") == 0.0


def test_one_and_three_decks() -> None:
    for decks in (1, 3):
        rules = RuleSet(decks=decks)
        mem = Memory(make_view(1, "KS 3D", leader=1, rules=rules))
        assert mem.unseen[card("KS")] == decks - 1
        assert mem.unseen_total == 54 * decks - 2


def test_unseen_copies_above_a_tier_are_counted_per_suit() -> None:
    """``count_above`` (kept per suit as a table by tier) counts what is unseen above
    any tier, the lowest and past the highest included."""
    history = [
        trick(0, ["AS", "3S", "4S", "5S"], HEARTS),
        trick(0, ["BJ", "2H", "KH", "3C"], HEARTS),
    ]
    mem = Memory(make_view(1, "AS KS 3D 2H 2S SJ", leader=1, tricks=history))
    order = mem.order
    for suit, cards in mem.by_suit.items():
        for above in range(-2, 20):
            expected = sum(k for c, k in cards.items() if order.tier[c] > above)
            assert mem.count_above(suit, above) == expected
    assert mem.count_above("S", -1) == mem.suit_count["S"] > 0
    assert mem.higher_unseen(card("AS")) == 0
