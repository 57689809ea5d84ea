"""The expert: always legal, decides from the view alone, searches within its time."""

from __future__ import annotations

import random
import time

import pytest

from bot.ai import ExpertPlayer, HeuristicPlayer, check_action, make_player, play_hand
from bot.ai.evaluate import Context
from bot.ai.expert import Sampler, pick, ranked_candidates, search
from bot.ai.soak import VARIANTS
from bot.game import Match, Play
from bot.rules import RuleSet

from .test_view_only import _checkpoint, _reshuffled


@pytest.mark.parametrize(
    "variant", VARIANTS, ids=lambda v: ",".join(map(str, v.values())) or "default"
)
def test_expert_is_legal_under_every_variant(variant: dict) -> None:
    """Searching experts (two samples a decision) with a heuristic and a random player."""
    rules = RuleSet().replace(**variant)
    players = [
        ExpertPlayer(10_000, worlds=2, strict=True),
        make_player("random", seed=1),
        ExpertPlayer(10_000, worlds=2, strict=True),
        HeuristicPlayer(strict=True),
    ]
    match = Match.new(17, rules)
    plays = 0

    def recheck(m: Match, seat: int, action: object) -> None:
        nonlocal plays
        check_action(m.view(seat), action)  # type: ignore[arg-type]
        plays += isinstance(action, Play)

    stats = play_hand(match, players, on_action=recheck)
    assert stats.result is not None and plays >= rules.hand_size * 4 // 2


@pytest.mark.parametrize(("seed", "stop_after"), [(2, 1), (4, 36), (5, 62), (6, 81)])
def test_expert_decides_from_the_view_alone(seed: int, stop_after: int) -> None:
    match = _checkpoint(seed, stop_after)
    _, seat = match.expecting()
    assert seat is not None and seat >= 0
    view = match.view(seat)
    expert = ExpertPlayer(60_000, worlds=12)
    decision = expert.act(view)
    rng = random.Random(seed)
    for _ in range(2):
        other = _reshuffled(match, seat, rng)
        assert other.hands != match.hands
        assert other.view(seat) == view
        assert expert.act(other.view(seat)) == decision


def test_samples_agree_with_what_the_seat_knows() -> None:
    match = _checkpoint(4, 36)
    _, seat = match.expecting()
    view = match.view(seat)
    ctx = Context(view)
    sampler = Sampler(ctx)
    rng = random.Random(1)
    for _ in range(20):
        world = sampler.sample(rng)
        assert world is not None
        hands, _kitty = world
        assert sorted(map(str, hands[seat])) == sorted(map(str, view.hand))
        for s in range(4):
            assert len(hands[s]) == view.hand_sizes[s]
            # a seat known void in a suit never gets a card of it
            suits = {ctx.order.suit_of[c] for c in hands[s]}
            assert not suits & ctx.mem.void[s] or s == seat
        dealt = sorted(str(c) for s in range(4) if s != seat for c in hands[s])
        unseen = sorted(str(c) for c, k in ctx.mem.unseen.items() for _ in range(k))
        assert set(dealt) <= set(unseen)


def test_the_heuristics_choice_stands_unless_clearly_beaten() -> None:
    assert pick([[1.0, 2.0, 3.0], [1.5, 2.5, 3.4]]) == 1  # better on every sample
    assert pick([[1.0, 2.0, 3.0], [9.0, -5.0, 3.5]]) == 0  # better on average, not clearly
    assert pick([[0.0] * 5, [0.0] * 5]) == 0


def test_search_stops_at_its_deadline_and_without_samples_defers() -> None:
    match = _checkpoint(1, 4)
    _, seat = match.expecting()
    ctx = Context(match.view(seat))
    ranked = ranked_candidates(ctx)
    assert search(ctx, ranked[:4], time.perf_counter()) is None  # no time: the heuristic
    start = time.perf_counter()
    values = search(ctx, ranked[:4], start + 0.2)
    assert values is not None and len(values) == len(ranked[:4])
    assert time.perf_counter() - start < 0.2 + 0.05


def test_expert_without_time_plays_like_the_heuristic() -> None:
    for seed, stop in [(2, 1), (4, 36), (5, 62)]:
        match = _checkpoint(seed, stop)
        _, seat = match.expecting()
        view = match.view(seat)
        assert ExpertPlayer(0).act(view) == HeuristicPlayer().act(view)
