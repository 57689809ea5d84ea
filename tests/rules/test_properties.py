"""Property tests over random deals (hypothesis).

The follow check is compared with a brute-force oracle that reads RULES.md
literally: a follow is legal when it has enough led-suit cards and its suit cards
meet the strongest rung of the lead's ladder that any same-size choice from the
hand could meet. The oracle lays units out by trying every subset of cards, with
no shared code beyond the card order and the ladder itself.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rules import (
    TRUMP,
    Card,
    IllegalPlay,
    RuleSet,
    Trump,
    check_follow,
    decompose,
    follow_candidates,
    format_of,
    ladder,
    order_for,
    random_follow,
    resolve_throw,
    single_winner,
    trick_winner,
)
from bot.rules.trick import play_value

RANKS = "23456789TJQKA"


def is_unit(order, cards: list[Card], shape: tuple[int, int]) -> bool:
    width, length = shape
    counts = Counter(cards)
    if len({order.suit_of[c] for c in cards}) != 1 or len(counts) != length:
        return False
    if any(n != width for n in counts.values()):
        return False
    tiers = sorted(order.tier[c] for c in counts)
    suit = order.suit_of[cards[0]]
    return all(b == a + 1 and order.linked(suit, a) for a, b in pairwise(tiers))


def meets(order, cards: list[Card], rung: tuple) -> bool:
    """Can ``cards`` be split exactly into the units of ``rung``? (every subset tried)"""
    if not rung:
        return not cards
    width, length = rung[0]
    size = width * length
    for idx in combinations(range(len(cards)), size):
        part = [cards[i] for i in idx]
        if is_unit(order, part, rung[0]):
            rest = [c for i, c in enumerate(cards) if i not in idx]
            if meets(order, rest, rung[1:]):
                return True
    return False


def oracle_legal(hand, lead, play, trump, rules) -> bool:
    order = order_for(trump, rules)
    if len(play) != len(lead) or Counter(play) - Counter(hand):
        return False
    suit = order.suit_of[lead[0]]
    in_suit = [c for c in hand if order.suit_of[c] == suit]
    played = [c for c in play if order.suit_of[c] == suit]
    n = len(lead)
    if len(played) < min(n, len(in_suit)):
        return False
    if rules.follow_shape != "strict" or len(in_suit) <= n:
        return True
    rungs = ladder(format_of(decompose(lead, trump, rules)))

    def best(cards: list[Card]) -> int:
        return min(i for i, rung in enumerate(rungs) if meets(order, cards, rung))

    target = min(best(list(sub)) for sub in set(combinations(sorted(in_suit, key=str), n)))
    return best(played) == target


@st.composite
def situations(draw, decks: int = 2):
    """A trump, a dense small deck (few ranks, two suits), a lead and a follower's hand."""
    level = draw(st.sampled_from(RANKS))
    trump_suit = draw(st.sampled_from(["S", "H", "D", None]))
    trump = Trump(level, trump_suit)
    ranks = draw(st.lists(st.sampled_from(RANKS), min_size=4, max_size=6, unique=True))
    suits = draw(st.sampled_from(["SH", "HD", "SD"]))
    pool = [Card(r, s) for r in {*ranks, level} for s in suits] * decks
    pool += [Card("S", "J"), Card("B", "J")] * decks
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    rng.shuffle(pool)
    leader, follower = pool[:9], pool[9:17]
    rules = draw(
        st.sampled_from(
            [
                RuleSet(decks=decks),
                RuleSet(decks=decks, fixed_two_trump=True),
                RuleSet(decks=decks, trump_chain_tractors=False),
            ]
        )
    )
    order = order_for(trump, rules)
    by_suit: dict[str, list[Card]] = {}
    for card in leader:
        by_suit.setdefault(order.suit_of[card], []).append(card)
    suit = draw(st.sampled_from(sorted(by_suit)))
    units = decompose(by_suit[suit], trump, rules)
    picked = draw(st.lists(st.sampled_from(range(len(units))), min_size=1, max_size=3, unique=True))
    lead = [c for i in picked for c in units[i].cards]
    return trump, rules, leader, follower, lead


@settings(deadline=None)
@given(situations())
def test_check_follow_agrees_with_the_brute_force_oracle(situation) -> None:
    trump, rules, _, hand, lead = situation
    n = len(lead)
    if n > 6:
        return
    for play in set(combinations(sorted(hand, key=str), n)):
        expected = oracle_legal(hand, lead, list(play), trump, rules)
        try:
            check_follow(hand, lead, list(play), trump, rules)
            got = True
        except IllegalPlay:
            got = False
        assert got == expected, (trump, rules, hand, lead, play)


