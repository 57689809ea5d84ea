"""Driving a table of computer players: one hand from the deal to its score.

Used by the CLI's ``simulate`` and ``arena``, the benches and the tests. It owns no
game logic and no procedure of its own: ``bot.game.driver`` says what comes next
(deal a card, ask a seat to bid, close the bidding, whose turn it is) and the
players answer, always through ``Match.apply``. An illegal action raises: the
caller sees every bug.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.game import SYSTEM, Action, Event, HandResult, Match, Phase
from bot.game.driver import Driver
from bot.game.phase import PLAY

from .player import Player

_TURNS = (Phase.KITTY, Phase.OVERCALL, Phase.PLAY)

Hook = Callable[[Match, int, Action], None]
EventHook = Callable[[Match, list[Event]], None]


@dataclass(frozen=True, slots=True)
class HandStats:
    """A finished hand's result and where the time went."""

    result: HandResult
    deal_seconds: float
    play_seconds: float  # kitty and tricks: the part the engine speed target is about
    plays: int


def play_hand(
    match: Match,
    players: Sequence[Player],
    *,
    on_action: Hook | None = None,
    on_events: EventHook | None = None,
) -> HandStats:
    """Play ``match``'s current hand to its score; ``players[seat]`` decides for ``seat``.

    The deal and the bids follow the table procedure of ``bot.game.driver``, one
    card at a time. ``on_action(match, seat, action)`` runs before each player
    action is applied (the soak test re-checks legality there against the real hand);
    ``on_events(match, events)`` after every accepted action, the table's too.
    """
    driver = Driver(match)
    deciders = [player.act for player in players]
    start = time.perf_counter()
    while match.phase is Phase.DEAL:
        step = driver.next_action(deciders)
        assert step is not None
        who, move = step
        if on_action is not None and who != SYSTEM:
            on_action(match, who, move)
        events = match.apply(who, move)
        if on_events is not None:
            on_events(match, events)
        driver.observe(events)
    middle = time.perf_counter()
    plays = 0
    # the hot loop of every simulation: the driver's ``Turn`` steps (the seat to act
    # acts) without building them, as it is part of the speed figure
    view, act = match.view, match.apply
    while match.phase in _TURNS:
        if match.phase is PLAY and match.leader is not None:  # ``to_act``, inlined
            seat: int | None = (match.leader + len(match.trick)) % 4
        else:
            seat = match.to_act
        assert seat is not None
        action = players[seat].act(view(seat))
        if action is None:
            raise RuntimeError(f"{players[seat].name} at seat {seat} did not act")
        if on_action is not None:
            on_action(match, seat, action)
        events = act(seat, action)
        if on_events is not None:
            on_events(match, events)
        plays += 1
    end = time.perf_counter()
    assert match.result is not None
    return HandStats(match.result, middle - start, end - middle, plays)
