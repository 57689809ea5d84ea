"""``MatchState.view`` keeps what stays the same through a deal or a play phase (the
hot path of every computer seat): its views equal those of a fresh copy of the match,
restored from its snapshot with nothing kept, at every step of real hands.

The default run plays the tournament preset (the standard rules with the jokers' bids,
the overcall round and the kitty draw) and one deck; the standard preset's own hands
run with ``-m slow``."""

from __future__ import annotations

import pytest

from bot.ai import make_player, play_hand
from bot.game import SYSTEM, Event, Match, NextHand
from bot.presets import presets


@pytest.mark.parametrize(
    "name", [pytest.param("standard", marks=pytest.mark.slow), "tournament", "one_deck"]
)
def test_views_equal_a_fresh_matchs(name: str) -> None:
    players = [make_player("normal") for _ in range(4)]
    checked = 0

    def compare(match: Match, events: list[Event]) -> None:
        nonlocal checked
        fresh = Match.from_dict(match.to_dict())
        for seat in (0, 1, 2, 3, None):
            assert match.view(seat) == fresh.view(seat)
        checked += 1

    match = Match.new(4, presets()[name][0])
    for _ in range(2):
        play_hand(match, players, on_events=compare)
        if match.phase == "over":
            break
        match.apply(SYSTEM, NextHand())
        compare(match, [])
    assert checked > 100
