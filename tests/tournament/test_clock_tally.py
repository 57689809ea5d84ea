"""The round clock (pause, extend, expiry) and a match's tally from real hands."""

from __future__ import annotations

import dataclasses

import pytest

from bot.ai import make_player, play_hand
from bot.game import SYSTEM, Match, NextHand
from bot.rules import LEVELS
from bot.tournament import ClockError, RoundClock, Tally, Tournament, match_winner
from bot.tournament.bracket import Entrant
from bot.tournament.cup import Cup


def test_clock_runs_pauses_and_extends() -> None:
    clock = RoundClock(5400).start(1000.0)
    assert clock.deadline() == 6400.0 and clock.remaining(2000.0) == 4400.0
    paused = clock.pause(2000.0)
    assert paused.deadline() is None and paused.remaining(9000.0) == 4400.0
    assert not paused.expired(9000.0)
    resumed = paused.resume(2600.0)
    assert resumed.deadline() == 7000.0
    longer = resumed.extend(600, 3000.0)
    assert longer.deadline() == 7600.0
    assert not longer.expired(7599.0) and longer.expired(7600.0)
    assert RoundClock.from_dict(longer.to_dict()) == longer


def test_clock_refuses_nonsense() -> None:
    clock = RoundClock(60)
    with pytest.raises(ClockError, match="not started"):
        clock.pause(0.0)
    clock = clock.start(0.0)
    with pytest.raises(ClockError, match="not paused"):
        clock.resume(1.0)
    with pytest.raises(ClockError, match="already paused"):
        clock.pause(1.0).pause(2.0)
    with pytest.raises(ClockError, match="time is already up"):
        clock.extend(60, 61.0)
    with pytest.raises(ClockError, match="positive"):
        clock.extend(0, 1.0)
    assert not RoundClock(60).expired(10**9)  # a clock that never started never runs out


def test_tally_follows_real_hands() -> None:
    match = Match.new(7)
    players = [make_player("ai") for _ in range(4)]
    tally = Tally()
    for _ in range(4):
        result = play_hand(match, players).result
        tally.add(result)
        if match.result is not None and match.result.match_winner is not None:
            break
        match.apply(SYSTEM, NextHand())
    assert tally.hands >= 1 and tally.levels == list(match.levels)
    assert sum(tally.attack_hands) == tally.hands
    out = tally.outcome()
    side = match_winner(out)
    levels = [LEVELS.index(x) for x in match.levels]
    if levels[0] != levels[1]:
        assert levels[side] > levels[1 - side]
    else:
        assert side == tally.deal_team
    assert Tally.from_dict(tally.to_dict()) == tally
    t = Tournament([Entrant("a"), Entrant("b")], "s", podium_size=2)
    t.start()
    t.record(1, 0, out)
    assert t.close_round() is None and t.podium is not None and len(t.podium) == 2


@pytest.mark.parametrize(
    ("points", "cap", "counted"),
    [
        (1600, 200, 200),  # a 64-fold kitty: over the cap counts as the cap (seed 002)
        (1600, None, 1600),  # no cap: the points as scored
        (150, 200, 150),  # under the cap: as scored
    ],
)
def test_tally_counts_attacking_points_as_the_rules_cap_them(
    points: int, cap: int | None, counted: int
) -> None:
    match = Match.new(7)
    result = play_hand(match, [make_player("ai") for _ in range(4)]).result
    tally = Tally()
    tally.add(dataclasses.replace(result, attacker_points=points), cap)
    assert sum(tally.attack_points) == counted and sum(tally.attack_hands) == 1


def test_a_tournaments_matches_count_points_under_its_presets_cap() -> None:
    cup = Cup(1, 2, 3, 4, "Night Cup", "seed")
    assert cup.preset == "tournament" and cup.rules.points_cap == 200
