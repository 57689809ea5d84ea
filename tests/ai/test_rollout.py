"""The expert's rollout engine: on the real hands, its play-out is a legal hand that the
engine scores exactly as the rollout does (the fast policy cuts corners, not rules)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai import playout, rollout
from bot.ai.context import Context
from bot.ai.heuristic import ranked_candidates as heuristic_ranked
from bot.ai.world import GROUP, GROUPS, Ids, World, pair_options
from bot.game import Match, Play
from bot.rules import DEFAULT_RULES, Card, Trump, format_cards, order_for, parse_cards, points

from .test_view_only import _checkpoint


def _lead_checkpoint(seed: int, plays: int) -> Match:
    """The first lead at or after ``plays`` plays of a heuristic hand."""
    while True:
        match = _checkpoint(seed, plays)
        assert match.result is None, "the hand ended: pick an earlier checkpoint"
        if not match.trick:
            return match
        plays += 1


@pytest.mark.parametrize(("seed", "plays"), [(1, 1), (2, 13), (3, 30), (4, 45), (5, 52), (6, 60)])
def test_a_play_out_on_the_real_hands_is_legal_and_scored_like_the_engine(
    monkeypatch: pytest.MonkeyPatch, seed: int, plays: int
) -> None:
    match = _lead_checkpoint(seed, plays)
    _, seat = match.expecting()
    assert seat is not None and match.trump is not None
    view = match.view(seat)
    attackers = [view.is_attacker(s) for s in range(4)]
    world = World(Context(view).order, match.hands, attackers)
    played: list[tuple[int, tuple[Card, ...]]] = []
    for name in ("lead", "follow"):
        real = getattr(rollout, name)

        def recorded(w: World, who: int, *args: object, _real=real) -> Ids:
            cards: Ids = _real(w, who, *args)
            played.append((who, w.cards_of(cards)))
            return cards

        monkeypatch.setattr(rollout, name, recorded)
    before = match.attackers_points
    gained = rollout.play_from(world, seat, match.trump, match.rules, float(points(match.kitty)))
    for who, cards in played:  # Match.apply raises on an illegal play
        match.apply(who, Play(cards))
    assert match.result is not None
    assert match.result.attacker_points == before + gained


@pytest.mark.parametrize(("keep", "shed"), [(True, "7S"), (False, "3S")])
def test_a_seat_shedding_a_card_keeps_its_pairs(
    monkeypatch: pytest.MonkeyPatch, keep: bool, shed: str
) -> None:
    """Under an ace it cannot beat, a seat holding 3S 3S 7S sheds the 7 and keeps the pair
    (as the heuristic does); without the rule the play-outs broke pairs for one tier."""
    monkeypatch.setattr(rollout, "KEEP_PAIRS", keep)
    order = order_for(Trump("2", "H"), DEFAULT_RULES)
    hands = [parse_cards(h) for h in ("AS 4C", "3S 3S 7S", "5C 6C 8C", "9C TC JC")]
    world = World(order, hands, [False, True, False, True])
    trick = [(0, (Card("A", "S"),))]
    assert _follow(world, trick) == (Card(shed[0], shed[1]),)


def _world(hands: str, attackers: tuple[bool, ...] = (False, True, False, True)) -> World:
    order = order_for(Trump("2", "H"), DEFAULT_RULES)
    return World(order, [parse_cards(h) for h in hands.split(" | ")], attackers)


def _lead(world: World, seat: int) -> tuple[Card, ...]:
    return world.cards_of(rollout.lead(world, seat))


def _follow(world: World, trick: list[tuple[int, tuple[Card, ...]]]) -> tuple[Card, ...]:
    """Seat 1's follow to ``trick`` (nothing on the table but the lead's points: none)."""
    plays = [(seat, world.ids(cards)) for seat, cards in trick]
    win = rollout._winner(world, plays, plays[0][1][0] // GROUP)
    return world.cards_of(rollout.follow(world, 1, plays, 0, win))


def test_a_leader_holds_its_trumps_while_a_side_suit_lasts() -> None:
    """The jokers' pair nobody beats is kept while a side card is left (the heuristic
    leads trumps rarely; cashing them first made the play-outs draw trumps each hand),
    and cashed once only trumps are left."""
    hands = "BJ BJ 4C | 5C 6C 8C | 9C TC JC | QC KC AC"
    assert _lead(_world(hands), 0) == (Card("4", "C"),)
    hands = "BJ BJ 3H | 5C 6C 8C | 9C TC JC | QC KC AC"
    assert _lead(_world(hands), 0) == (Card("B", "J"), Card("B", "J"))


def test_a_leader_without_a_sure_winner_leads_a_low_side_pair() -> None:
    """With nothing safe to cash and no suit the partner wins, a low pair of a side
    suit goes before a lower single, as the heuristic leads."""
    hands = "3S 3S 4C 9D | AS AS KC AD | 5H 6H 7H 8H | KS AC KD QD"
    assert _lead(_world(hands), 0) == (Card("3", "S"), Card("3", "S"))


@pytest.mark.parametrize(("hand", "play"), [("3H 5H 6S", "5H"), ("3H 6S", "6S")])
def test_a_void_seat_ruffs_an_empty_trick_only_with_a_point_trump(hand: str, play: str) -> None:
    """Void under an opponent's low lead that carries no points, a seat ruffs with a
    trump that adds its own points when nobody can over-ruff (the heuristic banks the
    5 so), and does not spend a plain trump on an empty trick."""
    world = _world(f"4C 7C | {hand} | 8C 9C | TC JC")
    trick = [(0, (Card("4", "C"),))]
    assert _follow(world, trick) == (Card(play[0], play[1]),)


def test_a_seat_under_an_opponents_pair_sheds_its_cheapest_two_cards() -> None:
    """8 and J go under an opponent's queens, not the 8 and the ten (the lowest two by
    rank): the heuristic keeps its points off the other side's trick."""
    world = _world("QC QC 3D 4D | 8C TC JC KC | 5S 6S 7S 8S | 9S TS JS QS")
    trick = [(0, (Card("Q", "C"), Card("Q", "C")))]
    assert set(_follow(world, trick)) == set(parse_cards("8C JC"))


