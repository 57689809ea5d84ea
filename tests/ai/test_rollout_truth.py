"""The real-deal screen of the play-outs (``bot.ai.truth``, run by ``bench.rollout_truth``):
its records hold what each candidate is really worth, and the screen scores a perfect
predictor as one.

The default run makes the hand's first three records (its first lead among them);
``-m slow`` runs the tests again on four."""

from __future__ import annotations

import json

import pytest

from bot.ai import truth
from bot.ai.heuristic import HeuristicPlayer
from bot.game import Match, Play
from bot.rules import Card, parse_cards


@pytest.fixture(scope="module", params=[3, pytest.param(4, marks=pytest.mark.slow)])
def limit(request: pytest.FixtureRequest) -> int:
    return int(request.param)


@pytest.fixture(scope="module")
def records(limit: int) -> list[truth.Record]:
    return truth.make(seed=5, deals=1, limit=limit)


def _heuristic(match: Match, seat: int, candidates: list[tuple[Card, ...]]) -> list[float]:
    """The truth itself: each candidate continued by four heuristics."""
    values = []
    for cand in candidates:
        after = Match.from_dict(match.to_dict())
        after.apply(seat, Play(cand))
        truth.finish(after, HeuristicPlayer())
        values.append(truth.value(after, seat))
    return values


def test_records_hold_each_candidates_real_worth(records: list[truth.Record], limit: int) -> None:
    assert len(records) == limit
    for record in records:
        candidates = record["candidates"]
        assert isinstance(candidates, list) and 2 <= len(candidates) <= 4
        real = record["truth"]
        assert isinstance(real, list) and len(real) == len(candidates)
        match = Match.from_dict(record["state"])  # type: ignore[arg-type]
        seat = record["seat"]
        assert isinstance(seat, int)
        assert _heuristic(match, seat, [tuple(parse_cards(c)) for c in candidates]) == real


def test_the_screen_scores_the_truth_one_and_the_play_outs_by_kind(
    records: list[truth.Record],
) -> None:
    exact = truth.screen(records, _heuristic)
    n = sum(len(r["candidates"]) - 1 for r in records)  # type: ignore[arg-type, misc]
    assert exact["all"][0] == n and exact["all"][1] == pytest.approx(1.0)
    fast = truth.screen(records)
    assert fast["all"][0] == n and -1.0 <= fast["all"][1] <= 1.0
    assert set(fast) == set(exact) and "lead >12" in fast  # the hand's first lead
    # a record goes to a file as one JSON line and screens the same read back
    read = [json.loads(json.dumps(r)) for r in records]
    assert truth.screen(read) == fast


def test_overrules_count_the_searchs_picks_and_their_real_gains(
    records: list[truth.Record],
) -> None:
    """Per side and margin, what the expert's search overrules and what that really gains:
    a margin no gain can pass overrules nothing, and a lower one never overrules less."""
    found = truth.overrules(records, worlds=8, margins=[0.0, 2.0, 1e9])
    sides = {side for side, _ in found}
    assert sides <= {"dealer", "attackers"} and sides
    total = 0
    for side in sides:
        loose, strict, never = (found[side, m] for m in (0.0, 2.0, 1e9))
        assert never == (0, 0.0)
        assert loose[0] >= strict[0]
        total += found[side, 0.0][0]
    assert total <= len(records)
