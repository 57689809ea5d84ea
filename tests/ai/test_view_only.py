"""Computer players decide from the view alone: hidden cards cannot change a decision."""

from __future__ import annotations

import contextlib
import random

import pytest

from bot.ai import GreedyPlayer, HeuristicPlayer, make_player, play_hand
from bot.game import Bury, Match, Phase, Play
from bot.rules import format_cards, parse_cards


def _reshuffled(match: Match, seat: int, rng: random.Random) -> Match:
    """The same match with everything ``seat`` cannot see dealt around differently."""
    data = match.to_dict()
    hidden_seats = [s for s in range(4) if s != seat]
    pool = [c for s in hidden_seats for c in parse_cards(data["hands"][s])]
    kitty_hidden = not (seat == match.dealer and match.phase in (Phase.KITTY, Phase.PLAY))
    if kitty_hidden and match.phase == Phase.PLAY:
        pool += parse_cards(data["kitty"])
    rng.shuffle(pool)
    for s in hidden_seats:
        size = len(match.hands[s])
        data["hands"][s] = format_cards(pool[:size])
        pool = pool[size:]
    if kitty_hidden and match.phase == Phase.PLAY:
        data["kitty"] = format_cards(pool)
    return Match.from_dict(data)


class _Stop(Exception):
    pass


def _checkpoint(seed: int, stop_after: int) -> Match:
    """A match stopped before its ``stop_after``-th burial or play (0: the burial)."""
    match = Match.new(seed)
    count = 0

    def hook(m: Match, seat: int, action: object) -> None:
        nonlocal count
        if isinstance(action, Bury | Play):
            if count == stop_after:
                raise _Stop
            count += 1

    with contextlib.suppress(_Stop):
        play_hand(match, [make_player("ai") for _ in range(4)], on_action=hook)
    return match


@pytest.mark.parametrize(
    ("seed", "stop_after"), [(1, 0), (2, 1), (3, 2), (4, 37), (5, 62), (6, 75), (7, 60)]
)
def test_decisions_ignore_hidden_cards(seed: int, stop_after: int) -> None:
    match = _checkpoint(seed, stop_after)
    _, seat = match.expecting()
    assert seat is not None and seat >= 0
    view = match.view(seat)
    rng = random.Random(seed)
    for player in (HeuristicPlayer(), GreedyPlayer()):
        decision = player.act(view)
        for _ in range(3):
            other = _reshuffled(match, seat, rng)
            assert other.view(seat) == view
            hidden = {c for s in range(4) if s != seat for c in match.hands[s]}
            if len(hidden) > 1:
                assert other.hands != match.hands
            assert player.act(other.view(seat)) == decision


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_endgame_sampling_ignores_hidden_cards(seed: int) -> None:
    """The last-cards sampler draws its worlds from the view, seeded by the view."""
    match = Match.new(seed)

    def hook(m: Match, seat: int, action: object) -> None:
        if isinstance(action, Play) and len(m.hands[seat]) <= 3 and len(m.hands[seat]) > 1:
            raise _Stop

    with contextlib.suppress(_Stop):
        play_hand(match, [make_player("ai") for _ in range(4)], on_action=hook)
    _, seat = match.expecting()
    assert seat is not None and seat >= 0 and len(match.hands[seat]) <= 3
    view = match.view(seat)
    decision = HeuristicPlayer().act(view)
    rng = random.Random(seed)
    for _ in range(3):
        other = _reshuffled(match, seat, rng)
        assert other.view(seat) == view
        assert HeuristicPlayer().act(other.view(seat)) == decision
