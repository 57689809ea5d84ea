"""One legality check from a seat's view: the same verdict as the match, errors not asserts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.game import (
    SYSTEM,
    Bury,
    Deal,
    Declare,
    EndBidding,
    GameError,
    Match,
    NotYourTurn,
    Play,
    check_action,
    fallback_action,
    is_legal,
    play_options,
)
from bot.rules import IllegalPlay, RulesError

from .helpers import to_play

ROOT = Path(__file__).resolve().parents[2]


def test_the_view_and_the_match_agree_on_every_offered_play() -> None:
    match = to_play(Match.new(31))
    for _ in range(40):  # ten tricks: leads and follows
        seat = match.to_act
        assert seat is not None
        view = match.view(seat)
        options = play_options(view, limit=12)
        assert options and len(options) <= 12 and len(set(options)) == len(options)
        for cards in options:
            assert is_legal(view, Play(cards))
        assert play_options(match.view((seat + 1) % 4)) == []  # not their turn
        match.apply(seat, Play(options[-1]))


def test_wrong_kind_wrong_seat_and_bad_cards_are_rules_errors() -> None:
    match = Match.new(32)
    match.apply(SYSTEM, Deal(100))
    view = match.view(0)
    with pytest.raises(GameError):
        check_action(view, Play(view.hand[:1]))  # playing during the deal
    match.apply(SYSTEM, EndBidding())
    dealer = match.dealer
    assert dealer is not None
    other = (dealer + 1) % 4
    with pytest.raises(NotYourTurn):
        check_action(match.view(other), Bury(match.view(other).hand[:8]))
    view = match.view(dealer)
    with pytest.raises(IllegalPlay, match="Bury exactly 8"):
        check_action(view, Bury(view.hand[:7]))
    with pytest.raises(GameError):
        check_action(view, Declare(view.hand[:1]))
    check_action(view, fallback_action(view))
    with pytest.raises(GameError):
        check_action(match.view(None), fallback_action(view))  # a spectator


def test_the_check_holds_under_python_dash_o() -> None:
    """``assert`` would vanish with -O; the legality check must not."""
    code = (
        "from bot.game import Match, Play, SYSTEM, Deal, check_action\n"
        "m = Match.new(1); m.apply(SYSTEM, Deal(100)); v = m.view(0)\n"
        "try:\n    check_action(v, Play(v.hand[:1]))\nexcept ValueError:\n    print('refused')\n"
    )
    done = subprocess.run(
        [sys.executable, "-O", "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == "refused"
    assert issubclass(GameError, RulesError)
