"""``suggest``: the heuristic's move for hints, timeouts and 托管."""

from __future__ import annotations

import pytest

from bot.ai import is_legal, suggest, suggest_bid
from bot.game import SYSTEM, Bury, Deal, EndBidding, Match, Phase, Play


def test_timeouts_play_the_suggested_move() -> None:
    match = Match.new(8)
    match.apply(SYSTEM, Deal(4 * match.rules.hand_size))
    match.apply(SYSTEM, EndBidding())
    assert match.phase == Phase.KITTY
    dealer = match.dealer
    assert dealer is not None
    expected = suggest(match.view(dealer))
    assert isinstance(expected, Bury)
    events = match.timeout(dealer, suggest)
    assert events[0].auto is True
    assert sorted(map(str, match.kitty)) == sorted(map(str, expected.cards))
    while match.phase == Phase.PLAY:
        _, seat = match.expecting()
        view = match.view(seat)
        move = suggest(view)
        assert isinstance(move, Play) and is_legal(view, move)
        match.timeout(seat, suggest)
    assert match.result is not None


def test_suggest_refuses_when_there_is_nothing_to_do() -> None:
    match = Match.new(8)
    with pytest.raises(ValueError, match="nothing to suggest"):
        suggest(match.view(1))
    assert suggest_bid(match.view(1)) is None  # nothing dealt yet, nothing to bid
