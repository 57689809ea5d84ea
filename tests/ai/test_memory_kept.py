"""A seat's card memory kept between its decisions is the memory read from scratch.

The heuristic player keeps its last ``Memory`` and the next one reads only the tricks
completed since; these tests compare every kept memory with ``Memory(view)`` read
from the view alone, through whole seeded hands, a player serving two tables at
once, and views that look alike but are not the same hand.

The whole hands run under the tournament preset (the standard play, its own bidding)
and with one and three decks; the standard preset's hands run with ``-m slow``.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.ai import HeuristicPlayer, Memory, RandomPlayer, play_hand
from bot.ai.seen import Seen
from bot.game import SYSTEM, Action, Match, NextHand, Phase, SeatView
from bot.presets import presets
from bot.rules import Trump
from bot.rules.units import placements

from .helpers import make_view, trick


def facts(mem: Memory) -> tuple[Any, ...]:
    """Everything a memory tells its player, dict orders included (they order samples)."""
    return (
        mem.seat,
        mem.order,
        mem.hand_sizes,
        mem.kitty_hidden,
        list(mem.unseen.items()),
        mem.void,
        mem.no_pairs,
        [list(k.items()) for k in mem.known],
        [(suit, list(cards.items())) for suit, cards in mem.by_suit.items()],
        mem.suit_count,
        mem.suit_points,
    )


class Checked:
    """A heuristic player whose kept memory is compared with a fresh one at each play."""

    def __init__(self, inner: HeuristicPlayer) -> None:
        self.inner = inner
        self.name = inner.name
        self.plays = 0
        # every kept memory with its facts as text when made: the later memories share
        # its sets and dicts, and must never change them
        self.made: list[tuple[Memory, str]] = []

    def act(self, view: SeatView) -> Action | None:
        action = self.inner.act(view)
        if view.expecting == "play" and view.to_act == view.seat:
            kept = self.inner.memory
            assert kept is not None
            assert facts(kept) == facts(Memory(view))
            self.made.append((kept, repr(facts(kept))))
            self.plays += 1
        return action

    def unchanged(self) -> bool:
        return all(repr(facts(mem)) == text for mem, text in self.made)


@pytest.mark.parametrize(
    "name",
    [pytest.param("standard", marks=pytest.mark.slow), "tournament", "three_decks", "one_deck"],
)
def test_kept_memory_is_the_memory_of_the_view(name: str, monkeypatch: Any) -> None:
    reads = []
    real = Seen.__init__

    def counted(self: Any, view: SeatView | None) -> None:
        if view is not None:  # None: a copy that ``follow`` fills, nothing read
            reads.append(view.seat)
        real(self, view)

    monkeypatch.setattr(Seen, "__init__", counted)
    rules = presets()[name][0]
    players = [Checked(HeuristicPlayer()) for _ in range(4)]
    match = Match.new(31, rules)
    hands = 3
    for _ in range(hands):
        play_hand(match, players)
        if match.phase is Phase.OVER:
            match = Match.new(32, rules)
        else:
            match.apply(SYSTEM, NextHand())
    plays = sum(p.plays for p in players)
    assert all(p.unchanged() for p in players)
    fresh = len(reads) - plays  # the checks' own Memory(view) read everything
    assert plays > 4 * hands * rules.hand_size // 2
    # read from the start once per seat and hand, then only the new tricks
    assert fresh == 4 * hands


class PlaysAtRandom:
    """Bids and buries as the heuristic does, plays at random: the same deal and bids
    as a heuristic table, other tricks."""

    name = "mixed"

    def __init__(self, seed: str) -> None:
        self.heuristic = HeuristicPlayer()
        self.random = RandomPlayer(seed)

    def act(self, view: SeatView) -> Action | None:
        player = self.random if view.expecting == "play" else self.heuristic
        return player.act(view)


def seat0_plays(match: Match, others: list[Any]) -> list[SeatView]:
    """Seat 0's play views through one hand (seat 0 played by the heuristic)."""
    views: list[SeatView] = []

    def record(m: Match, seat: int, action: Action) -> None:
        if seat == 0 and m.phase is Phase.PLAY:
            views.append(m.view(0))

    play_hand(match, [HeuristicPlayer(), *others], on_action=record)
    return views


def test_one_player_serving_several_tables_never_mixes_them() -> None:
    """One player (as ``suggest``'s) asked by three tables in turn: two from the same
    deal and bids whose tricks part ways, and one from another deal."""
    tables = [
        seat0_plays(Match.new(7), [HeuristicPlayer() for _ in range(3)]),
        seat0_plays(Match.new(7), [PlaysAtRandom(f"r{s}") for s in range(3)]),
        seat0_plays(Match.new(8), [HeuristicPlayer() for _ in range(3)]),
    ]
    assert tables[0][0].bids == tables[1][0].bids
    assert tables[0][-1].tricks[:3] != tables[1][-1].tricks[:3]
    shared = HeuristicPlayer()
    checked = 0
    for turn in range(max(len(views) for views in tables)):
        for views in tables:
            if turn < len(views):
                shared.act(views[turn])
                assert shared.memory is not None
                assert facts(shared.memory) == facts(Memory(views[turn]))
                checked += 1
    assert checked >= 60


def test_a_view_with_another_hand_is_read_again() -> None:
    """Same seat, hand number, trump, bids and tricks: only the hands differ."""
    history = [trick(1, ["3S", "4S", "5S", "6S"], Trump("2", "H"))]
    first = make_view(1, "KS 3D", leader=1, tricks=history)
    kept = Memory(first)
    other = make_view(1, "QS 4D", leader=1, tricks=history)
    assert facts(Memory(other, kept)) == facts(Memory(other))
    assert facts(Memory(other, kept)) != facts(kept)
    # and the same view again takes the kept start as it is
    again = Memory(first, kept)
    assert again._seen is kept._seen
    assert facts(again) == facts(kept)


def test_boss_singles_and_pairs_as_the_placements_say() -> None:
    """``is_boss``'s short answer for a single or a pair is the placements' answer."""
    views: list[SeatView] = []
    for seed, rules in ((41, presets()["standard"][0]), (42, presets()["three_decks"][0])):

        def record(m: Match, seat: int, action: Action) -> None:
            if m.phase is Phase.PLAY:
                views.append(m.view(seat))

        play_hand(Match.new(seed, rules), [HeuristicPlayer() for _ in range(4)], on_action=record)
    checked = 0
    for view in views[::3]:
        mem = Memory(view)
        order = mem.order
        for card in set(view.hand) | set(mem.unseen):
            for width in (1, 2):
                pool = mem.by_suit[order.suit_of[card]]
                top = next(placements(order, order.suit_of[card], pool, (width, 1)), None)
                expected = top is None or order.tier[top[-1]] <= order.tier[card]
                assert mem.is_boss([card] * width) == expected
                checked += 1
    assert checked > 5000


def test_kept_memory_through_failed_throws() -> None:
    """Against players who throw at random (a failed throw shows the cards taken back),
    the kept memory of every seat still is the memory of its view, bids' shown cards
    and throws' together."""
    players = [Checked(HeuristicPlayer()), *[PlaysAtRandom(f"t{s}") for s in range(3)]]
    failed = 0
    for seed in (46, 47, 48):  # deals where a random throw fails
        match = Match.new(seed)
        play_hand(match, players)
        failed += sum(1 for t in match.tricks if t.attempted is not None)
    assert failed >= 3
    assert players[0].plays > 30