def test_pair_options_come_in_their_order_not_by_memory_address() -> None:
    """The cheapest two first, then the two to feed (and the top two): ties among them are
    broken in that order. Cards hash by identity, so a set ordered them by address and the
    same seed decided differently from one process to the next (reviews must reproduce)."""
    deck = parse_cards("3S 5S 7S 9S JS KS 4S 6S 8S TS QS AS")
    rng = random.Random(5)
    for _ in range(40):
        spades = rng.sample(deck, 5)  # no pair: five different spades
        world = _world(" | ".join(["4C", format_cards(spades), "5C", "6C"]))
        by = world.hands[1]
        spades = GROUPS.index("S")
        low = sorted(by[spades], key=world.cheap.__getitem__)
        options = pair_options(world, by, spades)
        assert options[0] == (low[0], low[1])
        assert len(options) == len(set(options))


def test_a_hand_that_is_one_tractor_is_led_whole_as_the_last_trick() -> None:
    """An attacker left with KH KH AH AH (hearts trumps, 2 the level) leads them as one
    tractor, the last trick: the others play out their hands, and the kitty's 15 points
    count 16 times (a 2-pair tractor under ``power``), not 4 times for a pair. Led pair by
    pair, the play-outs never saw the 64-fold kitty of a 3-pair tractor (one arena deal:
    -1,025 points for the dealer's side)."""
    world = _world("3C 4C 5C 6C | KH KH AH AH | 7C 8C 9C TC | JC QC 3D 4D")
    assert _lead(world, 1) == tuple(parse_cards("KH KH AH AH"))
    gained = rollout.play_from(world, 1, Trump("2", "H"), DEFAULT_RULES, 15.0)
    assert gained == 5 + 20 + 10 + 15 * 16  # the 5C, the kings, the TC; the kitty
    # two pairs that are no tractor: a pair is led, as before
    assert _lead(_world("3C 4C 5C 6C | KH KH 3H 3H | 7C 8C 9C TC | JC QC 3D 4D"), 1) in (
        tuple(parse_cards("KH KH")),
        tuple(parse_cards("3H 3H")),
    )


@pytest.mark.parametrize(
    ("seed", "plays"),
    [(1, 1), (2, 14), (3, 31), (4, 40), (6, 57), (6, 60), (8, 60), (10, 61)],
)
def test_play_outs_with_the_heuristics_leads_are_legal_scored_like_the_engine(
    monkeypatch: pytest.MonkeyPatch, seed: int, plays: int
) -> None:
    """The leads the heuristic makes in a play-out (``playout._play_on``) are its own from
    the leader's view of the (here real) deal, and the hand is scored as the engine does
    (the expert's knobs, off by default, set: two leads early in a hand, one late)."""
    monkeypatch.setattr(playout, "LEADS_EARLY", 2)
    monkeypatch.setattr(playout, "LEADS_LATE", 1)
    match = _checkpoint(seed, plays)
    _, seat = match.expecting()
    assert seat is not None and match.trump is not None
    ctx = Context(match.view(seat))
    assert playout.heuristic_leads(ctx.left) > 0
    played: list[tuple[int, tuple[Card, ...]]] = []
    real_take = World.take

    def take(w: World, who: int, cards: Ids) -> None:
        played.append((who, w.cards_of(cards)))
        real_take(w, who, cards)

    led: list[tuple[int, tuple[Card, ...]]] = []
    real_lead = playout._lead_for

    def lead_for(*args: Any) -> tuple[Card, ...]:
        cards = real_lead(*args)
        led.append((args[2], cards))
        return cards

    monkeypatch.setattr(World, "take", take)
    monkeypatch.setattr(playout, "_lead_for", lead_for)
    cand = heuristic_ranked(ctx)[0]
    hands = [list(h) for h in match.hands]
    before = match.attackers_points
    gained = playout.play_candidate(ctx, hands, float(points(match.kitty)), cand)
    assert led
    for who, cards in played:  # Match.apply raises on an illegal play
        if led and (who, cards) == led[0] and not match.trick:
            led.pop(0)
            if who != match.dealer or seat == match.dealer:  # (a kitty the seat knows)
                assert heuristic_ranked(Context(match.view(who)))[0] == cards
        match.apply(who, Play(cards))
    assert not led
    assert match.result is not None
    assert match.result.attacker_points == before + gained
