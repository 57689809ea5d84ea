"""The heuristic's decisions, pinned: its speed work must not change a single one.

Four heuristic players play seeded hands under several rule sets; every action
(bids, burials, overcalls, plays) is hashed and compared with digests taken on
main at 79487af, before the decisions were made cheaper (kept card memory, cached
probabilities, the endgame's short path for single-card tricks). A change meant
to alter the heuristic's play updates these digests in the same commit, and says
so; a change meant to be faster only must leave them alone.

The standard preset's 24 hands run with ``-m slow``; the default run plays their first
six (the same log up to there, so the same digest as at 79487af) and every other preset.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from bot.ai import deals, endgame, make_player, play_hand
from bot.ai.context import Context
from bot.game import SYSTEM, Action, Match, NextHand, Phase
from bot.presets import presets
from bot.rules import Card, RuleSet, Trump, deck, format_cards, parse_cards, trick_winner

from .helpers import make_view

# (preset, seed, hands) -> sha256 of the action log, taken on main at 79487af (the six
# standard hands at d0da553, where the 24 still gave 79487af's digest: the first six of them)
DIGESTS = {
    ("standard", 5, 6): "e5961acbaaec6b0ca6ee89188d316361d48f7a5288606a7a39799885c363cd15",
    ("standard", 5, 24): "adacf3ab2f1c63bf88dab74327e47c0f7c006d8c1b9ba548dcfee83a0d7d795d",
    ("tournament", 11, 6): "d7cc230732ce111368cfb0a2de98092b34db24246e12451b7f1dca4c12ddba4f",
    ("casual", 12, 6): "7e9491389cf17fe800bc7558629971d77f697bc7d30c1b389f0d24452acf970b",
    ("two_is_trump", 13, 6): "3c8bb741ed292ed36c49e65df75c7ae923c4cf89819eb99d44f57b45d8326d60",
    ("three_decks", 14, 4): "3ce2c9ecf7b040323cb0dd2d9c789d6871bcfe7b4bc4ef982139045b23664c1c",
    ("one_deck", 15, 8): "3458df2f8845ed1d3291047a6c5575d4bd3553ba0a291bcacff42d0f6bb91aaf",
}


def action_digest(rules: RuleSet, seed: int, hands: int) -> str:
    """sha256 of every player action and hand result of ``hands`` heuristic hands."""
    digest = hashlib.sha256()
    players = [make_player("normal") for _ in range(4)]

    def record(match: Match, seat: int, action: Action) -> None:
        cards = getattr(action, "cards", None)
        shown = format_cards(cards) if cards is not None else ""
        digest.update(f"{seat} {type(action).__name__} {shown}\n".encode())

    match = Match.new(seed, rules)
    started = 1
    for _ in range(hands):
        play_hand(match, players, on_action=record)
        result = match.result
        assert result is not None
        digest.update(f"{result.attacker_points} {result.winner}\n".encode())
        if match.phase is Phase.OVER:
            match = Match.new(seed + started, rules)
            started += 1
        else:
            match.apply(SYSTEM, NextHand())
    return digest.hexdigest()


@pytest.mark.parametrize(
    ("name", "seed", "hands"),
    [
        pytest.param(*key, marks=pytest.mark.slow if key == ("standard", 5, 24) else ())
        for key in DIGESTS
    ],
)
def test_heuristic_decisions_unchanged(name: str, seed: int, hands: int) -> None:
    assert action_digest(presets()[name][0], seed, hands) == DIGESTS[(name, seed, hands)]


@pytest.mark.parametrize("trump", [Trump("2", "H"), Trump("2", None)])
def test_single_card_tricks_end_as_the_general_policy_ends_them(trump: Trump) -> None:
    """The endgame's short path for a trick led by a single card plays the same cards
    as its general policy (``endgame._policy``), on many random last-three-card deals."""
    ctx = Context(make_view(0, "3S", trump=trump))
    rng = random.Random(3)
    for _ in range(400):
        cards = deck(2)
        rng.shuffle(cards)
        size = rng.randint(1, 3)
        hands = [cards[i * size : (i + 1) * size] for i in range(4)]
        attackers = set(rng.sample(range(4), 2))
        leader = rng.randrange(4)
        lead = (rng.choice(hands[leader]),)
        general = [list(h) for h in hands]
        general[leader].remove(lead[0])
        trick: endgame.Plays = [(leader, lead)]
        while len(trick) < 4:
            seat = (leader + len(trick)) % 4
            chosen = endgame._policy(ctx, general, trick, seat, attackers)
            general[seat].remove(chosen[0])
            trick.append((seat, chosen))
        short = [list(h) for h in hands]
        short[leader].remove(lead[0])
        fast: endgame.Plays = [(leader, lead)]
        winner = endgame._finish_single(ctx, short, fast, attackers, endgame._keys(ctx.order))
        assert fast == trick
        assert winner == trick[trick_winner([c for _, c in trick], trump, ctx.rules)][0]


@pytest.mark.parametrize("trump", [Trump("2", "H"), Trump("2", None)])
def test_last_trick_scores_as_the_general_policy_plays_it(trump: Trump) -> None:
    """The play-outs' last trick (one card a hand, nobody has a choice) is scored as
    ``_lead`` and ``_policy`` would play it: the winner's side takes its points and
    the kitty at the lead's multiplier."""
    ctx = Context(make_view(0, "3S", trump=trump))
    rng = random.Random(5)
    for _ in range(300):
        cards = deck(2)
        rng.shuffle(cards)
        hands = [[c] for c in cards[:4]]
        attackers = set(rng.sample(range(4), 2))
        leader = rng.randrange(4)
        kitty = float(rng.choice((0, 5, 25)))
        lead = endgame._lead(ctx, [list(h) for h in hands], leader, attackers)
        trick: endgame.Plays = [(leader, lead)]
        general = [list(h) for h in hands]
        general[leader].remove(lead[0])
        while len(trick) < 4:
            seat = (leader + len(trick)) % 4
            chosen = endgame._policy(ctx, general, trick, seat, attackers)
            general[seat].remove(chosen[0])
            trick.append((seat, chosen))
        plays = [c for _, c in trick]
        winner = trick[trick_winner(plays, trump, ctx.rules)][0]
        expected = 0.0
        if winner in attackers:
            expected = sum(c.points for p in plays for c in p) + kitty * ctx.multiplier(lead)
        for mine in (True, False):
            value = endgame._last_trick(ctx, hands, leader, kitty, attackers, 0.0, mine)
            assert value == (expected if mine else -expected)


