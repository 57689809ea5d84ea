"""Driving a table of computer players: one hand from the deal to its score.

Used by the CLI's ``simulate`` and ``arena``, the benches and the tests. The
driver owns no game logic: it deals one card at a time as ``SYSTEM``, asks the
seat that just got a card whether it bids (and, after any bid, the other seats
whether they overcall), opens the bidding window after the last card until a full
round passes, then asks the dealer to bury and each seat in turn to play, always
through ``Match.apply``. An illegal action raises: the caller sees every bug.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.game import (
    SYSTEM,
    Action,
    Deal,
    Dealt,
    Declare,
    EndBidding,
    HandResult,
    Match,
    Phase,
)

from .baselines import GreedyPlayer, RandomPlayer
from .heuristic import HeuristicPlayer
from .player import Player

KINDS = ("ai", "greedy", "random")
_TURNS = (Phase.KITTY, Phase.PLAY)
_ALIASES = {"ai": "ai", "heuristic": "ai", "greedy": "greedy", "random": "random"}

Hook = Callable[[Match, int, Action], None]


def make_player(kind: str, seed: int | str = 0, *, strict: bool = False) -> Player:
    """A computer player by name: ``ai`` (alias ``heuristic``), ``greedy`` or ``random``.

    ``seed`` seeds the random player; ``strict`` makes the heuristic raise instead of
    falling back if it ever proposes an illegal move (for tests).
    """
    name = _ALIASES.get(kind.strip().lower())
    if name == "ai":
        return HeuristicPlayer(strict=strict)
    if name == "greedy":
        return GreedyPlayer()
    if name == "random":
        return RandomPlayer(seed)
    raise ValueError(f"unknown player {kind!r}: use one of {', '.join(KINDS)}")


@dataclass(frozen=True, slots=True)
class HandStats:
    """A finished hand's result and where the time went."""

    result: HandResult
    deal_seconds: float
    play_seconds: float  # kitty and tricks: the part the engine speed target is about
    plays: int


def play_hand(
    match: Match, players: Sequence[Player], *, on_action: Hook | None = None
) -> HandStats:
    """Play ``match``'s current hand to its score; ``players[seat]`` decides for ``seat``.

    ``on_action(match, seat, action)`` runs before each player action is applied (the
    soak test re-checks legality there against the real hand).
    """

    def apply(seat: int, action: Action) -> list:
        if on_action is not None:
            on_action(match, seat, action)
        return match.apply(seat, action)

    start = time.perf_counter()
    while match.phase == Phase.DEAL:
        kind, _ = match.expecting()
        if kind == "deal":
            events = match.apply(SYSTEM, Deal(1))
            for event in events:
                if isinstance(event, Dealt):
                    _ask_bids(match, players, [event.seat], apply)
        else:
            first = match.deal_start
            _ask_bids(match, players, [(first + i) % 4 for i in range(4)], apply)
            match.apply(SYSTEM, EndBidding())
    middle = time.perf_counter()
    plays = 0
    # the hot loop of every simulation: keep it lean (it is part of the speed figure)
    view, act = match.view, match.apply
    while match.phase in _TURNS:
        seat = match.to_act
        assert seat is not None
        action = players[seat].act(view(seat))
        if action is None:
            raise RuntimeError(f"{players[seat].name} at seat {seat} did not act")
        if on_action is not None:
            on_action(match, seat, action)
        act(seat, action)
        plays += 1
    end = time.perf_counter()
    assert match.result is not None
    return HandStats(match.result, middle - start, end - middle, plays)


def _ask_bids(
    match: Match, players: Sequence[Player], queue: list[int], apply: Callable[..., object]
) -> None:
    """Ask seats in ``queue`` whether they bid; after a bid, ask the other three again."""
    queue = list(queue)
    while queue:
        seat = queue.pop(0)
        action = players[seat].act(match.view(seat))
        if action is None:
            continue
        if not isinstance(action, Declare):
            raise RuntimeError(f"{players[seat].name} answered a bid question with {action!r}")
        apply(seat, action)
        queue = [(seat + i) % 4 for i in (1, 2, 3)]
