"""Computer players never make an illegal move, under every rule variant."""

from __future__ import annotations

import pytest

from bot.ai import HeuristicPlayer, check_action, make_player, play_hand
from bot.ai.soak import LINEUPS, VARIANTS, run_soak
from bot.game import SYSTEM, Match, NextHand, Phase, Play, is_legal
from bot.rules import RulesError, RuleSet, deck, parse_cards

from .helpers import make_view


@pytest.mark.parametrize(
    ("hands_per_match", "matches_per_variant", "plays"),
    [(2, 1, 1300), pytest.param(4, 3, 5000, marks=pytest.mark.slow)],
)
def test_every_player_is_legal_under_every_variant(
    hands_per_match: int, matches_per_variant: int, plays: int
) -> None:
    """Every variant and every line-up plays; all actions re-checked.

    The default run plays one two-hand match a variant (the line-ups rotate through the
    variants, so each line-up still plays: asserted below); ``-m slow`` plays three
    matches of four hands a variant.
    """
    hands = hands_per_match * len(VARIANTS) * matches_per_variant
    report = run_soak(hands, seed=11, hands_per_match=hands_per_match)
    assert report.ok, report.failures[:5]
    assert report.hands == hands
    assert report.plays > plays
    variants = {variant for _, variant in report.configs}
    assert len(variants) == len(VARIANTS)
    lineups = {lineup for lineup, _ in report.configs}
    assert len(lineups) == len(LINEUPS)
    # the seed-000 paths are played, not only allowed (issue 12: counted in the soak)
    assert report.paths["overcall rounds"] > 0 and report.paths["kitty draws"] > 0


@pytest.mark.parametrize("decks", [1, 3])
def test_heuristic_alone_with_one_and_three_decks(decks: int) -> None:
    rules = RuleSet(decks=decks)
    players = [make_player("ai", strict=True) for _ in range(4)]
    match = Match.new(decks * 7, rules)
    for _ in range(3):
        stats = play_hand(match, players, on_action=_recheck)
        # every card was played once or buried, and the score reads the tricks
        played = [c for t in match.tricks for _, cards in t.plays for c in cards]
        assert sorted(map(str, played + list(stats.result.kitty))) == sorted(map(str, deck(decks)))
        won = sum(t.points for t in match.tricks if match.view(None).is_attacker(t.winner))
        penalties = sum(
            p if s % 2 == stats.result.dealer % 2 else -p for s, p in stats.result.failed_throws
        )
        assert stats.result.trick_points == won + penalties
        if match.phase is Phase.OVER:
            break
        match.apply(SYSTEM, NextHand())


def _recheck(match: Match, seat: int, action: object) -> None:
    check_action(match.view(seat), action)  # type: ignore[arg-type]


def test_strict_mode_raises_where_the_default_falls_back(monkeypatch) -> None:
    """An illegal proposal (here a card the seat does not hold) raises in strict mode, as
    the tests run the heuristic; at a table the safety net plays a legal card instead."""
    view = make_view(1, "3S 4S 9D", trick_so_far=["5S"])
    monkeypatch.setattr("bot.ai.heuristic.play_for", lambda ctx: parse_cards("AS"))
    with pytest.raises(RulesError):
        HeuristicPlayer(strict=True).act(view)
    fallback = HeuristicPlayer().act(view)
    assert isinstance(fallback, Play) and is_legal(view, fallback)
    assert set(fallback.cards) <= {*parse_cards("3S 4S")}  # it follows suit
