"""The expert's search without waste: kept memory, hands left as sampled, deals that fit.

Work on the expert's speed must not change a decision with a fixed number of samples;
these tests compare the fast paths with the plain ones on seeded hands.

With ``-m slow`` the kept memory is also compared under the tournament preset, and the
checked deals on two more midgame positions; the default run keeps the standard preset
and an early, a late and a last-tricks position (a hidden kitty, voids and seats shown
to hold no pair among them).
"""

from __future__ import annotations

import random

import pytest

from bot.ai import ExpertPlayer, HeuristicPlayer, Memory, play_hand, playout
from bot.ai import sampler as sampler_module
from bot.ai.context import Context
from bot.ai.expert import ranked_candidates, search
from bot.ai.sampler import Sampler
from bot.game import Action, Match, SeatView
from bot.presets import presets

from .test_memory_kept import facts
from .test_view_only import _checkpoint


class Compared:
    """An expert with its kept memory whose every play is also decided from scratch."""

    def __init__(self) -> None:
        self.inner = ExpertPlayer(60_000, worlds=8)
        self.name = self.inner.name
        self.plays = 0
        self.kept = 0

    def act(self, view: SeatView) -> Action | None:
        playing = view.expecting == "play" and view.to_act == view.seat
        self.kept += playing and self.inner.memory is not None
        action = self.inner.act(view)
        if playing:
            assert self.inner.memory is not None
            assert facts(self.inner.memory) == facts(Memory(view))
            assert ExpertPlayer(60_000, worlds=8).act(view) == action
            self.plays += 1
        return action


@pytest.mark.parametrize("name", ["standard", pytest.param("tournament", marks=pytest.mark.slow)])
def test_an_expert_keeping_its_memory_decides_as_from_scratch(name: str) -> None:
    experts = [Compared(), Compared()]
    match = Match.new(3, presets()[name][0])
    play_hand(match, [experts[0], HeuristicPlayer(), experts[1], HeuristicPlayer()])
    assert match.phase != "play"
    for player in experts:
        assert player.plays >= 15  # plays of several cards make fewer than 25
        assert player.kept >= player.plays - 1  # every play after its first reused memory


def test_play_outs_leave_the_sampled_hands_as_they_were() -> None:
    """Every candidate (a throw and a tractor among them) is played on the same deal."""
    for seed, stop in [(2, 1), (4, 36), (6, 81)]:
        match = _checkpoint(seed, stop)
        _, seat = match.expecting()
        ctx = Context(match.view(seat))
        candidates = ranked_candidates(ctx)[:6]
        world = Sampler(ctx).sample(random.Random(seed))
        assert world is not None
        hands, kitty = world
        before = [list(h) for h in hands]
        ready = playout.deal(ctx, hands)
        for cand in candidates:
            alone = playout.outcome(ctx, [list(h) for h in before], kitty, cand)
            assert playout.outcome(ctx, hands, kitty, cand, ready) == alone
        assert hands == before


def _fits(ctx: Context, hands: list[list]) -> None:
    """A deal keeps the seat's hand, every hand's size and every shown void."""
    seat = ctx.seat
    assert sorted(map(str, hands[seat])) == sorted(map(str, ctx.view.hand))
    for s in range(4):
        assert len(hands[s]) == ctx.view.hand_sizes[s]
        if s != seat:
            assert not {ctx.order.suit_of[c] for c in hands[s]} & ctx.mem.void[s]


def test_a_deal_that_strands_a_suit_is_dealt_again_with_the_voids_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seed 9, seat 1 with five cards: three suits that may each go to two of the three
    other seats (voids shown); quick deals often fill one seat too early and strand a
    suit, which ended the search (the heuristic played)."""
    match = _checkpoint(9, 58)
    _, seat = match.expecting()
    ctx = Context(match.view(seat))
    sampler = Sampler(ctx)
    quick = Sampler._deal_checked
    monkeypatch.setattr(Sampler, "_deal_checked", lambda self, rng: None)
    rng = random.Random(1)
    stranded = sum(sampler.sample(rng) is None for _ in range(60))
    assert stranded >= 5
    monkeypatch.setattr(Sampler, "_deal_checked", quick)
    rng = random.Random(1)
    for _ in range(60):
        world = sampler.sample(rng)
        assert world is not None
        _fits(ctx, world[0])
    values = search(ctx, ranked_candidates(ctx)[:4], float("inf"), worlds=30)
    assert values is not None and len(values[0]) == 30


@pytest.mark.parametrize(
    ("seed", "stop"),
    [
        pytest.param(1, 30, marks=pytest.mark.slow),
        (4, 20),  # early: the kitty hidden, nothing shown yet
        pytest.param(4, 36, marks=pytest.mark.slow),
        (9, 58),  # the kitty known (seat 1 dealt), voids in three suits
        (14, 70),  # three cards a hand: the kitty hidden, voids and no pairs everywhere
    ],
)
def test_checked_deals_keep_what_the_seat_knows(
    monkeypatch: pytest.MonkeyPatch, seed: int, stop: int
) -> None:
    """Every deal by the checked path (no quick tries), hidden kitty included."""
    monkeypatch.setattr(sampler_module, "DEAL_TRIES", 0)
    match = _checkpoint(seed, stop)
    _, seat = match.expecting()
    ctx = Context(match.view(seat))
    sampler = Sampler(ctx)
    rng = random.Random(seed)
    for _ in range(30):
        world = sampler.sample(rng)
        assert world is not None
        _fits(ctx, world[0])


def test_each_search_tells_how_it_went() -> None:
    """What ``bench.ai_bench`` reports: samples, the time before them, what ended it."""
    match = _checkpoint(2, 1)
    _, seat = match.expecting()
    view = match.view(seat)
    full = ExpertPlayer(60_000, worlds=12)
    idle = ExpertPlayer(0)
    for player in (full, idle):
        player.traces = []
        player.act(view)
    [searched] = full.traces or []
    assert searched.ended in ("samples", "race") and not searched.too_few
    assert searched.samples == 12 or (searched.ended == "race" and searched.samples >= 4)
    assert 0 <= searched.setup_ms < 60_000
    [timed_out] = idle.traces or []
    assert (timed_out.ended, timed_out.samples, timed_out.too_few) == ("time", 0, True)
