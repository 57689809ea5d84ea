"""The expert's base policy (``expert_policy``): scripted situations, one case a line."""

from __future__ import annotations

import pytest

from bot.ai import ExpertPlayer
from bot.ai.context import Context
from bot.ai.expert_policy import HOLD_COST, hold_cost, ranked_candidates
from bot.ai.heuristic import ranked_candidates as heuristic_ranked
from bot.game import Play
from bot.rules import format_cards, parse_cards

from .test_view_only import _checkpoint


@pytest.mark.parametrize(
    ("seed", "stop_after", "heuristic_leads", "expert_leads"),
    [
        (12, 37, "BJ", "6H"),  # 13 cards: the big joker held, a side card led instead
        (24, 37, "SJ", "3H"),  # 15 cards: the small joker held the same way
        (26, 45, "BJ", "2S"),  # 12 cards, both jokers the heuristic's best: a level card
        (15, 57, "BJ", "9D"),  # 8 cards: still above HOLD_CARDS
        (6, 69, "SJ", "2S"),  # 4 cards: the same (until 1 Dec the joker went from 6 cards)
    ],
)
def test_jokers_are_held_back_from_early_leads(
    seed: int, stop_after: int, heuristic_leads: str, expert_leads: str
) -> None:
    match = _checkpoint(seed, stop_after)
    _, seat = match.expecting()
    assert seat is not None and seat >= 0
    view = match.view(seat)
    assert format_cards(heuristic_ranked(Context(view))[0]) == heuristic_leads
    ranked = ranked_candidates(Context(view))
    assert format_cards(ranked[0]) == expert_leads
    # the joker is still a candidate (the search may prefer it), only no longer first
    assert tuple(parse_cards(heuristic_leads)) in ranked
    # without time to search the expert plays its base policy's first
    assert ExpertPlayer(0).act(view) == Play(tuple(parse_cards(expert_leads)))


@pytest.mark.parametrize(
    ("seed", "stop_after"),
    [
        (8, 73),  # a lead from 2 cards, both big jokers: the heuristic's ranking
        (11, 73),  # a lead from 2 cards holding the big joker: the same
        (3, 3),  # a follow from 25 cards: follows are the heuristic's
        (3, 19),  # a follow from 18 cards: the same
    ],
)
def test_late_leads_and_follows_are_the_heuristics(seed: int, stop_after: int) -> None:
    match = _checkpoint(seed, stop_after)
    _, seat = match.expecting()
    assert seat is not None and seat >= 0
    view = match.view(seat)
    assert ranked_candidates(Context(view)) == heuristic_ranked(Context(view))


@pytest.mark.parametrize(
    ("lead", "cost"),
    [
        ("BJ", HOLD_COST),  # a big joker led from 13 cards
        ("SJ SJ", HOLD_COST),  # a pair of small jokers: the same, once
        ("6H", 0.0),  # a side card costs nothing extra
        ("2S", 0.0),  # nor does a level card (measured: holding those back gained nothing)
    ],
)
def test_hold_cost_of_a_lead_from_a_long_hand(lead: str, cost: float) -> None:
    match = _checkpoint(12, 37)
    _, seat = match.expecting()
    ctx = Context(match.view(seat or 0))
    assert ctx.left == 13
    assert hold_cost(ctx, parse_cards(lead)) == cost


def test_no_hold_cost_from_a_short_hand() -> None:
    match = _checkpoint(10, 77)  # 2 cards: the small jokers
    _, seat = match.expecting()
    ctx = Context(match.view(seat or 0))
    assert ctx.left == 2 and hold_cost(ctx, parse_cards("SJ SJ")) == 0.0
