"""The bracket: draw, byes, match winners, ranking and tie-breaks, advancing, podium."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournament import (
    BracketError,
    Entrant,
    Outcome,
    TeamScore,
    Tournament,
    draw,
    match_winner,
    pair,
    plan,
)


def teams(n: int) -> list[Entrant]:
    return [Entrant(f"T{i}", (f"p{i}a", f"p{i}b")) for i in range(n)]


def outcome(a: TeamScore, b: TeamScore, deal_team: int = 0) -> Outcome:
    return Outcome((a, b), deal_team, hands=3)


# --- the match winner rule -------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "deal_team", "winner"),
    [
        (TeamScore("K"), TeamScore("A", outright=True), 0, 1),  # outright beats a level
        (TeamScore("A", outright=True), TeamScore("A"), 1, 0),  # outright beats the deal
        (TeamScore("9"), TeamScore("T"), 0, 1),  # T above 9 (not string order)
        (TeamScore("K"), TeamScore("5"), 1, 0),  # higher level beats the deal
        (TeamScore("7"), TeamScore("7"), 1, 1),  # equal: the team holding the deal
        (TeamScore("7"), TeamScore("7"), 0, 0),
    ],
)
def test_match_winner(a: TeamScore, b: TeamScore, deal_team: int, winner: int) -> None:
    assert match_winner(outcome(a, b, deal_team)) == winner


# --- the draw and pairing ----------------------------------------------------------------


def test_draw_is_rechecked_from_the_seed() -> None:
    assert draw(16, "abc") == draw(16, "abc")
    assert draw(16, "abc") != draw(16, "abd")
    assert sorted(draw(16, "abc")) == list(range(16))


def test_pairing_best_against_worst_and_bye_to_the_best() -> None:
    assert pair([5, 1, 2, 3]) == [(5, 3), (1, 2)]
    assert pair([5, 1, 2, 3, 4]) == [(5,), (1, 4), (2, 3)]


def test_bye_is_a_win_at_level_two() -> None:
    t = Tournament(teams(3), "s", podium_size=3)
    first = t.start()
    bye = next(g for g in first.games if g.bye)
    assert bye.outcome is not None and bye.winner == bye.teams[0]
    assert bye.score_of(bye.teams[0]) == TeamScore("2")


def _played(t: Tournament, level: str = "5") -> None:
    """Every match of the current round: its first team wins at ``level``."""
    current = t.current
    assert current is not None
    for game in current.games:
        if game.outcome is None:
            t.record(
                current.number, game.index, outcome(TeamScore(level, gained=3), TeamScore("2"))
            )


def test_a_first_round_bye_goes_on_though_every_winner_ranks_above_it() -> None:
    """17 teams, eight go on: the bye (轮空) ranked ninth of nine winners, at level 2, and
    its team was out without having played."""
    t = Tournament(teams(17), "s", advance=8, podium_size=3)
    (bye,) = [g for g in t.start().games if g.bye]
    _played(t)
    assert t.winners(t.rounds[0])[-1] == bye.teams[0]  # ranked on level 2, nothing gained
    going = t.advancing(t.rounds[0])
    assert len(going) == 8 and bye.teams[0] in going
    second = t.close_round()
    assert second is not None and bye.teams[0] in second.teams


def test_a_later_bye_is_ranked_on_the_match_that_earned_it() -> None:
    """14 teams: the best of round 1 gets round 2's bye. Ranked at level 2 there, it came
    fourth of four winners, off the podium without having lost a match."""
    t = Tournament(teams(14), "s", advance=8, podium_size=3)
    first = t.start()
    best = first.games[0].teams[0]
    t.record(1, 0, outcome(TeamScore("K", gained=11), TeamScore("2")))
    _played(t)
    t.close_round()
    final = t.current
    assert final is not None and t.total_rounds == 2
    (bye,) = [g for g in final.games if g.bye]
    assert bye.teams[0] == best
    assert t.standing(bye, best) == TeamScore("K", gained=11)
    assert bye.score_of(best) == TeamScore("2")  # what it played there: nothing
    _played(t)
    assert t.close_round() is None
    assert t.podium is not None and t.podium[0] == best


# --- rounds ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entrants", "advance", "podium", "sizes"),
    [
        (16, 8, 3, [16, 8]),  # seed 000: top eight of the winners, four matches, top three
        (64, 8, 3, [64, 8]),
        (10, 8, 3, [10, 5]),  # five go on (one bye), their three winners are the podium
        (16, 8, 1, [16, 8, 4, 2]),  # a single champion: down to a final
        (2, 8, 3, [2]),
        (5, 8, 3, [5]),
    ],
)
def test_plan(entrants: int, advance: int, podium: int, sizes: list[int]) -> None:
    assert plan(entrants, advance, podium) == sizes


@pytest.mark.parametrize(("n", "advance", "podium"), [(1, 8, 3), (4, 1, 3), (4, 8, 0)])
def test_plan_refuses_nonsense(n: int, advance: int, podium: int) -> None:
    with pytest.raises(BracketError):
        plan(n, advance, podium)


def test_duplicate_team_names_refused() -> None:
    with pytest.raises(BracketError, match="same name"):
        Tournament([Entrant("Aces"), Entrant("aces")], "s")


# --- ranking and tie-breaks ----------------------------------------------------------------


def ranked_round(scores: list[tuple[TeamScore, TeamScore, int]]) -> Tournament:
    t = Tournament(teams(2 * len(scores)), "seed", advance=2, podium_size=1)
    t.start()
    assert t.current is not None
    for game, (a, b, deal) in zip(t.current.games, scores, strict=True):
        t.record(1, game.index, outcome(a, b, deal))
    return t


def test_winners_ranked_by_level_then_gained_then_points_then_draw() -> None:
    t = ranked_round(
        [
            (TeamScore("9", gained=7), TeamScore("3"), 0),  # g0: level 9, 7 gained
            (TeamScore("9", gained=9), TeamScore("2"), 0),  # g1: level 9, 9 gained (past A)
            (TeamScore("9", gained=7, attack_points=300, attack_hands=3), TeamScore("2"), 0),
            (TeamScore("2"), TeamScore("K"), 0),  # g3: the second team at K
            (TeamScore("9", gained=7), TeamScore("4"), 0),  # g4: ties g0 but for the draw
            (TeamScore("A", outright=True), TeamScore("A"), 1),  # g5: outright at A
        ]
    )
    games = t.rounds[0].games
    w = [g.winner for g in games]
    position = {team: t.order.index(team) for team in w}
    tied = sorted([w[0], w[4]], key=position.__getitem__)
    assert t.winners(t.rounds[0]) == [w[5], w[3], w[1], w[2], *tied]
    ranking = t.ranking(t.rounds[0])
    assert ranking[:6] == t.winners(t.rounds[0])
    assert ranking[6] == games[5].teams[1]  # the best loser: at A, beaten outright


def test_record_refuses_twice_and_after_the_round() -> None:
    t = Tournament(teams(4), "s", podium_size=1)
    t.start()
    t.record(1, 0, outcome(TeamScore("3"), TeamScore("2")))
    with pytest.raises(BracketError, match="already"):
        t.record(1, 0, outcome(TeamScore("3"), TeamScore("2")))
    with pytest.raises(BracketError, match="still being played"):
        t.close_round()
    with pytest.raises(BracketError, match="no match"):
        t.record(1, 7, outcome(TeamScore("3"), TeamScore("2")))


def test_seed_000_sixteen_teams() -> None:
    t = Tournament(teams(16), "000", advance=8, podium_size=3)
    play_out(t, random.Random(0))
    assert [len(r.games) for r in t.rounds] == [8, 4]
    assert t.podium is not None and len(t.podium) == 3
    assert set(t.podium) <= {g.winner for g in t.rounds[1].games}


def test_round_trip_through_json() -> None:
    t = Tournament(teams(7), "x", advance=4, podium_size=2)
    t.start()
    t.record(1, 1, outcome(TeamScore("5", gained=3), TeamScore("2"), 1))
    again = Tournament.from_dict(t.to_dict())
    assert again.to_dict() == t.to_dict()
    assert again.rounds[0].games[1].winner == t.rounds[0].games[1].winner


# --- properties for 2-64 teams ---------------------------------------------------------------


def random_outcome(rng: random.Random) -> Outcome:
    def score() -> TeamScore:
        level = rng.choice("23456789TJQKA")
        hands = rng.randint(0, 6)
        return TeamScore(level, False, rng.randint(0, 14), rng.randint(0, 100) * hands, hands)

    a, b = score(), score()
    if rng.random() < 0.1:
        a = TeamScore("A", True, 12, a.attack_points, a.attack_hands)
    return outcome(a, b, rng.randint(0, 1))


def play_out(t: Tournament, rng: random.Random) -> None:
    t.start()
    while True:
        current = t.current
        assert current is not None
        for game in current.games:
            if game.outcome is None:
                t.record(current.number, game.index, random_outcome(rng))
        if t.close_round() is None:
            return


@given(
    n=st.integers(2, 64),
    advance=st.integers(2, 16),
    podium=st.integers(1, 8),
    seed=st.text(max_size=8),
    outcomes=st.integers(0, 2**32),
)
def test_every_entrant_once_per_round_and_a_full_podium(
    n: int, advance: int, podium: int, seed: str, outcomes: int
) -> None:
    t = Tournament(teams(n), seed, advance=advance, podium_size=podium)
    play_out(t, random.Random(outcomes))
    assert len(t.rounds) == t.total_rounds
    still_in = set(range(n))
    for round_, size in zip(t.rounds, t.sizes, strict=True):
        appearances = round_.teams
        assert len(appearances) == len(set(appearances)) == size
        assert set(appearances) == still_in  # everyone not eliminated plays, exactly once
        assert all(len(g.teams) == 2 for g in round_.games if not g.bye)
        assert sum(g.bye for g in round_.games) == size % 2
        winners = t.winners(round_)
        assert sorted(winners) == sorted(g.winner for g in round_.games)
        going = t.advancing(round_)
        assert set(going) <= set(winners) and len(going) == min(advance, len(winners))
        assert all(g.teams[0] in going for g in round_.games if g.bye)  # 轮空 goes on
        still_in = set(going)
    assert t.podium is not None
    assert len(t.podium) == len(set(t.podium)) == min(podium, n)
    assert set(t.podium) <= set(t.rounds[-1].teams)
    assert Tournament.from_dict(t.to_dict()).to_dict() == t.to_dict()
