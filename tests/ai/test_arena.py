"""Duplicate-deal arena and the table driver."""

from __future__ import annotations

import pytest

from bot.ai import make_player, play_hand
from bot.ai.arena import arena, play_deal, summarize
from bot.ai.soak import run_soak
from bot.game import Match, Phase
from bot.rules import RuleSet


@pytest.mark.parametrize("kind", ["ai", "greedy", "random"])
def test_a_player_against_itself_scores_exactly_zero(kind: str) -> None:
    outcomes = arena(kind, kind, 3, seed=5)
    assert all(o.point_diff == 0 and o.level_diff == 0 for o in outcomes)


def test_duplicate_runs_use_the_same_cards_with_sides_swapped() -> None:
    outcome = play_deal("ai", "random", seed=2, index=0)
    assert outcome.point_diff == outcome.a_attacking - outcome.b_attacking
    assert -10 <= outcome.level_diff <= 10


def test_heuristic_beats_random_clearly() -> None:
    outcomes = arena("ai", "random", 12, seed=3)
    assert summarize([o.point_diff for o in outcomes]).low > 0


def test_summary_interval() -> None:
    s = summarize([1.0, 3.0] * 20)
    assert s.mean == 2.0 and 0 < s.half_width < 1 and s.low < 2 < s.high


def test_play_hand_reports_time_and_plays() -> None:
    match = Match.new(4, RuleSet(decks=1))
    stats = play_hand(match, [make_player("greedy") for _ in range(4)])
    assert match.phase == Phase.SCORED
    assert stats.plays == 1 + sum(len(t.plays) for t in match.tricks)
    assert stats.play_seconds > 0 and stats.deal_seconds > 0


def test_unknown_player_kind() -> None:
    with pytest.raises(ValueError, match="unknown player"):
        make_player("grandmaster")


@pytest.mark.slow
def test_soak_keeps_every_invariant() -> None:
    report = run_soak(1500, seed=3)
    assert report.ok, report.failures[:10]