def test_a_world_without_points_is_not_played_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no hand, trick or kitty holds a point, every candidate is worth nothing:
    the endgame counts such a world without playing it out (and keeps the heuristic's
    favourite); a world with one point card left is played out."""
    ctx = Context(make_view(0, "3S 4S 6S"))
    ranked = [tuple(parse_cards("3S")), tuple(parse_cards("4S"))]
    world: list[list[str]] = [["3S", "4S", "6S"], ["7S", "8S", "9S"], ["3D", "4D", "6D"]]
    played: list[tuple[Card, ...]] = []
    real_rollout = endgame._rollout

    def sample(*_: object) -> tuple[list[list[Card]], float]:
        return [parse_cards(" ".join(h)) for h in [*world, ["7D", "8D", "9D"]]], 0.0

    def rollout(*args: Any) -> float:
        played.append(args[3])
        return real_rollout(*args)

    monkeypatch.setattr(endgame, "sample", sample)
    monkeypatch.setattr(endgame, "_rollout", rollout)
    assert endgame.choose(ctx, ranked) == ranked[0]
    assert played == []
    world[2] = ["5D", "4D", "6D"]
    endgame.choose(ctx, ranked)
    assert len(played) == endgame.WORLDS * len(ranked)


def test_the_endgame_shuffles_as_random_shuffles() -> None:
    """The endgame's inlined shuffle draws what ``random.shuffle`` draws, so a seeded
    decision samples the same worlds."""
    for seed in range(200):
        cards = deck(2)[: seed % 60]
        ours, theirs = random.Random(seed), random.Random(seed)
        mine, reference = list(cards), list(cards)
        for _ in range(3):
            deals.shuffle(ours, mine)
            theirs.shuffle(reference)
            assert mine == reference
        assert ours.random() == theirs.random()