@settings(deadline=None)
@given(situations())
def test_generators_only_propose_legal_plays(situation) -> None:
    trump, rules, _, hand, lead = situation
    candidates = follow_candidates(hand, lead, trump, rules)
    assert candidates, "there is always at least one legal follow"
    for play in candidates:
        assert not Counter(play) - Counter(hand), "a candidate uses only the hand's cards"
        check_follow(hand, lead, play, trump, rules)
    for seed in range(3):
        check_follow(
            hand, lead, random_follow(hand, lead, trump, rules, random.Random(seed)), trump, rules
        )


@settings(deadline=None)
@given(situations(), st.sampled_from(["strict", "suit_only"]))
def test_generators_cover_suit_only_and_ruffs(situation, shape: str) -> None:
    trump, rules, _, hand, lead = situation
    rules = rules.replace(follow_shape=shape)
    order = order_for(trump, rules)
    lead_suit = order.suit_of[lead[0]]
    void = [c for c in hand if order.suit_of[c] != lead_suit]
    if len(void) < len(lead):
        return
    for play in follow_candidates(void, lead, trump, rules):
        check_follow(void, lead, play, trump, rules)


@settings(deadline=None)
@given(situations())
def test_cards_are_conserved(situation) -> None:
    trump, rules, _leader, hand, lead = situation
    units = decompose(lead, trump, rules)
    assert Counter(c for u in units for c in u.cards) == Counter(lead)
    resolved = resolve_throw(lead, [hand, [], []], trump, rules)
    assert not Counter(resolved) - Counter(lead)
    assert resolved == lead or len(decompose(resolved, trump, rules)) == 1


@settings(deadline=None)
@given(situations())
def test_a_standing_throw_is_never_beaten_in_its_suit(situation) -> None:
    """If no other hand can beat a unit of the throw, no same-suit follow wins it."""
    trump, rules, _, hand, lead = situation
    if len(decompose(lead, trump, rules)) == 1 or resolve_throw(lead, [hand], trump, rules) != lead:
        return
    order = order_for(trump, rules)
    suit = order.suit_of[lead[0]]
    for play in follow_candidates(hand, lead, trump, rules):
        if {order.suit_of[c] for c in play} == {suit}:
            assert trick_winner([lead, play], trump, rules) == 0


@settings(deadline=None)
@given(situations(decks=3))
def test_three_decks_generators_and_oracle(situation) -> None:
    trump, rules, _, hand, lead = situation
    for play in follow_candidates(hand, lead, trump, rules):
        check_follow(hand, lead, play, trump, rules)
        if len(lead) <= 4:
            assert oracle_legal(hand, lead, play, trump, rules)


def test_trump_is_trump_in_the_oracle_too() -> None:
    order = order_for(Trump("T", "H"))
    assert order.suit_of[Card("T", "S")] == TRUMP


def searched_winner(plays, trump, rules) -> int:
    """``trick_winner`` spelled out with the layout search for every play."""
    order = order_for(trump, rules)
    fmt = format_of(decompose(plays[0], trump, rules))
    led = order.suit_of[plays[0][0]]
    best, best_trump, best_value = 0, led == TRUMP, play_value(order, plays[0], fmt)
    for i, play in enumerate(plays[1:], 1):
        suits = {order.suit_of[c] for c in play}
        value = play_value(order, play, fmt)
        if value is None or suits - {led, TRUMP} or len(suits) != 1:
            continue
        is_trump = suits == {TRUMP}
        if (is_trump and not best_trump) or (is_trump == best_trump and value > best_value):
            best, best_trump, best_value = i, is_trump, value
    return best


@settings(deadline=None)
@given(situations(decks=3), st.sampled_from([2, 3]), st.integers(0, 2**32 - 1))
def test_a_led_pair_or_triple_wins_as_the_search_finds(situation, width: int, seed: int) -> None:
    """A trick led by identical cards is judged without the search, with the same answer."""
    trump, rules, leader, hand, _ = situation
    held = [c for c, n in Counter(leader).items() if n >= width]
    if not held:
        return
    rng = random.Random(seed)
    lead = [rng.choice(held)] * width
    pool = hand + [c for c, n in Counter(hand).items() for _ in range(n)]  # pairs and triples
    plays = [lead, *(rng.sample(pool, width) for _ in range(3))]
    assert trick_winner(plays, trump, rules) == searched_winner(plays, trump, rules), plays


@settings(deadline=None)
@given(situations(decks=3), st.integers(0, 2**32 - 1))
def test_a_trick_of_singles_is_won_as_the_search_finds(situation, seed: int) -> None:
    """The singles' table (``Order.single_power``) names the winner the search names,
    equal cards included (the first played keeps the trick)."""
    trump, rules, leader, hand, _ = situation
    rng = random.Random(seed)
    pool = leader + hand
    plays = [[rng.choice(leader)], *([rng.choice(pool)] for _ in range(3))]
    winner = searched_winner(plays, trump, rules)
    assert trick_winner(plays, trump, rules) == winner, plays
    assert single_winner(order_for(trump, rules), [p[0] for p in plays]) == winner, plays
